// Everything a command prints as data goes through here, so the contract's output rules hold everywhere:
//   stdout a terminal -> readable tables (cli-table3), money as ₦1,234.56, colours;
//   stdout piped      -> the same columns as tab-separated lines under one header line, plain values
//                        (money as 1234.56, times as ISO 8601) so scripts can cut and sort them;
//   times for people  -> on the business's clock (src/controls/business-clock.ts), never the machine's TZ,
//                        its zone named once: in the header of a column of times (`DATE (WAT)`), or in
//                        the value of a record's field (`2026-11-22 14:05 WAT`);
//   --json            -> the API's data exactly as it came, pretty-printed.
import type TableConstructor from 'cli-table3';
import type { Context } from '../context.js';
import { formatNaira, koboToDecimal, parseApiAmount, type Kobo } from '../money/kobo.js';
import { shownText } from '../common/shown.js';
import { epochToDate } from '../common/time.js';
import { zonedClockText, zoneLabel } from '../common/time-zone.js';
import { terminalText, tsvField } from '../common/sanitize.js';
import { styles, type Styles } from './style.js';
import { fitColumns, wrapText, type TableFit } from './table-layout.js';
import { displayWidth, truncateToWidth } from '../common/text-width.js';

export { shownText };

export type OutputMode = 'table' | 'tsv' | 'json';

// cli-table3 (with its colour and string-width dependencies) is loaded only when a table will be drawn:
// piped and --json runs, which scripts start many times, never pay for it. src/runtime.ts awaits
// prepareTables() before a command whose stdout is a terminal.
let Table: typeof TableConstructor | undefined;

export async function prepareTables(): Promise<void> {
  Table ??= (await import('cli-table3')).default;
}

export function outputMode(ctx: Context): OutputMode {
  if (ctx.globals.json) return 'json';
  return ctx.io.stdoutIsTTY ? 'table' : 'tsv';
}

/** A value as shown in a table (`text`, maybe coloured) and as written to TSV (`plain`). */
export interface Cell {
  text: string;
  plain: string;
  style?: (text: string, c: Styles) => string;
}

/** A value as the API gave it: text, a number, a boolean, or nothing (shown blank). */
export type ShownValue = string | number | boolean | null | undefined;

export interface Column<Row> {
  header: string;
  /** The header on a terminal when it says more than the TSV's: the zone of a column of times (`DATE (WAT)`). */
  terminalHeader?: string;
  /** The column's name in a CSV file, when the table's short header would not say what it holds (`account_number` for NUMBER). */
  csv?: string;
  /** An identifier of digits (account number, bank code, phone): a CSV keeps it as text, leading zero and all (csvTextCell). */
  identifier?: boolean;
  cell: (row: Row) => Cell | ShownValue;
  align?: 'left' | 'right';
  /** On a narrow terminal, higher numbers drop out first; 0 (default) is always shown (src/ui/table-layout.ts). */
  priority?: number;
  /** Long values may be cut with `…` to fit the terminal (names, descriptions; never references or amounts). */
  flex?: boolean;
  /**
   * With `flex`: a long value continues on more lines of its row, broken at words, instead of being cut
   * (a narration or a name a person must read whole). Streamed lists (createRowStream) still cut.
   */
  wrap?: boolean;
  /** The narrowest a flex column gets before low-priority columns drop out. */
  minWidth?: number;
}

// Every cell passes here: API values are shown as text (src/common/shown.ts: null blank, numbers as given);
// its table text is made safe for a terminal (src/common/sanitize.ts); its plain text is escaped for TSV in tsvLine.
const toCell = (value: Cell | ShownValue): Cell => {
  if (value !== null && typeof value === 'object') return { ...value, text: terminalText(value.text) };
  const text = shownText(value);
  return { text: terminalText(text), plain: text };
};

/** The styles for one stream: colour only where src/ui/io.ts decided that stream shows it. */
export function colors(ctx: Context, stream: 'stdout' | 'stderr' = 'stdout'): Styles {
  return styles(stream === 'stdout' ? ctx.io.colorStdout : ctx.io.colorStderr);
}

// ---- cells -------------------------------------------------------------------------------------------

