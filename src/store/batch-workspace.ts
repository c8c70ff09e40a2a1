// The rows of one `transfer batch` run and what becomes of each, kept in a private temporary SQLite
// database rather than in memory, so that a 100,000-row file costs what a 3,000-row one does: every stage
// (reading, banks, earlier runs, name checks, policy, sending, the report) reads the rows a page at a time
// and writes each row's fate back.
//
// The database is SQLite's own temporary one (opened with an empty file name): its file lives in the
// temporary directory, is created 0600, unlinked as soon as it is opened (Unix) and gone when the process
// ends, however it ends. It holds nothing the journal does not: the journal (src/transfers/journal.ts) stays
// the record of what was sent; this is the run's scratch paper.
import type { Bank } from '../api/schemas.js';
import { integerKobo, type Kobo } from '../money/kobo.js';
import { inTransaction, openDatabase, PreparedStatements, type SqlDatabase, type SqlRow, type SqlStatement, type SqlValue } from './sqlite.js';

/** Rows read per page: big enough that a page costs little per row, small enough to stay flat. */
export const PAGE_ROWS = 500;

/** A row's fate as the report shows it (src/batch/payouts.ts, RowResult). */
export interface StoredResult {
  status: string;
  message: string;
  apiStatus: string | undefined;
  chargeKobo: Kobo | undefined;
  earlier: boolean;
  /** The holder's name the report shows: the verified name, or the one an earlier run verified. */
  verifiedName: string;
}

/**
 * What `transfer send` takes (src/transfers/types.ts names it SendRequest): declared here, in the room
 * below the transfers and the batch, because a batch's workspace keeps it for each row; one shape for both.
 */
export interface SendFields {
  accountNumber: string;
  bankQuery: string;
  amountKobo: Kobo;
  narration: string;
  /** Given with --reference (shape checked; the prefix is checked once the business name is known). */
  reference: string | undefined;
  senderName: string | undefined;
  expectName: string | undefined;
}

/** One row of a batch file as the reader makes it (src/batch/file.ts) and the workspace keeps it: a send, and where it stands in the file. */
export interface BatchRow extends SendFields {
  /** The physical line of the file where the row starts (1 is the header). */
  line: number;
  /**
   * The saved payee the row pays (the `payee` column): its account number and bank are filled in from the
   * payee, and its saved name becomes the row's expected name (src/batch/payee-rows.ts, resolvePayeeRows).
   */
  payee?: string | undefined;
}

/** Everything the workspace knows of a row. Columns are null until the stage that fills them. */
export interface WorkspaceRow extends BatchRow {
  /** The final reference (given, upper-cased prefix, or derived) once banks and references are resolved. */
  finalReference: string | undefined;
  bankCode: string | undefined;
  bankName: string | undefined;
  /** What the journal knew of the reference when the plan was made (JSON), for rows an earlier run touched. */
  earlierJson: string | undefined;
  again: string | undefined;
  /** The holder's name the name enquiry returned: the row passed its name check. */
  accountName: string | undefined;
  /** Why the policy holds the row (JSON array), when it does. */
  holdReasons: string[] | undefined;
  started: boolean;
  result: StoredResult | undefined;
}

const SCHEMA = `
  CREATE TABLE batch_rows (
    line INTEGER PRIMARY KEY,
    account_number TEXT NOT NULL,
    bank_query TEXT NOT NULL,
    amount_kobo INTEGER NOT NULL,
    narration TEXT NOT NULL,
    given_reference TEXT,
    sender_name TEXT,
    expect_name TEXT,
    payee TEXT,
    reference TEXT,
    reference_key TEXT,
    bank_code TEXT,
    bank_name TEXT,
    earlier_json TEXT,
    again TEXT,
    account_name TEXT,
    hold_reasons TEXT,
    started INTEGER NOT NULL DEFAULT 0,
    status TEXT,
    message TEXT,
    api_status TEXT,
    charge_kobo INTEGER,
    earlier INTEGER NOT NULL DEFAULT 0,
    verified_name TEXT
  );
  CREATE INDEX batch_rows_reference ON batch_rows (reference_key);
  CREATE INDEX batch_rows_given_reference ON batch_rows (upper(given_reference)) WHERE given_reference IS NOT NULL;
  CREATE INDEX batch_rows_payee ON batch_rows (payee) WHERE payee IS NOT NULL;
`;

/** The rows a stage works on, as SQL over batch_rows. */
export type RowSet =
  /** every row still in the run */
  | 'all'
  /** rows an earlier run touched, to look up */
  | 'journalled'
  /** rows to ask the name of: new, or to send again */
  | 'candidates'
  /** verified rows with no outcome yet and not held: what the run sends */
  | 'to-send'
  /** verified rows the policy holds now */
  | 'to-hold'
  /** rows sent again after an earlier run (their `again` says why) */
  | 'again'
  /** rows with an outcome, in file order: the report */
  | 'results'
  /** outcomes an earlier run left */
  | 'settled';

