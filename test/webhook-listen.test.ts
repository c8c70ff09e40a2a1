// End to end: the simulator served on 127.0.0.1 (port 0) posts collection notifications to the built CLI's
// `webhook listen` (a subprocess, logged in against the simulator), which verifies them and forwards the
// verified ones to a forward target (node:http on 127.0.0.1 recording what it receives).
// Waits are bounded polls for something to appear, never assertions on how long it took.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { CollectionNotification } from '../src/api/schemas.js';
import { SIMULATOR_CREDENTIALS, startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { cliPath, makeHome, repoRoot, runCli, spawnCliInTerminal, stripAnsi } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { storeRecords } from './helpers/transfer-setup.js';
import { until } from './helpers/until.js';

const CLIENT_ACCOUNT = '9900000011'; // the first seeded client account of the simulator

// ---- helpers ------------------------------------------------------------------------------------------

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The developer's app: records every POST it receives and answers 200. */
async function startForwardTarget(port = 0): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${bound}/app/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('FSAPI_') || key === 'NO_COLOR' || key === 'FORCE_COLOR') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** `fsapi webhook listen ...` as a long-running subprocess whose output is read as it comes. */
class Listener {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [cliPath, ...args], { cwd: repoRoot, env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    // A test that fails midway must not leave the process behind.
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 180_000);
    timer.unref();
    void this.exited.then(() => clearTimeout(timer));
  }

  async ready(): Promise<void> {
    await until('the listener to start', () => this.stderr.includes('press Ctrl+C to stop') || this.child.exitCode !== null);
    assert.equal(this.child.exitCode, null, `listener exited early:\n${this.stderr}`);
  }

  /** NDJSON lines of stdout (--json). */
  events(): Array<Record<string, unknown>> {
    return this.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  eventsFor(reference: string) {
    return this.events().filter((event) => event.reference === reference);
  }

  async waitForEvent(reference: string): Promise<Record<string, unknown>> {
    return until(`an event line for ${reference}`, () => this.eventsFor(reference)[0]);
  }

  async stop(signal: NodeJS.Signals = 'SIGINT') {
    this.child.kill(signal);
    return this.exited;
  }
}

function logRecords(dataDir: string): Array<Record<string, unknown>> {
  return storeRecords(dataDir, 'events').map((line) => JSON.parse(line) as Record<string, unknown>);
}

function receivedRecords(dataDir: string): Array<Record<string, unknown>> {
  return logRecords(dataDir).filter((record) => record.kind === 'received');
}

function duplicatesOf(dataDir: string, reference: string): number {
  return logRecords(dataDir).filter((record) => record.kind === 'outcome' && record.state === 'duplicate' && record.reference === reference).length;
}

/**
 * A forward as a handler written against section 6 reads it: every field of the notification at the top
 * level, with the simulator's values (which are its records' own); the headers say which are the API's.
 */
function assertVerifiedFacts(received: Received, notification: CollectionNotification): void {
  assert.equal(received.headers['x-fsapi-verification'], 'verified');
  // Neither the record nor the client account says the payer's currency or remark.
  assert.equal(received.headers['x-fsapi-unverified-fields'], 'sourceCurrency,remarks');
  assert.equal(
    received.headers['x-fsapi-verified-fields'],
    'event,reference,virtualAccount,externalReference,amountReceived,transactionFee,netAmount,stampDuty,sessionId,sourceAccountNumber,sourceAccountName,sourceBankCode,sourceBankName,destinationCurrency,status,createdAt,updatedAt',
  );
  const handler = (body: CollectionNotification) => ({
    event: body.event,
    reference: body.reference,
    virtualAccount: body.virtualAccount,
    externalReference: body.externalReference,
    amountReceived: body.amountReceived,
    transactionFee: body.transactionFee,
    netAmount: body.netAmount,
    stampDuty: body.stampDuty,
    sessionId: body.sessionId,
    sourceCurrency: body.sourceCurrency,
    sourceAccountNumber: body.sourceAccountNumber,
    sourceAccountName: body.sourceAccountName,
    sourceBankCode: body.sourceBankCode,
    sourceBankName: body.sourceBankName,
    remarks: body.remarks,
    destinationCurrency: body.destinationCurrency,
    status: body.status,
    createdAt: typeof body.createdAt,
    updatedAt: typeof body.updatedAt,
  });
  const forwarded = JSON.parse(received.body) as CollectionNotification;
  assert.deepEqual(Object.keys(forwarded).sort(), Object.keys(notification).sort(), 'the same fields as the notification, no more, none nested');
  assert.deepEqual(handler(forwarded), { ...handler(notification), amountReceived: Number(notification.amountReceived).toFixed(2) });
}

