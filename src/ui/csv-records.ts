// CSV on stdout for the back-office commands (statement, collections), whose rows are records rather than
// table columns (src/ui/csv.ts writes the lists' columns), through csv-stringify; every cell is made inert
// for a spreadsheet (src/ui/sanitize.ts).
import type { Context } from '../context.js';
import { csvRecord } from './sanitize.js';
import type { RowSink } from './stream.js';

type Stringify = (typeof import('csv-stringify/sync'))['stringify'];
let stringify: Stringify | undefined;

async function loadStringify(): Promise<Stringify> {
  stringify ??= (await import('csv-stringify/sync')).stringify;
  return stringify;
}

/** Writes a whole table: the header, then the rows. */
export async function writeCsv<Row>(ctx: Context, columns: readonly string[], rows: readonly Row[], toRecord: (row: Row) => Record<string, string>): Promise<void> {
  const write = await loadStringify();
  ctx.io.out(write(rows.map((row) => csvRecord(toRecord(row))), { header: true, columns: [...columns] }));
}

/** A sink for streamed rows: the header with the first batch (or alone at the end, when none came). */
export async function createCsvSink<Row>(ctx: Context, columns: readonly string[], toRecord: (row: Row) => Record<string, string>): Promise<RowSink<Row>> {
  const write = await loadStringify();
  let headerWritten = false;
  return {
    write(rows) {
      if (rows.length === 0) return;
      ctx.io.out(write(rows.map((row) => csvRecord(toRecord(row))), { header: !headerWritten, columns: [...columns] }));
      headerWritten = true;
    },
    end() {
      if (!headerWritten) ctx.io.out(write([], { header: true, columns: [...columns] }));
      headerWritten = true;
    },
  };
}
