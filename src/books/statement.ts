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
// cancel out (src/books/ledger.ts). Those rows and rows of a type other than credit or debit are counted
// apart (`skipped`).
//
// Balances. The API gives only the balance of now (GET /v1/account), so the statement's balances are
// derived from it, all in kobo:
//   closing = available balance now - the net of every row after the period (those pages are read anyway:
//             the list is newest first)
//   opening = closing - net of the period
//   a day's balance = opening + the nets of the days up to and including it
// The available balance, because pending transfers count here (they have left it already).
import type { Context } from '../context.js';
import type { PrimaryAccount, TransactionRecord } from '../api/schemas.js';
import { ApiError } from '../errors.js';
import { addKobo, koboToDecimal, NO_KOBO, parseApiAmount, subtractKobo, sumKobo, type Kobo } from '../money/kobo.js';
import { dayOf, daysOf, directionOf, koboOf, localDay, movedMoney, type Period } from './ledger.js';
import { shownText } from '../common/shown.js';
import { epochToDate } from '../common/time.js';
import { zonedTimeText } from '../common/time-zone.js';
import type { DocumentEnvironment } from '../common/document-origin.js';
import { ALL_PAGES_LIMIT, counterparty, transactionPages, transactionTimeMs, type TransactionPage } from './transactions.js';

export interface Totals {
  credits: { count: number; totalKobo: Kobo };
  debits: { count: number; totalKobo: Kobo };
  chargesKobo: Kobo;
  stampDutyKobo: Kobo;
}

export interface DayTotals extends Totals {
  /** Local calendar day, YYYY-MM-DD. */
  date: string;
  /** The balance at the end of the day. */
  balanceKobo: Kobo;
}

export interface Statement extends Totals {
  /** The zone of its days and times (the business's: src/controls/policy.ts, businessTimeZone). */
  timeZone: string;
  /** First and last day of the period (both inclusive), in `timeZone`. */
  since: string;
  until: string;
  /** One entry per day of the period, oldest first, days without transactions included. */
  days: DayTotals[];
  /** Rows not counted: failed and reversed transfers with their reversal credits, and types other than credit or debit. */
  skipped: { failed: number; otherType: number };
  /** The balance at the start and at the end of the period (see the top of this file). */
  openingKobo: Kobo;
  closingKobo: Kobo;
}

const emptyTotals = (): Totals => ({
  credits: { count: 0, totalKobo: NO_KOBO },
  debits: { count: 0, totalKobo: NO_KOBO },
  chargesKobo: NO_KOBO,
  stampDutyKobo: NO_KOBO,
});

export function netKobo(totals: Totals): Kobo {
  return subtractKobo(totals.credits.totalKobo, sumKobo([totals.debits.totalKobo, totals.chargesKobo, totals.stampDutyKobo]));
}

/** Adds rows as they arrive (in any order); `result()` gives the statement, its days those of `timeZone`. */
export function createStatementTally(period: Period, timeZone: string) {
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
        const day = dayOf(tx, timeZone);
        let totals = byDay.get(day);
        if (!totals) byDay.set(day, (totals = emptyTotals()));
        const side = direction === 'credit' ? totals.credits : totals.debits;
        side.count += 1;
        side.totalKobo = addKobo(side.totalKobo, koboOf(tx.amount));
        totals.chargesKobo = addKobo(totals.chargesKobo, koboOf(tx.charge));
        totals.stampDutyKobo = addKobo(totals.stampDutyKobo, koboOf(tx.stampDuty));
      }
    },
    /** The statement, its balances derived from the balance at the end of the period. */
    result(closingKobo: Kobo): Statement {
      const days = daysOf(period, timeZone);
      // A row the API dated outside the days it was asked for cannot be in a filtered listing, but a day
      // holding rows is never dropped from the table.
      for (const day of byDay.keys()) if (!days.includes(day)) days.push(day);
      days.sort();
      const statement: Statement = {
        ...emptyTotals(),
        timeZone,
        since: localDay(period.sinceMs, timeZone),
        until: localDay(period.untilMs - 1, timeZone),
        days: days.map((date) => ({ date, ...(byDay.get(date) ?? emptyTotals()), balanceKobo: NO_KOBO })),
        skipped,
        openingKobo: NO_KOBO,
        closingKobo,
      };
      for (const day of statement.days) {
        statement.credits.count += day.credits.count;
        statement.credits.totalKobo = addKobo(statement.credits.totalKobo, day.credits.totalKobo);
        statement.debits.count += day.debits.count;
        statement.debits.totalKobo = addKobo(statement.debits.totalKobo, day.debits.totalKobo);
        statement.chargesKobo = addKobo(statement.chargesKobo, day.chargesKobo);
        statement.stampDutyKobo = addKobo(statement.stampDutyKobo, day.stampDutyKobo);
      }
      statement.openingKobo = subtractKobo(closingKobo, netKobo(statement));
      let balance = statement.openingKobo;
      for (const day of statement.days) day.balanceKobo = balance = addKobo(balance, netKobo(day));
      for (const value of [statement.credits.totalKobo, statement.debits.totalKobo, statement.chargesKobo, statement.stampDutyKobo, statement.openingKobo]) {
        if (!Number.isSafeInteger(value)) throw new RangeError('statement total is too large to hold exactly');
      }
      return statement;
    },
  };
}