const WHERE: Record<RowSet, string> = {
  all: '1',
  journalled: 'earlier_json IS NOT NULL AND status IS NULL',
  candidates: '(earlier_json IS NULL OR again IS NOT NULL) AND status IS NULL AND account_name IS NULL',
  'to-send': 'account_name IS NOT NULL AND status IS NULL AND hold_reasons IS NULL',
  'to-hold': 'account_name IS NOT NULL AND status IS NULL AND hold_reasons IS NOT NULL',
  again: 'account_name IS NOT NULL AND status IS NULL AND hold_reasons IS NULL AND again IS NOT NULL',
  results: 'status IS NOT NULL',
  settled: 'status IS NOT NULL AND earlier = 1',
};

export class BatchWorkspace {
  /** The banks the rows resolved to, by code: a page of rows brings back its bank from here. */
  readonly banks = new Map<string, Bank>();

  private readonly statements: PreparedStatements;

  private constructor(private readonly db: SqlDatabase) {
    this.statements = new PreparedStatements(db);
  }

  static open(): BatchWorkspace {
    const db = openDatabase('');
    // Scratch paper: nothing here needs to survive a crash (the journal does), so no rollback journal and
    // no fsync; a small page cache keeps the memory flat, the rest goes to the temporary file.
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -4096; PRAGMA temp_store = FILE;');
    db.exec(SCHEMA);
    return new BatchWorkspace(db);
  }

  close(): void {
    this.db.close();
  }

  private sql(text: string): SqlStatement {
    return this.statements.get(text);
  }

  /** Runs `work` in one transaction: thousands of small writes cost one. */
  transaction<T>(work: () => T): T {
    return inTransaction(this.db, 'BEGIN', work);
  }

  // ---- reading the file ------------------------------------------------------------------------------

