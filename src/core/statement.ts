// fsapi statement: what came in and went out over a period, and whether it adds up. The API has no
// statement endpoint, so the tally is made here from the transaction list as its pages stream past: one
// running total per local day, never the rows, so memory grows with the days of the period and not with
// the number of transactions.
//
// The arithmetic, all in integer kobo:
//   credits  = count and sum of `amount` of the credits (gross: what the payers sent)
//   debits   = count and sum of `amount` of the debits (what was sent out)
//   charges  = sum of `charge` of every row (collection fees and transfer fees)
//   stampDuty= sum of `stampDuty` of every row (null counts as nothing)
//   net      = credits - debits - charges - stampDuty: the change of the balance over the period
// Failed transfers moved nothing and are left out; so are reversed ones and their reversal credits, which
// cancel out (src/core/ledger.ts). Those rows and rows of a type other than credit or debit are counted
// apart (`skipped`).
import type { TransactionRecord } from '../api/schemas.js';
import { koboToDecimal } from './money.js';
import { dayOf, daysOf, directionOf, koboOf, localDay, movedMoney, type Period } from './ledger.js';

export interface Totals {
  credits: { count: number; totalKobo: number };
  debits: { count: number; totalKobo: number };
  chargesKobo: number;
  stampDutyKobo: number;
}

export interface DayTotals extends Totals {
  /** Local calendar day, YYYY-MM-DD. */
  date: string;
}

export interface Statement extends Totals {
  /** First and last local day of the period (both inclusive). */
  since: string;
  until: string;
  /** One entry per day of the period, oldest first, days without transactions included. */
  days: DayTotals[];
  /** Rows not counted: failed and reversed transfers with their reversal credits, and types other than credit or debit. */
  skipped: { failed: number; otherType: number };
}

const emptyTotals = (): Totals => ({ credits: { count: 0, totalKobo: 0 }, debits: { count: 0, totalKobo: 0 }, chargesKobo: 0, stampDutyKobo: 0 });

export function netKobo(totals: Totals): number {
  return totals.credits.totalKobo - totals.debits.totalKobo - totals.chargesKobo - totals.stampDutyKobo;
}

/** Adds rows as they arrive (in any order); `result()` gives the statement. */
export function createStatementTally(period: Period) {
  const byDay = new Map<string, Totals>();
  const skipped = { failed: 0, otherType: 0 };
  return {
    add(rows: readonly TransactionRecord[]): void {
      for (const tx of rows) {
        const direction = directionOf(tx);
        if (direction === undefined) {
          skipped.otherType += 1;
          continue;
        }
        if (!movedMoney(tx)) {
          skipped.failed += 1;
          continue;
        }
        const day = dayOf(tx);
        let totals = byDay.get(day);
        if (!totals) byDay.set(day, (totals = emptyTotals()));
        const side = direction === 'credit' ? totals.credits : totals.debits;
        side.count += 1;
        side.totalKobo += koboOf(tx.amount);
        totals.chargesKobo += koboOf(tx.charge);
        totals.stampDutyKobo += koboOf(tx.stampDuty);
      }
    },
    result(): Statement {
      const days = daysOf(period);
      // A row the API dated outside the days it was asked for cannot be in a filtered listing, but a day
      // holding rows is never dropped from the table.
      for (const day of byDay.keys()) if (!days.includes(day)) days.push(day);
      days.sort();
      const statement: Statement = {
        ...emptyTotals(),
        since: localDay(period.sinceMs),
        until: localDay(period.untilMs - 1),
        days: days.map((date) => ({ date, ...(byDay.get(date) ?? emptyTotals()) })),
        skipped,
      };
      for (const day of statement.days) {
        statement.credits.count += day.credits.count;
        statement.credits.totalKobo += day.credits.totalKobo;
        statement.debits.count += day.debits.count;
        statement.debits.totalKobo += day.debits.totalKobo;
        statement.chargesKobo += day.chargesKobo;
        statement.stampDutyKobo += day.stampDutyKobo;
      }
      for (const value of [statement.credits.totalKobo, statement.debits.totalKobo, statement.chargesKobo, statement.stampDutyKobo]) {
        if (!Number.isSafeInteger(value)) throw new RangeError('statement total is too large to hold exactly');
      }
      return statement;
    },
  };
}

/** The CSV header the issue fixes, one row a day. */
export const STATEMENT_CSV_COLUMNS = ['date', 'credits', 'credit_total', 'debits', 'debit_total', 'charges', 'stamp_duty', 'net'] as const;

export function statementCsvRow(day: DayTotals): Record<(typeof STATEMENT_CSV_COLUMNS)[number], string> {
  return {
    date: day.date,
    credits: String(day.credits.count),
    credit_total: koboToDecimal(day.credits.totalKobo),
    debits: String(day.debits.count),
    debit_total: koboToDecimal(day.debits.totalKobo),
    charges: koboToDecimal(day.chargesKobo),
    stamp_duty: koboToDecimal(day.stampDutyKobo),
    net: koboToDecimal(netKobo(day)),
  };
}

function totalsJson(totals: Totals) {
  return {
    credits: { count: totals.credits.count, total: koboToDecimal(totals.credits.totalKobo) },
    debits: { count: totals.debits.count, total: koboToDecimal(totals.debits.totalKobo) },
    charges: koboToDecimal(totals.chargesKobo),
    stampDuty: koboToDecimal(totals.stampDutyKobo),
    net: koboToDecimal(netKobo(totals)),
  };
}

/** `--json`: totals as two-decimal strings (exact), one object per day. */
export function statementJson(statement: Statement) {
  return {
    since: statement.since,
    until: statement.until,
    ...totalsJson(statement),
    days: statement.days.map((day) => ({ date: day.date, ...totalsJson(day) })),
  };
}
