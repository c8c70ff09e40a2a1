// The tallies behind statement and collections (src/books/statement.ts, collections.ts, ledger.ts) fed
// the loose rows the real API is reported to send: null amounts, numbers as text, statuses in other
// cases, failed transfers, reversal credits R-<reference>, a type never seen before, a virtual account
// as a number. Plus the default period and days across a daylight-saving change.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TransactionRecord } from '../src/api/schemas.js';
import { collectionsJson, createCollectionsTally } from '../src/books/collections.js';
import { daysOf, parsePeriod, periodText } from '../src/books/ledger.js';
import { createStatementTally, statementJson } from '../src/books/statement.js';
import { parseDateOption } from '../src/books/dates.js';
import { wallClock, zoneAbbreviation, zoneLabel, zonedClockText, zonedDate, zonedTimeText } from '../src/common/time-zone.js';
import { UsageError } from '../src/errors.js';

const base = Date.UTC(2026, 10, 18, 12, 0, 0);
let id = 0;
function row(fields: Partial<Record<keyof TransactionRecord, unknown>>): TransactionRecord {
  id += 1;
  return {
    id,
    userId: 1,
    accountId: null,
    netAmount: 0,
    amount: '0.00',
    charge: '0.00',
    stampDuty: null,
    details: {},
    description: '',
    destinationAccountNumber: '9900000011',
    destinationAccountName: 'ON THE ROW',
    destinationBankCode: '000023',
    destinationBankName: 'Providus Bank',
    sourceAccountNumber: '',
    sourceAccountName: '',
    sourceBankCode: '',
    sourceBankName: '',
    reference: `REF-${id}`,
    transactionTypeName: 'collection',
    category: 'collection',
    utilityType: null,
    sessionId: '',
    status: 'successful',
    reversedFlag: 0,
    type: 'credit',
    completedAt: null,
    createdAt: base,
    updatedAt: base,
    ...fields,
  } as TransactionRecord;
}

/** The seven days of a week that ends on 23 November 2026. */
const WEEK_TO_23_NOVEMBER = ['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'];

/** process.env.TZ = undefined would set the text "undefined": remove it instead. */
function restoreTz(previous: string | undefined): void {
  if (previous === undefined) delete process.env.TZ;
  else process.env.TZ = previous;
}

describe('statement tally with loose rows', () => {
  it('counts in kobo, reads text and nulls, leaves out failed and reversed transfers, reversal credits and unknown types', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      const period = { sinceMs: Date.UTC(2026, 10, 17), untilMs: Date.UTC(2026, 10, 19) };
      const tally = createStatementTally(period, 'UTC');
      tally.add([
        row({ type: 'CREDIT', amount: '1000.10', charge: 5, stampDuty: '50' }),
        row({ type: 'credit', amount: 0.2, charge: null, stampDuty: null, status: 'SUCCESSFUL' }),
        row({ type: 'Debit', amount: '300.00', charge: '10.75', status: 'Reversed', reference: 'ACME-1' }),
        row({ type: 'credit', amount: '300.00', charge: '0.00', reference: 'R-ACME-1' }),
        row({ type: 'debit', amount: '999.00', charge: '10.75', status: 'FAILED' }),
        row({ type: 'fee', amount: '1.00' }),
        row({ type: 'debit', amount: null, charge: '10.75', status: 'pending', createdAt: Date.UTC(2026, 10, 17, 23, 59) }),
      ]);
      const statement = tally.result(500_000 as Kobo); // ₦5,000.00 at the end of the period
      assert.deepEqual(statement.skipped, { failed: 3, otherType: 1 });
      const json = statementJson(statement, 'simulator');
      assert.deepEqual(json.credits, { count: 2, total: '1000.30' });
      assert.deepEqual(json.debits, { count: 1, total: '0.00' });
      assert.equal(json.charges, '15.75');
      assert.equal(json.stampDuty, '50.00');
      assert.equal(json.net, '934.55'); // 1000.30 - 0.00 - 15.75 - 50.00
      assert.deepEqual(
        json.days.map((day) => [day.date, day.net]),
        [
          ['2026-11-17', '-10.75'],
          ['2026-11-18', '945.30'],
        ],
      );
      // opening = closing - net; each day's balance is the one before plus the day's net.
      assert.equal(json.openingBalance, '4065.45');
      assert.deepEqual(
        json.days.map((day) => day.balance),
        ['4054.70', '5000.00'],
      );
      assert.equal(json.closingBalance, '5000.00');
    } finally {
      restoreTz(previous);
    }
  });
});

