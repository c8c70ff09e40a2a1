// The three simulator commands as a user runs them: the built CLI as a subprocess with its own
// config and data dirs. serve (URL on stdout, banner on stderr, clean stop on SIGTERM and SIGINT, port
// in use, bad options), collect (local state and served simulator, with webhook), reset.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { collectionNotification, envelope, primaryAccount, tokenResponse } from '../src/api/schemas.js';
import { SIMULATOR_CREDENTIALS, startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { makeHome, runCli } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { startServe } from './helpers/simulator-process.js';

/** A node:http receiver on 127.0.0.1 that keeps the JSON bodies POSTed to it. */
async function startReceiver() {
  const bodies: unknown[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(text));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('simulator serve', () => {
  const home = makeHome();
  after(() => home.cleanup());

  it('prints the URL alone on stdout, the credentials and a login line on stderr, serves, and stops cleanly on SIGTERM', async () => {
    const serve = startServe(['--port', '0', '--settle-seconds', '0'], home.env);
    const url = await serve.url;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const token = await fetch(`${url}/v1/generate-token`, {
      method: 'POST',
      headers: { consumerKey: SIMULATOR_CREDENTIALS.consumerKey, consumerSecret: SIMULATOR_CREDENTIALS.consumerSecret, validityTime: '5' },
    });
    assert.equal(token.status, 200);
    tokenResponse.parse(await token.json());
    serve.child.kill('SIGTERM');
    const { code } = await serve.exited;
    assert.equal(code, 0);
    const { stdout, stderr } = serve.output();
    assert.equal(stdout, `${url}\n`);
    assert.match(stderr, /sim-consumer-key/);
    assert.match(stderr, /sim-consumer-secret/);
    assert.ok(
      stderr.includes(
        `FSAPI_CONSUMER_KEY=sim-consumer-key FSAPI_CONSUMER_SECRET=sim-consumer-secret fsapi auth login --profile sim --env sandbox --base-url ${url}`,
      ),
      stderr,
    );
    assert.match(stderr, /simulator stopped/);
  });

  it('stops cleanly on SIGINT too, and keeps its state in --state', async () => {
    const stateFile = path.join(home.root, 'served-state.db');
    const serve = startServe(['--port', '0', '--state', stateFile], home.env);
    const url = await serve.url;
    const answer = await fetch(`${url}/v1/generate-token`, {
      method: 'POST',
      headers: { consumerKey: SIMULATOR_CREDENTIALS.consumerKey, consumerSecret: SIMULATOR_CREDENTIALS.consumerSecret, validityTime: '5' },
    });
    assert.equal(answer.status, 200);
    serve.child.kill('SIGINT');
    assert.equal((await serve.exited).code, 0);
    assert.ok(existsSync(stateFile));
  });

  it('exits 1 naming the port when it is in use', async () => {
    const busy = await startSimulatorServer({ port: 0, log: () => undefined });
    try {
      const result = await runCli(['simulator', 'serve', '--port', String(busy.port)], { env: home.env });
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`error: port ${busy.port} on 127\\.0\\.0\\.1 is in use`));
      assert.equal(result.stdout, '');
    } finally {
      await busy.close();
    }
  });

  it('exits 2 on a bad option before listening', async () => {
    for (const args of [
      ['--port', 'http'],
      ['--port', '70000'],
      ['--settle-seconds', '-1'],
      ['--latency-ms', '1.5'],
      ['--webhook-url', 'ftp://x'],
      ['--fault', 'explode'],
    ]) {
      const result = await runCli(['simulator', 'serve', ...args], { env: home.env });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, '');
    }
  });
});

