// --since / --until parsing (src/books/dates.ts): bare dates are whole local days, date-times with an
// offset are exact, anything unreadable is a UsageError (exit 2). Run with TZ fixed by the test itself
// where the local zone matters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inRange, parseDateOption, parseDateRange } from '../src/books/dates.js';
import { ExitCode, UsageError } from '../src/errors.js';

const isUsageError = (error: unknown) => error instanceof UsageError && error.exitCode === ExitCode.usage;

describe('parseDateOption', () => {
  it('reads a bare date as the whole local day', () => {
    const { startMs, endMs } = parseDateOption('2026-10-31', '--since');
    assert.equal(startMs, new Date(2026, 9, 31).getTime());
    assert.equal(endMs, new Date(2026, 10, 1).getTime());
  });

  it('reads a date-time with Z or an offset exactly', () => {
    assert.equal(parseDateOption('2026-10-01T08:00:00Z', '--since').startMs, Date.UTC(2026, 9, 1, 8, 0, 0));
    assert.equal(parseDateOption('2026-10-01T08:00+01:00', '--since').startMs, Date.UTC(2026, 9, 1, 7, 0, 0));
    assert.equal(parseDateOption('2026-10-01T08:00:00.250-0530', '--since').startMs, Date.UTC(2026, 9, 1, 13, 30, 0, 250));
    assert.equal(parseDateOption('2026-10-01 08:00:05z', '--since').startMs, Date.UTC(2026, 9, 1, 8, 0, 5));
  });

  it('reads a date-time without an offset as local time', () => {
    assert.equal(parseDateOption('2026-10-01T08:30', '--until').startMs, new Date(2026, 9, 1, 8, 30).getTime());
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
      assert.throws(() => parseDateOption(bad, '--since'), isUsageError);
    });
  }
});

describe('parseDateRange', () => {
  it('makes --until a bare date inclusive of that whole day', () => {
    const range = parseDateRange('2026-10-01', '2026-10-01');
    assert.equal(range.sinceMs, new Date(2026, 9, 1).getTime());
    assert.equal(range.untilMs, new Date(2026, 9, 2).getTime());
    assert.equal(inRange(new Date(2026, 9, 1, 23, 59, 59, 999).getTime(), range), true);
    assert.equal(inRange(new Date(2026, 9, 2).getTime(), range), false);
    assert.equal(inRange(new Date(2026, 9, 1).getTime() - 1, range), false);
  });

  it('makes --until a date-time inclusive of that instant', () => {
    const range = parseDateRange(undefined, '2026-10-01T08:00:00Z');
    assert.equal(inRange(Date.UTC(2026, 9, 1, 8), range), true);
    assert.equal(inRange(Date.UTC(2026, 9, 1, 8) + 1, range), false);
  });

  it('refuses --since after --until', () => {
    assert.throws(
      () => parseDateRange('2026-10-02', '2026-10-01'),
      (error: unknown) => isUsageError(error) && /after --until/.test((error as Error).message),
    );
  });

  it('leaves the range open when neither is given', () => {
    assert.deepEqual(parseDateRange(undefined, undefined), {});
    assert.equal(inRange(0, {}), true);
  });
});

describe('relative days', () => {
  // 14:30 local on 10 March 2026, a Tuesday.
  const now = new Date(2026, 2, 10, 14, 30).getTime();
  const day = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime();

  it('today, yesterday, Nd and Nw are whole local days counted back from the clock', () => {
    assert.deepEqual(parseDateOption('today', '--since', now), { startMs: day(2026, 3, 10), endMs: day(2026, 3, 11) });
    assert.deepEqual(parseDateOption('Yesterday', '--since', now), { startMs: day(2026, 3, 9), endMs: day(2026, 3, 10) });
    // Nd is the last N days, today counted: 7d starts six days before today.
    assert.equal(parseDateOption('7d', '--since', now).startMs, day(2026, 3, 4));
    assert.equal(parseDateOption('1d', '--since', now).startMs, day(2026, 3, 10), '1d is today');
    assert.equal(parseDateOption('30d', '--since', now).startMs, day(2026, 2, 9), 'across the end of February');
    assert.equal(parseDateOption('2w', '--since', now).startMs, day(2026, 2, 25));
  });

  it('--since 7d is seven whole days, today the last of them: the boundary is the start of the sixth day before', () => {
    const range = parseDateRange('7d', undefined, now);
    const justInside = day(2026, 3, 4);
    assert.equal(inRange(justInside, range), true, 'midnight starting 4 March, six days before today, is in');
    assert.equal(inRange(justInside - 1, range), false, 'the last millisecond of 3 March is not');
    // The same seven days whether asked at the first or the last minute of today.
    for (const at of [new Date(2026, 2, 10, 0, 0).getTime(), new Date(2026, 2, 10, 23, 59, 59, 999).getTime()]) {
      assert.equal(parseDateRange('7d', 'today', at).sinceMs, justInside);
      const { sinceMs, untilMs } = parseDateRange('7d', 'today', at);
      assert.equal(Math.round((untilMs! - sinceMs!) / 86_400_000), 7, 'seven days, not eight');
    }
    // As --until, Nd names the same first day, included whole.
    assert.equal(parseDateRange(undefined, '7d', now).untilMs, day(2026, 3, 5));
  });

  it('--until yesterday includes all of yesterday; --since 7d --until today is seven days', () => {
    assert.deepEqual(parseDateRange('7d', 'today', now), { sinceMs: day(2026, 3, 4), untilMs: day(2026, 3, 11) });
    assert.equal(parseDateRange(undefined, 'yesterday', now).untilMs, day(2026, 3, 10));
    assert.throws(() => parseDateRange('today', 'yesterday', now), isUsageError);
  });

  for (const bad of ['7', 'd', '-7d', '7 days', '1.5d', '7m', '10000d', 'tomorrow', '0d', '0w']) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      assert.throws(() => parseDateOption(bad, '--since', now), isUsageError);
    });
  }
});
