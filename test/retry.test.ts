// The retry module (src/common/retry.ts) on a clock of the test's own: time moves only when the code
// sleeps, so every wait is read, none is waited for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Clock } from '../src/context.js';
import {
  Backoff,
  FILE_LOCK_WAIT,
  nextTryAt,
  remainingAfter,
  retryAfterMs,
  retrying,
  retryWaitMs,
  STORE_BUSY,
  triesOf,
  type RetrySchedule,
} from '../src/common/retry.js';

/** A clock whose sleeps return at once and move its time on; a sleep whose signal is aborted rejects. */
function testClock(start = 1_000_000): Clock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
      now += ms;
    },
  };
}

const none = () => 0;
const most = () => 0.999999;

describe('the waits of a schedule', () => {
  it('a table, its last wait repeating, or doubling up to a cap', () => {
    const table: RetrySchedule = { waitsMs: [100, 300] };
    assert.deepEqual(
      [1, 2, 3, 4].map((retry) => retryWaitMs(table, retry, none)),
      [100, 300, 300, 300],
    );
    assert.equal(triesOf(table), 3, 'one more try than the table has waits');
    const doubling: RetrySchedule = { waitsMs: [1000], doubling: true, maxWaitMs: 30_000 };
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 60].map((retry) => retryWaitMs(doubling, retry, none)),
      [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000],
    );
  });

  it('jitter between its two fractions of the wait, from the random source given', () => {
    const half: RetrySchedule = { waitsMs: [10_000], jitter: [0.5, 1] };
    assert.equal(retryWaitMs(half, 1, none), 5000);
    assert.equal(
      retryWaitMs(half, 1, () => 0.5),
      7500,
    );
    assert.equal(retryWaitMs(half, 1, most), 10_000);
    const lock = [none, () => 0.5, most].map((random) => retryWaitMs(FILE_LOCK_WAIT, 1, random));
    assert.deepEqual(lock, [5, 8, 10], 'a file lock: 5 ms up to twice as long');
    for (const random of [0, 0.3, 0.7, 0.999999]) {
      const wait = retryWaitMs(STORE_BUSY, 7, () => random);
      assert.ok(wait >= 5 && wait <= 50, `a busy store is asked again 5 to 50 ms later, not ${wait}`);
    }
  });

  it("the server's word (Retry-After) instead of the table, held within the schedule's bounds, then jittered", () => {
    const limited: RetrySchedule = { waitsMs: [1000], doubling: true, minWaitMs: 250, maxWaitMs: 30_000, jitter: [1, 1.25] };
    assert.equal(retryWaitMs(limited, 5, none, 3000), 3000);
    assert.equal(retryWaitMs(limited, 1, none, 0), 250);
    assert.equal(retryWaitMs(limited, 1, none, 3_600_000), 30_000);
    assert.equal(
      retryWaitMs(limited, 1, () => 1, 2000),
      2500,
    );
  });

  it('reads Retry-After as whole seconds or an HTTP date, and nothing else', () => {
    assert.equal(retryAfterMs('2', 0), 2000);
    assert.equal(retryAfterMs(' 0 ', 0), 0);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4000), 6000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 60_000), 0, 'a date passed: at once');
    for (const unreadable of [undefined, '', '1.5', '-1', 'soon', 'Sun, 99 Foo']) assert.equal(retryAfterMs(unreadable, 0), undefined, String(unreadable));
  });

  it('a finite schedule resumed later: one try at once, then those still ahead at their times', () => {
    const lookups: RetrySchedule = { waitsMs: [1000, 2000, 4000, 8000, 15_000] };
    // Tries at 0, 1, 3, 7, 15 and 30 s.
    assert.deepEqual(remainingAfter(lookups, 0), { waitsMs: [1000, 2000, 4000, 8000, 15_000] });
    assert.deepEqual(remainingAfter(lookups, 3500), { waitsMs: [3500, 8000, 15_000] });
    assert.deepEqual(remainingAfter(lookups, 7000), { waitsMs: [8000, 15_000] });
    assert.deepEqual(remainingAfter(lookups, 60_000), { waitsMs: [] });
    assert.deepEqual(remainingAfter(lookups, Number.POSITIVE_INFINITY), { waitsMs: [] });
    assert.deepEqual(remainingAfter({ firstWaitMs: 500, waitsMs: [100] }, 0), { waitsMs: [500, 100] });
  });
});

