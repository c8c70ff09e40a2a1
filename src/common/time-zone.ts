// Calendar days in a named IANA time zone, whatever zone the running process is in (TZ). The payment
// policy's daily maximum counts "today" in the zone stored with the policy (src/controls/policy.ts): a caller
// that sets TZ cannot start a new day of its own.
//
// Built on Intl (the ICU data Node ships with): the zone's wall-clock date and time of an instant, and
// back from a date to the instant its day starts, daylight-saving changes included.
import { UsageError } from '../errors.js';

/** The zone a policy without one was stored under: the API's country (Nigeria, UTC+1, no daylight saving). */
export const DEFAULT_POLICY_TIME_ZONE = 'Africa/Lagos';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * Africa/Lagos, the business's clock unless a policy names another, has been WAT (UTC+1, no daylight
 * saving) since 1919 in the time-zone database: answered without Intl, whose time-zone data costs a run
 * about 10 ms and 7 MB to load (a `--json` run that shows one time, docs/startup.md). Other zones, and
 * earlier instants, ask Intl. test/books-core.test.ts checks this against Intl.
 */
const LAGOS = 'Africa/Lagos';
const LAGOS_FIXED_FROM = Date.UTC(1920, 0, 1);
/** From when Intl's en-NG names the zone WAT (before: GMT+1). */
const LAGOS_NAMED_FROM = Date.UTC(1970, 0, 1);
const fixedOffset = (ms: number, timeZone: string): number | undefined => (timeZone === LAGOS && ms >= LAGOS_FIXED_FROM ? HOUR_MS : undefined);

/** The date and time on a wall clock in `timeZone` at the instant `ms`. */
export function wallClock(ms: number, timeZone: string): WallClock {
  const fixed = fixedOffset(ms, timeZone);
  if (fixed !== undefined) {
    const wall = new Date(ms + fixed);
    return {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
    };
  }
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far the zone's wall clock is ahead of UTC at `ms`, in ms (whole seconds). */
function offsetMs(ms: number, timeZone: string): number {
  const fixed = fixedOffset(ms, timeZone);
  if (fixed !== undefined) return fixed;
  const w = wallClock(ms, timeZone);
  const wallAsUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return wallAsUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/** A calendar date as a comparable number: 20261126. */
const dateKey = (year: number, month: number, day: number) => year * 10_000 + month * 100 + day;

/**
 * The first instant of the calendar day `year-month-day` in `timeZone`: usually its midnight; where a
 * daylight-saving jump skips midnight, the first instant the zone's date is that day.
 */
export function startOfDay(year: number, month: number, day: number, timeZone: string): number {
  const midnightAsUtc = Date.UTC(year, month - 1, day);
  // Two rounds: the offset at the guess may differ from the offset at midnight when a change is near.
  let start = midnightAsUtc - offsetMs(midnightAsUtc, timeZone);
  start = midnightAsUtc - offsetMs(start, timeZone);
  const target = dateKey(year, month, day);
  const at = (ms: number) => {
    const w = wallClock(ms, timeZone);
    return dateKey(w.year, w.month, w.day);
  };
  if (at(start) === target && at(start - 1) < target) return start;
  // Midnight did not happen that day (a jump over it): search the first instant of the date, by minute
  // (zones change on whole minutes), within a day either side of UTC midnight.
  let low = Math.floor((midnightAsUtc - 26 * 3_600_000) / 60_000);
  let high = Math.ceil((midnightAsUtc + 26 * 3_600_000) / 60_000);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (at(middle * 60_000) >= target) high = middle;
    else low = middle + 1;
  }
  return low * 60_000;
}

/** The calendar day of `timeZone` that `now` falls in: [start, end) in epoch ms. */
export function zonedDay(now: number, timeZone: string): { start: number; end: number } {
  const w = wallClock(now, timeZone);
  // Date.UTC rolls 32 December over to 1 January: the next calendar date, whatever the month.
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return { start: startOfDay(w.year, w.month, w.day, timeZone), end: startOfDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone) };
}

/** An IANA name (`Africa/Lagos`, `UTC`, `Etc/GMT+7`), not an offset (`+01:00`) that Intl also takes. */
function isIanaName(zone: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(zone);
}

/**
 * An IANA time zone as typed (`africa/lagos` too), in the spelling Intl gives it; UsageError (exit 2)
 * for one Intl does not know.
 */
export function parseTimeZone(text: string, option: string): string {
  const zone = text.trim();
  const hint = 'give an IANA time zone name, e.g. Africa/Lagos, Europe/London, America/New_York or UTC';
  if (!isIanaName(zone)) throw new UsageError(`${option}: ${JSON.stringify(text)} is not a time zone name`, hint);
  let resolved: string | undefined;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new UsageError(`${option}: unknown time zone ${JSON.stringify(text)}`, hint);
  }
  return resolved && isIanaName(resolved) ? resolved : zone;
}

// ---- the business's clock: times and days of documents in a named zone, whatever TZ the machine has ----

/** Offsets by zone and hour: a zone changes its offset at most once in an hour, and rarely twice a year. */
const hourOffsets = new Map<string, number>();
const HOUR_MS = 3_600_000;