describe('collections tally with loose rows', () => {
  it('groups by details.virtualAccount (text or number), else the destination; skips reversals, failures and debits', () => {
    const tally = createCollectionsTally();
    tally.add([
      row({ amount: '100.00', details: { virtualAccount: 9900000022 }, createdAt: base + 2 }),
      row({ amount: 50, details: { virtualAccount: '9900000022' }, createdAt: base + 1 }),
      row({ amount: '70.00', details: null, destinationAccountNumber: '9900000033', destinationAccountName: 'NAME ON THE ROW' }),
      row({ amount: '999.00', reference: 'R-ACME-9', destinationAccountNumber: '1100084217' }),
      row({ amount: '999.00', status: 'Failed' }),
      row({ amount: '999.00', type: 'debit' }),
    ]);
    const groups = tally.result(new Map([['9900000022', 'Ibrahim Musa Bello']])).map(collectionsJson);
    assert.deepEqual(groups, [
      {
        accountNumber: '9900000022',
        accountName: 'Ibrahim Musa Bello',
        count: 2,
        total: '150.00',
        first: new Date(base + 1).toISOString(),
        last: new Date(base + 2).toISOString(),
      },
      {
        accountNumber: '9900000033',
        accountName: 'NAME ON THE ROW',
        count: 1,
        total: '70.00',
        first: new Date(base).toISOString(),
        last: new Date(base).toISOString(),
      },
    ]);
  });
});

describe('periods', () => {
  it("without --since: the seven days of the business's zone ending today, or ending on --until", () => {
    const previous = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const now = Date.UTC(2026, 10, 22, 23, 30); // 00:30 on the 23rd in Lagos, the 22nd in New York
      assert.deepEqual(daysOf(parsePeriod(undefined, undefined, now, 'Africa/Lagos'), 'Africa/Lagos'), WEEK_TO_23_NOVEMBER);
      assert.deepEqual(daysOf(parsePeriod(undefined, '2026-10-03', now, 'Africa/Lagos'), 'Africa/Lagos').slice(0, 2), ['2026-09-27', '2026-09-28']);
      assert.throws(() => parsePeriod('2026-11-20', '2026-11-01', now, 'Africa/Lagos'), /after --until/);
    } finally {
      restoreTz(previous);
    }
  });

  it('one row per calendar day across a daylight-saving change', () => {
    const period = parsePeriod('2026-10-24', '2026-10-26', Date.UTC(2026, 10, 1), 'Europe/London');
    assert.deepEqual(daysOf(period, 'Europe/London'), ['2026-10-24', '2026-10-25', '2026-10-26']);
    assert.equal(period.untilMs - period.sinceMs, 73 * 3_600_000, 'the day the clocks go back has 25 hours');
  });

  it("a period as a person reads it: the business's days, and the time of an end that is not its midnight", () => {
    const lagos = parsePeriod('2026-11-20', '2026-11-26', 0, 'Africa/Lagos');
    assert.equal(periodText(lagos, 'Africa/Lagos'), '2026-11-20 to 2026-11-26');
    assert.equal(periodText(parsePeriod('2026-11-20T09:30', '2026-11-26', 0, 'Africa/Lagos'), 'Africa/Lagos'), '2026-11-20 09:30 to 2026-11-26');
    // The same instants read on another clock are not whole days there.
    assert.equal(periodText(lagos, 'UTC'), '2026-11-19 23:00 to 2026-11-26 23:00');
  });
});

