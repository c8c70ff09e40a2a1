// Every retry schedule the docs promise is the one the code runs: each named schedule of src/common/retry.ts
// is read from the module, put in the words its page of docs/ uses, and looked for in that page, so neither
// can change alone. (The forwards' schedule: test/webhook-schedule.test.ts.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  API_GET_RETRY,
  API_RATE_LIMIT,
  LOST_ANSWER_LOOKUPS,
  NAME_ENQUIRY_RETRY,
  NOTIFICATION_LOOKUP_RETRY,
  PENDING_RECHECKS,
  pollRetry,
  retryWaitMs,
  SIMULATOR_NOTIFICATION,
  TRANSFER_RESEND,
  triesOf,
  type RetrySchedule,
} from '../src/common/retry.js';
import { watchSpec } from '../src/commands/tx/watch.spec.js';
import { NOTIFICATION_TIMEOUT_MS } from '../src/simulator/webhook.js';
import { repoRoot } from './helpers/cli.js';

/** A page of docs/, its lines joined (the sentences below may wrap anywhere). */
function page(name: string): string {
  return readFileSync(path.join(repoRoot, 'docs', name), 'utf8').replace(/\s+/g, ' ');
}

function assertSays(name: string, sentence: string): void {
  assert.ok(page(name).includes(sentence), `docs/${name} should say: ${sentence}`);
}

/** The schedule's first `count` waits, without jitter. */
function waits(schedule: RetrySchedule, count = triesOf(schedule) - 1): number[] {
  return Array.from({ length: count }, (_, index) => retryWaitMs(schedule, index + 1, () => 0));
}

const seconds = (ms: number) => String(ms / 1000);
/** "1, 2, 4, 8 and 15": the docs' way of listing. */
const listed = (values: readonly string[]) => (values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} and ${values.at(-1)}`);
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

describe('the retry schedules in docs/ are the code', () => {
  it('a failed GET (docs/auth.md)', () => {
    const [first, second] = waits(API_GET_RETRY);
    assert.equal(waits(API_GET_RETRY).length, 2, 'the sentence names two waits');
    assertSays('auth.md', `at most ${triesOf(API_GET_RETRY) - 1} more tries (${first} ms, then ${second} ms later) on network errors`);
  });

  it('a 429 to a request that moves no money (docs/auth.md)', () => {
    const doubling = waits(API_RATE_LIMIT, 3).map(seconds).join(', ');
    assert.deepEqual(API_RATE_LIMIT.jitter, [1, 1.25], 'up to a quarter longer');
    assertSays(
      'auth.md',
      `waits for the API's \`Retry-After\`, else ${doubling} ... s (at most ${seconds(API_RATE_LIMIT.maxWaitMs!)} s a wait, ${triesOf(API_RATE_LIMIT) - 1} waits), each wait up to a quarter longer at random`,
    );
    assertSays('transfers.md', `(auth.md): \`Retry-After\`, else ${doubling} ... s, ${triesOf(API_RATE_LIMIT) - 1} waits)`);
  });

  it('a transfer answered 429 and not held by the API, sent again (docs/transfers.md)', () => {
    const doubling = waits(TRANSFER_RESEND, 3).map(seconds).join(', ');
    assertSays('transfers.md', `again after a wait (the API's \`Retry-After\`, else ${doubling} ... s, at most ${seconds(TRANSFER_RESEND.maxWaitMs!)} s)`);
    assertSays('transfers.md', `at most ${triesOf(TRANSFER_RESEND)} sends, after which the outcome is unknown`);
  });

  it('the lookups after a lost answer (docs/decisions.md, docs/transfers.md, docs/batch.md)', () => {
    assert.equal(LOST_ANSWER_LOOKUPS.firstWaitMs ?? 0, 0, 'the first lookup at once');
    const after = waits(LOST_ANSWER_LOOKUPS).map(seconds);
    const total = seconds(waits(LOST_ANSWER_LOOKUPS).reduce((sum, ms) => sum + ms, 0));
    assertSays('decisions.md', `looks the reference up at once and then after ${listed(after)} s (${total} s in all)`);
    assertSays(
      'transfers.md',
      `**immediately, then after ${listed(after)} seconds** (${NUMBER_WORDS[triesOf(LOST_ANSWER_LOOKUPS)]} lookups over ${total} seconds`,
    );
    // The delays before each lookup, as FSAPI_RECONCILE_SCHEDULE_MS writes them.
    assertSays('batch.md', `(\`${[0, ...after].join(', ')}\` seconds, less the time already passed since the intent`);
  });

  it("a batch row's name enquiry that got no answer (docs/batch.md)", () => {
    const [first, second] = waits(NAME_ENQUIRY_RETRY).map(seconds);
    assertSays('batch.md', `is asked up to ${triesOf(NAME_ENQUIRY_RETRY)} times in all, ${first} s then ${second} s apart`);
  });

  it("a notification's lookups, and a pending inflow looked at again (docs/notifications.md)", () => {
    const [first, second] = waits(NOTIFICATION_LOOKUP_RETRY).map(seconds);
    assertSays('notifications.md', `the lookup is tried ${triesOf(NOTIFICATION_LOOKUP_RETRY)} times (waits of ${first} and ${second} seconds`);
    const rechecks = waits(PENDING_RECHECKS);
    const total = seconds(rechecks.reduce((sum, ms) => sum + ms, 0));
    assertSays('notifications.md', `looks a pending transaction up again after ${listed(rechecks.map(seconds))} seconds (about ${total} seconds in all)`);
  });

  it("the simulator's notifications (docs/simulator.md)", () => {
    const [first, second] = waits(SIMULATOR_NOTIFICATION).map(seconds);
    assertSays(
      'simulator.md',
      `${triesOf(SIMULATOR_NOTIFICATION)} tries, ${seconds(NOTIFICATION_TIMEOUT_MS)} s timeout each, waiting ${first} s then ${second} s between them`,
    );
  });

  it('a failed poll of tx watch (docs/books.md), at the default --interval and at 1 s', () => {
    const defaultSeconds = watchSpec.options.interval.defaultValue!;
    const at = (intervalSeconds: number) =>
      waits(pollRetry(intervalSeconds * 1000), 3)
        .map(seconds)
        .join(', ');
    assert.equal(pollRetry(1000).maxWaitMs, 60_000, 'a minute');
    assertSays(
      'books.md',
      `tried again after twice \`--interval\`, then doubling (${at(defaultSeconds)} s at the default ${defaultSeconds} s; ${at(1)} s at \`--interval 1\`), at most a minute apart`,
    );
  });
});
