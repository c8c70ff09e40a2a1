// `webhook events show` and `webhook events resend` over an event log written here (the local store of a
// fresh data dir), run through the real command tree in this process; the app a resend reaches is a real
// HTTP server on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { EventLogWriter, type OutcomeRecord } from '../src/notifications/event-log.js';
import { newReceivedRecord } from '../src/notifications/event-processor.js';
import { homePool } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';

const pool = homePool();
after(() => pool.cleanup());

/** A received event and its outcomes, written as the listener writes them; returns its id. */
async function seed(
  dataDir: string,
  body: string,
  reference: string,
  outcomes: Array<Omit<OutcomeRecord, 'kind' | 'id' | 'at' | 'reference'>>,
): Promise<string> {
  const log = await EventLogWriter.open(dataDir);
  const received = newReceivedRecord(new Date('2026-11-20T10:00:00Z'), reference, Buffer.from(body), body);
  await log.append(received);
  for (const outcome of outcomes) await log.append({ kind: 'outcome', id: received.id, at: '2026-11-20T10:00:01.000Z', reference, ...outcome });
  log.close();
  return received.id;
}

async function startApp(status: number) {
  const seen: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('webhook events show', () => {
  // What a sender wrote: a one-decimal amount and a two-decimal number (not to be "corrected" by a
  // re-print), a long remark, a control sequence escaped in JSON (harmless text), and raw characters a
  // terminal would obey or that reverse the text (C1 CSI, right-to-left override).
  const remark = `rent for flat 3B ${'and the service charge '.repeat(12)}end`;
  const body = `{"event":"collection","reference":"COL-SHOW1","virtualAccount":9900000011,"amountReceived":"25000.0","netAmount":24937.50,"remarks":"${remark}","sourceAccountName":"ADA \\u001b]0;pwned\\u0007 OBI","sourceBankName":"GT\u009b2JBank \u202eknaB","meta":{},"list":[]}`;
  const forwarded = '{"event":"collection","reference":"COL-SHOW1","amountReceived":"25000.00"}';

  test('on a terminal: the bodies whole, indented, tokens as written, nothing wider than 80 columns, nothing a terminal obeys', async () => {
    const home = pool.home();
    const id = await seed(home.dataDir, body, 'COL-SHOW1', [
      { state: 'verified', field: null, detail: 'ok; forwarded (HTTP 200)', forwarded: true, forwardBody: forwarded, forwardUnverified: ['remarks'] },
    ]);
    const shown = await runInProcess(['webhook', 'events', 'show', id.slice(0, 8)], { env: home.env, tty: true, columns: 80 });
    assert.equal(shown.code, 0, shown.stderr);
    const screen = shown.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    for (const line of screen.split('\n')) assert.ok([...line].length <= 80, `wider than 80: ${JSON.stringify(line)}`);
    assert.match(
      screen,
      /Body received\n {2}\{\n {4}"event": "collection",\n {4}"reference": "COL-SHOW1",\n {4}"virtualAccount": 9900000011,\n {4}"amountReceived": "25000\.0",\n {4}"netAmount": 24937\.50,/,
    );
    assert.match(screen, /"meta": \{\},\n {4}"list": \[\]\n {2}\}/, 'empty objects and arrays stay on their line');
    // Whole: the long remark is all there, folded, not cut.
    const folded = screen.slice(screen.indexOf('"remarks"'), screen.indexOf('"sourceAccountName"'));
    assert.equal(folded.replace(/\n +/g, ''), `"remarks": "${remark}",\n    `.replace(/\n +/g, ''));
    assert.ok(folded.split('\n').length > 3, 'folded over several lines');
    // Safe: the escaped sequence stays text; the raw C1 and bidi characters are shown as U+FFFD.
    assert.ok(screen.includes('"ADA \\u001b]0;pwned\\u0007 OBI"'));
    assert.ok(screen.includes('"GT\uFFFD2JBank \uFFFDknaB"'));
    assert.doesNotMatch(shown.stdout, /[\u0080-\u009f\u202e]/);
    assert.match(screen, /Body forwarded\n {2}\{\n {4}"event": "collection",/);
    assert.match(screen, /Unverified +remarks/);
  });

  test('piped: one TSV record with each body compact; --json: the bodies as JSON values', async () => {
    const home = pool.home();
    const id = await seed(home.dataDir, body, 'COL-SHOW1', [
      { state: 'verified', field: null, detail: 'ok', forwarded: true, forwardBody: forwarded, forwardUnverified: [] },
    ]);
    const piped = await runInProcess(['webhook', 'events', 'show', id], { env: home.env });
    assert.equal(piped.code, 0, piped.stderr);
    const [header, line, extra] = piped.stdout.split('\n');
    assert.equal(extra, '');
    assert.deepEqual(header!.split('\t').slice(-3), ['Unverified', 'Body received', 'Body forwarded']);
    assert.equal(line!.split('\t').at(-1), forwarded);
    const json = await runInProcess(['webhook', 'events', 'show', id, '--json'], { env: home.env });
    const event = JSON.parse(json.stdout) as { body: Record<string, unknown>; forwardBody: Record<string, unknown> };
    assert.equal(event.body.remarks, remark);
    assert.deepEqual(event.forwardBody, JSON.parse(forwarded));
  });
});

describe('webhook events resend records what it did', () => {
  const payout = '{"event":"payout","reference":"ACME-RS1","status":"failed","failureReason":"Beneficiary bank not available"}';
  const failedOutcomes = [
    {
      state: 'verified' as const,
      field: null,
      detail: 'ok; forward failed: HTTP 403; kept to try again',
      forwarded: false,
      undelivered: true,
      forwardBody: payout,
      forwardUnverified: ['failureReason'],
      eventStatus: 'failed',
      firstFailedAt: '2026-11-20T10:00:01.000Z',
      attempts: 1,
    },
    {
      state: 'failed' as const,
      field: null,
      detail: 'not delivered: still refused after 3 d, 4 tries; last answer: HTTP 403',
      forwarded: false,
      forwardBody: payout,
      forwardUnverified: ['failureReason'],
      eventStatus: 'failed',
      firstFailedAt: '2026-11-20T10:00:01.000Z',
      attempts: 4,
      lastAnswer: 'HTTP 403',
    },
  ];

  async function listed(env: Record<string, string>) {
    const list = await runInProcess(['webhook', 'events', 'list', '--json'], { env });
    assert.equal(list.code, 0, list.stderr);
    return JSON.parse(list.stdout) as Array<{ id: string; state: string; forwarded: boolean; attempts: number; detail: string }>;
  }

  test('a failed event the app takes on resend is listed delivered, with the try counted', async () => {
    const home = pool.home();
    const id = await seed(home.dataDir, payout, 'ACME-RS1', failedOutcomes);
    assert.equal((await listed(home.env))[0]!.state, 'failed');
    const app = await startApp(200);
    try {
      const resent = await runInProcess(['webhook', 'events', 'resend', id, '--forward-to', app.url, '--json'], { env: home.env });
      assert.equal(resent.code, 0, resent.stderr);
      assert.deepEqual(JSON.parse(resent.stdout), { id, reference: 'ACME-RS1', target: app.url, delivered: true, status: 200, attempts: 5, recorded: true });
      assert.equal(app.seen.length, 1);
      assert.equal(app.seen[0]!.body, payout);
      assert.equal(app.seen[0]!.headers['x-fsapi-resend'], '1');
    } finally {
      await app.close();
    }
    const [row] = await listed(home.env);
    assert.deepEqual([row!.state, row!.forwarded, row!.attempts], ['verified', true, 5]);
    assert.match(row!.detail, /delivered by webhook events resend \(HTTP 200\)/);
    const failed = await runInProcess(['webhook', 'events', 'list', '--state', 'failed', '--json'], { env: home.env });
    assert.deepEqual(JSON.parse(failed.stdout), [], 'no longer listed as failed');
    const shown = JSON.parse((await runInProcess(['webhook', 'events', 'show', id, '--json'], { env: home.env })).stdout) as { outcomes: OutcomeRecord[] };
    const last = shown.outcomes.at(-1)!;
    assert.deepEqual([last.resent, last.forwarded, last.eventStatus], [true, true, 'failed']);
  });

  test('a resend the app refuses is recorded too: the event stays failed, the try and the answer added', async () => {
    const home = pool.home();
    const id = await seed(home.dataDir, payout, 'ACME-RS1', failedOutcomes);
    const app = await startApp(403);
    try {
      const resent = await runInProcess(['webhook', 'events', 'resend', id, '--forward-to', app.url], { env: home.env });
      assert.equal(resent.code, 1);
      assert.match(resent.stderr, /resend of ACME-RS1 failed: .*HTTP 403/);
    } finally {
      await app.close();
    }
    const [row] = await listed(home.env);
    assert.deepEqual([row!.state, row!.forwarded, row!.attempts], ['failed', false, 5]);
    const shown = JSON.parse((await runInProcess(['webhook', 'events', 'show', id, '--json'], { env: home.env })).stdout) as { outcomes: OutcomeRecord[] };
    const last = shown.outcomes.at(-1)!;
    assert.deepEqual([last.resent, last.state, last.firstFailedAt], [true, 'failed', '2026-11-20T10:00:01.000Z']);
    assert.match(last.lastAnswer ?? '', /HTTP 403/);
  });
});
