// --since / --until for lists. A range is held as epoch milliseconds, `since` inclusive and `until`
// exclusive, so "the whole of 31 October" is simply [midnight 31 Oct, midnight 1 Nov).
//
// Time zone: the business's clock (src/controls/business-clock.ts: the payment policy's zone, else
// Africa/Lagos), whatever TZ the machine has. A bare date (YYYY-MM-DD) is a whole day of that zone, the
// day every table, statement and CSV of fsapi shows; a date-time without an offset is that zone's wall
// time; one with `Z` or `+01:00` is exact. So `--since today` is the same instants on a laptop in Lagos and
// on a server in UTC, and a transaction at 23:30 UTC belongs to the next Lagos day.
//
// Relative days, read against the injected clock's now: `today`, `yesterday`, `Nd` and `Nw`. Each is a
// whole day, like a bare date. `Nd` is the last N days counting today, as a person says "the last 7
// days" and as a week's statement shows seven rows: `--since 7d` is today and the six days before it (not
// eight days), `--since 1d` is today, and `Nw` is 7N days the same way (`2w`: today and the 13 days
// before). As --until, `Nd` names that same first day, included whole. `0d` covers no day: refused.
// `--until yesterday` includes all of yesterday.
import { UsageError } from '../errors.js';
import { addDays, startOfZonedDay, zonedDate, zonedInstant } from '../common/time-zone.js';

export interface DateRange {
  /** Inclusive lower bound, epoch ms. */
  sinceMs?: number;
  /** Exclusive upper bound, epoch ms. */
  untilMs?: number;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const RELATIVE = /^(?:(today)|(yesterday)|(\d{1,4})([dw]))$/i;

/** The furthest back a relative day may reach: about 27 years, more than any statement needs. */
const MAX_RELATIVE_DAYS = 9999;

const HINT = 'give a date as YYYY-MM-DD (a whole day), today, yesterday, 7d, 30d, 2w, or an ISO date-time such as 2026-10-01T08:00 or 2026-10-01T08:00:00Z';

interface Parsed {
  /** Start of the named instant (or of the day, for a bare date), epoch ms. */
  startMs: number;
  /** For a bare date: start of the next day. For a date-time: the instant plus 1 ms. */
  endMs: number;
}

/**
 * Parses one --since/--until value; throws UsageError (exit 2) for anything it cannot read exactly.
 * `now` (epoch ms, from the context's clock) anchors the relative days; `timeZone` (an IANA name, the
 * business's) is the zone of days and of date-times without an offset.
 */
export function parseDateOption(text: string, option: string, now: number, timeZone: string): Parsed {
  const value = text.trim();
  const relative = RELATIVE.exec(value);
  if (relative) {
    // Days before today of the day named: `today` 0, `yesterday` 1, `Nd` N-1 (the first of the last N days).
    const days = relative[3] === undefined ? undefined : Number(relative[3]) * (relative[4]!.toLowerCase() === 'w' ? 7 : 1);
    if (days === 0)
      throw new UsageError(`${option}: ${JSON.stringify(text)} covers no day`, `1d (or today) is today alone, 7d today and the six days before; ${HINT}`);
    if (days !== undefined && days > MAX_RELATIVE_DAYS)
      throw new UsageError(`${option}: ${JSON.stringify(text)} reaches back more than ${MAX_RELATIVE_DAYS} days`, HINT);
    const back = relative[1] ? 0 : relative[2] ? 1 : days! - 1;
    const first = addDays(zonedDate(now, timeZone), -back);
    return { startMs: startOfZonedDay(first, timeZone), endMs: startOfZonedDay(addDays(first, 1), timeZone) };
  }
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const [year, month, day] = dateOnly.slice(1, 4).map(Number) as [number, number, number];
    if (year < 1970 || !plausible(month, day, 0, 0, 0) || zonedInstant(year, month, day, 12, 0, 0, 0, timeZone) === undefined)
      throw new UsageError(`${option}: ${JSON.stringify(text)} is not a calendar date`, HINT);
    return { startMs: startOfZonedDay(value, timeZone), endMs: startOfZonedDay(addDays(value, 1), timeZone) };
  }
  const dateTime = DATE_TIME.exec(value);
  if (dateTime) {
    const [year, month, day, hour, minute] = dateTime.slice(1, 6).map(Number) as [number, number, number, number, number];
    const second = Number(dateTime[6] ?? 0);
    const millis = Number((dateTime[7] ?? '').padEnd(3, '0'));
    const offset = dateTime[8];
    let ms: number | undefined;
    if (offset === undefined) {
      // A wall time the zone skips (a daylight-saving jump) never happened: refused, as 31 April is.
      ms = year < 1970 || !plausible(month, day, hour, minute, second) ? undefined : zonedInstant(year, month, day, hour, minute, second, millis, timeZone);
    } else {
      const utc = utcDate(year, month, day, hour, minute, second, millis);
      const offsetMinutes = parseOffset(offset);
      ms = utc === undefined || offsetMinutes === undefined ? undefined : utc - offsetMinutes * 60_000;
    }
    if (ms === undefined) throw new UsageError(`${option}: ${JSON.stringify(text)} is not a valid date-time`, HINT);
    return { startMs: ms, endMs: ms + 1 };
  }
  throw new UsageError(`${option}: cannot read ${JSON.stringify(text)} as a date`, HINT);
}

/**
 * --since and --until together. `--until` with a bare date includes that whole day; with a date-time it
 * includes that instant. `--since` later than `--until` is an error, not an empty list.
 */
export function parseDateRange(since: unknown, until: unknown, now: number, timeZone: string): DateRange {
  const range: DateRange = {};
  if (since !== undefined) range.sinceMs = parseDateOption(String(since), '--since', now, timeZone).startMs;
  if (until !== undefined) range.untilMs = parseDateOption(String(until), '--until', now, timeZone).endMs;
  if (range.sinceMs !== undefined && range.untilMs !== undefined && range.sinceMs >= range.untilMs) {
    throw new UsageError(`--since ${String(since)} is after --until ${String(until)}`, 'swap them, or widen the range');
  }
  return range;
}

export function inRange(ms: number, range: DateRange): boolean {
  return (range.sinceMs === undefined || ms >= range.sinceMs) && (range.untilMs === undefined || ms < range.untilMs);
}

function utcDate(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | undefined {
  if (y < 1970 || !plausible(mo, d, h, mi, s)) return undefined;
  const time = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const date = new Date(time);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return time;
}

function plausible(mo: number, d: number, h: number, mi: number, s: number): boolean {
  return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && s <= 59;
}

/** `Z` -> 0, `+01:00` / `+0100` -> 60, `-05:30` -> -330 minutes east of UTC. */
function parseOffset(text: string): number | undefined {
  if (text.toUpperCase() === 'Z') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (hours > 14 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}
