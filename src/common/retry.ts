// Every retry of fsapi waits by this module: a schedule (a table of waits, its last one repeating or
// doubling, capped), jitter drawn from an injected random source, a deadline no wait runs past, and the
// server's own word (`Retry-After`) where one was given. The waits are the run's clock's (ctx.clock), so a
// test moves time instead of waiting for it and nothing freezes the process.
//
// The schedules themselves are named below, each with the page of docs/ that states it in words;
// test/retry-schedules.test.ts (and test/webhook-schedule.test.ts for the forwards) reads them from here and
// compares them with those words, so neither can change alone.
import type { Clock } from '../run-types.js';

export interface RetrySchedule {
  /** The waits before the 2nd, 3rd ... try, in milliseconds. Past the table its last wait repeats (or doubles). */
  readonly waitsMs: readonly number[];
  /** Past the table, each wait twice the one before (up to maxWaitMs), rather than the last one again. */
  readonly doubling?: boolean;
  /** No wait longer than this before jitter, a server's Retry-After included. */
  readonly maxWaitMs?: number;
  /** No wait shorter than this before jitter, a server's Retry-After of 0 included. */
  readonly minWaitMs?: number;
  /** Tries in all; by default one more than the table's waits. Infinity: until the deadline, if any. */
  readonly tries?: number;
  /** Each wait drawn between these two fractions of its value ([0.5, 1]: between half and all of it). */
  readonly jitter?: readonly [low: number, high: number];
  /** A wait before the first try (none by default). */
  readonly firstWaitMs?: number;
}

// ---- the schedules ------------------------------------------------------------------------------------

/** A GET that met a network error or 502/503/504 (src/api/http.ts): 2 more tries, 250 ms then 500 ms later. docs/auth.md. */
export const API_GET_RETRY: RetrySchedule = { waitsMs: [250, 500] };

/** Every other request (POST /v1/transfer above all) is sent once by the HTTP layer. */
export const SENT_ONCE: RetrySchedule = { waitsMs: [] };

/**
 * A 429 to a request that moves no money (src/api/http.ts): the API's Retry-After, else 1, 2, 4 ... s, at
 * most 30 s a wait (at least 0.25 s), 8 waits, each up to a quarter longer at random so requests refused
 * together do not come back in the same instant. docs/auth.md.
 */
export const API_RATE_LIMIT: RetrySchedule = { waitsMs: [1000], doubling: true, maxWaitMs: 30_000, minWaitMs: 250, tries: 9, jitter: [1, 1.25] };

/**
 * A transfer answered 429 whose lookup found no such reference, sent again under the same reference
 * (src/transfers/rate-limit.ts): at most 8 sends, the API's Retry-After or 1, 2, 4 ... s apart, at most
 * 30 s. docs/transfers.md.
 */
export const TRANSFER_RESEND: RetrySchedule = { waitsMs: [1000], doubling: true, maxWaitMs: 30_000, minWaitMs: 250, tries: 8 };

/**
 * The lookups by reference after a transfer's answer was lost (src/transfers/transfer.ts, and a batch's
 * resume): at once, then after 1, 2, 4, 8 and 15 s, 30 s in all. FSAPI_RECONCILE_SCHEDULE_MS replaces it.
 * docs/decisions.md, docs/batch.md.
 */
export const LOST_ANSWER_LOOKUPS: RetrySchedule = { waitsMs: [1000, 2000, 4000, 8000, 15_000] };

/** A batch row's name enquiry that could not reach the API (src/batch/payouts.ts): 3 tries, 0.5 s then 1 s apart. docs/batch.md. */
export const NAME_ENQUIRY_RETRY: RetrySchedule = { waitsMs: [500, 1000] };

/**
 * A notification's lookup that could not reach the API (src/notifications/verify.ts): 3 tries, waits of 1
 * and 3 s. docs/notifications.md.
 */
export const NOTIFICATION_LOOKUP_RETRY: RetrySchedule = { waitsMs: [1000, 3000] };

/** A pending inflow looked up again by the listener (src/notifications/verify.ts): after 2, 4, 8 and 16 s. docs/notifications.md. */
export const PENDING_RECHECKS: RetrySchedule = { waitsMs: [2000, 4000, 8000, 16_000] };

/** One round of a forward to the app (src/notifications/forward.ts): 3 tries, waits of 0.5 and 2 s. docs/notifications.md. */
export const FORWARD_TRIES: RetrySchedule = { waitsMs: [500, 2000] };