/** A notification no transaction stands behind. */
function forged(reference: string, amount = '50000.00'): CollectionNotification {
  return {
    event: 'collection',
    reference,
    virtualAccount: CLIENT_ACCOUNT,
    externalReference: 'forged',
    amountReceived: amount,
    transactionFee: 0,
    netAmount: 50000,
    stampDuty: 50,
    sessionId: '000000000000000000000000000000',
    sourceCurrency: 'NGN',
    sourceAccountNumber: '0123456789',
    sourceAccountName: 'MALLORY',
    sourceBankCode: '000013',
    sourceBankName: 'GTBank',
    remarks: 'not real',
    destinationCurrency: 'NGN',
    status: 'successful',
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
}

/** An inflow made through the served simulator's control endpoint, its notification sent to `webhookUrl`. */
async function collectTo(simulatorUrl: string, accountNumber: string, amount: string, webhookUrl: string): Promise<CollectionNotification> {
  const response = await fetch(`${simulatorUrl}/__simulator/collect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountNumber, amount, webhookUrl }),
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { data: CollectionNotification }).data;
}

async function post(url: string, body: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, ...init });
  return { status: response.status, text: await response.text() };
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function inBatches<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

// ---- the shared set-up: simulator, login, forward target, listener ------------------------------------

describe('webhook listen, end to end', () => {
  const home = makeHome();
  const simulatorLog: string[] = [];
  let sim: RunningSimulator;
  let target: Awaited<ReturnType<typeof startForwardTarget>>;
  let listener: Listener;
  let listenUrl: string;
  let port: number;
  const genuine: CollectionNotification[] = [];

  const forwardsOf = (reference: string) => target.received.filter((r) => (JSON.parse(r.body) as { reference: string }).reference === reference);
  const startListener = async () => {
    const started = new Listener(
      ['--profile', 'sim', '--json', 'webhook', 'listen', '--port', String(port), '--path', '/hooks', '--forward-to', target.url],
      home.env,
    );
    await started.ready();
    return started;
  };

  before(async () => {
    port = await freePort();
    listenUrl = `http://127.0.0.1:${port}/hooks`;
    target = await startForwardTarget();
    sim = await startSimulatorServer({ port: 0, webhookUrl: listenUrl, log: (line) => simulatorLog.push(line) });
    await logInToSimulator(home.env, sim.url);
    listener = await startListener();
  });

  after(async () => {
    if (listener?.child.exitCode === null) await listener.stop('SIGKILL');
    await sim?.close();
    await target?.close();
    home.cleanup();
  });

  test('the start-up line names the address, the verification and the forward target', () => {
    assert.match(listener.stderr, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}/hooks`));
    assert.match(listener.stderr, /verification on \(profile sim/);
    assert.match(listener.stderr, new RegExp(`forwarding verified events to ${target.url.replaceAll('.', '\\.')}`));
    assert.equal(listener.stdout, '');
  });

  test('a genuine collection is verified and its verified facts forwarded with the verification headers', async () => {
    const notification = await sim.simulator.collect(CLIENT_ACCOUNT, 2_500_000 as Kobo);
    genuine.push(notification);
    const event = await listener.waitForEvent(notification.reference);
    assert.deepEqual(
      { ...event, receivedAt: typeof event.receivedAt },
      {
        receivedAt: 'string',
        kind: 'collection',
        status: null,
        reference: notification.reference,
        virtualAccount: CLIENT_ACCOUNT,
        amount: '25000.00',
        payer: notification.sourceAccountName,
        state: 'verified',
        field: null,
        detail: event.detail,
        forwarded: true,
      },
    );
    const forwards = forwardsOf(notification.reference);
    assert.equal(forwards.length, 1);
    assert.equal(forwards[0]!.path, '/app/hooks');
    assert.equal(forwards[0]!.headers['x-fsapi-verification'], 'verified');
    assert.equal(forwards[0]!.headers['content-type'], 'application/json');
    // The app gets the verified facts, built from the API's record, and the list of fields they cover.
    assertVerifiedFacts(forwards[0]!, notification);
  });

  test('a forged event with an unknown reference is shown as not found and not forwarded', async () => {
    const answer = await post(listenUrl, JSON.stringify(forged('COL-FORGED0001')));
    assert.equal(answer.status, 200);
    const event = await listener.waitForEvent('COL-FORGED0001');
    assert.equal(event.state, 'not-found');
    assert.equal(event.forwarded, false);
    assert.equal(forwardsOf('COL-FORGED0001').length, 0);
  });

  test('a genuine event with a changed amount is a mismatch naming the field, and not forwarded again', async () => {
    const notification = await sim.simulator.collect(CLIENT_ACCOUNT, 700_000 as Kobo);
    await sim.simulator.flushWebhooks();
    await listener.waitForEvent(notification.reference);
    const tampered = JSON.stringify({ ...notification, amountReceived: '70000.00' });
    assert.equal((await post(listenUrl, tampered)).status, 200);
    const mismatch = await until('the mismatch line', () => listener.eventsFor(notification.reference).find((e) => e.state === 'mismatch'));
    assert.equal(mismatch.field, 'amountReceived');
    assert.match(String(mismatch.detail), /₦70,000\.00.*₦7,000\.00/);
    assert.equal(mismatch.forwarded, false);
    assert.equal(forwardsOf(notification.reference).length, 1, 'only the genuine one was forwarded');
  });

  test('a burst of 520 events: 50 collections each delivered 10 times, and 20 forged; none lost, each forwarded once', async () => {
    const receivedBefore = receivedRecords(home.dataDir).length;
    const forwardsBefore = target.received.length;
    const linesBefore = listener.events().length;

    // 50 inflows: the simulator delivers each one once to the listener...
    const burst = await Promise.all(Array.from({ length: 50 }, (_, i) => sim.simulator.collect(CLIENT_ACCOUNT, (100_000 + i * 100) as Kobo)));
    // ...and the test delivers each 9 more times, plus 20 forged events, 20 requests at a time.
    const bodies = [
      ...burst.flatMap((notification) => Array.from({ length: 9 }, () => JSON.stringify(notification))),
      ...Array.from({ length: 20 }, (_, i) => JSON.stringify(forged(`COL-BURSTFORGED${String(i).padStart(4, '0')}`))),
    ];
    const statuses: number[] = [];
    await inBatches(bodies, 20, async (body) => {
      statuses.push((await post(listenUrl, body)).status);
    });
    await sim.simulator.flushWebhooks();
    // Every simulator delivery was answered 200 in the end: none given up. A busy machine may make one
    // attempt outlast the simulator's 5 s and be tried again (a resend, which the listener records too).
    const retried = simulatorLog.filter((line) => /attempt \d+\/\d+ .* failed/.test(line));
    assert.deepEqual(
      retried.filter((line) => {
        const [, attempt, tries] = /attempt (\d+)\/(\d+)/.exec(line)!;
        return attempt === tries;
      }),
      [],
      'no simulator delivery was given up',
    );
    assert.equal(statuses.length, 470);
    assert.ok(statuses.every((status) => status === 200));

    // Every one of the 520 deliveries is in the event log (and any attempt tried again, at most once more).
    const recorded = receivedRecords(home.dataDir).length - receivedBefore;
    assert.ok(recorded >= 520 && recorded <= 520 + retried.length, `${recorded} deliveries recorded, ${retried.length} tried again`);
    // Each event is shown once: 50 verified, 20 not found.
    await until('70 event lines', () => listener.events().length - linesBefore >= 70);
    const lines = listener.events().slice(linesBefore);
    assert.equal(lines.length, 70);
    assert.equal(lines.filter((e) => e.state === 'verified' && e.forwarded === true).length, 50);
    assert.equal(lines.filter((e) => e.state === 'not-found' && e.forwarded === false).length, 20);
    assert.equal(new Set(lines.map((e) => e.reference)).size, 70);
    // Each genuine one is forwarded exactly once, the forged ones never.
    const forwarded = target.received.slice(forwardsBefore).map((r) => (JSON.parse(r.body) as { reference: string }).reference);
    assert.equal(forwarded.length, 50);
    assert.deepEqual(new Set(forwarded), new Set(burst.map((n) => n.reference)));
    assert.doesNotMatch(listener.stderr, /MaxListenersExceededWarning|memory leak/, 'no listener-leak warning under the burst');
    genuine.push(...burst);
  });

  test('forged notifications with each shared field changed in turn: each a mismatch naming it; the genuine one still verifies after them', async () => {
    // The simulator's own delivery goes to a sink, so the forgeries reach the listener first.
    const sink = await startForwardTarget();
    try {
      const notification = await collectTo(sim.url, CLIENT_ACCOUNT, '33000', sink.url);
      await sim.simulator.flushWebhooks();
      const forgeries: Array<[string, Record<string, unknown>]> = [
        ['amountReceived', { amountReceived: '33000.01' }],
        ['netAmount', { netAmount: 1 }],
        ['virtualAccount', { virtualAccount: '9900000012' }],
        ['sourceAccountNumber', { sourceAccountNumber: '0999999991' }],
        ['sourceAccountName', { sourceAccountName: 'MALLORY TRENT' }],
        ['sourceBankCode', { sourceBankCode: '999998' }],
        ['sourceBankName', { sourceBankName: 'Nowhere Savings PLC' }],
        ['sessionId', { sessionId: '999999999999999999999999999999' }],
        ['status', { status: 'reversed' }],
        ['type', { type: 'debit' }],
        // Checked against the client account (GET /v1/client-enquiry/{virtualAccount}).
        ['externalReference', { externalReference: 'someone-elses-customer' }],
        ['destinationCurrency', { destinationCurrency: 'USD' }],
      ];
      for (const [, change] of forgeries) assert.equal((await post(listenUrl, JSON.stringify({ ...notification, ...change }))).status, 200);
      await until('a line for each forgery', () => listener.eventsFor(notification.reference).length >= forgeries.length);
      const lines = listener.eventsFor(notification.reference);
      assert.deepEqual(
        lines.map((line) => [line.state, line.field, line.forwarded]),
        forgeries.map(([field]) => ['mismatch', field, false]),
      );
      assert.equal(forwardsOf(notification.reference).length, 0);

      assert.equal((await post(listenUrl, JSON.stringify(notification))).status, 200);
      const verified = await until('the genuine line', () => listener.eventsFor(notification.reference).find((line) => line.state === 'verified'));
      assert.equal(verified.forwarded, true);
      assert.equal(forwardsOf(notification.reference).length, 1);
      assertVerifiedFacts(forwardsOf(notification.reference)[0]!, notification);
    } finally {
      await sink.close();
    }
  });

  test('a genuine notification with a one-decimal amount and a numeric account verifies; the app gets exact, normal facts', async () => {
    const sink = await startForwardTarget();
    try {
      const notification = await collectTo(sim.url, CLIENT_ACCOUNT, '10000', sink.url);
      await sim.simulator.flushWebhooks();
      const tolerant = JSON.stringify({
        ...notification,
        amountReceived: '10000.0',
        virtualAccount: Number(CLIENT_ACCOUNT),
        netAmount: String(notification.netAmount),
      });
      assert.equal((await post(listenUrl, tolerant)).status, 200);
      const event = await listener.waitForEvent(notification.reference);
      assert.deepEqual([event.state, event.amount, event.virtualAccount, event.forwarded], ['verified', '10000.00', CLIENT_ACCOUNT, true]);
      assertVerifiedFacts(forwardsOf(notification.reference)[0]!, notification);
    } finally {
      await sink.close();
    }
  });

  test('bad input is answered, logged on stderr, never forwarded, and the listener keeps serving', async () => {
    const forwardsBefore = target.received.length;
    const recordsBefore = receivedRecords(home.dataDir).length;
    const keepsServing = async (i: number) => {
      const answer = await post(listenUrl, JSON.stringify(forged(`COL-AFTERBAD${i}`)));
      assert.equal(answer.status, 200, `still serving after bad input ${i}`);
    };

    assert.equal((await post(listenUrl, 'this is not json')).status, 400);
    await keepsServing(1);
    const shape = await post(listenUrl, JSON.stringify({ event: 'collection', reference: 'COL-X' }));
    assert.equal(shape.status, 422);
    assert.match(shape.text, /missing virtualAccount/);
    await keepsServing(2);
    // Another kind of event is answered 200 (the sender must not retry it forever), recorded and shown
    // as not verified, never forwarded; so is a payout whose status cannot be read.
    assert.equal((await post(listenUrl, JSON.stringify({ ...forged('COL-Y'), event: 'bill.paid' }))).status, 200);
    const other = await listener.waitForEvent('COL-Y');
    assert.deepEqual([other.state, other.forwarded, other.amount, other.kind], ['unknown-kind', false, null, 'bill.paid']);
    assert.match(String(other.detail), /not verified: unknown kind "bill.paid"/);
    assert.equal((await post(listenUrl, JSON.stringify({ event: 'payout', reference: 'ACME-NOSTATUS' }))).status, 200);
    const payout = await listener.waitForEvent('ACME-NOSTATUS');
    assert.deepEqual([payout.state, payout.forwarded], ['unknown-kind', false]);
    assert.match(String(payout.detail), /needs a status/);
    await keepsServing(3);
    const huge = ' '.repeat(1024 * 1024 + 10);
    assert.equal((await post(listenUrl, huge)).status, 413);
    await keepsServing(4);
    const get = await fetch(listenUrl);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    await keepsServing(5);
    assert.equal((await post(`http://127.0.0.1:${port}/elsewhere`, JSON.stringify(forged('COL-Z')))).status, 404);
    await keepsServing(6);
    // A sender that hangs up in the middle of its body.
    await new Promise<void>((resolve) => {
      const client = connect(port, '127.0.0.1', () => {
        client.write(`POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"event":`);
        setTimeout(() => client.destroy(), 100);
      });
      client.on('close', () => resolve());
      client.on('error', () => resolve());
    });
    await keepsServing(7);

    await until('the seven good events', () => [1, 2, 3, 4, 5, 6, 7].every((i) => listener.eventsFor(`COL-AFTERBAD${i}`).length === 1));
    for (const [status, what] of [
      [400, 'body is not JSON'],
      [422, 'not a collection notification'],
      [413, 'over the 1048576-byte limit'],
      [405, 'GET is not allowed'],
      [404, 'no notifications at /elsewhere'],
      ['no answer,', 'the sender hung up before the body was complete'],
    ] as const) {
      assert.match(listener.stderr, new RegExp(`rejected \\w+ /\\S* from 127\\.0\\.0\\.1: ${status} [^\\n]*${what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    assert.equal(target.received.length, forwardsBefore, 'nothing was forwarded');
    assert.equal(receivedRecords(home.dataDir).length - recordsBefore, 9, 'only the well-formed events were recorded (the other kinds too)');
    assert.equal(listener.child.exitCode, null);
  });

  test('SIGINT stops it cleanly with exit 0; after a restart, resends are still recognised', async () => {
    const stopped = await listener.stop('SIGINT');
    assert.equal(stopped.code, 0, listener.stderr);
    assert.match(listener.stderr, /stopped: \d+ event\(s\) \(\d+ verified, .*\); \d+ resend\(s\) recognised and not shown again; 54 forwarded/);

    listener = await startListener();
    const forwardsBefore = target.received.length;
    const resend = genuine[0]!;
    const duplicatesBefore = duplicatesOf(home.dataDir, resend.reference);
    assert.equal((await post(listenUrl, JSON.stringify(resend))).status, 200);
    const fresh = await sim.simulator.collect(CLIENT_ACCOUNT, 1_234_567 as Kobo);
    const event = await listener.waitForEvent(fresh.reference);
    assert.equal(event.state, 'verified');
    assert.equal(event.amount, '12345.67');
    await until('the resend to be recorded as a duplicate', () => duplicatesOf(home.dataDir, resend.reference) === duplicatesBefore + 1);
    await until('the fresh event to be forwarded', () => target.received.length > forwardsBefore);
    assert.deepEqual(listener.eventsFor(resend.reference), [], 'the resend is not shown again');
    assert.deepEqual(
      target.received.slice(forwardsBefore).map((r) => (JSON.parse(r.body) as { reference: string }).reference),
      [fresh.reference],
    );

    const stoppedAgain = await listener.stop('SIGTERM');
    assert.equal(stoppedAgain.code, 0);
  });
});

// ---- refusals before listening ------------------------------------------------------------------------

describe('webhook listen refuses to start', () => {
  const home = makeHome();
  after(() => home.cleanup());

  test('--forward-to that is not an http(s) URL: exit 2, nothing listens', async () => {
    for (const bad of ['not a url', 'ftp://127.0.0.1/x', 'mailto:dev@example.com']) {
      const port = await freePort();
      const result = await runCli(['webhook', 'listen', '--port', String(port), '--forward-to', bad], { env: home.env });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^error: --forward-to /m);
      assert.doesNotMatch(result.stderr, /listening on/);
    }
  });

  test('bad --port or --path: exit 2', async () => {
    for (const args of [
      ['--port', '70000'],
      ['--port', 'eighty'],
      ['--port', '-1'],
      ['--path', 'hooks'],
      ['--path', '/a b'],
    ]) {
      const result = await runCli(['webhook', 'listen', ...args], { env: home.env });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    }
  });

  test('a port in use: exit 1 naming the port', async () => {
    const blocker = createNetServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['webhook', 'listen', '--no-verify', '--port', String(port)], { env: home.env });
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`^error: port ${port} on 127\\.0\\.0\\.1 is already in use`, 'm'));
      assert.match(result.stderr, /^hint: /m);
      assert.equal(result.stdout, '', 'nothing on stdout, not even the TSV header');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

// ---- other modes --------------------------------------------------------------------------------------

describe('webhook listen when the app is down', () => {
  const home = makeHome();
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulatorServer({ port: 0, log: () => undefined });
    await logInToSimulator(home.env, sim.url);
  });
  after(async () => {
    await sim.close();
    home.cleanup();
  });

  test('a verified event the app did not take is kept, and the next listener delivers it once', async () => {
    const appPort = await freePort(); // nothing listens there yet: the app is down
    const appUrl = `http://127.0.0.1:${appPort}/app/hooks`;
    const args = ['--profile', 'sim', '--json', 'webhook', 'listen', '--port', String(await freePort()), '--forward-to', appUrl];
    const first = new Listener(args, home.env);
    await first.ready();
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(first.stderr)![1]);
    const notification = await sim.simulator.collect(CLIENT_ACCOUNT, 1_200_000 as Kobo);
    assert.equal((await post(`http://127.0.0.1:${port}/`, JSON.stringify(notification))).status, 200);
    const event = await first.waitForEvent(notification.reference);
    assert.deepEqual([event.state, event.forwarded], ['verified', false]);
    assert.match(first.stderr, /forward of COL-\S+ failed: .*kept, and tried again with backoff/);
    assert.equal((await first.stop('SIGINT')).code, 0, first.stderr);
    assert.match(first.stderr, /1 verified event\(s\) not yet delivered to the app; the next webhook listen with --forward-to tries again/);

    const app = await startForwardTarget(appPort);
    try {
      const second = new Listener(args, home.env);
      await second.ready();
      await until('the delivery', () => app.received.length > 0);
      await until('its note', () => second.stderr.includes(`${notification.reference} delivered to the app on a later try (HTTP 200)`));
      assert.equal((await second.stop('SIGINT')).code, 0, second.stderr);
      assert.doesNotMatch(second.stderr, /not yet delivered/);
      assert.equal(second.stdout, '', 'no second event line');

      const third = new Listener(args, home.env);
      await third.ready();
      assert.equal((await third.stop('SIGINT')).code, 0, third.stderr);
      assert.equal(app.received.length, 1, 'delivered once');
      // The fields left unchecked were kept with the body: the later run claims exactly what was verified.
      assertVerifiedFacts(app.received[0]!, notification);
    } finally {
      await app.close();
    }
  });
});

describe('one webhook listen per data dir', () => {
  const home = makeHome();
  after(() => home.cleanup());

  const startNoVerify = async () => {
    const listener = new Listener(['--json', 'webhook', 'listen', '--no-verify', '--port', String(await freePort())], home.env);
    await listener.ready();
    return listener;
  };
  const refusedSecond = async () => {
    const second = await runCli(['webhook', 'listen', '--no-verify', '--port', String(await freePort())], { env: home.env });
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, /^error: another webhook listen is already using the data dir /m);
    assert.doesNotMatch(second.stderr, /listening on/);
  };

  test('a second listener is refused (exit 1) while the first keeps serving; after a clean stop one starts again', async () => {
    const first = await startNoVerify();
    try {
      await refusedSecond();
      const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(first.stderr)![1]);
      assert.equal((await post(`http://127.0.0.1:${port}/`, JSON.stringify(forged('COL-ONELISTENER')))).status, 200);
      await first.waitForEvent('COL-ONELISTENER');
    } finally {
      assert.equal((await first.stop('SIGINT')).code, 0, first.stderr);
    }
    const again = await startNoVerify();
    assert.equal((await again.stop('SIGINT')).code, 0, again.stderr);
  });

  test('Ctrl+C the moment it says "press Ctrl+C" stops it cleanly (exit 0), every time', async () => {
    // The signal is sent from the stderr handler itself, not after a poll: the narrowest gap there is.
    for (let run = 0; run < 5; run += 1) {
      const listener = new Listener(['webhook', 'listen', '--no-verify', '--port', String(await freePort())], home.env);
      let sent = false;
      listener.child.stderr.on('data', () => {
        if (!sent && listener.stderr.includes('press Ctrl+C to stop')) {
          sent = true;
          listener.child.kill('SIGINT');
        }
      });
      const { code, signal } = await listener.exited;
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, listener.stderr);
      assert.match(listener.stderr, /^SIGINT: stopping/m);
    }
  });

  test('a listener that was killed does not block the next one: its lock died with it', { timeout: 60_000 }, async () => {
    const killed = await startNoVerify();
    await killed.stop('SIGKILL');
    const next = await startNoVerify();
    await refusedSecond();
    assert.equal((await next.stop('SIGINT')).code, 0, next.stderr);
  });
});