describe('Backoff: the waits of one loop', () => {
  it('gives the waits in turn, then none once the tries are used up', async () => {
    const clock = testClock();
    const backoff = new Backoff({ waitsMs: [250, 500] }, { clock });
    assert.equal(backoff.tries, 3);
    assert.equal(await backoff.wait(), true);
    assert.equal(await backoff.wait(), true);
    assert.equal(await backoff.wait(), false);
    assert.deepEqual(clock.slept, [250, 500]);
    assert.equal(backoff.waited, 2);
    backoff.reset();
    assert.equal(backoff.next(), 250, 'a reset starts the schedule over');
  });

  it('never waits past its deadline, and allows no try once it has passed', async () => {
    const clock = testClock(0);
    const backoff = new Backoff({ waitsMs: [400], tries: Number.POSITIVE_INFINITY }, { clock, deadline: 1000 });
    const waits: number[] = [];
    while (await backoff.wait()) waits.push(clock.now());
    assert.deepEqual(clock.slept, [400, 400, 200], 'the last wait cut to the deadline');
    assert.deepEqual(waits, [400, 800, 1000]);
    assert.equal(nextTryAt({ waitsMs: [400], tries: Number.POSITIVE_INFINITY }, 9, 999, { deadline: 1000 }), 1000);
    assert.equal(nextTryAt({ waitsMs: [400], tries: Number.POSITIVE_INFINITY }, 9, 1000, { deadline: 1000 }), undefined);
  });

  it('a stop signal cuts a wait short and ends the loop', async () => {
    const clock = testClock();
    const stop = new AbortController();
    const backoff = new Backoff({ waitsMs: [100, 100, 100] }, { clock, signal: stop.signal });
    assert.equal(await backoff.wait(), true);
    stop.abort();
    assert.equal(await backoff.wait(), false);
    assert.deepEqual(clock.slept, [100]);
  });

  it('a wait before the first try, when the schedule has one', async () => {
    const clock = testClock();
    assert.equal(await new Backoff({ firstWaitMs: 300, waitsMs: [] }, { clock }).start(), true);
    assert.equal(await new Backoff({ waitsMs: [] }, { clock }).start(), true);
    assert.deepEqual(clock.slept, [300]);
  });
});

describe('retrying', () => {
  const busy = () => Object.assign(new Error('database is locked'), { code: 'busy' });
  const isBusy = (error: unknown) => (error as { code?: string }).code === 'busy';
  /** Retries an attempt that is always busy; how many times it was tried. */
  async function alwaysBusy(options: Omit<Parameters<typeof retrying>[1], 'retryable'>): Promise<number> {
    let calls = 0;
    const attempt = () => {
      calls += 1;
      throw busy();
    };
    await assert.rejects(retrying(attempt, { ...options, retryable: isBusy }), /database is locked/);
    return calls;
  }

  it('runs the attempt again after each failure it may retry, and returns what it returns', async () => {
    const clock = testClock();
    const heard: Array<[number, number]> = [];
    let calls = 0;
    const value = await retrying(
      async (tryNumber) => {
        calls = tryNumber;
        if (tryNumber < 3) throw busy();
        return 'done';
      },
      { schedule: { waitsMs: [10, 20, 40] }, clock, retryable: isBusy, onRetry: (_error, waitMs, tryNumber) => heard.push([tryNumber, waitMs]) },
    );
    assert.equal(value, 'done');
    assert.equal(calls, 3);
    assert.deepEqual(heard, [
      [1, 10],
      [2, 20],
    ]);
  });

  it('throws at once what it may not retry, and the last error when the tries run out', async () => {
    const clock = testClock();
    const other = new Error('disk full');
    await assert.rejects(
      retrying(
        () => {
          throw other;
        },
        { schedule: { waitsMs: [10] }, clock, retryable: isBusy },
      ),
      (error) => error === other,
    );
    assert.deepEqual(clock.slept, []);
    assert.equal(await alwaysBusy({ schedule: { waitsMs: [10] }, clock }), 2);
  });

  it("a busy store: asked again 5 to 50 ms apart until the store's deadline, then its error", async () => {
    const clock = testClock(0);
    const calls = await alwaysBusy({ schedule: STORE_BUSY, clock, deadline: 2000 });
    assert.equal(clock.now(), 2000, 'the last try at the deadline');
    assert.ok(calls >= 2000 / 50 && calls <= 2000 / 5 + 1, `${calls} tries`);
    assert.ok(
      clock.slept.slice(0, -1).every((ms) => ms >= 5 && ms <= 50),
      clock.slept.join(' '),
    );
  });
});
