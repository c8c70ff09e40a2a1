// Listeners of one account on two machines sharing a team store (a real PostgreSQL, test/helpers/
// postgres.ts): each machine is a home of its own (config and data dir) running `webhook listen` as a real
// process, logged in to the same served simulator through the hostile proxy (test/fixtures/hostile-api.ts),
// whose `holdLookups` keeps the API's answers back while the test arranges a race or a kill. The app is a
// node:http server on 127.0.0.1 that counts what it is sent. Waits are for events (a row in the store, a
// request at the proxy, a forward at the app), each bounded; nothing waits for time.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { CollectionNotification } from '../src/api/schemas.js';
import type { Kobo } from '../src/money/kobo.js';
import { SIMULATOR_CREDENTIALS, startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { startHostileApi, type HostileApi } from './fixtures/hostile-api.js';
import { homePool, startCli } from './helpers/cli.js';
import { postgresForThisFile, type TestDatabase } from './helpers/postgres.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { until as untilWithin } from './helpers/until.js';

/** The file's waits: two listeners and a store take longer than one process to come to an event. */
const until = <T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>) => untilWithin(what, probe, 60_000);

const CLIENT_ACCOUNT = '9900000011'; // the first seeded client account of the simulator
/** Short claims, so a listener killed mid-event is taken over within seconds (FSAPI_LISTEN_CLAIM_MS). */
const CLAIM_MS = 3000;

const postgres = postgresForThisFile('hooks');
const homes = homePool();

