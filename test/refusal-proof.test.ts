// "Refused, no money moved" only when the answer proves it (docs/cli-contract.md, "Transfers" item 7;
// src/transfers/refusal-proof.ts). A proxy (test/fixtures/hostile-api.ts, set up by test/helpers/proxied-simulator.ts) in front of the served simulator passes
// POST /v1/transfer on, so the simulator takes the money, and then answers 401, a 303 with a JSON body, a
// 400 with the error shape to a reference already sent, or a 429 (to every lookup too). fsapi must look the
// reference up, report what it found (or that the outcome is unknown), and no later run may pay twice.
// Also the client alone: no second POST after a 401. The 429 cases run in the test's process on a clock
// that skips the rate limit's waits (minutes of real time otherwise).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import {
  afterRateLimit,
  answerProvesNothingMoved,
  errorProvesNothingMoved,
  isRateLimitAnswer,
  rawAnswerProvesNothingMoved,
} from '../src/transfers/refusal-proof.js';
import { API_RATE_LIMIT, triesOf } from '../src/common/retry.js';
import { RATE_LIMITED_SENDS } from '../src/transfers/rate-limit.js';
import { FakeClock } from './helpers/context.js';
import { ApiError, AuthError, TransportError } from '../src/errors.js';
import { stripAnsi, type RunOptions } from './helpers/cli.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { startProxiedSimulator, type ProxiedSimulator } from './helpers/proxied-simulator.js';

/** The waits the HTTP layer allows one request answered 429 (src/common/retry.ts). */
const RATE_LIMIT_WAITS = triesOf(API_RATE_LIMIT) - 1;

type Setup = ProxiedSimulator;

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

// The profile keeps its credentials: a 401 is followed by a silent renewal.
const start = async (): Promise<Setup> => (setup = await startProxiedSimulator({ saveCredentials: true }));

const transfersTaken = (s: Setup) => s.reached().filter((line) => line === 'POST /v1/transfer 200').length;
const postsReached = (s: Setup) => s.posts();
const looked = (s: Setup, reference: string) => s.reached().filter((line) => line.startsWith(`GET /v1/transactions/reference/${reference} `)).length;

