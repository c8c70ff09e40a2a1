// The report of a batch run: one line per row of the file (line, account, bank, amount, verified name,
// reference, status, message), written as CSV atomically (src/common/atomic-file.ts: a temporary file,
// fsync-ed, then renamed over the target), so a report on disk is always whole; and the exit code the run
// ends with.
import { stringify } from 'csv-stringify/sync';
import { AuthError, ExitCode, FsapiError, HeldForApprovalError } from '../errors.js';
import { koboToDecimal, NO_KOBO, sumKobo, type Kobo } from '../money/kobo.js';
import { csvCell, csvTextCell } from '../common/sanitize.js';
import { writeFileAtomic, writeFileAtomicSync } from '../common/atomic-file.js';
import type { RowResult } from './payouts.js';
import { withoutNothingDone } from '../transfers/transfer.js';

export const REPORT_COLUMNS = ['line', 'account_number', 'bank', 'bank_code', 'amount', 'verified_name', 'reference', 'status', 'message'] as const;
export type ReportEntry = Record<(typeof REPORT_COLUMNS)[number], string | number>;

/** The report's identifiers of digits, kept as text (csvTextCell): a spreadsheet keeps the leading zero. */
const REPORT_IDENTIFIERS: ReadonlySet<string> = new Set(['account_number', 'bank_code']);

export function defaultReportPath(batchFile: string): string {
  return `${batchFile}.report.csv`;
}

/** One report line as an object: the --json array holds these, the CSV their values. */
export function reportEntry(result: RowResult): ReportEntry {
  return {
    line: result.line,
    account_number: result.accountNumber,
    bank: result.bankName,
    bank_code: result.bankCode,
    amount: koboToDecimal(result.amountKobo),
    verified_name: result.verifiedName,
    reference: result.reference,
    status: result.status,
    message: result.message,
  };
}

/** The report as CSV text, header first. */
export function reportCsv(results: Iterable<RowResult>): string {
  let text = '';
  for (const chunk of reportCsvChunks(results)) text += chunk;
  return text;
}

/** The report as CSV text a few hundred rows at a time, header first: written as it is read. */
export function* reportCsvChunks(results: Iterable<RowResult>, rowsPerChunk = 500): Generator<string> {
  let records: string[][] = [];
  let header = true;
  const flush = () => {
    const text = stringify(records, { header, columns: [...REPORT_COLUMNS], record_delimiter: '\n' });
    header = false;
    records = [];
    return text;
  };
  for (const result of results) {
    const entry = reportEntry(result);
    // Names, banks and messages come from the API and the file: every cell is neutralised for
    // spreadsheets (no formula, no control character; amounts stay numbers, account numbers and bank
    // codes text). The JSON keeps the text as is.
    records.push(REPORT_COLUMNS.map((column) => (REPORT_IDENTIFIERS.has(column) ? csvTextCell : csvCell)(String(entry[column]))));
    if (records.length >= rowsPerChunk) yield flush();
  }
  if (records.length > 0 || header) yield flush();
}

/** Writes the report next to its final name a chunk at a time, syncs it, and renames it into place. */
export async function writeReport(file: string, results: Iterable<RowResult>): Promise<void> {
  try {
    await writeFileAtomic(file, reportCsvChunks(results));
  } catch (error) {
    throw new FsapiError(`cannot write the report ${file}: ${(error as Error).message}`, {
      exitCode: ExitCode.failed,
      hint: 'the transfers above were made and are in the journal: fsapi transfer log lists them; run the same command again with --report <writable file> to get the report (it sends nothing twice)',
      cause: error,
    });
  }
}

/** The same, synchronously: for the moment a second Ctrl-C ends the process at once. */
export function writeReportSync(file: string, results: Iterable<RowResult>): void {
  writeFileAtomicSync(file, reportCsvChunks(results));
}

/** Rows of one kind (sent now, or by earlier runs): how many of each outcome, and the money they moved. */
export interface OutcomeGroup {
  count: number;
  byStatus: Partial<Record<RowResult['status'], number>>;
  /** Pending and successful rows, and their sum: failed and reversed rows paid nobody. */
  paid: number;
  paidKobo: Kobo;
  /** Of the paid rows, those whose charge is known, and the sum of those charges. */
  charged: number;
  chargeKobo: Kobo;
}

export interface Tally {
  total: number;
  /** Rows whose money moved or is moving: successful and pending (never failed or reversed ones). */
  paid: number;
  successful: number;
  pending: number;
  failed: number;
  reversed: number;
  refused: number;
  /** Unknown outcomes, and rows another live fsapi process is sending. */
  unknown: number;
  notSent: number;
  held: number;
  /** The rows sent by this run, and those an earlier run had sent. */
  now: OutcomeGroup;
  earlier: OutcomeGroup;
  /** The message of the first held row: it names the request. */
  firstHeldMessage: string | undefined;
}