/**
 * The rounds of a forward the app keeps refusing (src/notifications/event-processor.ts): 10 s, 1 min,
 * 5 min, 30 min, then every hour until --retry-for runs out (the deadline), each wait between half and all
 * of the table's, so events kept by one outage do not all come back at once. docs/notifications.md.
 */
export const FORWARD_ROUNDS: RetrySchedule = {
  waitsMs: [10_000, 60_000, 5 * 60_000, 30 * 60_000, 60 * 60_000],
  tries: Number.POSITIVE_INFINITY,
  jitter: [0.5, 1],
};

/** The simulator's notification to a webhook URL (src/simulator/webhook.ts): 3 tries, 0.5 s then 1 s apart. docs/simulator.md. */
export const SIMULATOR_NOTIFICATION: RetrySchedule = { waitsMs: [500, 1000] };

/**
 * A failed poll of `tx watch` (src/books/watch.ts): twice the interval, doubling, at most a minute, for as
 * long as the watch runs. docs/books.md.
 */
export function pollRetry(intervalMs: number): RetrySchedule {
  return { waitsMs: [2 * intervalMs], doubling: true, maxWaitMs: 60_000, tries: Number.POSITIVE_INFINITY };
}

/**
 * A lock another fsapi process holds (src/common/file-lock.ts): 5 ms, doubling to 50 ms, each up to twice
 * as long at random so a crowd of waiters does not retry in step, until the caller's deadline.
 */
export const FILE_LOCK_WAIT: RetrySchedule = { waitsMs: [5], doubling: true, maxWaitMs: 50, tries: Number.POSITIVE_INFINITY, jitter: [1, 2] };

/**
 * SQLite answering "busy" at once, where waiting inside SQLite could deadlock (fsapi's store): asked
 * again 5 to 50 ms later, until the store's deadline. For `retrying` with the store's own deadline.
 */
export const STORE_BUSY: RetrySchedule = { waitsMs: [50], tries: Number.POSITIVE_INFINITY, jitter: [0.1, 1] };

// ---- the waits ----------------------------------------------------------------------------------------

/** How many tries a schedule allows in all. */
export function triesOf(schedule: RetrySchedule): number {
  return schedule.tries ?? schedule.waitsMs.length + 1;
}

/**
 * The wait before try `retry + 1` (`retry` 1 for the wait after the first try): the table's, or the
 * server's `serverWaitMs` when it said one, held within minWaitMs and maxWaitMs, then jittered with
 * `random` in [0, 1). Whether that try is allowed at all is `triesOf`'s and the deadline's to say.
 */
export function retryWaitMs(schedule: RetrySchedule, retry: number, random: () => number = Math.random, serverWaitMs?: number): number {
  let wait = serverWaitMs ?? tableWaitMs(schedule, Math.max(1, Math.floor(retry)));
  wait = Math.min(Math.max(wait, schedule.minWaitMs ?? 0), schedule.maxWaitMs ?? Number.POSITIVE_INFINITY);
  if (!schedule.jitter) return wait;
  const [low, high] = schedule.jitter;
  return Math.round(wait * (low + (high - low) * random()));
}

function tableWaitMs(schedule: RetrySchedule, retry: number): number {
  const { waitsMs } = schedule;
  if (waitsMs.length === 0) return 0;
  if (retry <= waitsMs.length) return waitsMs[retry - 1]!;
  const last = waitsMs.at(-1)!;
  return schedule.doubling ? last * 2 ** Math.min(retry - waitsMs.length, 30) : last;
}

/**
 * When try `retry + 1` may start, try `retry` having failed at `nowMs`: after the schedule's wait, never
 * past the deadline; undefined when the schedule's tries are used up or the deadline has passed.
 */
export function nextTryAt(
  schedule: RetrySchedule,
  retry: number,
  nowMs: number,
  options: { deadline?: number | undefined; random?: (() => number) | undefined; serverWaitMs?: number | undefined } = {},
): number | undefined {
  if (retry >= triesOf(schedule)) return undefined;
  if (options.deadline !== undefined && nowMs >= options.deadline) return undefined;
  const at = nowMs + retryWaitMs(schedule, retry, options.random, options.serverWaitMs);
  return options.deadline === undefined ? at : Math.min(at, options.deadline);
}

