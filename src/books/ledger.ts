// How the back-office commands (statement, collections, reconcile, tx watch) read one transaction record:
// which way the money went, how much, whether it moved at all, which day of the business's clock it belongs to. The API is
// loose about all of it (docs/real-api-notes.md): amounts may be null or text, statuses come in other
// cases, failed and reversed transfers exist and a reversal is booked as a separate credit `R-<reference>`.
// Reading it in one place keeps the four commands telling the same story about the same rows.
import type { Context } from '../context.js';
import type { TransactionRecord } from '../api/schemas.js';
import { parseDateRange, type DateRange } from './dates.js';
import { addDays, startOfZonedDay, zonedClockText, zonedDate } from '../common/time-zone.js';
import { NO_KOBO, parseApiAmount, type Kobo } from '../money/kobo.js';
import { REVERSAL_PREFIX, statusKind } from '../transfers/outcome.js';
import { transactionPages, transactionTimeMs, type TransactionPage } from './transactions.js';

export type Direction = 'credit' | 'debit';

/** `credit` or `debit` whatever the case; undefined for a type the API has not shown. */
export function directionOf(tx: TransactionRecord): Direction | undefined {
  const type = String(tx.type ?? '')
    .trim()
    .toLowerCase();
  return type === 'credit' || type === 'debit' ? type : undefined;
}

/** The status in lower case, `''` when the API left it out. */
export function statusOf(tx: Pick<TransactionRecord, 'status'>): string {
  return String(tx.status ?? '')
    .trim()
    .toLowerCase();
}

/** An API amount field as kobo; null, absent or empty reads as zero (the API leaves stampDuty null on debits). */
export function koboOf(value: unknown): Kobo {
  if (value === null || value === undefined || value === '') return NO_KOBO;
  if (typeof value !== 'number' && typeof value !== 'string') return NO_KOBO;
  return parseApiAmount(value);
}

/**
 * Whether the row moved money in the end. A `failed` transfer moved nothing. A `reversed` one left and came
 * back as its own `R-<reference>` credit, which some services list and some do not: so the reversed debit
 * and any reversal credit are both left out, which nets the same either way. Pending transfers count:
 * they have left the available balance already.
 */
export function movedMoney(tx: TransactionRecord): boolean {
  // Final and not successful (failed, reversed, any other such status: src/transfers/outcome.ts).
  const kind = statusKind(tx.status);
  return kind !== 'final' && reversedReference(tx) === undefined;
}

/** The reference of the transfer a reversal credit gives back, or undefined for any other row. */
export function reversedReference(tx: TransactionRecord): string | undefined {
  if (directionOf(tx) !== 'credit') return undefined;
  const reference = String(tx.reference ?? '');
  return reference.startsWith(REVERSAL_PREFIX) && reference.length > REVERSAL_PREFIX.length ? reference.slice(REVERSAL_PREFIX.length) : undefined;
}

/** `2026-11-22`: the calendar day of an epoch ms time in `timeZone` (the business's); the day `--since` means too. */
export function localDay(ms: number, timeZone: string): string {
  return zonedDate(ms, timeZone);
}

/** The day a transaction belongs to, in `timeZone`. */
export function dayOf(tx: TransactionRecord, timeZone: string): string {
  return localDay(transactionTimeMs(tx), timeZone);
}

/** A period with both ends known: `sinceMs` inclusive, `untilMs` exclusive. */
export interface Period {
  sinceMs: number;
  untilMs: number;
}

/** Days a period covers when --since is not given: today and the six days before it, a week. */
export const DEFAULT_PERIOD_DAYS = 7;

/**
 * --since and --until, each optional: without --since the last `defaultDays` days up to today;
 * without --until up to now (the end of today, so nothing made during the run is cut off). Days are
 * `timeZone`'s (the business's).
 */
export function parsePeriod(since: unknown, until: unknown, now: number, timeZone: string, defaultDays = DEFAULT_PERIOD_DAYS): Period {
  const range: DateRange = parseDateRange(since, until, now, timeZone); // exit 2 for unreadable dates or since after until
  const endOfToday = startOfZonedDay(addDays(zonedDate(now, timeZone), 1), timeZone);
  const untilMs = range.untilMs ?? Math.max(endOfToday, (range.sinceMs ?? 0) + 1);
  if (range.sinceMs !== undefined) return { sinceMs: range.sinceMs, untilMs };
  // No --since: the week that ends on the last day of the period.
  return { sinceMs: startOfZonedDay(addDays(zonedDate(untilMs - 1, timeZone), -(defaultDays - 1)), timeZone), untilMs };
}

/**
 * A period as a person reads it: `2026-11-20 to 2026-11-26` (days of `timeZone`, both included), with the
 * time of an end that is not a midnight there (`--since 2026-11-20T09:30`).
 */
export function periodText(period: Period, timeZone: string): string {
  const atMidnight = (ms: number) => startOfZonedDay(zonedDate(ms, timeZone), timeZone) === ms;
  const since = atMidnight(period.sinceMs) ? localDay(period.sinceMs, timeZone) : zonedClockText(period.sinceMs, timeZone);
  const until = atMidnight(period.untilMs) ? localDay(period.untilMs - 1, timeZone) : zonedClockText(period.untilMs, timeZone);
  return `${since} to ${until}`;
}

/** Every day of the period in `timeZone`, oldest first (at most `limit`, so a period of centuries cannot run away). */
export function daysOf(period: Period, timeZone: string, limit = 3700): string[] {
  const days: string[] = [];
  for (let day = zonedDate(period.sinceMs, timeZone); days.length < limit && startOfZonedDay(day, timeZone) < period.untilMs; day = addDays(day, 1))
    days.push(day);
  return days;
}

/** The transactions of the period, every page, streamed newest first; paging stops below --since. */
export function periodPages(ctx: Context, period: Period): AsyncGenerator<TransactionPage, void, undefined> {
  return transactionPages(ctx, { page: 1, limit: undefined, all: true, filter: { range: { sinceMs: period.sinceMs, untilMs: period.untilMs } } });
}