/** Counts the results in one pass, however many there are. */
export function tally(results: Iterable<RowResult>): Tally {
  const group = (): OutcomeGroup => ({ count: 0, byStatus: {}, paid: 0, paidKobo: NO_KOBO, charged: 0, chargeKobo: NO_KOBO });
  const now = group();
  const earlier = group();
  let firstHeldMessage: string | undefined;
  for (const result of results) {
    const into = result.earlier ? earlier : now;
    into.count += 1;
    into.byStatus[result.status] = (into.byStatus[result.status] ?? 0) + 1;
    if (result.status === 'successful' || result.status === 'pending') {
      into.paid += 1;
      into.paidKobo = sumKobo([into.paidKobo, result.amountKobo]);
      if (result.chargeKobo !== undefined) {
        into.charged += 1;
        into.chargeKobo = sumKobo([into.chargeKobo, result.chargeKobo]);
      }
    }
    if (result.status === 'held') firstHeldMessage ??= result.message;
  }
  const count = (...statuses: Array<RowResult['status']>) =>
    statuses.reduce((sum, status) => sum + (now.byStatus[status] ?? 0) + (earlier.byStatus[status] ?? 0), 0);
  return {
    total: now.count + earlier.count,
    paid: count('successful', 'pending'),
    successful: count('successful'),
    pending: count('pending'),
    failed: count('failed'),
    reversed: count('reversed'),
    refused: count('refused'),
    unknown: count('unknown', 'in flight'),
    notSent: count('not-sent'),
    held: count('held'),
    now,
    earlier,
    firstHeldMessage,
  };
}

/**
 * The run's exit, as the contract orders it: 5 when some outcome is unknown (do not resend), 3 when
 * authentication failed midway, 1 when some row was refused, failed, reversed (in this run or an earlier
 * one) or not sent (an interrupted run is not a success), 0 (undefined) when every row is pending or
 * successful.
 */
export function batchError(
  t: Tally,
  options: { authFailed: boolean; reportPath: string | undefined; storeFailure?: FsapiError | undefined },
): FsapiError | undefined {
  const where = options.reportPath ? `; report: ${options.reportPath}` : '';
  if (t.unknown > 0) {
    return new FsapiError(`${t.unknown} of ${t.total} transfers have an unknown outcome: do not resend them${where}`, {
      exitCode: ExitCode.outcomeUnknown,
      hint: 'run the same command again later: it looks them up and sends nothing twice (or fsapi transfer status <reference>)',
    });
  }
  if (options.authFailed) {
    return new AuthError(
      `authentication failed during the batch: ${t.paid} sent, ${t.notSent} not sent${where}`,
      'run fsapi auth login, then the same command again: it sends only the rows not sent',
    );
  }
  if (t.refused > 0 || t.notSent > 0 || t.failed > 0 || t.reversed > 0) {
    const parts = [
      t.failed > 0 ? `${t.failed} failed` : '',
      t.reversed > 0 ? `${t.reversed} reversed` : '',
      t.refused > 0 ? `${t.refused} refused` : '',
      t.notSent > 0 ? `${t.notSent} not sent` : '',
    ]
      .filter(Boolean)
      .join(', ');
    // Stopped by the store (unreachable, busy, a bound run out): said, and its code is the batch's, for scripts.
    // (Its own "nothing was sent" is the transfer's it was about: the counts say what the run sent.)
    const stopped = options.storeFailure ? `; the run stopped: ${withoutNothingDone(options.storeFailure.message)}` : '';
    return new FsapiError(
      `${parts} of ${t.total} transfers (${t.paid} pending or successful${t.held > 0 ? `, ${t.held} held for approval` : ''})${where}${stopped}`,
      {
        exitCode: ExitCode.failed,
        code: options.storeFailure?.code,
        hint:
          t.notSent > 0
            ? 'run the same command again to send the rows not sent: rows already sent are looked up, not resent'
            : t.failed > 0 || t.reversed > 0
              ? 'failed and reversed rows did not pay their payee: fsapi transfer status <reference> shows the reversal; paying one again needs a new reference'
              : 'refused rows moved no money; the API refuses for an amount above the balance or a limit, or an account it will not pay: fix that and run the same command again',
      },
    );
  }
  if (t.held > 0) {
    const request = /request (AP-[0-9A-Z]+)/.exec(t.firstHeldMessage ?? '')?.[1] ?? '<id>';
    return new HeldForApprovalError(
      request,
      `${t.held} of ${t.total} transfers held for approval by the payment policy (${t.paid} pending or successful)${where}`,
    );
  }
  return undefined;
}

/**
 * A dry run's exit: the one the real run on the same state would end with, as far as it is known without
 * sending. The rows earlier runs settled keep their outcomes (a failed one is exit 1 in the real run, so
 * here too); the rows to send have none yet; rows the policy would hold are exit 7, as they would be.
 */
export function dryRunError(settled: Tally, holdCount: number): FsapiError | undefined {
  const known = batchError(settled, { authFailed: false, reportPath: undefined });
  if (known) {
    return new FsapiError(`earlier runs of this file: ${known.message}`, { exitCode: known.exitCode, hint: known.hint });
  }
  if (holdCount > 0) {
    return new FsapiError(`dry run: nothing was sent; ${holdCount} row${holdCount === 1 ? '' : 's'} would be held for approval by the payment policy`, {
      exitCode: ExitCode.heldForApproval,
      hint: 'the real run holds them as one request for a person to approve (fsapi approvals approve <id>)',
    });
  }
  return undefined;
}
