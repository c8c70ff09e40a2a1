// What counts as the API's answer "no such transaction": only a refusal of the request (a 4xx), never a
// rate limit, a transport failure or a 5xx. A batch or a reconciliation that read a 429 as "absent" would
// send a paid row again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRefusal } from '../src/transfers/lookup.js';
import { ApiError, TransportError } from '../src/errors.js';

describe('isRefusal', () => {
  it('is true for a 4xx answer only, and never for a 429', () => {
    assert.equal(isRefusal(new ApiError('no such reference', { status: 400 })), true);
    assert.equal(isRefusal(new ApiError('not found', { status: 404 })), true);
    assert.equal(isRefusal(new ApiError('too many requests', { status: 429 })), false);
    assert.equal(isRefusal(new ApiError('bad gateway', { status: 502 })), false);
    assert.equal(isRefusal(new ApiError('no status')), false);
    assert.equal(isRefusal(new TransportError('bad-gateway', 'HTML page', { status: 403 })), false);
    assert.equal(isRefusal(new Error('plain')), false);
  });
});