describe("the business's clock: a named zone, whatever TZ the process has", () => {
  it('Africa/Lagos without Intl says what Intl says: the wall clock and WAT, 1920 to 2100', () => {
    const intl = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Africa/Lagos',
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    const from = Date.UTC(1920, 0, 1);
    const to = Date.UTC(2100, 0, 1);
    for (let i = 0; i <= 2000; i += 1) {
      // Spread over the range, and each at an odd second, so every field moves.
      const ms = from + Math.floor(((to - from) * i) / 2000) + i * 7919;
      const parts = Object.fromEntries(
        intl
          .formatToParts(ms)
          .filter((p) => p.type !== 'literal')
          .map((p) => [p.type, Number(p.value)]),
      );
      assert.deepEqual(wallClock(ms, 'Africa/Lagos'), parts, new Date(ms).toISOString());
      const named = new Intl.DateTimeFormat('en-NG', { timeZone: 'Africa/Lagos', timeZoneName: 'short' })
        .formatToParts(ms)
        .find((p) => p.type === 'timeZoneName')?.value;
      if (i % 100 === 0) assert.equal(zoneAbbreviation(ms, 'Africa/Lagos'), named, new Date(ms).toISOString());
    }
  });

  const at = (iso: string) => Date.parse(iso);
  for (const machine of ['UTC', 'America/New_York', 'Pacific/Kiritimati']) {
    it(`times, days and periods of Africa/Lagos with TZ=${machine}`, () => {
      const previous = process.env.TZ;
      process.env.TZ = machine;
      try {
        assert.equal(zonedTimeText(at('2026-11-22T13:05:09Z'), 'Africa/Lagos'), '2026-11-22 14:05:09 WAT');
        assert.equal(zonedTimeText(at('2026-11-22T23:30:00Z'), 'Africa/Lagos'), '2026-11-23 00:30:00 WAT');
        assert.equal(zonedDate(at('2026-11-22T22:59:59.999Z'), 'Africa/Lagos'), '2026-11-22');
        assert.equal(zonedDate(at('2026-11-22T23:00:00Z'), 'Africa/Lagos'), '2026-11-23');
        // A bare date is the whole Lagos day; a date-time without an offset is Lagos time.
        assert.deepEqual(parseDateOption('2026-11-22', '--since', 0, 'Africa/Lagos'), {
          startMs: at('2026-11-21T23:00:00Z'),
          endMs: at('2026-11-22T23:00:00Z'),
        });
        assert.equal(parseDateOption('2026-11-22T08:00', '--since', 0, 'Africa/Lagos').startMs, at('2026-11-22T07:00:00Z'));
        assert.equal(parseDateOption('2026-11-22T08:00Z', '--since', 0, 'Africa/Lagos').startMs, at('2026-11-22T08:00:00Z'));
        // Without --since: the week that ends today in Lagos (00:30 on the 23rd there, the 22nd in UTC).
        const now = at('2026-11-22T23:30:00Z');
        const week = parsePeriod(undefined, undefined, now, 'Africa/Lagos');
        assert.deepEqual(week, { sinceMs: at('2026-11-16T23:00:00Z'), untilMs: at('2026-11-23T23:00:00Z') });
        assert.deepEqual(daysOf(week, 'Africa/Lagos'), WEEK_TO_23_NOVEMBER);
        assert.equal(parseDateOption('yesterday', '--since', now, 'Africa/Lagos').startMs, at('2026-11-21T23:00:00Z'));
      } finally {
        restoreTz(previous);
      }
    });
  }

  it('one way to write a local time (zonedClockText), and the name a header gives the zone (zoneLabel)', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const ms = at('2026-11-22T23:30:09Z');
      assert.equal(zonedClockText(ms, 'Africa/Lagos'), '2026-11-23 00:30');
      assert.equal(zonedClockText(ms, 'Africa/Lagos', { seconds: true }), '2026-11-23 00:30:09');
      assert.equal(zonedClockText(ms, 'Africa/Lagos', { zone: true }), '2026-11-23 00:30 WAT');
      assert.equal(zonedClockText(ms, 'Africa/Lagos', { date: false, seconds: true }), '00:30:09');
      assert.equal(zonedClockText(Number.NaN, 'Africa/Lagos'), '');
      // One offset all year: its short name. Daylight saving: the IANA name, true of every row under it.
      assert.equal(zoneLabel('Africa/Lagos', ms), 'WAT');
      assert.equal(zoneLabel('UTC', ms), 'UTC');
      assert.equal(zoneLabel('America/New_York', ms), 'America/New_York');
      assert.equal(zoneLabel('Australia/Sydney', ms), 'Australia/Sydney');
    } finally {
      restoreTz(previous);
    }
  });

  it('a zone with daylight saving: its own short names, a 23-hour day, a skipped time refused', () => {
    assert.equal(zonedTimeText(at('2026-01-15T17:00:00Z'), 'America/New_York'), '2026-01-15 12:00:00 EST');
    assert.equal(zonedTimeText(at('2026-07-15T16:00:00Z'), 'America/New_York'), '2026-07-15 12:00:00 EDT');
    assert.equal(zoneAbbreviation(at('2026-07-15T16:00:00Z'), 'UTC'), 'UTC');
    // 8 March 2026: clocks go from 02:00 to 03:00 in New York.
    const day = parseDateOption('2026-03-08', '--since', 0, 'America/New_York');
    assert.equal(day.startMs, at('2026-03-08T05:00:00Z'));
    assert.equal(day.endMs - day.startMs, 23 * 3_600_000);
    assert.throws(() => parseDateOption('2026-03-08T02:30', '--since', 0, 'America/New_York'), UsageError);
    assert.throws(() => parseDateOption('2026-02-30', '--since', 0, 'Africa/Lagos'), UsageError);
    // Each side of the change, the offset of that instant.
    assert.equal(zonedTimeText(at('2026-03-08T06:59:59Z'), 'America/New_York'), '2026-03-08 01:59:59 EST');
    assert.equal(zonedTimeText(at('2026-03-08T07:00:00Z'), 'America/New_York'), '2026-03-08 03:00:00 EDT');
  });
});