/** The CSV header the issue fixes, one row a day. */
export const STATEMENT_CSV_COLUMNS = ['date', 'credits', 'credit_total', 'debits', 'debit_total', 'charges', 'stamp_duty', 'net', 'balance'] as const;

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
    balance: koboToDecimal(day.balanceKobo),
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

/** `--json`: where the figures come from, totals as two-decimal strings (exact), one object per day. */
export function statementJson(statement: Statement, environment: DocumentEnvironment) {
  return {
    environment,
    timeZone: statement.timeZone,
    since: statement.since,
    until: statement.until,
    openingBalance: koboToDecimal(statement.openingKobo),
    ...totalsJson(statement),
    closingBalance: koboToDecimal(statement.closingKobo),
    days: statement.days.map((day) => ({ date: day.date, ...totalsJson(day), balance: koboToDecimal(day.balanceKobo) })),
  };
}

/** The change one row made to the balance, in kobo: nothing for a row that moved no money. */
export function rowNetKobo(tx: TransactionRecord): Kobo {
  const direction = directionOf(tx);
  if (direction === undefined || !movedMoney(tx)) return NO_KOBO;
  const amount = koboOf(tx.amount);
  const costs = addKobo(koboOf(tx.charge), koboOf(tx.stampDuty));
  return direction === 'credit' ? subtractKobo(amount, costs) : subtractKobo(NO_KOBO, addKobo(amount, costs));
}

/** What the first reading of the list learnt: the statement, and where its rows are for a second reading. */
export interface GatheredStatement {
  statement: Statement;
  account: { name: string; number: string };
  /** The available balance GET /v1/account gave before the list was read. */
  balanceNowKobo: Kobo;
  /** The net of the rows after the period: closing = balanceNowKobo - afterPeriodKobo. */
  afterPeriodKobo: Kobo;
  /** Rows of the period, counted or not, and the newest time among them. */
  rows: number;
  newestMs: number;
  /** The pages (of ALL_PAGES_LIMIT rows) that held the period's rows, and whether the last was full. */
  pages: { first: number; last: number; lastFull: boolean } | undefined;
}

/**
 * The first reading: the balance now, then the list from its newest row down to the start of the period,
 * tallied a page at a time (rows after the period only into `afterPeriodKobo`). `observe` wraps the pages
 * (a progress line at a terminal).
 */
export async function gatherStatement(
  ctx: Context,
  period: Period,
  timeZone: string,
  observe: (pages: AsyncIterable<TransactionPage>) => AsyncIterable<TransactionPage> = (pages) => pages,
): Promise<GatheredStatement> {
  const api = await ctx.api();
  // The balance first: a row that lands after this read is then after it in the list too, not half-counted.
  const account: PrimaryAccount = await api.getAccount();
  let balanceNowKobo: Kobo;
  try {
    balanceNowKobo = parseApiAmount(account.availableBalance as string | number);
  } catch {
    throw new ApiError(`the API's available balance ${JSON.stringify(account.availableBalance)} is not an amount; the statement's balances cannot be derived`);
  }
  const tally = createStatementTally(period, timeZone);
  let afterPeriodKobo = NO_KOBO;
  let rows = 0;
  let newestMs = Number.NEGATIVE_INFINITY;
  let pages: GatheredStatement['pages'];
  const listing = transactionPages(ctx, { page: 1, limit: ALL_PAGES_LIMIT, all: true, filter: { range: { sinceMs: period.sinceMs } } });
  for await (const page of observe(listing)) {
    const inPeriod: TransactionRecord[] = [];
    for (const tx of page.rows) {
      if (transactionTimeMs(tx) >= period.untilMs) afterPeriodKobo = addKobo(afterPeriodKobo, rowNetKobo(tx));
      else inPeriod.push(tx);
    }
    if (inPeriod.length === 0) continue;
    tally.add(inPeriod);
    rows += inPeriod.length;
    for (const tx of inPeriod) newestMs = Math.max(newestMs, transactionTimeMs(tx));
    pages = { first: pages?.first ?? page.page, last: page.page, lastFull: page.received >= ALL_PAGES_LIMIT };
  }
  return {
    statement: tally.result(subtractKobo(balanceNowKobo, afterPeriodKobo)),
    account: { name: shownText(account.accountName), number: shownText(account.accountNumber) },
    balanceNowKobo,
    afterPeriodKobo,
    rows,
    newestMs,
    pages,
  };
}