/** How far `timeZone`'s wall clock is ahead of UTC at `ms`, in ms; remembered per hour when it holds for the whole hour. */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const hourStart = Math.floor(ms / HOUR_MS) * HOUR_MS;
  const key = `${timeZone}|${hourStart}`;
  const known = hourOffsets.get(key);
  if (known !== undefined) return known;
  const atStart = offsetMs(hourStart, timeZone);
  // The offset changes within this hour: asked for exactly, never remembered.
  if (offsetMs(hourStart + HOUR_MS - 1, timeZone) !== atStart) return offsetMs(ms, timeZone);
  // A long document asks for thousands of hours; the map stays small.
  if (hourOffsets.size >= 50_000) hourOffsets.clear();
  hourOffsets.set(key, atStart);
  return atStart;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `2026-11-22`: the calendar day in `timeZone` at the instant `ms`. */
export function zonedDate(ms: number, timeZone: string): string {
  const wall = new Date(ms + zoneOffsetMs(ms, timeZone));
  return `${wall.getUTCFullYear()}-${pad2(wall.getUTCMonth() + 1)}-${pad2(wall.getUTCDate())}`;
}

/** What of a local time is written (zonedClockText): the date, the seconds, the zone's short name. */
export interface ClockTextForm {
  /** `2026-11-22 ` before the time; default true. */
  date?: boolean;
  /** `:09` after the minutes; default false. */
  seconds?: boolean;
  /** ` WAT` after it all; default false. */
  zone?: boolean;
}

/**
 * The one way fsapi writes a local time for people: the wall clock of `timeZone` (the business's, never the
 * machine's TZ) at the instant `ms`, `2026-11-22 14:05` by default, `2026-11-22 14:05:09 WAT` with seconds
 * and zone, `14:05:09` without the date. Empty for an instant that is not a number.
 */
export function zonedClockText(ms: number, timeZone: string, form: ClockTextForm = {}): string {
  if (!Number.isFinite(ms)) return '';
  const offset = zoneOffsetMs(ms, timeZone);
  const wall = new Date(ms + offset);
  const date = form.date === false ? '' : `${wall.getUTCFullYear()}-${pad2(wall.getUTCMonth() + 1)}-${pad2(wall.getUTCDate())} `;
  const seconds = form.seconds ? `:${pad2(wall.getUTCSeconds())}` : '';
  const zone = form.zone ? ` ${zoneAbbreviation(ms, timeZone, offset)}` : '';
  return `${date}${pad2(wall.getUTCHours())}:${pad2(wall.getUTCMinutes())}${seconds}${zone}`;
}

/** `2026-11-22 14:05:09 WAT`: the wall time in `timeZone` at `ms`, with the zone's abbreviation (documents). */
export function zonedTimeText(ms: number, timeZone: string): string {
  return zonedClockText(ms, timeZone, { seconds: true, zone: true });
}

/**
 * How a header names the zone of the times under it (`DATE (WAT)`): its short name when the zone keeps one
 * offset all year (`WAT`, `UTC`, `GMT+3`); the IANA name when it has daylight saving (`Europe/London`), since
 * one short name (`GMT` or `BST`) would be wrong for half the rows.
 */
export function zoneLabel(timeZone: string, atMs: number): string {
  const year = new Date(atMs).getUTCFullYear();
  const january = Date.UTC(year, 0, 1);
  const july = Date.UTC(year, 6, 1);
  return zoneOffsetMs(january, timeZone) === zoneOffsetMs(july, timeZone) ? zoneAbbreviation(atMs, timeZone) : timeZone;
}

const abbreviations = new Map<string, string>();

/**
 * The zone's short name at `ms`, as a reader in Nigeria knows it: `WAT` for Africa/Lagos (Intl's
 * en-NG names; en-US says `GMT+1`), `EST`/`EDT` for New York, else what Intl gives (`GMT+3`, `UTC`).
 */
export function zoneAbbreviation(ms: number, timeZone: string, offset = zoneOffsetMs(ms, timeZone)): string {
  if (timeZone === LAGOS && offset === HOUR_MS && ms >= LAGOS_NAMED_FROM) return 'WAT';
  const key = `${timeZone}|${offset}`;
  let name = abbreviations.get(key);
  if (name === undefined) {
    const short = (locale: string) =>
      new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }).formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? '';
    name = short('en-NG');
    if (/^GMT[+-]/.test(name)) {
      const american = short('en-US');
      if (american !== '' && !/^GMT[+-]/.test(american)) name = american;
    }
    if (name === '') name = timeZone;
    abbreviations.set(key, name);
  }
  return name;
}

/**
 * The instant at which `timeZone`'s wall clock reads the given date and time; undefined when it never
 * does (a time skipped by a daylight-saving jump, or a date that does not exist such as 31 April).
 */
export function zonedInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millis: number,
  timeZone: string,
): number | undefined {
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(wallAsUtc);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute
  )
    return undefined;
  // Two rounds, as startOfDay: the offset at the guess may differ from the one at the answer near a change.
  let instant = wallAsUtc - zoneOffsetMs(wallAsUtc, timeZone);
  instant = wallAsUtc - zoneOffsetMs(instant, timeZone);
  return instant + zoneOffsetMs(instant, timeZone) === wallAsUtc ? instant : undefined;
}

/** The calendar date `days` after (or before) `date` (`YYYY-MM-DD`). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, day + days));
  return `${next.getUTCFullYear()}-${pad2(next.getUTCMonth() + 1)}-${pad2(next.getUTCDate())}`;
}

/** The first instant of the calendar day `date` (`YYYY-MM-DD`) in `timeZone`. */
export function startOfZonedDay(date: string, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return startOfDay(year, month, day, timeZone);
}
