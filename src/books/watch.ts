// fsapi tx watch: new transactions as they appear, for people with no public URL to receive
// notifications on. The API has no "since" parameter and no cursor (docs/api-spec.md 4.12), so
// watching is polling the newest page of the newest-first list and printing the rows not seen before.
//
// - No replay: the first poll only learns what is already there. With `sinceMs`, the transactions from
//   that time are shown first, oldest first, then the watch goes on.
// - More than a page can arrive between two polls: the next pages are read until one holds a row seen
//   before (at most MAX_CATCH_UP_PAGES, then the rest is said to be skipped).
// - Each transaction is printed when its reference first appears. One shown as pending is printed again,
//   through `showUpdate`, when a later poll sees it on the newest page with another status (it settled,
//   failed or was reversed); one that leaves the newest page still pending is no longer followed
//   (fsapi transfer status follows one transfer).
// - Polling errors other than a refused login are retried with a doubling delay (up to a minute) and
//   reported through onRetry; the watch itself never ends on its own unless `maxCount` is reached.
// - Memory: the references of recent rows only (the newest RECENT_LIMIT), not the history.
import type { Context } from '../context.js';
import type { TransactionRecord } from '../api/schemas.js';
import { AuthError, UsageError } from '../errors.js';
import { directionOf, type Direction } from './ledger.js';
import { transactionPages } from './transactions.js';
import { statusKind } from '../transfers/outcome.js';
import { Backoff, pollRetry } from '../common/retry.js';

export const WATCH_PAGE_LIMIT = 50;
export const MAX_CATCH_UP_PAGES = 20;
const RECENT_LIMIT = 5_000;
/** Pending rows followed for a change of status: the newest ones. */
const PENDING_LIMIT = 1_000;

export interface WatchOptions {
  intervalMs: number;
  type?: Direction;
  /** Replay the transactions from this time (epoch ms) before watching. */
  sinceMs?: number;
  /** Stop after this many transactions were shown. */
  maxCount?: number;
  signal: AbortSignal;
  show(tx: TransactionRecord): void;
  /** A row shown as pending now has another status. */
  showUpdate?(tx: TransactionRecord, was: string): void;
  /** A poll failed; the next try is in `delayMs`. */
  onRetry(message: string, delayMs: number): void;
  /** The poll after failures worked again. */
  onRecovered?(): void;
  /** More arrived between two polls than the catch-up reads; `skipped` rows were not shown. */
  onGap?(message: string): void;
}

export interface WatchSummary {
  shown: number;
  polls: number;
  /** Why it ended: the signal, or maxCount. */
  reason: 'stopped' | 'count';
}

class Stopped extends Error {}

export async function watchTransactions(ctx: Context, options: WatchOptions): Promise<WatchSummary> {
  const api = await ctx.api();
  const recent = new Map<string, true>();
  /** Shown rows still pending, by reference: their status when last shown. */
  const pending = new Map<string, string>();
  const summary: WatchSummary = { shown: 0, polls: 0, reason: 'stopped' };
  const remember = (tx: TransactionRecord) => {
    recent.delete(tx.reference);
    recent.set(tx.reference, true);
  };
  const forgetOld = () => {
    for (const reference of recent.keys()) {
      if (recent.size <= RECENT_LIMIT) break;
      recent.delete(reference);
    }
  };
  const aborted = new Promise<never>((_, reject) => {
    if (options.signal.aborted) reject(new Stopped());
    options.signal.addEventListener('abort', () => reject(new Stopped()), { once: true });
  });
  aborted.catch(() => undefined);
  /** Awaits `work`, or stops as soon as the signal fires (a request in flight is left behind). */
  const unlessStopped = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => undefined);
    return Promise.race([work, aborted]);
  };
  /** The pages of a listing, each awaited unless the signal fires first. */
  async function* unlessStoppedEach<T>(pages: AsyncGenerator<T>): AsyncGenerator<T> {
    for (;;) {
      const next = await unlessStopped(pages.next());
      if (next.done) return;
      yield next.value;
    }
  }
  /** Shows one row; true when maxCount is reached. */
  const show = (tx: TransactionRecord): boolean => {
    if (options.type !== undefined && directionOf(tx) !== options.type) return false;
    options.show(tx);
    if (statusKind(tx.status) === 'pending') {
      pending.set(tx.reference, String(tx.status ?? ''));
      if (pending.size > PENDING_LIMIT) pending.delete(pending.keys().next().value!);
    }
    summary.shown += 1;
    return options.maxCount !== undefined && summary.shown >= options.maxCount;
  };

  /** The rows above the last one seen, newest first, reading on while a whole page is new. */
  const poll = async (): Promise<TransactionRecord[]> => {
    summary.polls += 1;
    const fresh: TransactionRecord[] = [];
    for (let page = 1; page <= MAX_CATCH_UP_PAGES; page += 1) {
      const rows = await unlessStopped(api.listTransactions({ page, limit: WATCH_PAGE_LIMIT }));
      // A pending row shown before whose status changed: shown again, once per change.
      for (const tx of rows) {
        const was = pending.get(tx.reference);
        if (was === undefined || !recent.has(tx.reference) || String(tx.status ?? '') === was) continue;
        if (statusKind(tx.status) === 'pending') pending.set(tx.reference, String(tx.status ?? ''));
        else pending.delete(tx.reference);
        options.showUpdate?.(tx, was);
      }
      const newOnes = rows.filter((tx) => !recent.has(tx.reference));
      fresh.push(...newOnes);
      if (recent.size === 0 || newOnes.length < rows.length || rows.length < WATCH_PAGE_LIMIT) return fresh;
    }
    options.onGap?.(`more than ${MAX_CATCH_UP_PAGES * WATCH_PAGE_LIMIT} transactions arrived between two polls; older ones among them were not shown`);
    return fresh;
  };

  const failures = new Backoff(pollRetry(options.intervalMs), { clock: ctx.clock });
  /** Runs `step` until it works, retrying failures with a doubling delay (pollRetry). */
  const withRetries = async <T>(step: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        const value = await step();
        if (failures.waited > 0) options.onRecovered?.();
        failures.reset();
        return value;
      } catch (error) {
        if (error instanceof Stopped || error instanceof AuthError || error instanceof UsageError) throw error;
        const delayMs = failures.next()!; // the schedule has no end: the watch runs until stopped
        options.onRetry(error instanceof Error ? error.message : String(error), delayMs);
        await unlessStopped(ctx.clock.sleep(delayMs));
      }
    }
  };

  try {
    // The starting point: what is there now is not news...
    const baseline = await withRetries(poll);
    for (const tx of baseline) remember(tx);
    // ...unless asked for with --since: those are shown first, oldest first.
    if (options.sinceMs !== undefined) {
      const replay: TransactionRecord[] = [];
      const sinceMs = options.sinceMs;
      await withRetries(async () => {
        replay.length = 0;
        const pages = transactionPages(ctx, { page: 1, limit: undefined, all: true, filter: { range: { sinceMs } } });
        for await (const page of unlessStoppedEach(pages)) replay.push(...page.rows);
      });
      for (const tx of replay.reverse()) {
        remember(tx);
        if (show(tx)) return { ...summary, reason: 'count' };
      }
    }
    for (;;) {
      await unlessStopped(ctx.clock.sleep(options.intervalMs));
      const fresh = await withRetries(poll);
      for (const tx of fresh.reverse()) {
        remember(tx);
        if (show(tx)) return { ...summary, reason: 'count' };
      }
      forgetOld();
    }
  } catch (error) {
    if (error instanceof Stopped) return summary;
    throw error;
  }
}
