// The forward schedule that docs/notifications.md promises is the one the code runs: the table of waits
// between rounds (FORWARD_ROUNDS, src/common/retry.ts), the tries of one round and their time-out (FORWARD_POLICY), and
// how long a reversal is held for its payout's event (REVERSAL_HOLD_MS), read from the code and compared
// with the words of the doc, so neither can change alone. And the processor really waits that table's
// waits, round after round (with jitter fixed at its two ends).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { Clock } from '../src/context.js';
import { systemClock } from '../src/common/clock.js';
import { EventLogWriter } from '../src/notifications/event-log.js';
import { EventProcessor, newReceivedRecord, REVERSAL_HOLD_MS } from '../src/notifications/event-processor.js';
import { FORWARD_POLICY, type ForwardResult } from '../src/notifications/forward.js';
import { FORWARD_ROUNDS, retryWaitMs } from '../src/common/retry.js';
import { parseNotification } from '../src/notifications/verify.js';
import type { TransactionRecord } from '../src/api/schemas.js';
import { makeHome, repoRoot } from './helpers/cli.js';

const doc = readFileSync(path.join(repoRoot, 'docs', 'notifications.md'), 'utf8');

/** "10 s", "1 min", "1 h": how the doc writes a wait. */
function spoken(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th'];

describe('the forward schedule in docs/notifications.md is the code', () => {
  test('the table of waits between rounds, row by row', () => {
    const start = doc.indexOf('**Retries that end.**');
    assert.ok(start > 0, 'the doc has its "Retries that end" paragraph');
    const rows = doc
      .slice(start)
      .split('\n')
      .filter((line) => /^\| \d+(st|nd|rd|th)\b/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const table = FORWARD_ROUNDS.waitsMs;
    assert.equal(rows.length, table.length, 'one row per wait');
    table.forEach((wait, index) => {
      const last = index === table.length - 1;
      const round = last ? `${ORDINALS[index]} and every later one` : ORDINALS[index];
      assert.deepEqual([rows[index]![1], rows[index]![2]], [round, spoken(wait)], `row ${index + 1}`);
    });
    assert.match(doc, /Each wait is drawn between half and all of the table's/);
    assert.deepEqual(FORWARD_ROUNDS.jitter, [0.5, 1], 'half and all');
  });

  test('one round: its tries, their waits and time-out', () => {
    const waits = FORWARD_POLICY.tries.waitsMs.map((ms) => String(ms / 1000));
    assert.equal(waits.length, 2, 'the sentence below names two waits');
    const sentence = `a timeout (${FORWARD_POLICY.timeoutMs / 1000} s), 408, 429 or a 5xx is tried again at once, ${waits.length + 1} tries in all (waits of ${waits[0]} and ${waits[1]} s)`;
    assert.ok(doc.replace(/\s+/g, ' ').includes(sentence), sentence);
  });

  test('how long a reversal is held for its payout', () => {
    assert.equal(REVERSAL_HOLD_MS % 60_000, 0);
    assert.ok(doc.replace(/\s+/g, ' ').includes(`comes within **${REVERSAL_HOLD_MS / 60_000} minutes** of the reversal being verified`));
  });
});

describe('the processor waits the table', () => {
  const home = makeHome();
  after(() => home.cleanup());

  for (const random of [0, 0.999999]) {
    test(`an app that refuses every round: each next round after the table's wait (jitter ${random === 0 ? 'half' : 'all'})`, async () => {
      const log = await EventLogWriter.open(path.join(home.root, `run-${random}`));
      let offset = 0;
      const clock: Clock = { now: () => 1_800_000_000_000 + offset, sleep: (ms, signal) => systemClock.sleep(ms, signal) };
      const tries: number[] = [];
      const processor = new EventProcessor({
        log,
        clock,
        random: () => random,
        retryForMs: 24 * 3_600_000,
        verify: undefined,
        verifyOutflow: async () => ({
          state: 'verified',
          detail: 'ok',
          transaction: { reference: 'ACME-S1', type: 'debit', status: 'failed', amount: '1000.00', reversedFlag: 0 } as unknown as TransactionRecord,
        }),
        forward: async (): Promise<ForwardResult> => {
          tries.push(clock.now());
          return { ok: false, tries: 1, detail: 'HTTP 403', status: 403 };
        },
        show: () => undefined,
        warn: () => undefined,
      });
      const text = JSON.stringify({ event: 'payout', reference: 'ACME-S1', status: 'failed' });
      const parsed = parseNotification(text);
      assert.ok(parsed.ok);
      const received = newReceivedRecord(new Date(clock.now()), 'ACME-S1', Buffer.from(text), text);
      await log.append(received);
      processor.wake();
      await processor.drain(5000);
      for (let round = 1; round <= FORWARD_ROUNDS.waitsMs.length + 2; round += 1) {
        offset = processor.nextDue! - 1_800_000_000_000;
        await processor.redeliver();
      }
      const waits = tries.slice(1).map((at, index) => at - tries[index]!);
      const expected = Array.from({ length: waits.length }, (_, index) => retryWaitMs(FORWARD_ROUNDS, index + 1, () => random));
      assert.deepEqual(waits, expected);
      const rounds = FORWARD_ROUNDS.waitsMs;
      const table = [...rounds, rounds.at(-1)!, rounds.at(-1)!];
      assert.deepEqual(
        waits,
        table.map((ms) => Math.round(ms * (0.5 + 0.5 * random))),
        'the table, the last wait repeating',
      );
      log.close();
    });
  }
});
