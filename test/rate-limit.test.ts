// Rate limits (HTTP 429), run as the built CLI against the simulator's rate-limit fault over real HTTP on
// 127.0.0.1: requests that move no money wait and ask again; a transfer answered 429 is looked up, and sent
// again under the same reference only when the API does not hold it; a batch slows down instead of failing
// rows. (A 429 from a gateway that passed the transfer on: test/refusal-proof.test.ts.) Every
// assertion is on outcomes (exit codes, the simulator's request log, its transactions), never on speed.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { API_RATE_LIMIT, retryAfterMs, retryWaitMs } from '../src/common/retry.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import type { SimulatorOptions } from '../src/simulator/types.js';

const LONG = { timeoutMs: 240_000 };

let setup: TransferSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

async function start(options: SimulatorOptions): Promise<TransferSetup> {
  setup = await setUpTransfers(options);
  return setup;
}

const limited = (s: TransferSetup, method: string, p: string) =>
  s.server.simulator.requests().filter((r) => r.method === method && r.path === p && r.status === 429).length;
const answered = (s: TransferSetup, method: string, p: string, status: number) =>
  s.server.simulator.requests().filter((r) => r.method === method && r.path === p && r.status === status).length;

describe('rate limits', () => {
  it('pays a batch of 12 rows at concurrency 8 against 4 requests a second: all 12, each once', { timeout: 300_000 }, async () => {
    const s = await start({ rateLimitPerSecond: 4 });
    const lines = Array.from({ length: 12 }, (_, i) => `31${String(i).padStart(6, '0')}57,gtb,${1000 + i}.50,Payout ${i}`);
    const file = path.join(s.home.root, 'payouts.csv');
    writeFileSync(file, ['account_number,bank,amount,narration', ...lines].join('\n') + '\n');
    const report = path.join(s.home.root, 'report.csv');

    const result = await s.run(['transfer', 'batch', file, '--yes', '--concurrency', '8', '--report', report], LONG);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /rate limited/);
    assert.doesNotMatch(result.stderr, /refused/);

    const rows = parse(readFileSync(report), { columns: true }) as Array<{ reference: string; status: string }>;
    assert.equal(rows.length, 12);
    assert.ok(
      rows.every((row) => row.status === 'pending' || row.status === 'successful'),
      rows.map((row) => row.status).join(' '),
    );
    // The request log: the limit was hit, and exactly one transfer was taken per row.
    assert.ok(
      s.server.simulator.requests().some((r) => r.status === 429),
      'the rate limit was never hit',
    );
    assert.equal(answered(s, 'POST', '/v1/transfer', 200), 12);
    assert.equal(answered(s, 'POST', '/v1/transfer', 400), 0, 'a transfer was sent twice and refused as a duplicate');

    // Each reference is in the simulator's books once.
    const list = await s.run(['tx', 'list', '--all', '--json'], LONG);
    assert.equal(list.code, 0, list.stderr);
    const references = (JSON.parse(list.stdout) as Array<{ reference: string }>).map((tx) => tx.reference);
    for (const row of rows) assert.equal(references.filter((reference) => reference === row.reference).length, 1, row.reference);
  });

  it('tx list --all waits through 429s and lists every row, saying it waits', { timeout: 240_000 }, async () => {
    const s = await start({ rateLimitPerSecond: 2, seedTransactions: 60 });
    const result = await s.run(['tx', 'list', '--all', '--limit', '10', '--json'], LONG);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as unknown[]).length, 60);
    assert.ok(limited(s, 'GET', '/v1/transactions') > 0, 'no page was rate limited');
    assert.match(result.stderr, /rate limited by 127\.0\.0\.1:\d+: waiting [\d.]+ s before asking again \(GET \/v1\/transactions\)/);
    assert.doesNotMatch(result.stderr, /error:/);
  });

  it('enquiry waits through 429s (the name enquiry moves no money)', { timeout: 120_000 }, async () => {
    const s = await start({ rateLimitPerSecond: 1 });
    const result = await s.run(['enquiry', '0123456789', '--bank', '000013', '--json'], LONG);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as { accountName: string }).accountName, 'OKAFOR CHIAMAKA ADAEZE');
    assert.ok(
      s.server.simulator.requests().some((r) => r.status === 429),
      'the rate limit was never hit',
    );
    assert.equal(answered(s, 'POST', '/v1/transfer/name-enquiry', 200), 1);
  });

  it('a transfer answered 429 is sent again under the same reference after a lookup, and paid once', { timeout: 120_000 }, async () => {
    const s = await start({ rateLimitPerSecond: 1 });
    const result = await s.run(['transfer', 'send', '0123456789', '--bank', '000013', '--amount', '2500', '--narration', 'rent', '--yes', '--json'], LONG);
    assert.equal(result.code, 0, result.stderr);
    const reference = (JSON.parse(result.stdout) as { reference: string }).reference;
    assert.equal(answered(s, 'POST', '/v1/transfer', 200), 1);
    assert.equal(answered(s, 'POST', '/v1/transfer', 400), 0);
    if (limited(s, 'POST', '/v1/transfer') > 0) {
      assert.match(
        result.stderr,
        new RegExp(`rate limited: ${reference} was answered 429 and the lookup does not find it; sending it again under the same reference in \\d+ s`),
      );
      // The lookup by reference came between the 429 and the resend.
      const log = s.server.simulator.requests();
      const first429 = log.findIndex((r) => r.path === '/v1/transfer' && r.status === 429);
      const sent = log.findIndex((r) => r.path === '/v1/transfer' && r.status === 200);
      assert.ok(
        log.slice(first429, sent).some((r) => r.path === `/v1/transactions/reference/${reference}`),
        'no lookup before the resend',
      );
    }
    const journal = await s.run(['transfer', 'log', '--json']);
    const entry = (JSON.parse(journal.stdout) as Array<{ reference: string; state: string }>).find((t) => t.reference === reference);
    assert.equal(entry?.state, 'accepted');
    const records = s.journalLines().map((line) => JSON.parse(line) as { type: string; reference: string });
    assert.ok(!records.some((r) => r.reference === reference && r.type === 'rejected'), 'a 429 is never journalled as a refusal');
  });

  it('waits for Retry-After when given (seconds or a date), else backs off, capped at 30 s', () => {
    const none = () => 0;
    /** The wait after the n-th 429 (0-based), as src/api/http.ts asks the retry module for it. */
    const rateLimitWaitMs = (retryAfter: string | undefined, waitsSoFar: number, nowMs: number, random: () => number) =>
      retryWaitMs(API_RATE_LIMIT, waitsSoFar + 1, random, retryAfterMs(retryAfter, nowMs));
    assert.equal(rateLimitWaitMs('2', 0, 0, none), 2000);
    assert.equal(rateLimitWaitMs(undefined, 0, 0, none), 1000);
    assert.equal(rateLimitWaitMs(undefined, 3, 0, none), 8000);
    assert.equal(rateLimitWaitMs(undefined, 9, 0, none), 30_000);
    assert.equal(rateLimitWaitMs('3600', 0, 0, none), 30_000);
    assert.equal(rateLimitWaitMs(new Date(10_000).toUTCString(), 0, 5000, none), 5000);
    assert.equal(
      rateLimitWaitMs(undefined, 0, 0, () => 1),
      1250,
    );
  });
});
