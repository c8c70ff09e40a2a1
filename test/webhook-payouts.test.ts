// End to end, with real processes: the simulator served on 127.0.0.1 posts every kind of notification to
// `fsapi webhook listen` (the built CLI), which verifies each and forwards the verified ones, signed, to an
// app made after a public integration's handler: it refunds its user when a withdrawal (payout) fails or
// is reversed, keyed by the transfer's reference, and refuses anything whose signature does not check out
// (checked here with node:crypto, independently of fsapi). Waits are bounded polls for a line, a record or
// a request, never sleeps; the backoff is made short with --retry-for, not waited out.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { cliPath, makeHome, repoRoot, runCli } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { storeRecords } from './helpers/transfer-setup.js';
import { until } from './helpers/until.js';

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  event: Record<string, unknown>;
}

/** Checks `X-Fsapi-Signature: t=<s>,v1=<hex>` against HMAC-SHA256(secret, "<t>.<body>"), 5 minutes' tolerance. */
function signatureValid(secret: string, header: unknown, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header ?? ''));
  if (!match) return false;
  if (Math.abs(Date.now() / 1000 - Number(match[1])) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

/**
 * The app: a withdrawal-refunding handler. A payout with status failed or reversed, or a reversal, refunds
 * the transfer it names, once per reference (its own idempotency). Unsigned or badly signed bodies: 401.
 */
async function startJumpaApp(secret: () => string, answer = 200) {
  const deliveries: Delivery[] = [];
  const refused: Delivery[] = [];
  const refunds = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const event = JSON.parse(body) as Record<string, unknown>;
      const delivery = { headers: request.headers, body, event };
      if (!signatureValid(secret(), request.headers['x-fsapi-signature'], body)) {
        refused.push(delivery);
        response.writeHead(401).end('bad signature');
        return;
      }
      deliveries.push(delivery);
      if (answer !== 200) {
        response.writeHead(answer).end('no');
        return;
      }
      const name = String(event.event).toLowerCase();
      const failed = name.startsWith('payout') && (event.status === 'failed' || event.status === 'reversed');
      const key = name.startsWith('revers') ? String(event.originalReference) : String(event.reference);
      // Its own idempotency: a second failure event of a refunded transfer refunds nothing.
      if ((failed || name.startsWith('revers')) && !refunds.has(key)) refunds.set(key, 1);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/webhooks/bellbank`,
    deliveries,
    refused,
    refunds,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

class Listener {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly exited: Promise<unknown>;
  constructor(args: string[], env: Record<string, string>) {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('FSAPI_') && key !== 'NO_COLOR' && key !== 'FORCE_COLOR'),
    );
    this.child = spawn(process.execPath, [cliPath, ...args], { cwd: repoRoot, env: { ...inherited, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 180_000);
    timer.unref();
  }
  async ready(): Promise<void> {
    await until('the listener to start', () => this.stderr.includes('press Ctrl+C to stop') || this.child.exitCode !== null);
    assert.equal(this.child.exitCode, null, this.stderr);
  }
  events(): Array<Record<string, unknown>> {
    return this.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
  async stop() {
    this.child.kill('SIGINT');
    await this.exited;
  }
}

/** Every received event of `reference` has an outcome: the listener is done with them. */
function settled(dataDir: string, reference: string, count: number): boolean {
  const records = storeRecords(dataDir, 'events').map((line) => JSON.parse(line) as Record<string, unknown>);
  const received = records.filter((record) => record.kind === 'received' && record.reference === reference);
  if (received.length < count) return false;
  return received.every((r) => records.some((o) => o.kind === 'outcome' && o.id === r.id));
}

describe('payouts and reversals reach the app, verified and signed', () => {
  const home = makeHome();
  let simulator: RunningSimulator;
  let listener: Listener;
  let app: Awaited<ReturnType<typeof startJumpaApp>>;
  let secret = '';
  let listenerUrl = '';

  before(async () => {
    const port = await freePort();
    listenerUrl = `http://127.0.0.1:${port}/`;
    simulator = await startSimulatorServer({ port: 0, webhookUrl: listenerUrl, settleSeconds: 1 });
    await logInToSimulator(home.env, simulator.url);
    const printed = await runCli(['--profile', 'sim', 'webhook', 'secret'], { env: home.env });
    assert.equal(printed.code, 0, printed.stderr);
    secret = printed.stdout.trim();
    assert.match(secret, /^fsapi_whsec_[0-9a-f]{64}$/);
    app = await startJumpaApp(() => secret);
    listener = new Listener(['--profile', 'sim', 'webhook', 'listen', '--port', String(port), '--forward-to', app.url, '--json'], home.env);
    await listener.ready();
    assert.match(listener.stderr, /forwards are signed/);
  });

  after(async () => {
    await listener?.stop();
    await simulator?.close();
    await app?.close();
    home.cleanup();
  });

  test('a failed payout refunds once; the pending event before it does not', async () => {
    const triggered = await runCli(['--profile', 'sim', 'simulator', 'trigger', 'payout.failed', '--json'], { env: home.env });
    assert.equal(triggered.code, 0, triggered.stderr);
    const result = JSON.parse(triggered.stdout) as { reference: string; events: Array<{ event: string; status: string }> };
    assert.deepEqual(
      result.events.map((event) => `${event.event} ${event.status}`),
      ['payout pending', 'payout failed'],
    );
    await until('both payout events to be handled', () => settled(home.dataDir, result.reference, 2));
    await until('the refund', () => app.refunds.has(result.reference));
    assert.equal(app.refunds.get(result.reference), 1);
    const forwarded = app.deliveries.filter((d) => d.event.reference === result.reference && d.event.status === 'failed');
    assert.equal(forwarded.length, 1, 'the app hears of the failure once');
    assert.deepEqual(
      app.deliveries.filter((d) => d.event.reference === result.reference).map((d) => d.event.status),
      ['pending', 'failed'],
    );
    assert.equal(forwarded[0]!.event.failureReason, 'Beneficiary bank not available');
    assert.equal(forwarded[0]!.headers['x-fsapi-verification'], 'verified');
    assert.match(String(forwarded[0]!.headers['x-fsapi-verified-fields']), /^event,reference,amount,destinationAccountNumber,/);
    assert.equal(forwarded[0]!.headers['x-fsapi-unverified-fields'], 'failureReason');
    // The line comes after the outcome is recorded: wait for it, not for the record.
    const shown = await until('both event lines', () => {
      const lines = listener.events().filter((event) => event.reference === result.reference);
      return lines.length >= 2 && lines;
    });
    assert.deepEqual(
      shown.map((event) => `${event.kind} ${event.status} ${event.state}`),
      ['payout pending verified', 'payout failed verified'],
    );

    // The API sending the failure again is recognised: the app is not told (nor refunded) twice.
    const again = await fetch(listenerUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...result.events[1], updatedAt: Date.now() }),
    });
    assert.equal(again.status, 200);
    await until('the repeat to be handled', () => settled(home.dataDir, result.reference, 3));
    assert.equal(app.deliveries.filter((d) => d.event.reference === result.reference && d.event.status === 'failed').length, 1);
  });

  test('a reversed payout and its reversal credit each reach the app, in that order, saying only what came; the user is refunded once', async () => {
    const triggered = await runCli(['--profile', 'sim', 'simulator', 'trigger', 'payout.reversed', '--json'], { env: home.env });
    assert.equal(triggered.code, 0, triggered.stderr);
    const { reference, events } = JSON.parse(triggered.stdout) as { reference: string; events: Array<Record<string, unknown>> };
    await until('the payout events', () => settled(home.dataDir, reference, 2));
    await until('the reversal event', () => settled(home.dataDir, `R-${reference}`, 1));
    const reversal = await until('the reversal forward', () => app.deliveries.find((d) => d.event.reference === `R-${reference}`));
    assert.equal(reversal.event.event, 'reversal');
    assert.equal(reversal.event.originalReference, reference);
    assert.deepEqual(
      app.deliveries.filter((d) => d.event.reference === reference).map((d) => d.event.status),
      ['pending', 'reversed'],
    );
    assert.equal(app.refunds.get(reference), 1);
    const order = app.deliveries
      .filter((d) => d.event.reference === reference || d.event.reference === `R-${reference}`)
      .map((d) => `${d.event.event} ${d.event.status}`);
    assert.deepEqual(order, ['payout pending', 'payout reversed', 'reversal successful']);
    // Only what came: each forward has exactly the fields of the notification it stands for; the reversed
    // payout came without a failureReason, so it is forwarded without one.
    for (const sent of events) {
      const forwarded = app.deliveries.find((d) => d.event.reference === sent.reference && d.event.status === sent.status);
      assert.ok(forwarded, `${String(sent.event)} ${String(sent.status)}`);
      assert.deepEqual(Object.keys(forwarded.event), Object.keys(sent), `${String(sent.event)} ${String(sent.status)}`);
    }
    const reversed = app.deliveries.find((d) => d.event.reference === reference && d.event.status === 'reversed')!;
    assert.equal('failureReason' in reversed.event, false);
    assert.equal(reversed.headers['x-fsapi-unverified-fields'], '');
  });

  test('forgeries never refund: a failed payout for a transfer that went through, a reversal of nothing, an unsigned post', async () => {
    const triggered = await runCli(['--profile', 'sim', 'simulator', 'trigger', 'payout', '--json'], { env: home.env });
    assert.equal(triggered.code, 0, triggered.stderr);
    const { reference, events } = JSON.parse(triggered.stdout) as { reference: string; events: Array<Record<string, unknown>> };
    await until('the genuine payout', () => settled(home.dataDir, reference, 2));
    await until('the successful payout at the app', () => app.deliveries.some((d) => d.event.reference === reference && d.event.status === 'successful'));

    const forged = { ...events[1], status: 'failed', failureReason: 'forged' };
    const post = (body: unknown) => fetch(listenerUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post(forged)).status, 200, 'acknowledged, then judged');
    assert.equal((await post({ event: 'reversal', reference: `R-${reference}`, amount: 1000 })).status, 200);
    await until('the forged payout to be judged', () => listener.events().some((e) => e.reference === reference && e.state === 'mismatch'));
    const judged = await until('the forged reversal to be judged', () => listener.events().find((e) => e.reference === `R-${reference}`));
    assert.equal(judged.state, 'not-found');

    // Straight to the app, with the listener's headers but no valid signature: the app refuses it.
    const direct = await fetch(app.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-fsapi-verification': 'verified',
        'x-fsapi-verified-fields': 'event,reference,status',
        'x-fsapi-signature': 't=1,v1=' + '0'.repeat(64),
      },
      body: JSON.stringify(forged),
    });
    assert.equal(direct.status, 401);
    assert.equal(app.refunds.has(reference), false);
    assert.deepEqual(
      app.deliveries.filter((d) => d.event.reference === reference).map((d) => d.event.status),
      ['pending', 'successful'],
    );
  });

  test('every trigger reaches the app, and every forward is signed with the profile secret', async () => {
    for (const kind of ['collection', 'payout', 'payout.failed', 'payout.reversed', 'reversal']) {
      const triggered = await runCli(['--profile', 'sim', 'simulator', 'trigger', kind, '--json'], { env: home.env });
      assert.equal(triggered.code, 0, `${kind}: ${triggered.stderr}`);
      const { reference } = JSON.parse(triggered.stdout) as { reference: string };
      const wanted = kind === 'reversal' ? `R-${reference}` : reference;
      await until(`${kind} at the app`, () => app.deliveries.some((d) => d.event.reference === wanted));
    }
    assert.equal(app.refused.length, 1, 'only the hand-made forgery was refused');
    for (const delivery of app.deliveries) assert.ok(signatureValid(secret, delivery.headers['x-fsapi-signature'], delivery.body));
  });

  test('events list shows every kind; resend delivers one verified event once, marked', async () => {
    const listed = await runCli(['--profile', 'sim', 'webhook', 'events', 'list', '--kind', 'collection', '--json'], { env: home.env });
    assert.equal(listed.code, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout) as Array<{ id: string; reference: string; state: string; kind: string }>;
    const collection = rows.find((row) => row.state === 'verified');
    assert.ok(collection, listed.stdout);
    const before = app.deliveries.filter((d) => d.event.reference === collection.reference).length;
    const resent = await runCli(['--profile', 'sim', 'webhook', 'events', 'resend', collection.id], { env: home.env });
    assert.equal(resent.code, 0, resent.stderr);
    const copies = app.deliveries.filter((d) => d.event.reference === collection.reference);
    assert.equal(copies.length, before + 1);
    assert.equal(copies.at(-1)!.headers['x-fsapi-resend'], '1');

    const kinds = JSON.parse((await runCli(['--profile', 'sim', 'webhook', 'events', 'list', '--json'], { env: home.env })).stdout) as Array<{ kind: string }>;
    for (const kind of ['collection', 'payout', 'reversal'])
      assert.ok(
        kinds.some((row) => row.kind === kind),
        kind,
      );
  });
});

