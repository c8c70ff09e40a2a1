// An answer over the 16 MB limit (src/api/node-transport.ts) is refused with a clear error and never read
// whole: the client hangs up as soon as the declared length or the bytes read pass the limit. A GET is
// exit 1 and not retried; POST /v1/transfer leaves the outcome unknown: looked up, never sent twice, and
// exit 5 when the lookup cannot answer either. The huge answers come from a proxy in front of the served
// simulator (test/fixtures/hostile-api.ts), so everything else is the real API flow.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { MAX_ANSWER_BYTES } from '../src/api/node-transport.js';
import { startHostileApi, type HostileApi, type HugeMode } from './fixtures/hostile-api.js';
import { homePool, runCli } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';

const homes = homePool();
let simulator: RunningSimulator;
const proxies: HostileApi[] = [];

before(async () => {
  simulator = await startSimulatorServer({ port: 0, settleSeconds: 1 });
});
after(async () => {
  for (const proxy of proxies) await proxy.close();
  await simulator.close();
  homes.cleanup();
});

async function hostile(huge: (method: string, path: string) => HugeMode | undefined) {
  const proxy = await startHostileApi(simulator.url, { huge });
  proxies.push(proxy);
  const home = homes.home();
  await logInToSimulator(home.env, proxy.url);
  return { proxy, env: home.env };
}

const sendArgs = ['transfer', 'send', '0123456780', '--bank', '000013', '--amount', '2500', '--narration', 'limit test', '--yes'];

describe('answers over the size limit', () => {
  for (const mode of ['declared', 'streamed'] as const) {
    it(`a GET answered with 64 MB (${mode}): exit 1, one request, the client hung up early`, { timeout: 60_000 }, async () => {
      const { proxy, env } = await hostile((method, path) => (method === 'GET' && path === '/v1/account' ? mode : undefined));
      const result = await runCli(['account'], { env, timeoutMs: 50_000 });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /^error: answer from 127\.0\.0\.1:\d+ refused: the answer (declared \d+ bytes, over|grew past) the 16 MB limit$/m);
      assert.doesNotMatch(result.stderr, /at .*\.js:\d+/, 'no stack trace');
      assert.equal(result.stdout, '');
      assert.deepEqual(
        proxy.hits.filter((hit) => hit === 'GET /v1/account'),
        ['GET /v1/account'],
        'not retried',
      );
      // The proxy could write only what the client read before hanging up, plus what sockets buffer.
      assert.equal(proxy.sent.length, 1);
      assert.ok(proxy.sent[0]! < 2 * MAX_ANSWER_BYTES, `the client stopped reading (${proxy.sent[0]} bytes written)`);
    });
  }

  it('POST /v1/transfer answered with 64 MB: one POST, found by lookup, exit 0', { timeout: 60_000 }, async () => {
    const { proxy, env } = await hostile((method, path) => (method === 'POST' && path === '/v1/transfer' ? 'streamed' : undefined));
    const result = await runCli([...sendArgs, '--json'], { env, timeoutMs: 50_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(proxy.hits.filter((hit) => hit === 'POST /v1/transfer').length, 1, 'exactly one POST');
    assert.match(result.stderr, /16 MB limit/);
    assert.match(result.stderr, /not sent again/);
  });

  it('POST /v1/transfer and its lookups answered with 64 MB: one POST, exit 5 with the reference', { timeout: 60_000 }, async () => {
    const { proxy, env } = await hostile((method, path) =>
      (method === 'POST' && path === '/v1/transfer') || path.startsWith('/v1/transactions/reference/') ? 'declared' : undefined,
    );
    const result = await runCli(sendArgs, { env: { ...env, FSAPI_RECONCILE_SCHEDULE_MS: '0,100' }, timeoutMs: 50_000 });
    assert.equal(result.code, 5, result.stderr);
    assert.equal(proxy.hits.filter((hit) => hit === 'POST /v1/transfer').length, 1, 'exactly one POST');
    assert.match(result.stderr, /^error: outcome unknown for ACME-[0-9A-Z]+: .*16 MB limit/m);
    assert.match(result.stderr, /^hint: do not resend; run fsapi transfer status ACME-/m);
  });
});
