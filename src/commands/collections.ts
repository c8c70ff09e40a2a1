// fsapi collections [accountNumber]: inflows grouped by the receiving client (virtual) account over a
// period, or with an account number that account's inflows one by one. Streams the transaction list
// (src/books/collections.ts); account names come from the client list, read once for the run. Its days and
// times are the business's clock (src/controls/business-clock.ts), whatever TZ the machine has.
import { sumKobo } from '../money/kobo.js';
import type { Context } from '../context.js';
import { run } from './run.js';
import { collectionsSpec } from './top/collections.spec.js';
import type { TransactionRecord } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import {
  COLLECTIONS_CSV_COLUMNS,
  INFLOW_CSV_COLUMNS,
  clientNames,
  COLLECTIONS_CSV_IDENTIFIERS,
  collectionsCsvRow,
  collectionsJson,
  createCollectionsTally,
  INFLOW_CSV_IDENTIFIERS,
  inflowCsvRow,
  isInflow,
  receivingAccount,
  type AccountCollections,
} from '../books/collections.js';
import { DEFAULT_PERIOD_DAYS, parsePeriod, periodPages, periodText, type Period } from '../books/ledger.js';
import { parseAccountNumber } from '../common/validate.js';
import { createRowStream, koboCell, moneyCell, outputMode, printList, statusCell, timeCell, timeColumn, type Column } from '../ui/output.js';
import { businessClock } from '../controls/business-clock.js';
import { createCsvSink, printCsv, recordColumns } from '../ui/csv.js';
import { withProgress } from '../ui/progress.js';
import { streamPages, type RowSink } from '../ui/stream.js';

/** A long period is many pages: see CommandModule.longRunning. */
export const longRunning = true;

/** The columns of the totals, FIRST and LAST on the business's clock `timeZone`. */
const summaryColumns = (timeZone: string, nowMs: number): Column<AccountCollections>[] => [
  { header: 'ACCOUNT', cell: (group) => group.accountNumber },
  // On a narrow terminal the name is cut before anything else, then FIRST and LAST drop out whole: a
  // time cut in the middle reads as a different time (src/ui/table-layout.ts).
  { header: 'NAME', cell: (group) => group.accountName, flex: true, minWidth: 16 },
  { header: 'COUNT', cell: (group) => String(group.count), align: 'right' },
  { header: 'TOTAL', cell: (group) => koboCell(group.totalKobo), align: 'right' },
  timeColumn('FIRST', timeZone, nowMs, (group) => timeCell(group.firstMs, timeZone), { priority: 2 }),
  timeColumn('LAST', timeZone, nowMs, (group) => timeCell(group.lastMs, timeZone), { priority: 1 }),
];

/** The columns of one account's inflows, DATE on the business's clock `timeZone`. */
const inflowColumns = (timeZone: string, nowMs: number): Column<TransactionRecord>[] => [
  timeColumn('DATE', timeZone, nowMs, (tx) => timeCell(tx.createdAt, timeZone)),
  { header: 'REFERENCE', cell: (tx) => tx.reference },
  { header: 'AMOUNT', cell: (tx) => moneyCell(tx.amount), align: 'right' },
  { header: 'CHARGE', cell: (tx) => moneyCell(tx.charge), align: 'right', priority: 2 },
  { header: 'STAMP DUTY', cell: (tx) => moneyCell(tx.stampDuty), align: 'right', priority: 3 },
  {
    header: 'PAYER',
    cell: (tx) =>
      [tx.sourceAccountName, tx.sourceBankName]
        .map((part) => String(part ?? '').trim())
        .filter(Boolean)
        .join(', '),
    flex: true,
    minWidth: 16,
  },
  { header: 'STATUS', cell: (tx) => statusCell(tx.status) },
];

export default run(collectionsSpec, async (ctx, opts, args) => {
  const csv = opts.csv;
  if (csv && ctx.globals.json) throw new UsageError('--csv and --json cannot be used together', 'choose one output format');
  const account = args[0] === undefined ? undefined : parseAccountNumber(args[0], 'the client account number');
  // The period's days are the business's, under --json and in the CSV too.
  const timeZone = await businessClock(ctx);
  const period = parsePeriod(opts.since, opts.until, ctx.clock.now(), timeZone);
  // The totals mean nothing without their period: said first, on a terminal (--json and CSV are data).
  if (outputMode(ctx) === 'table' && !csv) {
    const chosen = opts.since === undefined ? ` (the last ${DEFAULT_PERIOD_DAYS} days; --since, --until for others)` : '';
    ctx.io.note(`inflows ${periodText(period, timeZone)}${chosen}`);
  }
  if (account !== undefined) return oneAccount(ctx, period, account, csv, timeZone);

  // The names are asked for while the transactions page; the client list is small next to them. Without
  // it the totals are still right: each account keeps the name its transactions carry.
  const names = clientNames(ctx).catch((error: unknown) => {
    ctx.io.note(`warning: could not read the client list for account names (${error instanceof Error ? error.message : String(error)})`);
    return new Map<string, string>();
  });
  const tally = createCollectionsTally();
  for await (const page of withProgress(ctx, periodPages(ctx, period), 'transactions')) tally.add(page.rows);
  const groups = tally.result(await names);

  if (csv) {
    await printCsv(ctx, recordColumns(COLLECTIONS_CSV_COLUMNS, COLLECTIONS_CSV_IDENTIFIERS), groups.map(collectionsCsvRow));
    return;
  }
  printList(ctx, summaryColumns(timeZone, ctx.clock.now()), groups, groups.map(collectionsJson), 'no inflows to client accounts in the period');
  if (outputMode(ctx) === 'table' && groups.length > 0) {
    const count = groups.reduce((sum, group) => sum + group.count, 0);
    const total = sumKobo(groups.map((group) => group.totalKobo));
    ctx.io.note(`${count} inflow${count === 1 ? '' : 's'} to ${groups.length} account${groups.length === 1 ? '' : 's'}, ${koboCell(total).text} in all`);
  }
});

/** `collections <accountNumber>`: that account's inflows, streamed as they are found (newest first). */
async function oneAccount(ctx: Context, period: Period, account: string, csv: boolean, timeZone: string): Promise<void> {
  const sink: RowSink<TransactionRecord> = csv
    ? asRecords(await createCsvSink(ctx, recordColumns(INFLOW_CSV_COLUMNS, INFLOW_CSV_IDENTIFIERS)), inflowCsvRow)
    : createRowStream(ctx, inflowColumns(timeZone, ctx.clock.now()));
  const forAccount: RowSink<TransactionRecord> = {
    write(rows) {
      // Only non-empty batches: a terminal table fixes its column widths from the first one it gets.
      const mine = rows.filter((tx) => isInflow(tx) && receivingAccount(tx) === account);
      if (mine.length > 0) sink.write(mine);
    },
    end: () => sink.end(),
  };
  await streamPages(ctx, periodPages(ctx, period), forAccount, { noun: 'transactions', progress: true });
}

/** A sink of transactions that writes each as its CSV record. */
function asRecords<R>(sink: RowSink<R>, toRecord: (tx: TransactionRecord) => R): RowSink<TransactionRecord> {
  return { write: (rows) => sink.write(rows.map(toRecord)), end: () => sink.end() };
}
