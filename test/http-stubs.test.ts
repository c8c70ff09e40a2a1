// The registry of stubbed HTTP answers (test/helpers/http-stubs.ts) can fail a test: on a stub never used
// and on a request no stub matches (a wrong method, path or body), even when the code under test
// swallows the failed request. And it is what a run's Context sends through: a command run in process
// (runInProcess's `transport`) reaches the stubs, not the network.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { WireRequest } from '../src/api/types.js';
import { homePool } from './helpers/cli.js';
import { HttpStubs } from './helpers/http-stubs.js';
import { runInProcess } from './helpers/in-process.js';

const homes = homePool();
after(() => homes.cleanup());

const BASE = 'https://api.stubbed.test';

function wire(method: WireRequest['method'], path: string, json?: unknown): WireRequest {
  return {
    method,
    url: new URL(`${BASE}${path}`),
    headers: {},
    body: json === undefined ? undefined : Buffer.from(JSON.stringify(json)),
    signal: new AbortController().signal,
  };
}

describe('the HTTP stub registry', () => {
  it('answers a matching request, and verify() passes when every stub was used', async () => {
    const stubs = new HttpStubs().register('GET', '/v1/account', { status: 200, json: { success: true } });
    const answer = await stubs.transport(wire('GET', '/v1/account?x=1'));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(answer.body.toString('utf8')), { success: true });
    stubs.verify();
  });

  it('fails verify() on a stub that was never used', () => {
    const stubs = new HttpStubs().register('POST', '/v1/transfer', { status: 200, json: {} });
    assert.throws(() => stubs.verify(), /stub POST \/v1\/transfer was used 0 of 1 time/);
  });

  it('fails verify() on a stub used fewer times than registered', async () => {
    const stubs = new HttpStubs().register('GET', '/v1/banks', { status: 502, text: 'down' }, { times: 3 });
    await stubs.transport(wire('GET', '/v1/banks'));
    assert.throws(() => stubs.verify(), /stub GET \/v1\/banks was used 1 of 3 time/);
  });

  it('rejects a request no stub matches, and verify() names it even when the caller swallowed it', async () => {
    const stubs = new HttpStubs().register('POST', '/v1/transfer', { status: 200, json: {} }, { body: { amount: 100 } });
    // Another path, another method, another body: none of them is the stubbed request.
    for (const request of [wire('POST', '/v1/transfers', { amount: 100 }), wire('GET', '/v1/transfer'), wire('POST', '/v1/transfer', { amount: 200 })]) {
      await assert.rejects(stubs.transport(request), /no stub matches/);
    }
    await stubs.transport(wire('POST', '/v1/transfer', { amount: 100 }));
    assert.throws(
      () => stubs.verify(),
      (error: Error) =>
        /no stub matched POST \/v1\/transfers;/.test(error.message) &&
        /no stub matched GET \/v1\/transfer;/.test(error.message) &&
        /no stub matched POST \/v1\/transfer$/.test(error.message),
    );
  });

  it('answers a stub once: the same request a second time is unmatched', async () => {
    const stubs = new HttpStubs().register('POST', '/v1/transfer', { status: 500, json: { success: false } });
    await stubs.transport(wire('POST', '/v1/transfer', {}));
    await assert.rejects(stubs.transport(wire('POST', '/v1/transfer', {})), /no stub matches POST \/v1\/transfer/);
    assert.throws(() => stubs.verify(), /no stub matched POST \/v1\/transfer/);
  });

  it('fails the connection as asked: a dropped one after the request left, a refused one before', async () => {
    let sent = 0;
    const stubs = new HttpStubs().register('GET', '/v1/account', { failure: 'ECONNRESET' }).register('GET', '/v1/account', { failure: 'ECONNREFUSED' });
    await assert.rejects(stubs.transport({ ...wire('GET', '/v1/account'), onSent: () => (sent += 1) }), { code: 'ECONNRESET' });
    assert.equal(sent, 1);
    await assert.rejects(stubs.transport({ ...wire('GET', '/v1/account'), onSent: () => (sent += 1) }), { code: 'ECONNREFUSED' });
    assert.equal(sent, 1);
    stubs.verify();
  });
});

describe('a command run in process through stubbed answers', () => {
  it('fsapi account: a 500 of the API is an error (exit 1) naming the status, asked once', async () => {
    const h = homes.home();
    const stubs = new HttpStubs().register('GET', '/v1/account', { status: 500, json: { success: false, message: 'Internal Server Error' } });
    const result = await runInProcess(['--base-url', BASE, 'account'], { env: { ...h.env, FSAPI_TOKEN: 'stubbed-token' }, transport: stubs.transport });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /the API failed \(HTTP 500\)/);
    assert.equal(result.stdout, '');
    assert.deepEqual(stubs.requests, ['GET /v1/account']);
    stubs.verify();
  });

  it('a request the test did not stub fails the run and verify()', async () => {
    const h = homes.home();
    const stubs = new HttpStubs();
    const result = await runInProcess(['--base-url', BASE, 'account'], { env: { ...h.env, FSAPI_TOKEN: 'stubbed-token' }, transport: stubs.transport });
    assert.equal(result.code, 1, result.stderr);
    assert.throws(() => stubs.verify(), /no stub matched GET \/v1\/account/);
  });
});