/** An API amount (number or two-decimal string) as money. */
export function moneyCell(value: number | string | null | undefined): Cell {
  if (value === null || value === undefined || value === '') return { text: '', plain: '' };
  let kobo: Kobo;
  try {
    kobo = parseApiAmount(value);
  } catch {
    // An amount fsapi cannot read is shown as the API gave it, never failing the page.
    return { text: String(value), plain: String(value) };
  }
  return { text: formatNaira(kobo), plain: koboToDecimal(kobo) };
}

export function koboCell(kobo: Kobo): Cell {
  return { text: formatNaira(kobo), plain: koboToDecimal(kobo) };
}

/**
 * An epoch time in ms or s: on a terminal the wall time of `timeZone` (the business's clock), `2026-11-22
 * 14:05`, and with `zone` its short name after it (a record's field, where no header names it); as ISO 8601
 * (UTC) in TSV and CSV.
 */
export function timeCell(value: number | string | null | undefined, timeZone: string, form: { zone?: boolean; seconds?: boolean } = {}): Cell {
  const date = epochToDate(value);
  // A time that is not an epoch number (or numeric text) is shown as given.
  if (!date) return typeof value === 'string' ? { text: value, plain: value } : { text: '', plain: '' };
  return { text: zonedClockText(date.getTime(), timeZone, form), plain: date.toISOString() };
}

/** A time as a record's field shows it: on the business's clock with its zone's name, `2026-11-22 14:05 WAT`. */
export function recordTimeCell(value: number | string | null | undefined, timeZone: string): Cell {
  return timeCell(value, timeZone, { zone: true });
}

/** A time of fsapi's own records (ISO 8601) as a cell: as timeCell, the text as stored when it is not a time. */
export function isoTimeCell(iso: string, timeZone: string, form: { zone?: boolean; seconds?: boolean } = {}): Cell {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? timeCell(ms, timeZone, form) : { text: iso, plain: iso };
}

/**
 * A column of times on the business's clock: its header names the zone on a terminal (`DATE (WAT)`; the
 * IANA name for a zone with daylight saving), once for every row; TSV and CSV keep the bare header and
 * ISO 8601 UTC values. `nowMs` picks the zone's name (the run's clock).
 */
export function timeColumn<Row>(
  header: string,
  timeZone: string,
  nowMs: number,
  cell: (row: Row) => Cell,
  extra: Omit<Column<Row>, 'header' | 'cell' | 'terminalHeader'> = {},
): Column<Row> {
  return { header, terminalHeader: `${header} (${zoneLabel(timeZone, nowMs)})`, cell, ...extra };
}

const statusStyles: Record<string, (text: string, c: Styles) => string> = {
  successful: (t, c) => c.green(t),
  success: (t, c) => c.green(t),
  verified: (t, c) => c.green(t),
  accepted: (t, c) => c.green(t),
  pending: (t, c) => c.yellow(t),
  unknown: (t, c) => c.yellow(t),
  'in flight': (t, c) => c.yellow(t),
  'not-sent': (t, c) => c.yellow(t),
  held: (t, c) => c.yellow(t),
  refused: (t, c) => c.red(t),
  failed: (t, c) => c.red(t),
  rejected: (t, c) => c.red(t),
  withdrawn: (t, c) => c.dim(t),
  reversed: (t, c) => c.red(t),
};

export function statusCell(status: ShownValue): Cell {
  const text = shownText(status);
  return { text, plain: text, style: statusStyles[text.toLowerCase()] };
}

// ---- renderers ---------------------------------------------------------------------------------------

