// Reading a batch file (docs/cli-contract.md, "Batch payouts"): the CSV's rows as typed transfers,
// every bad row with its physical line number and the reason, and the references derived from the file.
// Nothing here asks the API anything: a file that fails here is exit 2 and nothing was sent.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Parser } from 'csv-parse';
import type { BatchWorkspace } from '../store/batch-workspace.js';
import { UsageError } from '../errors.js';
import { AmountError, parseNairaInput, type Kobo } from '../money/kobo.js';
import { MAX_REFERENCE_LENGTH, parseReferenceOption } from '../api/reference.js';
import { characterCount, controlCharacterProblem } from '../common/validate.js';
import { fromCsvTextCell } from '../common/sanitize.js';
import { crockfordBase32 } from '../common/crockford.js';
import { MAX_NARRATION_LENGTH, MAX_SENDER_NAME_LENGTH } from '../transfers/transfer.js';
import type { BatchRow } from '../store/batch-workspace.js';
export type { BatchRow } from '../store/batch-workspace.js';

export const REQUIRED_COLUMNS = ['account_number', 'bank', 'amount', 'narration'] as const;
export const OPTIONAL_COLUMNS = ['reference', 'sender_name', 'expect_name', 'payee'] as const;
/** With a `payee` column, a row may name a saved payee instead of its account number and bank. */
const PAYEE_REPLACES: readonly Column[] = ['account_number', 'bank'];
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
const KNOWN_COLUMNS: ReadonlySet<string> = new Set([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
export const MAX_EXPECT_NAME_LENGTH = 200;
/**
 * The most bytes one row may take (a line, or the lines of a row with line breaks in quotes): a real row is
 * a few hundred bytes. A longer one is refused as soon as it passes this, while the file is read, so a
 * huge field never has to be held (docs/batch.md).
 */
export const MAX_ROW_BYTES = 64 * 1024;
/** A bound on the work one run does: name enquiries alone take a while at this size. Split bigger runs. */
export const MAX_ROWS = 100_000;

export interface RowProblem {
  line: number;
  reason: string;
}

/** A file read into a batch workspace (src/store/batch-workspace.ts): its rows live there, not in memory. */
export interface BatchFile {
  /** The path as given, for messages and the journal's `origin`. */
  name: string;
  /** sha256 of the file's bytes, exactly as read (BOM and line endings included). */
  contentHash: Buffer;
  /** The good rows, one per line, as the reading stage left them. */
  workspace: BatchWorkspace;
}

/** A file read into memory: for small files and tests. */
export interface ParsedBatchFile {
  name: string;
  contentHash: Buffer;
  rows: BatchRow[];
}

/** Rows (or the header) that cannot be sent. Exit 2: nothing was sent. */
export class BadRowsError extends UsageError {
  constructor(
    readonly problems: readonly RowProblem[],
    message: string,
    hint?: string,
  ) {
    super(message, hint, 'bad_rows');
  }
}

/**
 * Parses and validates a whole file held in memory. Every bad row is collected (not just the first), then
 * thrown as one BadRowsError; a file with no header, a missing column or no rows is a UsageError naming
 * the problem.
 */
export function parseBatchFile(content: Buffer, name: string): ParsedBatchFile {
  const rows: BatchRow[] = [];
  const firstLine = new Map<string, number>();
  const reader = new BatchFileReader(name, {
    onRow: (row) => rows.push(row),
    firstLineOfReference: (reference, line) => {
      const first = firstLine.get(reference.toUpperCase());
      if (first === undefined) firstLine.set(reference.toUpperCase(), line);
      return first;
    },
  });
  reader.write(content);
  const { contentHash, problems } = reader.end();
  if (problems.length > 0) throw badRows(name, problems);
  return { name, contentHash, rows };
}

/**
 * Reads a file into `workspace` as it streams from disk: its good rows are added there, its bad ones come
 * back with their lines, so that `transfer batch` can go on to check the good rows' banks and names and
 * report every problem of the file in one run. The bytes are hashed as they are read: the references are
 * derived from exactly the bytes that were parsed. A file that cannot be read as a batch at all (no header,
 * a missing column, no rows, too many rows) is still a UsageError at once.
 */
export async function readBatchFileInto(fileName: string, workspace: BatchWorkspace): Promise<{ file: BatchFile; problems: RowProblem[] }> {
  if (fileName === '') throw new UsageError('give the CSV file to pay, e.g. fsapi transfer batch payroll.csv');
  const reader = new BatchFileReader(fileName, {
    onRow: (row) => workspace.addRow(row),
    firstLineOfReference: (reference) => workspace.lineOfGivenReference(reference),
  });
  try {
    for await (const chunk of createReadStream(fileName, { highWaterMark: READ_CHUNK_BYTES })) {
      workspace.transaction(() => reader.write(chunk as Buffer));
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`no such file: ${fileName}`);
    if (code === 'EISDIR') throw new UsageError(`${fileName} is a directory, not a CSV file`);
    throw new UsageError(`cannot read ${fileName}: ${(error as Error).message}`);
  }
  const { contentHash, problems } = workspace.transaction(() => reader.end());
  return { file: { name: fileName, contentHash, workspace }, problems };
}

const READ_CHUNK_BYTES = 256 * 1024;

/**
 * A CSV batch file read a chunk at a time: write() each chunk of bytes as it comes, end() once. Rows go
 * to `onRow` as soon as they are whole and valid; problems are kept with their lines.
 */
export class BatchFileReader {
  private readonly hash = createHash('sha256');
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly problems: RowProblem[] = [];
  private readonly seen = new Set<string>();
  private readonly parser: CsvApi;
  /** A CR at the end of a chunk: whether it starts a CRLF is known only from the next chunk. */
  private carriageReturn = false;
  private columns: Map<Column, number> | undefined;
  private records = 0;

  constructor(
    private readonly name: string,
    private readonly sink: {
      onRow: (row: BatchRow) => void;
      /** The first line that gave this reference (any case), recording `line` when it is the first. */
      firstLineOfReference: (reference: string, line: number) => number | undefined;
    },
  ) {
    // The stream class is only the carrier: its `api` is the parser itself, driven here chunk by chunk.
    this.parser = (
      new Parser({
        bom: true,
        info: true,
        relax_column_count: true,
        skip_empty_lines: true,
        skip_records_with_error: true,
        max_record_size: MAX_ROW_BYTES,
        on_skip: (error) => {
          if (!error) return;
          const line = typeof error.lines === 'number' ? error.lines : 0;
          // Thrown here, it ends the parse at once: the rest of the row is never read into memory.
          if (error.code === 'CSV_MAX_RECORD_SIZE') throw rowTooLong(this.name, line);
          const reason = csvSyntaxReason(error.code, error.message);
          const key = `${line}:${reason}`;
          if (!this.seen.has(key)) this.problems.push({ line, reason });
          this.seen.add(key);
        },
      }) as unknown as { api: CsvApi }
    ).api;
  }

  write(chunk: Buffer): void {
    this.hash.update(chunk);
    this.parse(this.decode(chunk, true), false);
  }

  end(): { contentHash: Buffer; problems: RowProblem[] } {
    this.parse(this.decode(Buffer.alloc(0), false), true);
    if (!this.columns) {
      if (this.problems.length > 0) throw badRows(this.name, this.problems);
      throw new UsageError(`${this.name} is empty: it needs a header line and at least one row`, `the header is ${REQUIRED_COLUMNS.join(',')}`);
    }
    if (this.records === 0 && this.problems.length === 0) {
      throw new UsageError(`${this.name} has a header but no rows: there is nothing to pay`);
    }
    return { contentHash: this.hash.digest(), problems: [...this.problems].sort((a, b) => a.line - b.line) };
  }

  /**
   * The chunk as text with every line break (CRLF, LF or a lone CR) made LF: csv-parse counts a CRLF inside
   * a quoted field as two lines, and the line numbers must be the ones an editor shows. The references
   * are derived from the original bytes, not from this text.
   */
  private decode(chunk: Buffer, more: boolean): string {
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: more });
    } catch {
      throw new UsageError('the file is not UTF-8 text', 'save it from the spreadsheet as "CSV UTF-8"');
    }
    if (this.carriageReturn) text = `\r${text}`;
    this.carriageReturn = more && text.endsWith('\r');
    if (this.carriageReturn) text = text.slice(0, -1);
    return text.replace(/\r\n?/g, '\n');
  }

  private parse(text: string, last: boolean): void {
    const error = this.parser.parse(
      Buffer.from(text, 'utf8'),
      last,
      (item) => this.record(item as ParsedRecord),
      () => undefined,
    );
    if (error instanceof UsageError) throw error;
    if (error !== undefined) throw new UsageError(`${this.name} is not readable as CSV: ${error.message}`);
  }

  private record({ record, info }: ParsedRecord): void {
    // A spreadsheet exports empty rows as ",,,": they are blank lines too.
    if (record.every((field) => field.trim() === '')) return;
    // csv-parse counts the line a record ends on; a quoted field with line breaks started earlier.
    const breaks = record.reduce((sum, field) => sum + countLineBreaks(field), 0);
    const csv: CsvRecord = { line: info.lines - breaks, fields: record };
    if (!this.columns) {
      this.columns = readHeader(csv.fields, csv.line, this.name);
      return;
    }
    this.records += 1;
    if (this.records > MAX_ROWS) {
      throw new UsageError(
        `${this.name} has more than ${MAX_ROWS.toLocaleString('en-US')} rows; at most ${MAX_ROWS.toLocaleString('en-US')} are paid in one run`,
        'split the file',
      );
    }
    const result = readRow(csv, this.columns);
    if ('reason' in result) {
      this.problems.push({ line: csv.line, reason: result.reason });
      return;
    }
    if (result.reference !== undefined) {
      // The API compares references as given; a reference that differs only in case is still refused
      // as a duplicate here, since to a person reading the report they are the same.
      const first = this.sink.firstLineOfReference(result.reference, csv.line);
      if (first !== undefined) {
        this.problems.push({ line: csv.line, reason: `reference ${result.reference} is already used on line ${first}; a reference pays once` });
        return;
      }
    }
    this.sink.onRow(result);
  }
}