describe("a reversal reaches the app after its payout's reversed event, whatever order they arrive in", () => {
  // The simulator sends nothing here: each test takes the notifications a trigger made and posts them to
  // the listener in the order it wants, as a sender whose deliveries overtake each other would.
  const home = makeHome();
  let simulator: RunningSimulator;
  let app: Awaited<ReturnType<typeof startJumpaApp>>;
  let port = 0;
  let listener: Listener | undefined;

  before(async () => {
    simulator = await startSimulatorServer({ port: 0 });
    await logInToSimulator(home.env, simulator.url);
    const secret = (await runCli(['--profile', 'sim', 'webhook', 'secret'], { env: home.env })).stdout.trim();
    app = await startJumpaApp(() => secret);
    port = await freePort();
  });

  after(async () => {
    await listener?.stop();
    await simulator?.close();
    await app?.close();
    home.cleanup();
  });

  async function startListener(): Promise<Listener> {
    const started = new Listener(['--profile', 'sim', 'webhook', 'listen', '--port', String(port), '--forward-to', app.url, '--json'], home.env);
    await started.ready();
    return started;
  }

  /** The three notifications of a reversed transfer, by name: pending, reversed, reversal. */
  async function reversedTransfer() {
    const triggered = await runCli(['--profile', 'sim', 'simulator', 'trigger', 'payout.reversed', '--json'], { env: home.env });
    assert.equal(triggered.code, 0, triggered.stderr);
    const { reference, events } = JSON.parse(triggered.stdout) as { reference: string; events: Array<Record<string, unknown>> };
    const [pending, reversed, reversal] = events;
    assert.deepEqual([pending!.status, reversed!.status, reversal!.event], ['pending', 'reversed', 'reversal']);
    return { reference, pending: pending!, reversed: reversed!, reversal: reversal! };
  }

  async function post(body: Record<string, unknown>): Promise<void> {
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(answer.status, 200);
  }

  /** What the app heard of this transfer, in order. */
  const heard = (reference: string) =>
    app.deliveries.filter((d) => d.event.reference === reference || d.event.reference === `R-${reference}`).map((d) => `${d.event.event} ${d.event.status}`);

  const state = async (reference: string) => {
    const list = await runCli(['--profile', 'sim', 'webhook', 'events', 'list', '--kind', 'reversal', '--json'], { env: home.env });
    return (JSON.parse(list.stdout) as Array<{ reference: string; state: string }>).find((row) => row.reference === reference)?.state;
  };

  test('in order: the reversal goes at once, after the reversed payout', async () => {
    listener = await startListener();
    const transfer = await reversedTransfer();
    await post(transfer.pending);
    await post(transfer.reversed);
    await until('the reversed payout at the app', () => heard(transfer.reference).includes('payout reversed'));
    await post(transfer.reversal);
    await until('the reversal at the app', () => heard(transfer.reference).length === 3);
    assert.deepEqual(heard(transfer.reference), ['payout pending', 'payout reversed', 'reversal successful']);
    assert.doesNotMatch(listener.stderr, new RegExp(`R-${transfer.reference} held`));
  });

  test('reversal first: it is held, listed as held, and reaches the app right after the reversed payout', async () => {
    const transfer = await reversedTransfer();
    await post(transfer.pending);
    await post(transfer.reversal);
    await until('the hold', () => listener!.stderr.includes(`R-${transfer.reference} held until payout ${transfer.reference}'s reversed event`));
    assert.equal(await state(`R-${transfer.reference}`), 'held');
    assert.deepEqual(heard(transfer.reference), ['payout pending']);
    await post(transfer.reversed);
    await until('the reversal at the app', () => heard(transfer.reference).length === 3);
    assert.deepEqual(heard(transfer.reference), ['payout pending', 'payout reversed', 'reversal successful']);
    assert.equal(await state(`R-${transfer.reference}`), 'verified');
    assert.equal(app.refunds.get(transfer.reference), 1);
  });

  test('reversal first, then a restart: the next listener still holds it, and sends it after the reversed payout', async () => {
    const transfer = await reversedTransfer();
    await post(transfer.reversal);
    await until('the hold', () => listener!.stderr.includes(`R-${transfer.reference} held until`));
    await listener!.stop();
    assert.match(listener!.stderr, /1 reversal\(s\) held for their payout's reversed event/);
    assert.equal(await state(`R-${transfer.reference}`), 'held');

    listener = await startListener();
    assert.match(listener.stderr, /1 reversal\(s\) held for their payout's reversed event/);
    await post(transfer.pending);
    await post(transfer.reversed);
    await until('the reversal at the app', () => heard(transfer.reference).length === 3);
    assert.deepEqual(heard(transfer.reference), ['payout pending', 'payout reversed', 'reversal successful']);
  });
});

describe('retries that end', () => {
  const home = makeHome();
  let simulator: RunningSimulator;
  let listener: Listener;
  let app: Awaited<ReturnType<typeof startJumpaApp>>;

  after(async () => {
    await listener?.stop();
    await simulator?.close();
    await app?.close();
    home.cleanup();
  });

  test('an app answering 403 to everything is given up on after --retry-for; the event shows failed', async () => {
    const port = await freePort();
    simulator = await startSimulatorServer({ port: 0, webhookUrl: `http://127.0.0.1:${port}/` });
    await logInToSimulator(home.env, simulator.url);
    const secret = (await runCli(['--profile', 'sim', 'webhook', 'secret'], { env: home.env })).stdout.trim();
    app = await startJumpaApp(() => secret, 403);
    listener = new Listener(
      ['--profile', 'sim', 'webhook', 'listen', '--port', String(port), '--forward-to', app.url, '--retry-for', '3s', '--json'],
      home.env,
    );
    await listener.ready();
    const triggered = await runCli(['--profile', 'sim', 'simulator', 'trigger', 'collection', '--json'], { env: home.env });
    assert.equal(triggered.code, 0, triggered.stderr);
    const { reference } = JSON.parse(triggered.stdout) as { reference: string };
    await until('the listener to give up', () => listener.stderr.includes(`gave up forwarding ${reference}`), 60_000);
    assert.ok(app.deliveries.length >= 2, 'tried more than once before giving up');

    const listed = await runCli(['--profile', 'sim', 'webhook', 'events', 'list', '--state', 'failed', '--json'], { env: home.env });
    const rows = JSON.parse(listed.stdout) as Array<{ id: string; reference: string; attempts: number }>;
    const row = rows.find((r) => r.reference === reference);
    assert.ok(row, listed.stdout);
    assert.ok(row.attempts >= 2);
    const shown = await runCli(['--profile', 'sim', 'webhook', 'events', 'show', row.id, '--json'], { env: home.env });
    const event = JSON.parse(shown.stdout) as { state: string; outcomes: Array<{ lastAnswer?: string }> };
    assert.equal(event.state, 'failed');
    assert.match(event.outcomes.at(-1)!.lastAnswer ?? '', /HTTP 403/);
    // Given up means given up: no more tries once failed.
    const tries = app.deliveries.length;
    const again = await runCli(['--profile', 'sim', 'webhook', 'events', 'list', '--state', 'failed', '--json'], { env: home.env });
    assert.equal(again.code, 0);
    assert.equal(app.deliveries.length, tries);
  });
});

describe('simulator collect --json in realistic mode', () => {
  const home = makeHome();
  after(() => home.cleanup());

  test('prints the body the receiver got: amountReceived "25000.0", a numeric virtualAccount', async () => {
    const bodies: string[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        bodies.push(body);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
      const result = await runCli(['simulator', 'collect', '9900000011', '--amount', '25000', '--webhook-url', url, '--json'], {
        env: { ...home.env, FSAPI_SIM_REALISTIC: '1' },
      });
      assert.equal(result.code, 0, result.stderr);
      const printed = JSON.parse(result.stdout) as Record<string, unknown>;
      assert.equal(bodies.length, 1);
      assert.deepEqual(printed, JSON.parse(bodies[0]!));
      assert.equal(printed.amountReceived, '25000.0');
      assert.equal(printed.virtualAccount, 9900000011);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
