// CSV on stdout for the lists finance staff open in a spreadsheet (`--csv`): the same columns as the
// table, each value as it is written when piped (money as 1234.56, times as ISO 8601 UTC), through
// csv-stringify so commas, quotes and line breaks inside values are quoted properly. Headers are the
// columns' CSV names, else their headers in snake case: names that say what they hold
// (`account_number`, not `number`), as spreadsheets and scripts expect.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { shownText, type Column } from './output.js';
import { csvCell, csvTextCell } from '../common/sanitize.js';
import type { RowSink } from './stream.js';

// Each value as text (null blank, numbers as given), made inert for a spreadsheet (src/common/sanitize.ts):
// a name from the API that starts with = or @ is data, never a formula. An identifier column (account
// numbers, codes) is kept as text, so the spreadsheet keeps its leading zero.
const plainOf = (value: ReturnType<Column<unknown>['cell']>, identifier: boolean | undefined) => {
  const text = value !== null && typeof value === 'object' ? value.plain : shownText(value);
  return identifier ? csvTextCell(text) : csvCell(text);
};
const csvHeader = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * Columns that read a record by its keys, for rows already made into named fields (`credit_total`, ...);
 * those in `identifiers` are identifiers of digits (see Column.identifier).
 */
export function recordColumns<K extends string>(names: readonly K[], identifiers: readonly NoInfer<K>[] = []): Column<Record<K, string>>[] {
  return names.map((name) => ({ header: name, cell: (record) => record[name], identifier: identifiers.includes(name) }));
}

/** --csv and --json both ask for stdout: one of them. */
export function refuseCsvWithJson(ctx: Context, csv: boolean): void {
  if (csv && ctx.globals.json) throw new UsageError('--csv and --json cannot be used together', 'choose one output format');
}

/** A CSV writer: the header with the first write (or at the end, for an empty list), then rows as they come. */
export async function createCsvSink<Row>(ctx: Context, columns: readonly Column<Row>[]): Promise<RowSink<Row>> {
  const { stringify } = await import('csv-stringify/sync');
  const header = columns.map((column) => column.csv ?? csvHeader(column.header));
  let headerWritten = false;
  const write = (rows: readonly Row[]) => {
    const records = rows.map((row) => columns.map((column) => plainOf(column.cell(row) as ReturnType<Column<unknown>['cell']>, column.identifier)));
    ctx.io.out(stringify(headerWritten ? records : [header, ...records]));
    headerWritten = true;
  };
  return {
    write,
    end: () => {
      if (!headerWritten) write([]);
    },
  };
}

/** A whole list as CSV. */
export async function printCsv<Row>(ctx: Context, columns: readonly Column<Row>[], rows: readonly Row[]): Promise<void> {
  const sink = await createCsvSink(ctx, columns);
  sink.write(rows);
  sink.end();
}
