// Where `fsapi api` sends a request, decided on the URL the transport builds (src/api/target.ts): the
// endpoint a lenient server would route it to, and a path that leaves the base address refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestOrigin, requestUrl } from '../src/api/http.js';
import { isTransferEndpoint, reachesTransfer, resolveApiTarget } from '../src/api/target.js';
import { UsageError } from '../src/errors.js';
import { TRANSFER_SPELLINGS } from './helpers/transfer-spellings.js';

describe('the target of fsapi api', () => {
  it('is the very URL the transport sends', () => {
    for (const [, spelling] of TRANSFER_SPELLINGS) {
      const path = spelling.split('?')[0]!;
      for (const base of ['http://127.0.0.1:4010', 'https://api.example.ng/', undefined]) {
        assert.equal(resolveApiTarget(base, path).url.href, requestUrl(requestOrigin(base), path).href, `${base} ${path}`);
      }
    }
  });

  it('finds the transfer endpoint in every spelling, and only there', () => {
    for (const [, spelling] of TRANSFER_SPELLINGS) {
      assert.ok(isTransferEndpoint(resolveApiTarget('http://127.0.0.1:4010', spelling.split('?')[0]!).endpoint), spelling);
    }
    for (const other of [
      '/v1/transfer/name-enquiry',
      '/v1/transfer/tsq',
      '/v1/transfer/banks',
      '/v1/transfers',
      '/v1/transferx',
      '/v2/transfer',
      '/v1/account',
    ]) {
      assert.equal(isTransferEndpoint(resolveApiTarget('http://127.0.0.1:4010', other).endpoint), false, other);
    }
  });

  it('below a base address with a path, the endpoint is what follows it; leaving it is exit 2', () => {
    const base = 'https://api.example.ng/fs/';
    assert.equal(resolveApiTarget(base, '/v1/./transfer').url.href, 'https://api.example.ng/fs/v1/transfer');
    assert.ok(isTransferEndpoint(resolveApiTarget(base, '/v1/x/../transfer').endpoint));
    // A base address that ends in the version makes a shorter path the transfer endpoint.
    for (const path of ['/transfer', '/./Transfer/']) assert.ok(reachesTransfer(resolveApiTarget('https://api.example.ng/v1', path)), path);
    assert.equal(reachesTransfer(resolveApiTarget('https://api.example.ng/v1', '/transfer/tsq')), false);
    for (const outside of [
      '/../v1/transfer',
      '/x/../../v1/transfer',
      '/%2e%2e/v1/transfer',
      '/..%2Fv1/transfer',
      '/%252e%252e/v1/transfer',
      '/..\\v1/transfer',
    ]) {
      assert.throws(
        () => resolveApiTarget(base, outside),
        (error: unknown) => error instanceof UsageError && error.exitCode === 2 && /outside the base address/.test(error.message),
        outside,
      );
    }
  });

  it('never reaches another host: `//host/...` and `/@host` stay paths of the base address', () => {
    for (const path of ['//evil.example/v1/transfer', '/@evil.example/v1/transfer', '/\\\\evil.example/v1/transfer']) {
      const { url } = resolveApiTarget('https://api.example.ng', path);
      assert.equal(url.host, 'api.example.ng', path);
    }
  });
});