export function printJson(ctx: Context, value: unknown): void {
  ctx.io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A list: table on a terminal, TSV when piped, `json` (default: the rows) with --json. An empty list
 * says `emptyNote` on stderr (not with --json, where `[]` says it; nothing when it is empty).
 */
export function printList<Row>(ctx: Context, columns: Column<Row>[], rows: readonly Row[], json: unknown = rows, emptyNote = 'no results'): void {
  const mode = outputMode(ctx);
  if (mode === 'json') return printJson(ctx, json);
  if (rows.length === 0 && emptyNote !== '') ctx.io.note(emptyNote);
  if (mode === 'tsv') {
    ctx.io.out(tsvLine(columns.map((column) => column.header)));
    for (const row of rows) ctx.io.out(tsvLine(columns.map((column) => toCell(column.cell(row)).plain)));
    return;
  }
  if (rows.length > 0) ctx.io.out(`${renderTable(ctx, columns, rows)}\n`);
}

/** One object: a vertical label/value view on a terminal, one header line and one TSV line when piped. */
export function printRecord(ctx: Context, fields: ReadonlyArray<readonly [label: string, value: Cell | ShownValue]>, json: unknown): void {
  const mode = outputMode(ctx);
  if (mode === 'json') return printJson(ctx, json);
  if (mode === 'tsv') {
    ctx.io.out(tsvLine(fields.map(([label]) => label)));
    ctx.io.out(tsvLine(fields.map(([, value]) => toCell(value).plain)));
    return;
  }
  const c = colors(ctx);
  const width = Math.max(...fields.map(([label]) => label.length));
  // A long value continues on the next lines under itself, not under the label, and never past the edge.
  const valueWidth = Math.max(20, (ctx.io.columns ?? 80) - width - 2);
  const lines = fields.map(([label, value]) => {
    const cell = toCell(value);
    const parts = cell.text.includes('\u001b') ? [cell.text] : wrapText(cell.text, valueWidth);
    return parts.map((part, i) => `${i === 0 ? c.dim(label.padEnd(width)) : ' '.repeat(width)}  ${cell.style ? cell.style(part, c) : part}`).join('\n');
  });
  ctx.io.out(`${lines.join('\n')}\n`);
}

/**
 * A list written as it arrives, for `--all`: rows never accumulate, so memory stays flat however many
 * pages there are. Terminal: column widths are fixed from the first batch and later rows are padded or
 * cut to them. TSV: header then lines. JSON: one array, streamed element by element.
 */
export function createRowStream<Row>(ctx: Context, columns: Column<Row>[], toJson: (row: Row) => unknown = (row) => row) {
  const mode = outputMode(ctx);
  const c = colors(ctx);
  let started = false;
  let count = 0;
  let widths: number[] = [];
  let shown: Column<Row>[] = columns;

  const start = (firstRows: readonly Row[]) => {
    started = true;
    if (mode === 'json') ctx.io.out('[');
    if (mode === 'tsv') ctx.io.out(tsvLine(columns.map((column) => column.header)));
    if (mode === 'table') {
      // Fitted to the first batch; a later, longer value is cut to the width its column got.
      const fit = fitTable(
        ctx,
        columns,
        firstRows.map((row) => columns.map((column) => oneLine(toCell(column.cell(row)).text))),
      );
      shown = fit.shown.map((index) => columns[index]!);
      widths = fit.widths;
      ctx.io.out(
        `${shown
          .map((column, i) => c.bold(pad(truncate(terminalHeaderOf(column), widths[i]!), widths[i]!, column.align)))
          .join('  ')
          .trimEnd()}\n`,
      );
    }
  };

  return {
    write(rows: readonly Row[]): void {
      if (!started) start(rows);
      if (mode === 'json') {
        if (rows.length === 0) return;
        // One stringify per batch: JSON.stringify of an array already indents its elements by two spaces, so
        // its inside ("[\n" and "\n]" cut off) is exactly these elements of the streamed array. Measured on
        // `tx list --all --json` over 20,000 rows: about 6% faster and 3 MB less peak RSS than row by row.
        ctx.io.out(`${count === 0 ? '\n' : ',\n'}${JSON.stringify(rows.map(toJson), null, 2).slice(2, -2)}`);
        count += rows.length;
        return;
      }
      let chunk = '';
      for (const row of rows) {
        if (mode === 'tsv') chunk += tsvLine(columns.map((column) => toCell(column.cell(row)).plain));
        else {
          chunk += `${shown
            .map((column, i) => {
              const cell = toCell(column.cell(row));
              const text = pad(truncate(oneLine(cell.text), widths[i]!), widths[i]!, column.align);
              return cell.style ? cell.style(text, c) : text;
            })
            .join('  ')
            .trimEnd()}\n`;
        }
        count += 1;
      }
      if (chunk) ctx.io.out(chunk);
    },
    end(): number {
      if (!started) start([]);
      if (mode === 'json') ctx.io.out(count === 0 ? ']\n' : '\n]\n');
      if (mode === 'table' && count === 0) ctx.io.note('no results');
      return count;
    },
  };
}

/**
 * A list on a terminal: a bold header line and one line per row, columns two spaces apart, no borders
 * and no rule between rows, fitted to the terminal's width (src/ui/table-layout.ts): low-priority columns
 * drop out and long names end in `…` rather than wrap. Dropped columns are named on stderr.
 */
export function renderTable<Row>(ctx: Context, columns: Column<Row>[], rows: readonly Row[]): string {
  if (!Table) throw new Error('renderTable() needs prepareTables() first');
  return drawTable(Table, ctx, columns, rows, 'stdout');
}

/** The same list layout for talk on stderr (a summary before a confirmation), fitted to stderr's width. */
export function renderStderrTable<Row>(TableClass: typeof TableConstructor, ctx: Context, columns: Column<Row>[], rows: readonly Row[]): string {
  return drawTable(TableClass, ctx, columns, rows, 'stderr');
}

function drawTable<Row>(TableClass: typeof TableConstructor, ctx: Context, columns: Column<Row>[], rows: readonly Row[], stream: 'stdout' | 'stderr'): string {
  const c = colors(ctx, stream);
  const cells = rows.map((row) => columns.map((column) => toCell(column.cell(row))));
  const width = stream === 'stdout' ? ctx.io.columns : ctx.io.stderrColumns;
  const texts = cells.map((row) => row.map((cell) => oneLine(cell.text)));
  const fit = fitTable(ctx, columns, texts, width);
  const table = new TableClass({
    head: fit.shown.map((index) => c.bold(terminalHeaderOf(columns[index]!))),
    chars: BORDERLESS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    colAligns: fit.shown.map((index) => columns[index]!.align ?? 'left'),
    colWidths: fit.widths,
    wordWrap: false,
    truncate: '…',
  });
  cells.forEach((row, rowIndex) => {
    table.push(
      fit.shown.map((index, position) => {
        const cell = row[index]!;
        const text = texts[rowIndex]![index]!;
        // A wrapping column's cell on as many lines as it needs, each styled alone (a colour must not run
        // across the line break into the next column).
        const lines = columns[index]!.wrap ? wrapText(text, fit.widths[position]!) : [text];
        return lines.map((line) => (cell.style ? cell.style(line, c) : line)).join('\n');
      }),
    );
  });
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** The layout of a list at this terminal's width (80 when unknown); names the columns left out on stderr. */
function fitTable<Row>(ctx: Context, columns: readonly Column<Row>[], texts: ReadonlyArray<readonly string[]>, width = ctx.io.columns): TableFit {
  const fit = fitColumns(
    columns.map((column, index) => ({
      natural: Math.max(visibleLength(terminalHeaderOf(column)), ...texts.map((row) => visibleLength(row[index]!))),
      header: visibleLength(terminalHeaderOf(column)),
      priority: column.priority,
      flex: column.flex,
      minWidth: column.minWidth,
      ...(column.wrap ? { wrapped: (room: number) => wrappedWidth(texts, index, room) } : {}),
    })),
    Math.max(20, width ?? 80),
  );
  if (fit.shown.length < columns.length && texts.length > 0) {
    const hidden = columns.filter((_, index) => !fit.shown.includes(index)).map((column) => terminalHeaderOf(column));
    const note = `not shown at this width: ${hidden.join(', ')} (a wider terminal, or --json, shows them)`;
    const c = colors(ctx, 'stderr');
    for (const line of wrapText(note, Math.max(20, ctx.io.stderrColumns ?? width ?? 80))) ctx.io.note(c.dim(line));
  }
  return fit;
}

/** The widest line of column `index`'s cells when each is wrapped to `room` columns. */
function wrappedWidth(texts: ReadonlyArray<readonly string[]>, index: number, room: number): number {
  let widest = 0;
  for (const row of texts) for (const line of wrapText(row[index]!, room)) widest = Math.max(widest, visibleLength(line));
  return widest;
}

const terminalHeaderOf = (column: { header: string; terminalHeader?: string }) => column.terminalHeader ?? column.header;

/** A cell on one line: a line break inside a value would break the table's rows. */
const oneLine = (text: string) => text.replace(/[\t\r\n]+/g, ' ');

function tsvLine(values: readonly string[]): string {
  // Tabs and newlines inside a value would break the columns: escaped as \t and \n (src/common/sanitize.ts).
  return `${values.map(tsvField).join('\t')}\n`;
}

const visibleLength = displayWidth;
const truncate = truncateToWidth;

function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const gap = Math.max(0, width - visibleLength(text));
  return align === 'right' ? ' '.repeat(gap) + text : text + ' '.repeat(gap);
}