/** The app: counts every POST it gets, with when it got it (epoch ms), and answers 200. */
async function startApp(): Promise<{ url: string; received: Array<{ at: number; body: Record<string, unknown> }>; close(): Promise<void> }> {
  const received: Array<{ at: number; body: Record<string, unknown> }> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ at: Date.now(), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `webhook listen --json --forward-to <app>` on one machine, as its own process. */
function listen(env: Record<string, string>, appUrl: string) {
  const run = startCli(['--profile', 'sim', '--json', 'webhook', 'listen', '--port', '0', '--forward-to', appUrl], { env });
  // A test that fails midway must not leave it behind.
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 170_000);
  timer.unref();
  void run.exited.then(() => clearTimeout(timer));
  return {
    ...run,
    async url(): Promise<string> {
      const found = await until(
        'the listener to start',
        () => /listening on (http:\/\/\S+)/.exec(run.stderr())?.[1] ?? (run.child.exitCode !== null && 'exited'),
      );
      assert.notEqual(found, 'exited', `the listener exited early:\n${run.stderr()}`);
      return found;
    },
    lines: () =>
      run
        .stdout()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

async function post(url: string, body: string): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await response.text();
  return response.status;
}

describe('webhook listen on two machines sharing a team store', { timeout: 180_000 }, () => {
  let sim: RunningSimulator;
  let proxy: HostileApi;
  let app: Awaited<ReturnType<typeof startApp>>;

  before(async () => {
    sim = await startSimulatorServer({ port: 0 });
    proxy = await startHostileApi(sim.url);
    app = await startApp();
  });
  after(async () => {
    await app?.close();
    await proxy?.close();
    await sim?.close();
    homes.cleanup();
  });

  /** Two machines of one account on a database of their own: their environments, and SQL on the store. */
  async function twoMachines(): Promise<{ db: TestDatabase; envA: Record<string, string>; envB: Record<string, string> }> {
    const db = await postgres.database();
    const shared = {
      FSAPI_STORE: db.url,
      ...postgres.server().env,
      FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey,
      FSAPI_LISTEN_CLAIM_MS: String(CLAIM_MS),
    };
    const [a, b] = [homes.home(), homes.home()];
    await logInToSimulator(a.env, proxy.url);
    await logInToSimulator(b.env, proxy.url);
    return { db, envA: { ...a.env, ...shared }, envB: { ...b.env, ...shared } };
  }

  const recordsOf = async (db: TestDatabase, kind: 'received' | 'outcome') =>
    (await db.sql('SELECT record FROM events WHERE kind = $1 ORDER BY seq', kind)).map((row) => JSON.parse(String(row.record)) as Record<string, unknown>);
  const lookupsOf = (reference: string) => proxy.hits.filter((hit) => hit === `GET /v1/transactions/reference/${reference}`).length;
  const forwardsOf = (reference: string) => app.received.filter((one) => one.body.reference === reference);

  it('one notification delivered to both, twice each: processed once, one forward at the app', async () => {
    const { db, envA, envB } = await twoMachines();
    const a = listen(envA, app.url);
    const b = listen(envB, app.url);
    const [urlA, urlB] = await Promise.all([a.url(), b.url()]);
    const notification: CollectionNotification = await sim.simulator.collect(CLIENT_ACCOUNT, 2_500_000 as Kobo);
    const body = JSON.stringify(notification);

    // The API holds its answers until all four deliveries are recorded: each listener has one in hand while
    // the other has too, the moment two listeners without a shared claim would both verify and forward.
    proxy.options.holdLookups = true;
    assert.deepEqual(await Promise.all([post(urlA, body), post(urlB, body), post(urlA, body), post(urlB, body)]), [200, 200, 200, 200]);
    assert.equal((await recordsOf(db, 'received')).length, 4, 'each delivery recorded before its 200');
    await until('a lookup of the reference at the API', () => proxy.heldLookups() > 0);
    proxy.releaseLookups();

    const outcomes = await until('an outcome of every delivery', async () => {
      const found = await recordsOf(db, 'outcome');
      return found.length >= 4 && found;
    });
    assert.deepEqual(outcomes.map((outcome) => outcome.state).sort(), ['duplicate', 'duplicate', 'duplicate', 'verified']);
    assert.equal(outcomes.find((outcome) => outcome.state === 'verified')?.forwarded, true);
    assert.equal(forwardsOf(notification.reference).length, 1, 'the app heard of it once');
    assert.equal(lookupsOf(notification.reference), 1, 'looked up once: the three other deliveries are resends of a verified event');
    // Shown once, by whichever listener verified it.
    assert.equal([...a.lines(), ...b.lines()].filter((line) => line.reference === notification.reference).length, 1);
    // Every claim let go once its work was done (with the next take, in the background).
    await until('the claims to be let go', async () => (await db.sql('SELECT reference FROM event_claims')).length === 0);

    for (const run of [a, b]) run.child.kill('SIGINT');
    for (const run of [a, b]) assert.equal((await run.exited).code, 0, run.stderr());
    assert.equal(forwardsOf(notification.reference).length, 1);
  });

  it('a listener killed (SIGKILL) after claiming an event, before forwarding it: the other forwards it after the claim ran out, once', async () => {
    const { db, envA, envB } = await twoMachines();
    const a = listen(envA, app.url);
    const b = listen(envB, app.url);
    const [urlA] = await Promise.all([a.url(), b.url()]);
    const notification: CollectionNotification = await sim.simulator.collect(CLIENT_ACCOUNT, 3_100_000 as Kobo);

    proxy.options.holdLookups = true;
    assert.equal(await post(urlA, JSON.stringify(notification)), 200);
    // A took it (its claim is in the store) and is verifying it: its lookup waits at the API.
    const claim = await until('machine A to claim the reference', async () => {
      const rows = await db.sql('SELECT claimed_by, claimed_until FROM event_claims WHERE reference = $1', notification.reference);
      return rows.length === 1 && proxy.heldLookups() === 1 && rows[0]!;
    });
    assert.match(String(claim.claimed_by), new RegExp(` pid ${a.child.pid} `), 'claimed by machine A');
    a.child.kill('SIGKILL');
    await a.exited;
    // A's last renewal: B may not take the event before this.
    const lastBound = Number((await db.sql('SELECT claimed_until FROM event_claims WHERE reference = $1', notification.reference))[0]!.claimed_until);
    proxy.releaseLookups();

    const forward = await until('the forward by machine B', () => forwardsOf(notification.reference)[0]);
    assert.ok(forward.at >= lastBound, `forwarded after A's claim ran out (${forward.at - lastBound} ms after)`);
    const outcomes = await until('the outcome', async () => {
      const found = (await recordsOf(db, 'outcome')).filter((outcome) => outcome.reference === notification.reference);
      return found.length > 0 && found;
    });
    assert.deepEqual(
      outcomes.map((outcome) => [outcome.state, outcome.forwarded]),
      [['verified', true]],
    );
    const line = await until("machine B's event line", () => b.lines().find((one) => one.reference === notification.reference));
    assert.deepEqual([line.state, line.forwarded], ['verified', true]);
    b.child.kill('SIGINT');
    assert.equal((await b.exited).code, 0, b.stderr());
    assert.equal(forwardsOf(notification.reference).length, 1, 'forwarded once');
    assert.deepEqual(await db.sql('SELECT reference FROM event_claims'), [], "B let go of its claims when it stopped; A's was taken over");
  });
});