const ERROR_SHAPE = JSON.stringify({ success: false, message: 'Request Un-Successful', data: null });
/** The body of a raw `fsapi api POST /v1/transfer` of ₦12 under `reference`. */
const rawTransfer = (reference: string) =>
  JSON.stringify({ beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456781', narration: 'raw', amount: 12, reference });
const send = (reference: string, ...extra: string[]) => [
  'transfer',
  'send',
  '0123456781',
  '--bank',
  'gtb',
  '--amount',
  '1200',
  '--narration',
  'proof',
  '--reference',
  reference,
  '--yes',
  ...extra,
];

/** The same send of ₦3,000: with a daily maximum of ₦5,000, one more of ₦2,500 would pass it. */
const send3000 = (reference: string, ...extra: string[]) => send(reference, ...extra).map((arg) => (arg === '1200' ? '3000' : arg));

describe('transfer send: an answer after the API took the transfer is looked up, never "no money moved"', () => {
  const cases: Array<[string, { status: number; body: string; headers?: Record<string, string> }, RegExp]> = [
    [
      '401',
      { status: 401, body: JSON.stringify({ success: false, message: 'Unauthorized', data: null }) },
      /the transfer was answered HTTP 401: Unauthorized; it does not prove the API did not take the transfer/,
    ],
    [
      '303 with a JSON body',
      { status: 303, body: JSON.stringify({ success: true, message: 'See Other' }), headers: { location: 'https://elsewhere.example/v1/transfer' } },
      /redirect \(HTTP 303 to https:\/\/elsewhere\.example\/v1\/transfer\).*it does not prove/,
    ],
  ];
  for (const [name, answer, said] of cases) {
    it(`${name}: looked up, found, exit 0; the same send again pays nothing more`, async () => {
      const s = await start();
      s.proxy.options.answerTransfersWith = { forward: true, ...answer };
      const reference = `ACME-PROOF-${answer.status}`;
      const sent = await s.run(send(reference, '--json'));
      assert.equal(sent.code, 0, sent.stderr);
      assert.match(sent.stderr, said);
      assert.doesNotMatch(sent.stderr, /no money moved|nothing moved|refused it/i);
      assert.match(sent.stderr, new RegExp(`the lookup by reference found ${reference}: .*it was not sent again`));
      assert.ok(looked(s, reference) >= 1, `the simulator saw the lookup: ${s.reached().join(', ')}`);
      assert.equal((JSON.parse(sent.stdout) as { reference: string }).reference, reference, 'the looked-up record');
      // One POST only: the 401 renewed the token (for the lookup) and did not send the transfer again.
      assert.equal(postsReached(s), 1, s.reached().join(', '));
      if (answer.status === 401) assert.ok(s.reached().includes('POST /v1/generate-token 200'), 'renewed for the lookup');

      // Again, the same reference: a reference pays once (exit 2, nothing sent).
      const again = await s.run(send(reference));
      assert.equal(again.code, 2, again.stderr);
      assert.match(again.stderr, /already used/);
      // Again without a reference: the duplicate guard stops it without a terminal.
      const duplicate = await s.run(['transfer', 'send', '0123456781', '--bank', 'gtb', '--amount', '1200', '--narration', 'proof', '--yes']);
      assert.equal(duplicate.code, 2, duplicate.stderr);
      assert.equal(postsReached(s), 1, 'exactly one POST /v1/transfer reached the simulator');
      assert.equal(transfersTaken(s), 1);
      assert.equal(await s.held(reference), 1, 'the simulator holds the transfer once');
    });
  }

  it('400 with the error shape: proof to the first POST of a reference, not to a resend of it', async () => {
    const s = await start();
    const reference = 'ACME-PROOF-RESEND';
    // The first POST is refused before it reaches the API: a true refusal, and proof of one.
    s.proxy.options.answerTransfersWith = { forward: false, status: 400, body: ERROR_SHAPE };
    const refused = await s.run(send(reference));
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /refused/i);
    assert.equal(postsReached(s), 0);
    assert.equal(looked(s, reference), 0, 'proof needs no lookup');

    // The resend of the refused reference reaches the API, which takes it; the answer is the same 400.
    s.proxy.options.answerTransfersWith = { forward: true, status: 400, body: ERROR_SHAPE };
    const resent = await s.run(send(reference, '--json'));
    assert.equal(resent.code, 0, resent.stderr);
    assert.match(resent.stderr, /the resend was answered HTTP 400: Request Un-Successful; an answer to a reference sent before proves nothing/);
    assert.doesNotMatch(resent.stderr, /no money moved|nothing moved/i);
    assert.ok(looked(s, reference) >= 1, 'looked up');
    assert.equal((JSON.parse(resent.stdout) as { reference: string }).reference, reference, 'the looked-up record');
    assert.equal(transfersTaken(s), 1);

    const third = await s.run(send(reference));
    assert.equal(third.code, 2, third.stderr);
    assert.equal(postsReached(s), 1, 'exactly one POST /v1/transfer reached the simulator');
    assert.equal(await s.held(reference), 1);
    const log = JSON.parse((await s.run(['transfer', 'log', '--json'])).stdout) as Array<{ reference: string; state: string }>;
    assert.equal(log.find((t) => t.reference === reference)?.state, 'reconciled');
  });

  it('a resend refused with nothing found: outcome unknown (exit 5), not "no money moved"', async () => {
    const s = await start();
    const reference = 'ACME-PROOF-NONE';
    s.proxy.options.answerTransfersWith = { forward: false, status: 400, body: ERROR_SHAPE };
    assert.equal((await s.run(send(reference))).code, 1);
    const resent = await s.run(send(reference));
    assert.equal(resent.code, 5, resent.stderr);
    assert.match(resent.stderr, /outcome unknown for ACME-PROOF-NONE: the resend was answered HTTP 400: .*found nothing/);
    assert.equal(looked(s, reference), 3, 'the whole schedule of lookups');
    assert.equal(postsReached(s), 0);
  });
});

describe('transfer batch: a row answered 401 after the API took it', () => {
  it('is looked up and found; the re-run sends nothing', async () => {
    const s = await start();
    s.proxy.options.answerTransfersWith = { forward: true, status: 401, body: JSON.stringify({ success: false, message: 'Unauthorized', data: null }) };
    const file = path.join(s.home.root, 'pay.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n0123456781,gtb,100,one\n');
    for (const run of ['first', 'again']) {
      const result = await s.run(['transfer', 'batch', file, '--yes', '--concurrency', '1']);
      assert.equal(result.code, 0, `${run}: ${result.stderr}`);
      const [row] = parse(readFileSync(`${file}.report.csv`), { columns: true }) as Array<{ status: string; reference: string; message: string }>;
      assert.match(row!.status, /^(pending|successful)$/, `${run}: ${row!.message}`);
      assert.doesNotMatch(row!.message, /refused|no money moved/i, run);
      assert.ok(looked(s, row!.reference) >= 1, `${run}: looked up`);
    }
    assert.equal(postsReached(s), 1, 'one POST for the row, over both runs');
    assert.equal(transfersTaken(s), 1);
  });
});

describe('approvals approve: a held transfer answered 401 after the API took it', () => {
  it('is looked up and shown as found, never refused; approving again sends nothing', async () => {
    const s = await start();
    const secret: Omit<RunOptions, 'env'> = { tty: true, keys: [['Consumer secret of profile', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`]] };
    const policy = await s.run(['policy', 'set', '--approval-above', '1000'], {}, secret);
    assert.equal(policy.code, 0, stripAnsi(policy.stdout));
    const held = await s.run(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '5000', '--narration', 'held', '--yes']);
    assert.equal(held.code, 7, held.stderr);
    const [request] = JSON.parse((await s.run(['approvals', 'list', '--json'])).stdout) as Array<{ id: string; transfers: Array<{ reference: string }> }>;
    const reference = request!.transfers[0]!.reference;

    s.proxy.options.answerTransfersWith = { forward: true, status: 401, body: JSON.stringify({ success: false, message: 'Unauthorized', data: null }) };
    const approved = await s.run(['approvals', 'approve', request!.id], {}, secret);
    const screen = stripAnsi(approved.stdout);
    assert.equal(approved.code, 0, screen);
    assert.match(screen, new RegExp(`^${reference} +OKAFOR CHIAMAKA ADAEZE +₦5,000\\.00 +pending `, 'm'));
    assert.doesNotMatch(screen, /refused|no money moved/i);
    assert.ok(looked(s, reference) >= 1, 'looked up');
    assert.equal(postsReached(s), 1);

    await s.run(['approvals', 'approve', request!.id], {}, secret);
    assert.equal(postsReached(s), 1, 'exactly one POST /v1/transfer reached the simulator');
    assert.equal(await s.held(reference), 1);
  });
});

describe('fsapi api POST /v1/transfer --allow-transfer', () => {
  it('a 401 after the API took it: one POST, looked up, the record on stdout, exit 0', async () => {
    const s = await start();
    s.proxy.options.answerTransfersWith = { forward: true, status: 401, body: JSON.stringify({ success: false, message: 'Unauthorized', data: null }) };
    const body = rawTransfer('ACME-PROOF-RAW');
    const raw = await s.run(['api', 'POST', '/v1/transfer', '--data', body, '--allow-transfer']);
    assert.equal(raw.code, 0, raw.stderr);
    assert.match(raw.stderr, /answered HTTP 401: Unauthorized, which does not prove it was refused; not sending it again/);
    assert.match(raw.stderr, /found ACME-PROOF-RAW .*went through/);
    assert.equal((JSON.parse(raw.stdout) as { reference: string }).reference, 'ACME-PROOF-RAW');
    assert.equal(postsReached(s), 1, 'never repeated after the renewal');
    assert.ok(looked(s, 'ACME-PROOF-RAW') >= 1);

    // A 400 to the raw POST is no proof either: fsapi api keeps no record of what it sent before.
    s.proxy.options.answerTransfersWith = { forward: true, status: 400, body: ERROR_SHAPE };
    const again = await s.run(['api', 'POST', '/v1/transfer', '--data', body, '--allow-transfer']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /HTTP 400: Request Un-Successful, which does not prove it was refused/);
    assert.equal(transfersTaken(s), 1, 'the simulator refused the repeated reference; paid once');
    assert.equal(await s.held('ACME-PROOF-RAW'), 1);
  });
});

// A gateway's 429, said to the POST after it passed the POST on, and to every lookup, with a Retry-After.
const TOO_MANY = { status: 429, body: JSON.stringify({ success: false, message: 'Too Many Requests', data: null }), headers: { 'retry-after': '2' } };
const lie = (s: Setup) => {
  s.proxy.options.answerTransfersWith = { forward: true, ...TOO_MANY };
  s.proxy.options.answerLookupsWith = TOO_MANY;
};
const stopLying = (s: Setup) => {
  s.proxy.options.answerTransfersWith = undefined;
  s.proxy.options.answerLookupsWith = undefined;
};
/** Lookups of this reference that reached the proxy (answered by it or passed on). */
const askedProxy = (s: Setup, reference: string) => s.proxy.hits.filter((hit) => hit === `GET /v1/transactions/reference/${reference}`).length;

/** `policy set` as a person does it, in the test's process: at a terminal, the consumer secret typed. */
async function setPolicyHere(s: Setup, ...options: string[]): Promise<void> {
  const result = await s.runHere(['policy', 'set', ...options], {
    tty: true,
    prompts: [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }],
  });
  assert.equal(result.code, 0, stripAnsi(result.stdout));
}

async function journalled(s: Setup, reference: string): Promise<{ state: string; outcome: string } | undefined> {
  const log = await s.runHere(['transfer', 'log', '--json']);
  assert.equal(log.code, 0, log.stderr);
  return (JSON.parse(log.stdout) as Array<{ reference: string; state: string; outcome: string }>).find((t) => t.reference === reference);
}

/** Today's maximum counts the unknown transfer: one more that would pass it with it is refused, nothing sent. */
async function assertCountedByDailyMaximum(s: Setup, counted: string): Promise<void> {
  const posts = postsReached(s);
  const next = await s.runHere(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '2500', '--narration', 'next', '--yes']);
  assert.equal(next.code, 1, next.stderr);
  assert.match(next.stderr, new RegExp(`would pass the daily maximum of ₦5,000\\.00 .*${counted} counts toward it`));
  assert.equal(postsReached(s), posts, 'nothing sent');
}

describe('a 429 proves nothing: a gateway passes the POST on, then answers 429 to it and to every lookup', () => {
  it('transfer send: exit 5, never refused, counted by the daily maximum; transfer status settles it, paid once', async () => {
    const s = await start();
    await setPolicyHere(s, '--max-per-day', '5000');
    lie(s);
    const reference = 'ACME-PROOF-429';
    const clock = new FakeClock();
    const sent = await s.runHere(send3000(reference), { clock });
    assert.equal(sent.code, 5, sent.stderr);
    assert.match(
      sent.stderr,
      /outcome unknown for ACME-PROOF-429: the transfer was answered HTTP 429 \(rate limited\): Too Many Requests, which does not prove it was not taken: it may have been paid; the lookup by reference found nothing/,
    );
    assert.match(sent.stderr, /hint: do not resend; run fsapi transfer status ACME-PROOF-429/);
    assert.doesNotMatch(sent.stderr, /refused|no money moved|nothing moved|did not take/i);
    assert.equal(postsReached(s), 1, 'sent once, never again');
    assert.equal(await s.held(reference), 1, 'the simulator took the money');
    // Looked up (through the proxy, which answered 429), the lookups waiting as Retry-After said, bounded.
    assert.ok(askedProxy(s, reference) >= 1, 'looked up');
    assert.equal(looked(s, reference), 0, 'no lookup got past the proxy');
    const waits = clock.slept.filter((ms) => ms >= 2000 && ms <= 2500);
    assert.equal(waits.length, RATE_LIMIT_WAITS, `the lookup waited Retry-After (2 s) each time, ${RATE_LIMIT_WAITS} times: ${clock.slept.join(', ')}`);
    const entry = await journalled(s, reference);
    assert.equal(entry?.state, 'unknown', 'the journal does not say refused');
    assert.equal(entry?.outcome, 'unknown');

    await assertCountedByDailyMaximum(s, '₦3,000\\.00');

    // Another run, once the gateway tells the truth: the lookup finds it; the journal learns it; nothing is sent.
    stopLying(s);
    const status = await s.runHere(['transfer', 'status', reference]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stderr, /ACME-PROOF-429 had no known outcome in the journal; the API has it, so it went through/);
    assert.equal((await journalled(s, reference))?.state, 'reconciled');
    const again = await s.runHere(send(reference));
    assert.equal(again.code, 2, again.stderr);
    assert.equal(postsReached(s), 1, 'exactly one POST /v1/transfer reached the simulator');
    assert.equal(await s.held(reference), 1, 'paid once');
  });

  it('transfer batch: the row is unknown (exit 5), counted by the daily maximum; the re-run finds it, paid once', async () => {
    const s = await start();
    await setPolicyHere(s, '--max-per-day', '5000');
    lie(s);
    const file = path.join(s.home.root, 'pay.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n0123456781,gtb,3000,rent\n');
    const report = () => parse(readFileSync(`${file}.report.csv`), { columns: true }) as Array<{ status: string; reference: string; message: string }>;
    const first = await s.runHere(['transfer', 'batch', file, '--yes', '--concurrency', '1']);
    assert.equal(first.code, 5, first.stderr);
    const [row] = report();
    assert.equal(row!.status, 'unknown', row!.message);
    assert.match(row!.message, /answered HTTP 429 \(rate limited\).*it may have been paid.*do not resend/);
    assert.doesNotMatch(`${row!.message}\n${first.stderr}`, /refused|no money moved|did not take/i);
    assert.equal((await journalled(s, row!.reference))?.state, 'unknown');
    assert.equal(postsReached(s), 1);
    assert.equal(await s.held(row!.reference), 1, 'the simulator took the money');

    await assertCountedByDailyMaximum(s, '₦3,000\\.00');

    stopLying(s);
    const again = await s.runHere(['transfer', 'batch', file, '--yes', '--concurrency', '1']);
    assert.equal(again.code, 0, again.stderr);
    const [settled] = report();
    assert.match(settled!.status, /^(pending|successful)$/, settled!.message);
    assert.match(settled!.message, /sent by an earlier run; not sent again/);
    assert.equal((await journalled(s, row!.reference))?.state, 'reconciled');
    assert.equal(postsReached(s), 1, 'one POST for the row, over both runs');
    assert.equal(await s.held(row!.reference), 1, 'paid once');
  });

  it('approvals approve: the approved transfer is unknown (exit 5), never refused; paid once', async () => {
    const s = await start();
    await setPolicyHere(s, '--approval-above', '1000');
    const held = await s.runHere(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '5000', '--narration', 'held', '--yes']);
    assert.equal(held.code, 7, held.stderr);
    const [request] = JSON.parse((await s.runHere(['approvals', 'list', '--json'])).stdout) as Array<{ id: string; transfers: Array<{ reference: string }> }>;
    const reference = request!.transfers[0]!.reference;
    lie(s);
    const approved = await s.runHere(['approvals', 'approve', request!.id], {
      tty: true,
      prompts: [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }],
    });
    const screen = stripAnsi(approved.stdout);
    assert.equal(approved.code, 5, screen);
    assert.match(screen, new RegExp(`^${reference} +OKAFOR CHIAMAKA ADAEZE +₦5,000\\.00 +unknown `, 'm'));
    assert.match(screen, /it\s+may\s+have\s+been\s+paid/);
    assert.doesNotMatch(screen, /refused|no money moved/i);
    assert.equal((await journalled(s, reference))?.state, 'unknown');
    assert.equal(postsReached(s), 1);

    stopLying(s);
    assert.equal((await s.runHere(['transfer', 'status', reference])).code, 0);
    assert.equal((await journalled(s, reference))?.state, 'reconciled');
    assert.equal(postsReached(s), 1, 'exactly one POST /v1/transfer reached the simulator');
    assert.equal(await s.held(reference), 1);
  });

  it('fsapi api POST /v1/transfer --allow-transfer: exit 5, not sent again; found once the gateway stops lying', async () => {
    const s = await start();
    lie(s);
    const body = rawTransfer('ACME-PROOF-RAW429');
    const raw = await s.runHere(['api', 'POST', '/v1/transfer', '--data', body, '--allow-transfer']);
    assert.equal(raw.code, 5, raw.stderr);
    assert.match(raw.stderr, /the transfer was answered HTTP 429: Too Many Requests, which does not prove it was refused; not sending it again/);
    assert.match(raw.stderr, /^error: the transfer was sent and its outcome is unknown: .*HTTP 429 \(rate limited\)/m);
    assert.doesNotMatch(raw.stderr, /no money moved/i);
    assert.equal(raw.stdout, '', 'no answer printed as if it were the outcome');
    assert.equal(postsReached(s), 1);
    assert.equal(await s.held('ACME-PROOF-RAW429'), 1);

    stopLying(s);
    const status = await s.runHere(['transfer', 'status', 'ACME-PROOF-RAW429', '--json']);
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { reference: string }).reference, 'ACME-PROOF-RAW429');
    assert.equal(postsReached(s), 1, 'paid once');
  });
});

describe('a true rate limit: the POST answered 429 and not passed on', () => {
  it('looked up first; the API does not hold it, so it is sent again under the same reference: paid once, never "refused"', async () => {
    const s = await start();
    // The resends are one transfer: the daily maximum counts it once (₦1,200 of ₦2,000), not once a send.
    await setPolicyHere(s, '--max-per-day', '2000');
    s.proxy.options.answerTransfersWith = { forward: false, ...TOO_MANY, times: 2 };
    const reference = 'ACME-PROOF-LIMIT';
    const clock = new FakeClock();
    const sent = await s.runHere(send(reference, '--json'), { clock });
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(
      sent.stderr,
      /rate limited: ACME-PROOF-LIMIT was answered 429 and the lookup does not find it; sending it again under the same reference in \d+ s/,
    );
    // The answer's Retry-After (2 s) is the wait before each resend, not the schedule's own 1 s, then 2 s.
    const resendWaits = [...sent.stderr.matchAll(/sending it again under the same reference in (\d+) s/g)].map((match) => match[1]);
    assert.deepEqual(resendWaits, ['2', '2']);
    assert.equal(clock.slept.filter((ms) => ms === 2000).length, 2, clock.slept.join(', '));
    assert.doesNotMatch(sent.stderr, /refused|no money moved/i);
    // Each 429 was followed by a lookup (answered "no such reference") before the next POST.
    const order = s.proxy.hits.filter((hit) => hit === 'POST /v1/transfer' || hit === `GET /v1/transactions/reference/${reference}`);
    assert.deepEqual(order, [
      'POST /v1/transfer',
      `GET /v1/transactions/reference/${reference}`,
      'POST /v1/transfer',
      `GET /v1/transactions/reference/${reference}`,
      'POST /v1/transfer',
    ]);
    assert.equal(postsReached(s), 1, 'only the third POST reached the API');
    assert.equal(await s.held(reference), 1);
    assert.equal((await journalled(s, reference))?.state, 'accepted');
    const records = (await s.runHere(['transfer', 'log', '--jsonl'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; reference: string });
    const types = records.filter((r) => r.reference === reference).map((r) => r.type);
    assert.deepEqual(types, ['intent', 'unknown', 'unknown', 'intent', 'unknown', 'unknown', 'intent', 'accepted'], 'never journalled as refused');
  });

  it('answered 429 to every send: unknown after the last (exit 5), counted, never "refused"', async () => {
    const s = await start();
    await setPolicyHere(s, '--max-per-day', '5000');
    s.proxy.options.answerTransfersWith = { forward: false, ...TOO_MANY };
    const reference = 'ACME-PROOF-ALWAYS';
    const sent = await s.runHere(send3000(reference));
    assert.equal(sent.code, 5, sent.stderr);
    assert.match(
      sent.stderr,
      new RegExp(`the lookup by reference does not find it after ${RATE_LIMITED_SENDS} sends, each answered 429: it may have been paid`),
    );
    assert.doesNotMatch(sent.stderr, /refused|no money moved/i);
    assert.equal(s.proxy.hits.filter((hit) => hit === 'POST /v1/transfer').length, RATE_LIMITED_SENDS, 'bounded');
    assert.equal(postsReached(s), 0);
    assert.equal((await journalled(s, reference))?.outcome, 'unknown');
    await assertCountedByDailyMaximum(s, '₦3,000\\.00');
  });
});

describe('which answers prove a refusal (the decision alone)', () => {
  const first = { firstSend: true };
  const resend = { firstSend: false };
  it('400 with the error shape to a first send: proof; nothing else, a 429 least of all', () => {
    assert.equal(answerProvesNothingMoved({ status: 400, errorShape: true }, first), true);
    assert.equal(answerProvesNothingMoved({ status: 400, errorShape: true }, resend), false);
    assert.equal(answerProvesNothingMoved({ status: 400, errorShape: false }, first), false, "not the spec's error shape");
    assert.equal(answerProvesNothingMoved({ status: 429, errorShape: true }, first), false);
    assert.equal(answerProvesNothingMoved({ status: 429, errorShape: true }, resend), false);
    assert.equal(errorProvesNothingMoved(new ApiError('rate limited', { status: 429, errorShape: true }), first), false);
    assert.equal(rawAnswerProvesNothingMoved({ status: 429, body: { success: false, message: 'Too Many Requests' } }, first), false);
    for (const status of [200, 301, 303, 401, 403, 404, 409, 422, 500, 502]) {
      assert.equal(answerProvesNothingMoved({ status, errorShape: true }, first), false, String(status));
    }
    assert.equal(rawAnswerProvesNothingMoved({ status: 400, body: { success: false, message: 'x' } }, first), true);
    assert.equal(rawAnswerProvesNothingMoved({ status: 400, body: [{ success: false }] }, first), false);
    assert.equal(rawAnswerProvesNothingMoved({ status: 400, body: '<html>' }, first), false);
  });
  it('after a 429, only the lookup decides: found settles it, "no such reference" lets it go again, no answer is unknown', () => {
    assert.equal(isRateLimitAnswer(new ApiError('rate limited', { status: 429 })), true);
    assert.equal(isRateLimitAnswer(new TransportError('unreadable', 'HTTP 429 with a text/html answer', { status: 429 })), true);
    assert.equal(isRateLimitAnswer(new ApiError('refused', { status: 400 })), false);
    assert.equal(afterRateLimit('found'), 'settled');
    assert.equal(afterRateLimit('absent'), 'send-again');
    assert.equal(afterRateLimit('no-answer'), 'unknown');
  });
  it('errors before the POST left prove nothing was sent; errors after it are answers or unknown', () => {
    assert.equal(errorProvesNothingMoved(new ApiError('could not get a token: no answer'), resend), true, 'no status: never sent');
    assert.equal(errorProvesNothingMoved(new AuthError('not logged in'), resend), true);
    assert.equal(errorProvesNothingMoved(new TransportError('timeout', 'no answer'), first), false);
    assert.equal(errorProvesNothingMoved(new ApiError('refused', { status: 400, errorShape: true }), first), true);
    assert.equal(errorProvesNothingMoved(new ApiError('refused', { status: 401, errorShape: true }), first), false);
    assert.equal(errorProvesNothingMoved(new Error('anything else'), first), false);
  });
});
