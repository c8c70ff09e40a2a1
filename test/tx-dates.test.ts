// --since / --until parsing (src/books/dates.ts): bare dates are whole days of the business's zone (here
// Europe/London, whose days change length twice a year), date-times without an offset its wall time, with
// an offset exact; anything unreadable is a UsageError (exit 2). The machine's TZ plays no part: the
// expectations are written in UTC, and the process runs under another zone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inRange, parseDateOption, parseDateRange } from '../src/books/dates.js';
import { ExitCode, UsageError } from '../src/errors.js';

const isUsageError = (error: unknown) => error instanceof UsageError && error.exitCode === ExitCode.usage;
// The machine's zone, which none of the expectations below depend on.
process.env.TZ = 'Asia/Tokyo';
/** The business's zone of these tests: GMT (UTC+0) in winter, BST (UTC+1) from 29 March to 25 October 2026. */
const ZONE = 'Europe/London';
const HOUR = 3_600_000;
const parse = (text: string, option: string, now = 0) => parseDateOption(text, option, now, ZONE);
const range = (since: unknown, until: unknown, now = 0) => parseDateRange(since, until, now, ZONE);

describe('parseDateOption', () => {
  it("reads a bare date as the whole day of the business's zone", () => {
    const { startMs, endMs } = parse('2026-10-31', '--since');
    assert.equal(startMs, Date.UTC(2026, 9, 31));
    assert.equal(endMs, Date.UTC(2026, 10, 1));
    // In summer time the London day starts at 23:00 UTC the day before.
    assert.deepEqual(parse('2026-10-01', '--since'), { startMs: Date.UTC(2026, 8, 30, 23), endMs: Date.UTC(2026, 9, 1, 23) });
  });

  it('reads a date-time with Z or an offset exactly', () => {
    assert.equal(parse('2026-10-01T08:00:00Z', '--since').startMs, Date.UTC(2026, 9, 1, 8, 0, 0));
    assert.equal(parse('2026-10-01T08:00+01:00', '--since').startMs, Date.UTC(2026, 9, 1, 7, 0, 0));
    assert.equal(parse('2026-10-01T08:00:00.250-0530', '--since').startMs, Date.UTC(2026, 9, 1, 13, 30, 0, 250));
    assert.equal(parse('2026-10-01 08:00:05z', '--since').startMs, Date.UTC(2026, 9, 1, 8, 0, 5));
  });

  it("reads a date-time without an offset as the business's wall time", () => {
    assert.equal(parse('2026-10-01T08:30', '--until').startMs, Date.UTC(2026, 9, 1, 7, 30));
    // 29 March 2026: London's clocks go from 01:00 to 02:00; 01:30 never happened there.
    assert.throws(() => parse('2026-03-29T01:30', '--since'), isUsageError);
  });

  for (const bad of [
    '',
    'the day before',
    '2026-02-30',
    '2026-13-01',
    '2026-1-5',
    '31/10/2026',
    '2026-10-01T24:00',
    '2026-10-01T08:00+15:00',
    '1969-12-31',
    '2026-10-01T08',
    '1e12',
  ]) {
    it(`refuses ${JSON.stringify(bad)} with a usage error`, () => {
      assert.throws(() => parse(bad, '--since'), isUsageError);
    });
  }
});

describe('parseDateRange', () => {
  it('makes --until a bare date inclusive of that whole day', () => {
    const day = range('2026-10-01', '2026-10-01');
    assert.equal(day.sinceMs, Date.UTC(2026, 9, 1) - HOUR);
    assert.equal(day.untilMs, Date.UTC(2026, 9, 2) - HOUR);
    assert.equal(inRange(Date.UTC(2026, 9, 1, 22, 59, 59, 999), day), true);
    assert.equal(inRange(Date.UTC(2026, 9, 1, 23), day), false, 'midnight of 2 October in London');
    assert.equal(inRange(Date.UTC(2026, 9, 1) - HOUR - 1, day), false);
  });

  it('makes --until a date-time inclusive of that instant', () => {
    const instant = range(undefined, '2026-10-01T08:00:00Z');
    assert.equal(inRange(Date.UTC(2026, 9, 1, 8), instant), true);
    assert.equal(inRange(Date.UTC(2026, 9, 1, 8) + 1, instant), false);
  });

  it('refuses --since after --until', () => {
    assert.throws(
      () => range('2026-10-02', '2026-10-01'),
      (error: unknown) => isUsageError(error) && /after --until/.test((error as Error).message),
    );
  });

  it('leaves the range open when neither is given', () => {
    assert.deepEqual(range(undefined, undefined), {});
    assert.equal(inRange(0, {}), true);
  });
});

describe('relative days', () => {
  // 14:30 in London on 10 March 2026, a Tuesday (GMT: UTC+0, so its midnights are UTC's).
  const now = Date.UTC(2026, 2, 10, 14, 30);
  const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

  it("today, yesterday, Nd and Nw are whole days of the business's zone counted back from the clock", () => {
    assert.deepEqual(parse('today', '--since', now), { startMs: day(2026, 3, 10), endMs: day(2026, 3, 11) });
    assert.deepEqual(parse('Yesterday', '--since', now), { startMs: day(2026, 3, 9), endMs: day(2026, 3, 10) });
    // Nd is the last N days, today counted: 7d starts six days before today.
    assert.equal(parse('7d', '--since', now).startMs, day(2026, 3, 4));
    assert.equal(parse('1d', '--since', now).startMs, day(2026, 3, 10), '1d is today');
    assert.equal(parse('30d', '--since', now).startMs, day(2026, 2, 9), 'across the end of February');
    assert.equal(parse('2w', '--since', now).startMs, day(2026, 2, 25));
  });

  it('--since 7d is seven whole days, today the last of them: the boundary is the start of the sixth day before', () => {
    const week = range('7d', undefined, now);
    const justInside = day(2026, 3, 4);
    assert.equal(inRange(justInside, week), true, 'midnight starting 4 March, six days before today, is in');
    assert.equal(inRange(justInside - 1, week), false, 'the last millisecond of 3 March is not');
    // The same seven days whether asked at the first or the last minute of today.
    for (const at of [Date.UTC(2026, 2, 10), Date.UTC(2026, 2, 10, 23, 59, 59, 999)]) {
      assert.equal(range('7d', 'today', at).sinceMs, justInside);
      const { sinceMs, untilMs } = range('7d', 'today', at);
      assert.equal(Math.round((untilMs! - sinceMs!) / 86_400_000), 7, 'seven days, not eight');
    }
    // As --until, Nd names the same first day, included whole.
    assert.equal(range(undefined, '7d', now).untilMs, day(2026, 3, 5));
  });

  it('--until yesterday includes all of yesterday; --since 7d --until today is seven days', () => {
    assert.deepEqual(range('7d', 'today', now), { sinceMs: day(2026, 3, 4), untilMs: day(2026, 3, 11) });
    assert.equal(range(undefined, 'yesterday', now).untilMs, day(2026, 3, 10));
    assert.throws(() => range('today', 'yesterday', now), isUsageError);
  });

  for (const bad of ['7', 'd', '-7d', '7 days', '1.5d', '7m', '10000d', 'tomorrow', '0d', '0w']) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      assert.throws(() => parse(bad, '--since', now), isUsageError);
    });
  }
});