/** One transaction of the statement, with the balance after it. */
export interface StatementLine {
  tx: TransactionRecord;
  timeMs: number;
  inKobo: Kobo;
  outKobo: Kobo;
  /** Charge and stamp duty together. */
  chargesKobo: Kobo;
  /** False for a row that moved no money in the end (failed, reversed, its reversal credit, another type). */
  counted: boolean;
  balanceKobo: Kobo;
}

export function statementLine(tx: TransactionRecord, balanceBeforeKobo: Kobo): StatementLine {
  const net = rowNetKobo(tx);
  const counted = directionOf(tx) !== undefined && movedMoney(tx);
  const amount = koboOf(tx.amount);
  const credit = directionOf(tx) === 'credit';
  return {
    tx,
    timeMs: transactionTimeMs(tx),
    inKobo: credit ? amount : NO_KOBO,
    outKobo: credit ? NO_KOBO : amount,
    chargesKobo: addKobo(koboOf(tx.charge), koboOf(tx.stampDuty)),
    counted,
    balanceKobo: addKobo(balanceBeforeKobo, net),
  };
}

/** The list changed between the two readings: the document would not add up, so none is made. */
export class StatementChangedError extends ApiError {}

/**
 * The second reading, oldest first with the balance after each row: the pages of the first reading in
 * reverse, each page's rows reversed. One page in memory at a time. New rows arriving at the top of the
 * list in between push rows down a page, so the page after the last is read too when the last was full,
 * and a row already handed out (a shift the other way) is not handed out twice; rows newer than the
 * newest of the first reading are left out. At the end the rows must add up to the first reading's count
 * and balance, else the list changed under the statement and StatementChangedError says so.
 */
export async function* statementLines(ctx: Context, gathered: GatheredStatement, period: Period): AsyncGenerator<StatementLine[], void, undefined> {
  const api = await ctx.api();
  let balance = gathered.statement.openingKobo;
  let count = 0;
  if (gathered.pages) {
    const { first, last, lastFull } = gathered.pages;
    let previous = new Set<string>();
    for (let page = lastFull ? last + 1 : last; page >= first; page -= 1) {
      const received = await api.listTransactions({ page, limit: ALL_PAGES_LIMIT });
      const lines: StatementLine[] = [];
      const keys = new Set<string>();
      for (let i = received.length - 1; i >= 0; i -= 1) {
        const tx = received[i]!;
        const ms = transactionTimeMs(tx);
        if (!(ms >= period.sinceMs && ms < period.untilMs && ms <= gathered.newestMs)) continue;
        keys.add(tx.reference);
        if (previous.has(tx.reference)) continue;
        const line = statementLine(tx, balance);
        balance = line.balanceKobo;
        count += 1;
        lines.push(line);
      }
      previous = keys;
      if (lines.length > 0) yield lines;
    }
  }
  if (count !== gathered.rows || balance !== gathered.statement.closingKobo) {
    throw new StatementChangedError(
      `the transaction list changed while the statement was made (${gathered.rows} rows at the first reading, ${count} at the second; ` +
        `balance ${koboToDecimal(balance)} against ${koboToDecimal(gathered.statement.closingKobo)})`,
      { hint: 'run it again; with an --until in the past, new transactions cannot change the period', code: 'statement_changed' },
    );
  }
}

/** The columns of a statement line that are identifiers of digits, kept as text in a CSV (csvTextCell). */
export const STATEMENT_LINE_IDENTIFIERS = ['counterparty_account'] as const;

/** Columns of `statement --transactions --csv`, one row per transaction, oldest first. */
export const STATEMENT_LINE_CSV_COLUMNS = [
  'time_utc',
  'time_local',
  'reference',
  'type',
  'status',
  'counterparty_name',
  'counterparty_account',
  'counterparty_bank',
  'description',
  'money_in',
  'money_out',
  'charges',
  'balance',
  'counted',
] as const;

/** One transaction as a CSV row; its local time is `timeZone`'s (the statement's), with the zone's short name. */
export function statementLineCsvRow(line: StatementLine, timeZone: string): Record<(typeof STATEMENT_LINE_CSV_COLUMNS)[number], string> {
  const party = counterparty(line.tx);
  return {
    time_utc: epochToDate(line.tx.createdAt)?.toISOString() ?? shownText(line.tx.createdAt),
    time_local: zonedTimeText(line.timeMs, timeZone),
    reference: shownText(line.tx.reference),
    type: shownText(line.tx.type),
    status: shownText(line.tx.status),
    counterparty_name: party.name,
    // Raw here; the CSV writer keeps it as text (STATEMENT_LINE_IDENTIFIERS).
    counterparty_account: party.accountNumber,
    counterparty_bank: party.bank,
    description: shownText(line.tx.description),
    money_in: line.inKobo > 0 ? koboToDecimal(line.inKobo) : '',
    money_out: line.outKobo > 0 ? koboToDecimal(line.outKobo) : '',
    charges: koboToDecimal(line.chargesKobo),
    balance: koboToDecimal(line.balanceKobo),
    counted: line.counted ? 'yes' : 'no',
  };
}