  addRow(row: BatchRow): void {
    this.sql(
      `INSERT INTO batch_rows (line, account_number, bank_query, amount_kobo, narration, given_reference, sender_name, expect_name, payee)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      row.line,
      row.accountNumber,
      row.bankQuery,
      row.amountKobo,
      row.narration,
      row.reference ?? null,
      row.senderName ?? null,
      row.expectName ?? null,
      row.payee ?? null,
    );
  }

  /** The first line whose given reference is `reference` (any case), if any. */
  lineOfGivenReference(reference: string): number | undefined {
    const found = this.sql('SELECT line FROM batch_rows WHERE upper(given_reference) = upper(?) AND given_reference IS NOT NULL ORDER BY line LIMIT 1').get(
      reference,
    );
    return found ? Number(found.line) : undefined;
  }

  /** Takes a row out of the run (it is a bad row: its problem is reported instead). */
  removeRow(line: number): void {
    this.sql('DELETE FROM batch_rows WHERE line = ?').run(line);
  }

  count(set: RowSet = 'all'): number {
    return Number(this.sql(`SELECT count(*) AS n FROM batch_rows WHERE ${WHERE[set]}`).get()!.n);
  }

  // ---- saved payees -----------------------------------------------------------------------------------

  payeeAliases(): string[] {
    return this.sql('SELECT DISTINCT payee FROM batch_rows WHERE payee IS NOT NULL')
      .all()
      .map((row) => String(row.payee));
  }

  linesOfPayee(alias: string): number[] {
    return this.sql('SELECT line FROM batch_rows WHERE payee = ? ORDER BY line')
      .all(alias)
      .map((row) => Number(row.line));
  }

  fillFromPayee(alias: string, payee: { alias: string; accountNumber: string; bankCode: string; accountName: string }): void {
    this.sql('UPDATE batch_rows SET payee = ?, account_number = ?, bank_query = ?, expect_name = ? WHERE payee = ?').run(
      payee.alias,
      payee.accountNumber,
      payee.bankCode,
      payee.accountName,
      alias,
    );
  }

  // ---- banks and references ---------------------------------------------------------------------------

  bankQueries(): string[] {
    return this.sql('SELECT DISTINCT bank_query FROM batch_rows')
      .all()
      .map((row) => String(row.bank_query));
  }

  resolve(line: number, reference: string, bank: Bank): void {
    this.banks.set(bank.institutionCode, bank);
    this.sql('UPDATE batch_rows SET reference = ?, reference_key = ?, bank_code = ?, bank_name = ? WHERE line = ?').run(
      reference,
      reference.toUpperCase(),
      bank.institutionCode,
      bank.institutionName,
      line,
    );
  }

  /** The first line before `line` whose final reference is `reference` (any case). */
  earlierLineOfReference(reference: string, line: number): number | undefined {
    const found = this.sql('SELECT line FROM batch_rows WHERE reference_key = ? AND line < ? ORDER BY line LIMIT 1').get(reference.toUpperCase(), line);
    return found ? Number(found.line) : undefined;
  }

  /** Whether `reference` (any case) is one of this file's rows. */
  hasReference(reference: string): boolean {
    return this.sql('SELECT 1 AS found FROM batch_rows WHERE reference_key = ? LIMIT 1').get(reference.toUpperCase()) !== undefined;
  }

  // ---- each stage's writes ----------------------------------------------------------------------------

  setEarlier(line: number, earlierJson: string): void {
    this.sql('UPDATE batch_rows SET earlier_json = ? WHERE line = ?').run(earlierJson, line);
  }

  setAgain(line: number, why: string): void {
    this.sql('UPDATE batch_rows SET again = ? WHERE line = ?').run(why, line);
  }

  setVerified(line: number, accountName: string): void {
    this.sql('UPDATE batch_rows SET account_name = ? WHERE line = ?').run(accountName, line);
  }

  setHoldReasons(line: number, reasons: readonly string[]): void {
    this.sql('UPDATE batch_rows SET hold_reasons = ? WHERE line = ?').run(JSON.stringify(reasons), line);
  }

  markStarted(line: number): void {
    this.sql('UPDATE batch_rows SET started = 1 WHERE line = ?').run(line);
  }

  setResult(line: number, result: StoredResult): void {
    this.sql('UPDATE batch_rows SET status = ?, message = ?, api_status = ?, charge_kobo = ?, earlier = ?, verified_name = ? WHERE line = ?').run(
      result.status,
      result.message,
      result.apiStatus ?? null,
      result.chargeKobo ?? null,
      result.earlier ? 1 : 0,
      result.verifiedName,
      line,
    );
  }

  /** Gives every row of `set` that has no outcome yet the same one (rows not sent, held, ...). */
  setResultOfAll(set: RowSet, result: Omit<StoredResult, 'verifiedName'>, where: 'started' | 'not started' | 'any' = 'any'): void {
    const started = where === 'started' ? ' AND started = 1' : where === 'not started' ? ' AND started = 0' : '';
    this.sql(
      `UPDATE batch_rows SET status = ?, message = ?, api_status = ?, charge_kobo = ?, earlier = ?, verified_name = coalesce(account_name, '') WHERE ${WHERE[set]} AND status IS NULL${started}`,
    ).run(result.status, result.message, result.apiStatus ?? null, result.chargeKobo ?? null, result.earlier ? 1 : 0);
  }

  // ---- reading back -----------------------------------------------------------------------------------

  /**
   * The rows of `set` in file order, a page at a time. Each page is read whole before its rows are handed
   * out, so a stage may write to the rows it is given (and rows may leave the set) while it goes on.
   */
  *rows(set: RowSet, options: { limit?: number } = {}): Generator<WorkspaceRow> {
    let after = 0;
    let left = options.limit ?? Infinity;
    while (left > 0) {
      const page = this.sql(`SELECT * FROM batch_rows WHERE ${WHERE[set]} AND line > ? ORDER BY line LIMIT ?`).all(after, Math.min(PAGE_ROWS, left));
      if (page.length === 0) return;
      for (const row of page) {
        left -= 1;
        yield workspaceRow(row);
      }
      after = Number(page.at(-1)!.line);
    }
  }

  /** Rows of `set` that pay the same account, bank and amount as another of them: lines by group. */
  repeatedPayments(set: RowSet): Array<{ lines: number[]; accountNumber: string; bankCode: string; bankName: string; amountKobo: Kobo }> {
    return this.sql(
      `SELECT account_number, bank_code, min(bank_name) AS bank_name, amount_kobo, group_concat(line) AS lines FROM
         (SELECT * FROM batch_rows WHERE ${WHERE[set]} ORDER BY line)
       GROUP BY account_number, bank_code, amount_kobo HAVING count(*) > 1 ORDER BY min(line)`,
    )
      .all()
      .map((row) => ({
        lines: String(row.lines)
          .split(',')
          .map(Number)
          .sort((a, b) => a - b),
        accountNumber: String(row.account_number),
        bankCode: String(row.bank_code),
        bankName: String(row.bank_name),
        amountKobo: integerKobo(row.amount_kobo),
      }));
  }
}

const text = (value: SqlValue | undefined): string | undefined => (value === null || value === undefined ? undefined : String(value));

function workspaceRow(row: SqlRow): WorkspaceRow {
  const status = text(row.status);
  return {
    line: Number(row.line),
    accountNumber: String(row.account_number),
    bankQuery: String(row.bank_query),
    amountKobo: integerKobo(row.amount_kobo),
    narration: String(row.narration),
    reference: text(row.given_reference),
    senderName: text(row.sender_name),
    expectName: text(row.expect_name),
    ...(row.payee === null ? {} : { payee: String(row.payee) }),
    finalReference: text(row.reference),
    bankCode: text(row.bank_code),
    bankName: text(row.bank_name),
    earlierJson: text(row.earlier_json),
    again: text(row.again),
    accountName: text(row.account_name),
    holdReasons: row.hold_reasons === null ? undefined : (JSON.parse(String(row.hold_reasons)) as string[]),
    started: Number(row.started) === 1,
    result:
      status === undefined
        ? undefined
        : {
            status,
            message: String(row.message ?? ''),
            apiStatus: text(row.api_status),
            chargeKobo: row.charge_kobo === null ? undefined : integerKobo(row.charge_kobo),
            earlier: Number(row.earlier) === 1,
            verifiedName: String(row.verified_name ?? ''),
          },
  };
}
