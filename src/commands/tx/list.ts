// fsapi tx list: GET /v1/transactions, newest first. One page, or with --all every page streamed as it
// arrives (table rows, TSV, one JSON array, or CSV), filtered here by type, status and date. Dates and the
// DATE column are the business's clock (src/controls/business-clock.ts); TSV, CSV and JSON keep instants.
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { listSpec } from './list.spec.js';
import type { TransactionRecord } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';
import { parseDateRange } from '../../books/dates.js';
import {
  DEFAULT_PAGE_LIMIT,
  EXPORT_COLUMNS,
  EXPORT_IDENTIFIERS,
  counterpartyLabel,
  hasFilter,
  toExportRow,
  transactionPages,
  type TransactionListing,
} from '../../books/transactions.js';
import type { OptionsOf } from '../spec.js';
import { createRowStream, moneyCell, outputMode, printJson, printList, statusCell, timeCell, timeColumn, type Cell, type Column } from '../../ui/output.js';
import { businessClock, shownTimeZone } from '../../controls/business-clock.js';
import { directionOf } from '../../books/ledger.js';
import { csvRecord } from '../../common/sanitize.js';
import { streamPages, type RowSink } from '../../ui/stream.js';

/** The columns, DATE on the business's clock `timeZone` (named in its header on a terminal). */
const transactionColumns = (timeZone: string, nowMs: number): Column<TransactionRecord>[] => [
  timeColumn('DATE', timeZone, nowMs, (tx) => timeCell(tx.createdAt, timeZone)),
  { header: 'REFERENCE', cell: (tx) => tx.reference },
  { header: 'TYPE', cell: (tx) => ({ text: tx.type, plain: tx.type, style: tx.type === 'credit' ? (t, c) => c.green(t) : undefined }), priority: 2 },
  { header: 'AMOUNT', cell: signedAmount, align: 'right' },
  { header: 'CHARGE', cell: (tx) => moneyCell(tx.charge), align: 'right', priority: 3 },
  { header: 'COUNTERPARTY', cell: counterpartyLabel, priority: 1, flex: true },
  { header: 'STATUS', cell: (tx) => statusCell(tx.status) },
  { header: 'DESCRIPTION', cell: (tx) => tx.description, priority: 4, flex: true },
];

/**
 * The amount with its direction on a terminal: `+₦207,950.00` in, `-₦485,300.00` out, so an inflow and an
 * outflow never look alike when TYPE is dropped for width. Piped, the amount stays as the API's number.
 */
function signedAmount(tx: TransactionRecord): Cell {
  const cell = moneyCell(tx.amount);
  const direction = directionOf(tx);
  if (cell.text === '' || direction === undefined) return cell;
  return { ...cell, text: `${direction === 'credit' ? '+' : '-'}${cell.text}`, style: direction === 'credit' ? (t, c) => c.green(t) : undefined };
}

/** Every page (--all) can be many rows: see CommandModule.longRunning. */
export const longRunning = (options: { all?: boolean }) => options.all === true;

export default run(listSpec, async (ctx, opts) => {
  const listing = await parseListing(ctx, opts);
  const csv = opts.csv;
  const columns = transactionColumns(await shownTimeZone(ctx), ctx.clock.now());
  const pages = transactionPages(ctx, listing);

  if (!listing.all) {
    const { value: page } = await pages.next();
    const rows = page?.rows ?? [];
    if (csv) {
      const sink = await csvSink(ctx);
      sink.write(rows);
      sink.end();
    } else if (outputMode(ctx) === 'json') {
      printJson(ctx, rows);
    } else {
      printList(ctx, columns, rows);
    }
    if (page) noteAboutOnePage(ctx, listing, page.received, rows.length);
    return;
  }

  const sink = csv ? await csvSink(ctx) : createRowStream(ctx, columns);
  await streamPages(ctx, pages, sink, { noun: 'transactions', progress: true });
});

/**
 * The options as a listing (the MCP tool reads one page with it: src/agents/pages.ts); --since and --until
 * are days of the business's clock.
 */
export async function parseListing(ctx: Context, options: OptionsOf<typeof listSpec>): Promise<TransactionListing> {
  if (options.csv && ctx.globals.json) throw new UsageError('--csv and --json cannot be used together', 'choose one output format');
  const page = options.page ?? 1;
  const limit = options.limit;
  let status: string | undefined;
  if (options.status !== undefined) {
    status = options.status.trim();
    if (status === '') throw new UsageError('--status is empty', 'give a status such as successful or pending');
  }
  const { type } = options;
  const dated = options.since !== undefined || options.until !== undefined;
  const range = dated ? parseDateRange(options.since, options.until, ctx.clock.now(), await businessClock(ctx)) : {};
  return { page, limit, all: options.all, filter: { type, status, range } };
}

/**
 * CSV through csv-stringify, one page at a time: a header row, then rows as they come. Every cell is
 * neutralised for spreadsheets (csvCell: no formulas, no control characters); amounts stay numbers, and
 * account numbers text (csvTextCell).
 */
async function csvSink(ctx: Context): Promise<RowSink<TransactionRecord>> {
  const { stringify } = await import('csv-stringify/sync');
  let headerWritten = false;
  return {
    write(rows) {
      ctx.io.out(
        stringify(
          rows.map((row) => csvRecord(toExportRow(row), EXPORT_IDENTIFIERS)),
          { header: !headerWritten, columns: [...EXPORT_COLUMNS] },
        ),
      );
      headerWritten = true;
    },
    end() {
      if (!headerWritten) ctx.io.out(stringify([], { header: true, columns: [...EXPORT_COLUMNS] }));
      headerWritten = true;
    },
  };
}

/** On a terminal, say where the rest is: filters only saw one page, and a full page means more exist. */
function noteAboutOnePage(ctx: Context, listing: TransactionListing, received: number, shown: number): void {
  if (!ctx.io.stderrIsTTY) return;
  if (hasFilter(listing.filter)) {
    ctx.io.note(`page ${listing.page}: ${shown} of ${received} transactions match; add --all to search every page`);
  } else if (received >= (listing.limit ?? DEFAULT_PAGE_LIMIT)) {
    ctx.io.note(`more on --page ${listing.page + 1}, or use --all`);
  }
}
