// "Refused, no money moved" only when the answer proves it (docs/cli-contract.md, "Transfers" item 7;
// src/transfers/refusal-proof.ts). A proxy (test/fixtures/hostile-api.ts, set up by test/helpers/proxied-simulator.ts) in front of the served simulator passes
// POST /v1/transfer on, so the simulator takes the money, and then answers 401, a 303 with a JSON body, or a
// 400 with the error shape to a reference already sent. fsapi must look the reference up, report what it
// found, and the same send again must not pay twice. Also the client alone: no second POST after a 401.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { answerProvesNothingMoved, errorProvesNothingMoved, rawAnswerProvesNothingMoved } from '../src/transfers/refusal-proof.js';
import { ApiError, AuthError, TransportError } from '../src/errors.js';
import { stripAnsi, type RunOptions } from './helpers/cli.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { startProxiedSimulator, type ProxiedSimulator } from './helpers/proxied-simulator.js';

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
    const body = JSON.stringify({
      beneficiaryBankCode: '000013',
      beneficiaryAccountNumber: '0123456781',
      narration: 'raw',
      amount: 12,
      reference: 'ACME-PROOF-RAW',
    });
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

describe('which answers prove a refusal (the decision alone)', () => {
  const first = { firstSend: true };
  const resend = { firstSend: false };
  it('400 with the error shape to a first send, and 429: proof; nothing else', () => {
    assert.equal(answerProvesNothingMoved({ status: 400, errorShape: true }, first), true);
    assert.equal(answerProvesNothingMoved({ status: 400, errorShape: true }, resend), false);
    assert.equal(answerProvesNothingMoved({ status: 400, errorShape: false }, first), false, "not the spec's error shape");
    assert.equal(answerProvesNothingMoved({ status: 429, errorShape: true }, resend), true);
    for (const status of [200, 301, 303, 401, 403, 404, 409, 422, 500, 502]) {
      assert.equal(answerProvesNothingMoved({ status, errorShape: true }, first), false, String(status));
    }
    assert.equal(rawAnswerProvesNothingMoved({ status: 400, body: { success: false, message: 'x' } }, first), true);
    assert.equal(rawAnswerProvesNothingMoved({ status: 400, body: [{ success: false }] }, first), false);
    assert.equal(rawAnswerProvesNothingMoved({ status: 400, body: '<html>' }, first), false);
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