/** One error for every bad row of a file (`also` names further trouble counted elsewhere, e.g. name checks). */
export function badRows(name: string, problems: readonly RowProblem[], also = ''): BadRowsError {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const count = new Set(sorted.map((problem) => problem.line)).size;
  return new BadRowsError(
    sorted,
    `${name}: ${count} bad row${count === 1 ? '' : 's'}${also}; nothing was sent`,
    'fix the rows listed above and run the same command again',
  );
}

// ---- CSV ---------------------------------------------------------------------------------------------

interface CsvRecord {
  /** The physical line where the record starts. */
  line: number;
  fields: string[];
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/**
 * csv-parse's push parser, the one its sync and stream interfaces drive: chunks in, records out through
 * `push`, state (quotes, line count, BOM) kept between chunks. It handles the BOM, quoted fields (commas,
 * quotes and line breaks inside) and blank lines; a syntax error is a problem on its line and parsing goes
 * on, so one run lists them all.
 */
interface CsvApi {
  parse(chunk: Buffer | undefined, end: boolean, push: (record: unknown) => void, close: () => void): Error | undefined;
}

function rowTooLong(name: string, line: number): UsageError {
  return new BadRowsError(
    [{ line, reason: `the row is over ${MAX_ROW_BYTES / 1024} KiB; a batch row needs a few hundred bytes` }],
    `${name} line ${line}: a row longer than ${MAX_ROW_BYTES / 1024} KiB; nothing was sent`,
    'is it the right file? a stray quote makes the rest of a file one field',
  );
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

function csvSyntaxReason(code: string | undefined, message: string): string {
  switch (code) {
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside a field that does not start with one: quote the whole field and double the quotes inside ("say ""hi""")';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'text after a closing quote: quote the whole field and double the quotes inside';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (a missing ")';
    default:
      return `not readable as CSV: ${message}`;
  }
}

// ---- header ------------------------------------------------------------------------------------------

/** "Account Number", "account-number" and "ACCOUNT_NUMBER" all name account_number. */
function columnName(cell: string): string {
  return cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

function readHeader(cells: readonly string[], line: number, name: string): Map<Column, number> {
  const hint = `the first line must name the columns: ${REQUIRED_COLUMNS.join(',')}[,${OPTIONAL_COLUMNS.join('][,')}]`;
  if (cells.some((cell) => /^[0-9]{10}$/.test(cell.trim()))) {
    throw new UsageError(`${name} line ${line} is a row, not a header`, hint);
  }
  const columns = new Map<Column, number>();
  const unknown: string[] = [];
  cells.forEach((cell, index) => {
    const column = columnName(cell);
    if (column === '') {
      unknown.push(`(empty, column ${index + 1})`);
      return;
    }
    if (!KNOWN_COLUMNS.has(column)) {
      unknown.push(cell.trim());
      return;
    }
    if (columns.has(column as Column)) {
      throw new UsageError(`${name} line ${line}: the column ${column} appears twice`, hint);
    }
    columns.set(column as Column, index);
  });
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.has(column) && !(columns.has('payee') && PAYEE_REPLACES.includes(column)));
  if (missing.length > 0) {
    throw new UsageError(`${name} line ${line}: the header has no ${missing.join(', ')} column${missing.length === 1 ? '' : 's'}`, hint);
  }
  // An unknown column is refused rather than ignored: "expected_name" misspelt would silently skip the
  // name check the operator asked for.
  if (unknown.length > 0) {
    throw new UsageError(`${name} line ${line}: unknown column${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`, hint);
  }
  return columns;
}

// ---- rows --------------------------------------------------------------------------------------------

function readRow(record: CsvRecord, columns: Map<Column, number>): BatchRow | { reason: string } {
  const width = Math.max(...columns.values()) + 1;
  if (record.fields.length !== width) {
    return { reason: `has ${record.fields.length} fields; the header has ${width} (a comma inside a value needs quotes: "1,500.00")` };
  }
  const cell = (column: Column) => {
    const index = columns.get(column);
    return index === undefined ? '' : record.fields[index]!.trim();
  };
  const reasons: string[] = [];

  // An account number as fsapi's own CSVs write it for spreadsheets (`="0123456789"`) is its digits.
  const accountNumber = fromCsvTextCell(cell('account_number'));
  const payee = cell('payee');
  if (payee !== '') {
    // A saved payee stands for the account, the bank and the holder's name: a second source for any of
    // them could disagree with it.
    if (!/^[A-Za-z][A-Za-z0-9._-]{0,39}$/.test(payee)) reasons.push(`payee ${JSON.stringify(payee)} is not a payee alias`);
    const also = (['account_number', 'bank', 'expect_name'] as const).filter((column) => cell(column) !== '');
    if (also.length > 0) reasons.push(`payee ${payee} names the account, its bank and its holder: leave ${also.join(', ')} empty on this row`);
  } else if (!/^[0-9]{10}$/.test(accountNumber)) {
    reasons.push(
      accountNumber === ''
        ? 'account_number is empty'
        : `account_number ${JSON.stringify(accountNumber)} is not 10 digits${/^[0-9]{1,9}$/.test(accountNumber) ? ' (a spreadsheet may have dropped leading zeros: format the column as text)' : ''}`,
    );
  }

  const bankQuery = cell('bank');
  if (bankQuery === '' && payee === '') reasons.push('bank is empty');

  let amountKobo: Kobo | undefined;
  try {
    amountKobo = parseNairaInput(cell('amount'));
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    reasons.push(error.message);
  }

  const narration = cell('narration');
  // Checked before trimming: a line break at either end of a quoted cell is refused too.
  const control = controlCharacterProblem(record.fields[columns.get('narration')!] ?? '', 'narration');
  if (control) reasons.push(control);
  else if (narration === '') reasons.push('narration is empty');
  else if (characterCount(narration) > MAX_NARRATION_LENGTH)
    reasons.push(`narration is ${characterCount(narration)} characters long; at most ${MAX_NARRATION_LENGTH} are allowed`);

  let reference: string | undefined;
  const referenceCell = cell('reference');
  if (referenceCell !== '') {
    try {
      reference = parseReferenceOption(referenceCell);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      reasons.push(
        `reference ${JSON.stringify(referenceCell)} must look like PREFIX-XXXX: letters, digits, ".", "-" and "_", at most ${MAX_REFERENCE_LENGTH} characters`,
      );
    }
  }

  const senderName = optionalText(cell('sender_name'), 'sender_name', MAX_SENDER_NAME_LENGTH, reasons);
  const expectName = optionalText(cell('expect_name'), 'expect_name', MAX_EXPECT_NAME_LENGTH, reasons);

  if (reasons.length > 0 || amountKobo === undefined) return { reason: reasons.join('; ') };
  return { line: record.line, accountNumber, bankQuery, amountKobo, narration, reference, senderName, expectName, ...(payee !== '' ? { payee } : {}) };
}

function optionalText(text: string, column: string, max: number, reasons: string[]): string | undefined {
  if (text === '') return undefined;
  // expect_name is only compared (spacing ignored), never sent; sender_name reaches the receiver.
  const control = column === 'sender_name' ? controlCharacterProblem(text, column) : undefined;
  if (control) reasons.push(control);
  if (characterCount(text) > max) reasons.push(`${column} is ${characterCount(text)} characters long; at most ${max} are allowed`);
  return text;
}

// ---- references ----------------------------------------------------------------------------------------

export const DERIVED_LENGTH = 16;

/**
 * The reference of a row without one: `PREFIX-` and 16 Crockford base32 characters (80 bits) of
 * sha256(contentHash ':' line). The same bytes give the same references on every run, which is what
 * lets a second run find the rows the first one sent; a changed file gives new ones (see docs/batch.md).
 */
export function derivedReference(prefix: string, contentHash: Buffer, line: number): string {
  const digest = createHash('sha256').update(contentHash).update(`:${line}`).digest();
  return `${prefix}-${crockfordBase32(digest, DERIVED_LENGTH)}`;
}