describe('webhook listen without a reachable API, and with --no-verify', () => {
  const home = makeHome();
  after(() => home.cleanup());

  test('an event is unverifiable after bounded retries when the API cannot be reached, and not forwarded', async () => {
    const deadApi = await freePort();
    const port = await freePort();
    const target = await startForwardTarget();
    const listener = new Listener(['--json', 'webhook', 'listen', '--port', String(port), '--forward-to', target.url], {
      ...home.env,
      FSAPI_BASE_URL: `http://127.0.0.1:${deadApi}`,
      FSAPI_TOKEN: 'test-token',
    });
    try {
      await listener.ready();
      assert.equal((await post(`http://127.0.0.1:${port}/`, JSON.stringify(forged('COL-NOAPI0001')))).status, 200);
      const event = await listener.waitForEvent('COL-NOAPI0001');
      assert.equal(event.state, 'unverifiable');
      assert.match(String(event.detail), /after 3 tries/);
      assert.equal(event.forwarded, false);
      assert.equal(target.received.length, 0);
      assert.equal((await listener.stop()).code, 0);
    } finally {
      if (listener.child.exitCode === null) await listener.stop('SIGKILL');
      await target.close();
    }
  });

  test('SIGINT while a verification and its forward are in flight: they finish first, then exit 0', async () => {
    // Every API answer takes 1.5 s, so the lookup is still running when the signal comes.
    const slowSim = await startSimulatorServer({ port: 0, latencyMs: 1500, log: () => undefined });
    const target = await startForwardTarget();
    const port = await freePort();
    const slowHome = makeHome();
    const env = { ...slowHome.env, FSAPI_BASE_URL: slowSim.url };
    let listener: Listener | undefined;
    try {
      const login = await runCli(['auth', 'login', '--env', 'sandbox'], {
        env: { ...env, FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey, FSAPI_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret },
      });
      assert.equal(login.code, 0, login.stderr);
      listener = new Listener(['--json', 'webhook', 'listen', '--port', String(port), '--forward-to', target.url], env);
      await listener.ready();
      const notification = await slowSim.simulator.collect(CLIENT_ACCOUNT, 300_000 as Kobo);
      assert.equal((await post(`http://127.0.0.1:${port}/`, JSON.stringify(notification))).status, 200);
      const stopped = await listener.stop('SIGINT');
      assert.equal(stopped.code, 0, listener.stderr);
      assert.match(listener.stderr, /finishing 1 event\(s\) in progress/);
      assert.deepEqual(
        listener.eventsFor(notification.reference).map((e) => [e.state, e.forwarded]),
        [['verified', true]],
      );
      assert.equal(target.received.length, 1);
    } finally {
      if (listener?.child.exitCode === null) await listener.stop('SIGKILL');
      await slowSim.close();
      await target.close();
      slowHome.cleanup();
    }
  });

  test('on a terminal of 80 columns: each event folded within it, the state coloured; Ctrl+C stops it with exit 0', async () => {
    const port = await freePort();
    const child = spawnCliInTerminal(['webhook', 'listen', '--no-verify', '--port', String(port)], home.env, repoRoot, cliPath, 80);
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    try {
      // The start-up notes wrap at 80 columns too.
      await until('the start-up line', () => /press\s+Ctrl\+C\s+to\s+stop/.test(screen));
      const payer = 'MALLORY ADEBAYO-OKONKWO CHUKWUEMEKA OLUWASEUN ABUBAKAR NWACHUKWU';
      const event = { ...forged('COL-TERMINAL01', '1500.50'), sourceAccountName: payer };
      assert.equal((await post(`http://127.0.0.1:${port}/`, JSON.stringify(event))).status, 200);
      const lines = await until('the event lines', () => {
        const shown = screen.replaceAll('\r', '').split('\n');
        const at = shown.findIndex((l) => l.includes('COL-TERMINAL01'));
        return at >= 0 && shown.length > at + 3 ? shown.slice(at, at + 3) : undefined;
      });
      // The outcome at a glance on the first line; whose account and who paid under it, wrapped at words.
      assert.match(lines[0]!, /COL-TERMINAL01 +₦1,500\.50 +\u001b\[33munverified\u001b\[39m/, 'the state is yellow, beside the amount');
      assert.match(stripAnsi(lines[1]!), /^ {10}9900000011$/);
      assert.equal(stripAnsi(lines[2]!), `          ${payer}`);
      for (const line of stripAnsi(screen).replaceAll('\r', '').split('\n')) assert.ok([...line].length <= 80, `over 80 columns: ${line}`);
      child.stdin.write('\u0003'); // Ctrl+C, through the terminal
      assert.equal(await exited, 0);
      assert.match(screen, /stopped: 1 event\(s\) \(1 unverified\)/);
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('--no-verify shows events as unverified, once, in TSV when piped, and forwards nothing', async () => {
    const port = await freePort();
    const target = await startForwardTarget();
    const listener = new Listener(['webhook', 'listen', '--no-verify', '--port', String(port), '--forward-to', target.url], home.env);
    try {
      await listener.ready();
      assert.match(listener.stderr, /verification OFF/);
      assert.match(listener.stderr, /NOT forwarding to http:\/\/127\.0\.0\.1:\d+\/app\/hooks: only verified events are forwarded/);
      const body = JSON.stringify(forged('COL-NOVERIFY01', '1500.50'));
      assert.equal((await post(`http://127.0.0.1:${port}/`, body)).status, 200);
      assert.equal((await post(`http://127.0.0.1:${port}/`, body)).status, 200);
      await until('the event line', () => listener.stdout.includes('COL-NOVERIFY01'));
      assert.equal((await listener.stop()).code, 0);
      const lines = listener.stdout.trimEnd().split('\n');
      assert.equal(lines[0], 'time\treference\taccount\tamount\tpayer\tstate\tforwarded\tdetail');
      assert.equal(lines.length, 2, 'the resend is not shown again');
      const [, reference, account, amount, payer, state, forwarded] = lines[1]!.split('\t');
      assert.deepEqual([reference, account, amount, payer, state, forwarded], ['COL-NOVERIFY01', CLIENT_ACCOUNT, '1500.50', 'MALLORY', 'unverified', 'no']);
      assert.equal(target.received.length, 0);
    } finally {
      if (listener.child.exitCode === null) await listener.stop('SIGKILL');
      await target.close();
    }
  });
});