/**
 * A `Retry-After` header in milliseconds from `nowMs`: whole seconds, or an HTTP date (`Wed, 21 Oct 2026
 * 07:28:00 GMT`: it starts with the day's name; never below 0); undefined when there is none or it cannot
 * be read (Date.parse alone would take `1.5` or `-1` for dates).
 */
export function retryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = /^[A-Za-z]{3}\b/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/**
 * A finite schedule as seen `elapsedMs` after it started (a run resumed later): one try at once, then
 * those of its tries still ahead, at the times the schedule gave them.
 */
export function remainingAfter(schedule: RetrySchedule, elapsedMs: number): RetrySchedule {
  const times: number[] = [];
  let at = schedule.firstWaitMs ?? 0;
  for (let retry = 0; retry < triesOf(schedule); retry += 1) {
    if (retry > 0) at += tableWaitMs(schedule, retry);
    times.push(at);
  }
  const ahead = times.filter((time) => time > elapsedMs);
  return { waitsMs: ahead.map((time, index) => time - (index === 0 ? elapsedMs : ahead[index - 1]!)) };
}

export interface BackoffOptions {
  clock: Clock;
  /** [0, 1): the jitter's source (Math.random unless a test fixes it). */
  random?: () => number;
  /** Epoch ms (on `clock`): no wait runs past it, and no try starts after it. */
  deadline?: number;
  /** Cuts a wait short: the loop then tries no more. */
  signal?: AbortSignal;
}

/** The waits of one retry loop: ask `wait()` after each failed try; false means try no more. */
export class Backoff {
  private retries = 0;

  constructor(
    readonly schedule: RetrySchedule,
    private readonly options: BackoffOptions,
  ) {}

  /** Tries allowed in all (Infinity for one bounded by its deadline). */
  get tries(): number {
    return triesOf(this.schedule);
  }

  /** Waits made so far (since the last reset). */
  get waited(): number {
    return this.retries;
  }

  /** The schedule's wait before the first try, if it has one; false when the signal cut it short. */
  async start(): Promise<boolean> {
    const first = this.schedule.firstWaitMs ?? 0;
    return first > 0 ? this.sleep(first) : !this.options.signal?.aborted;
  }

  /**
   * The wait before the next try, counted as made; undefined when none is left: the schedule's tries are
   * used up, or the deadline has passed. `serverWaitMs`: what the server asked for (Retry-After).
   */
  next(serverWaitMs?: number): number | undefined {
    const now = this.options.clock.now();
    const at = nextTryAt(this.schedule, this.retries + 1, now, { ...this.options, serverWaitMs });
    if (at === undefined) return undefined;
    this.retries += 1;
    return at - now;
  }

  /** Waits before the next try; false when no try is left, or the signal cut the wait short. */
  async wait(serverWaitMs?: number): Promise<boolean> {
    const wait = this.next(serverWaitMs);
    return wait !== undefined && this.sleep(wait);
  }

  /** After a success: the next failure starts the schedule over (a poll that recovered). */
  reset(): void {
    this.retries = 0;
  }

  /** Sleeps a wait `next()` gave; false when the signal cut it short. */
  sleep(ms: number): Promise<boolean> {
    return sleepOn(this.options, ms);
  }
}

/**
 * Runs `attempt` until it returns; after an error `retryable` accepts, again when the schedule says (and
 * `onRetry` hears of it first); any other error, or one after the last try, is thrown as it came.
 * For attempts that did nothing when they failed.
 */
export async function retrying<T>(
  attempt: (tryNumber: number) => Promise<T> | T,
  options: BackoffOptions & {
    schedule: RetrySchedule;
    retryable: (error: unknown) => boolean;
    onRetry?: (error: unknown, waitMs: number, tryNumber: number) => void;
  },
): Promise<T> {
  const backoff = new Backoff(options.schedule, options);
  for (let tryNumber = 1; ; tryNumber += 1) {
    try {
      return await attempt(tryNumber);
    } catch (error) {
      if (!options.retryable(error)) throw error;
      const wait = backoff.next();
      if (wait === undefined) throw error;
      options.onRetry?.(error, wait, tryNumber);
      if (!(await sleepOn(options, wait))) throw error;
    }
  }
}

/** Sleeps on the clock; false when the signal cut the wait short. */
async function sleepOn(options: BackoffOptions, ms: number): Promise<boolean> {
  if (options.signal?.aborted) return false;
  try {
    await options.clock.sleep(ms, options.signal);
    return true;
  } catch {
    return false;
  }
}
