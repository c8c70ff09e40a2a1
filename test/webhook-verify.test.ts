// fsapi webhook verify <file|->: the built CLI against the simulator served on 127.0.0.1 (port 0).
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CollectionNotification } from '../src/api/schemas.js';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { errorObject, makeHome, runCli, stripAnsi } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';

const CLIENT_ACCOUNT = '9900000011';

describe('webhook verify', () => {
  const home = makeHome();
  let sim: RunningSimulator;
  let notification: CollectionNotification;
  const file = (name: string, content: string) => {
    const where = path.join(home.root, name);
    writeFileSync(where, content);
    return where;
  };
  const verify = (args: string[], options: { input?: string; tty?: boolean } = {}) => runCli(['--profile', 'sim', ...args], { env: home.env, ...options });

  before(async () => {
    sim = await startSimulatorServer({ port: 0, log: () => undefined });
    await logInToSimulator(home.env, sim.url);
    notification = await sim.simulator.collect(CLIENT_ACCOUNT, 1_500_050 as Kobo);
  });

  after(async () => {
    await sim?.close();
    home.cleanup();
  });

  test('a genuine notification in a file: verified, exit 0, TSV when piped', async () => {
    const result = await verify(['webhook', 'verify', file('genuine.json', JSON.stringify(notification, null, 2))]);
    assert.equal(result.code, 0, result.stderr);
    const [header, row, extra] = result.stdout.split('\n');
    assert.equal(header, 'Reference\tAccount\tAmount\tPayer\tState\tField\tDetail');
    const cells = row!.split('\t');
    assert.deepEqual(cells.slice(0, 3), [notification.reference, CLIENT_ACCOUNT, '15000.50']);
    assert.equal(cells[4], 'verified');
    assert.equal(extra, '');
    assert.equal(result.stderr, '');
  });

  test('--json gives the state and the transaction as the API returned it; stdin with -', async () => {
    const result = await verify(['--json', 'webhook', 'verify', '-'], { input: JSON.stringify(notification) });
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as Record<string, unknown> & { transaction: Record<string, unknown> };
    assert.equal(output.state, 'verified');
    assert.equal(output.reference, notification.reference);
    assert.equal(output.amount, '15000.50');
    assert.equal(output.field, null);
    assert.equal(output.transaction.reference, notification.reference);
    assert.equal(output.transaction.amount, '15000.50');
    assert.equal(output.transaction.destinationAccountNumber, CLIENT_ACCOUNT);
  });

  test('on a terminal: a record view with the state', async () => {
    const result = await verify(['webhook', 'verify', file('tty.json', JSON.stringify(notification))], { tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /State\s+verified/);
    assert.match(screen, /Amount\s+₦15,000\.50/);
  });

  test('a changed amount: mismatch naming the field, exit 1', async () => {
    const tampered = file('tampered.json', JSON.stringify({ ...notification, amountReceived: '150000.50' }));
    const result = await verify(['--json', 'webhook', 'verify', tampered]);
    assert.equal(result.code, 1);
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(output.state, 'mismatch');
    assert.equal(output.field, 'amountReceived');
    const error = errorObject(result.stderr);
    assert.equal(error.code, 'not_verified');
    assert.match(error.message, new RegExp(`^${notification.reference} is not verified: mismatch`));
    assert.match(error.hint ?? '', /do not act on this notification/);
  });

  test('another account, or an unknown reference: exit 1', async () => {
    const otherAccount = await verify(['webhook', 'verify', file('account.json', JSON.stringify({ ...notification, virtualAccount: '9900000022' }))]);
    assert.equal(otherAccount.code, 1);
    assert.match(otherAccount.stdout, /\tmismatch\tvirtualAccount\t/);
    const unknown = await verify(['webhook', 'verify', file('unknown.json', JSON.stringify({ ...notification, reference: 'COL-NOSUCHREF01' }))]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stdout, /\tnot-found\t/);
    assert.match(unknown.stderr, /is not verified: not-found/);
  });

  test('a token the API refuses, and no credentials to renew it: exit 3', async () => {
    const result = await runCli(['--profile', 'sim', 'webhook', 'verify', file('auth.json', JSON.stringify(notification))], {
      env: { ...home.env, FSAPI_TOKEN: 'not-a-valid-token' },
    });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^error: the API refused the token/m);
    assert.equal(result.stdout, '');
  });

  test('input that is not a notification: exit 2, nothing looked up', async () => {
    sim.simulator.clearRequests();
    const cases: Array<[string, RegExp]> = [
      [file('not.json', 'hello, not json'), /is not JSON/],
      [file('shape.json', JSON.stringify({ event: 'collection', reference: 'X' })), /not a collection notification \(missing virtualAccount/],
      [file('big.json', ' '.repeat(1024 * 1024 + 1)), /is over 1048576 bytes/],
      [path.join(home.root, 'absent.json'), /no such file/],
    ];
    for (const [where, message] of cases) {
      const result = await verify(['webhook', 'verify', where]);
      assert.equal(result.code, 2, `${where}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    }
    assert.deepEqual(
      sim.simulator.requests().filter((r) => r.path.startsWith('/v1/transactions')),
      [],
    );
  });
});