describe('simulator collect and reset on the local state', () => {
  const home = makeHome();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => (receiver = await startReceiver()));
  after(async () => {
    await receiver.close();
    home.cleanup();
  });

  it('--json prints the notification; the webhook receives the same body', async () => {
    const result = await runCli(['simulator', 'collect', '9900000011', '--amount', '25,000', '--webhook-url', receiver.url, '--json'], { env: home.env });
    assert.equal(result.code, 0, result.stderr);
    const notification = collectionNotification.parse(JSON.parse(result.stdout));
    assert.equal(notification.amountReceived, '25000.00');
    assert.equal(notification.stampDuty, 50);
    assert.equal(notification.virtualAccount, '9900000011');
    assert.deepEqual(receiver.bodies, [JSON.parse(result.stdout)]);
    assert.match(result.stderr, /local simulator: no real money moves/);
    assert.match(result.stderr, /delivered/);
  });

  it('prints a key/value view without --json (TSV when piped)', async () => {
    const result = await runCli(['simulator', 'collect', '9900000022', '--amount', '500'], { env: home.env });
    assert.equal(result.code, 0, result.stderr);
    const [header, row] = result.stdout.trimEnd().split('\n');
    const fields = header!.split('\t');
    const values = row!.split('\t');
    assert.equal(values[fields.indexOf('Amount received')], '500.00');
    assert.equal(values[fields.indexOf('Stamp duty')], '0.00');
    assert.equal(values[fields.indexOf('Status')], 'successful');
  });

  it('refuses bad input with exit 2 and touches nothing', async () => {
    const untouched = makeHome();
    after(() => untouched.cleanup());
    for (const args of [
      ['9900000011', '--amount', '10.001'],
      ['9900000011', '--amount', '-5'],
      ['99000000', '--amount', '5'],
      ['9900000011', '--amount', '5', '--webhook-url', 'nope'],
    ]) {
      const result = await runCli(['simulator', 'collect', ...args], { env: untouched.env });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^error: /m);
    }
    assert.ok(!existsSync(path.join(untouched.dataDir, 'simulator')), 'no simulator state was created');
  });

  it('exits 1 for an account that is not a client account', async () => {
    const result = await runCli(['simulator', 'collect', '9900000012', '--amount', '5'], { env: home.env });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no client account 9900000012/);
  });

  it('exits 1 when the webhook cannot be reached, after making the collection', async () => {
    const closed = await startReceiver();
    await closed.close();
    const result = await runCli(['simulator', 'collect', '9900000033', '--amount', '100', '--webhook-url', closed.url, '--json'], {
      env: home.env,
      timeoutMs: 60_000,
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /made, but its notification did not reach/);
    collectionNotification.parse(JSON.parse(result.stdout));
  });

  it('reset starts the local state again from the seed, with a note on stderr', async () => {
    const stateFile = path.join(home.dataDir, 'simulator', 'state.db');
    assert.ok(existsSync(stateFile));
    const before = await runCli(['account', '--json'], { env: home.env });
    assert.notEqual(JSON.parse(before.stdout).availableBalance, '5000000.00', 'the collections above moved the balance');
    const result = await runCli(['simulator', 'reset'], { env: home.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /local simulator reset/);
    const after = await runCli(['account', '--json'], { env: home.env });
    assert.equal(JSON.parse(after.stdout).availableBalance, '5000000.00');
  });
});

describe('simulator collect against a served simulator', () => {
  const home = makeHome();
  let server: RunningSimulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
    server = await startSimulatorServer({ port: 0, log: () => undefined });
    await logInToSimulator(home.env, server.url);
  });
  after(async () => {
    await server.close();
    await receiver.close();
    home.cleanup();
  });

  it('collects through POST /__simulator/collect; the served simulator POSTs to --webhook-url', async () => {
    const result = await runCli(['simulator', 'collect', '9900000044', '--amount', '12000.50', '--webhook-url', receiver.url, '--json', '--profile', 'sim'], {
      env: home.env,
    });
    assert.equal(result.code, 0, result.stderr);
    const notification = collectionNotification.parse(JSON.parse(result.stdout));
    assert.equal(notification.amountReceived, '12000.50');
    await server.simulator.flushWebhooks();
    assert.deepEqual(receiver.bodies, [JSON.parse(result.stdout)]);
    // The served simulator's balance moved, not a local one.
    const token = await fetch(`${server.url}/v1/generate-token`, {
      method: 'POST',
      headers: { consumerKey: SIMULATOR_CREDENTIALS.consumerKey, consumerSecret: SIMULATOR_CREDENTIALS.consumerSecret, validityTime: '5' },
    }).then(async (response) => tokenResponse.parse(await response.json()).token);
    const account = await fetch(`${server.url}/v1/account`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(envelope(primaryAccount).parse(await account.json()).data.availableBalance, (5_000_000 + notification.netAmount).toFixed(2));
    assert.ok(!existsSync(path.join(home.dataDir, 'simulator', 'state.db')), 'no local state was made');
  });
});
