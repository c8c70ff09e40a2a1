// The report of a batch run: one line per row of the file (line, account, bank, amount, verified name,
// reference, status, message), written as CSV atomically (a temporary file, fsync-ed, then renamed over
// the target), so a report on disk is always whole; and the exit code the run ends with.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { AuthError, ExitCode, FsapiError, HeldForApprovalError } from '../errors.js';
import { koboToDecimal } from './money.js';
import { csvCell } from '../ui/sanitize.js';
import type { RowResult } from './batch.js';

export const REPORT_COLUMNS = ['line', 'account_number', 'bank', 'bank_code', 'amount', 'verified_name', 'reference', 'status', 'message'] as const;
export type ReportEntry = Record<(typeof REPORT_COLUMNS)[number], string | number>;

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

export function reportCsv(results: readonly RowResult[]): string {
  const records = results.map((result) => {
    const entry = reportEntry(result);
    // Names, banks and messages come from the API and the file: every cell is neutralised for
    // spreadsheets (no formula, no control character; amounts stay numbers). The JSON keeps the text as is.
    return REPORT_COLUMNS.map((column) => csvCell(String(entry[column])));
  });
  return stringify(records, { header: true, columns: [...REPORT_COLUMNS], record_delimiter: '\n' });
}

/** Writes the report next to its final name, syncs it, and renames it into place. */
/**
 * The temporary file beside the report: a name nobody can guess, created exclusively (O_EXCL: an existing
 * name, a planted symbolic link included, is an error and is never followed), mode 0600.
 */
function temporaryFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
}
const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export async function writeReport(file: string, results: readonly RowResult[]): Promise<void> {
  const temporary = temporaryFor(file);
  let created = false;
  try {
    const handle = await open(temporary, EXCLUSIVE, 0o600);
    created = true;
    try {
      await handle.writeFile(reportCsv(results), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    if (created) await rm(temporary, { force: true }).catch(() => undefined);
    throw new FsapiError(`cannot write the report ${file}: ${(error as Error).message}`, {
      exitCode: ExitCode.failed,
      hint: 'the transfers above were made and are in the journal: fsapi transfer log lists them; run the same command again with --report <writable file> to get the report (it sends nothing twice)',
      cause: error,
    });
  }
}

/** The same, synchronously: for the moment a second Ctrl-C ends the process at once. */
export function writeReportSync(file: string, results: readonly RowResult[]): void {
  const temporary = temporaryFor(file);
  const fd = openSync(temporary, EXCLUSIVE, 0o600);
  try {
    writeSync(fd, reportCsv(results));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
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
}

export function tally(results: readonly RowResult[]): Tally {
  const count = (...statuses: Array<RowResult['status']>) => results.filter((result) => statuses.includes(result.status)).length;
  return {
    total: results.length,
    paid: count('successful', 'pending'),
    successful: count('successful'),
    pending: count('pending'),
    failed: count('failed'),
    reversed: count('reversed'),
    refused: count('refused'),
    unknown: count('unknown', 'in flight'),
    notSent: count('not-sent'),
    held: count('held'),
  };
}

/**
 * The run's exit, as the contract orders it: 5 when some outcome is unknown (do not resend), 3 when
 * authentication failed midway, 1 when some row was refused, failed, reversed (in this run or an earlier
 * one) or not sent (an interrupted run is not a success), 0 (undefined) when every row is pending or
 * successful.
 */
export function batchError(results: readonly RowResult[], options: { authFailed: boolean; reportPath: string | undefined }): FsapiError | undefined {
  const t = tally(results);
  const where = options.reportPath ? `; report: ${options.reportPath}` : '';
  if (t.unknown > 0) {
    return new FsapiError(`${t.unknown} of ${t.total} transfers have an unknown outcome: do not resend them${where}`, {
      exitCode: ExitCode.outcomeUnknown,
      hint: 'run the same command again later: it looks them up and sends nothing twice (or fsapi transfer status <reference>)',
    });
  }
  if (options.authFailed) {
    return new AuthError(`authentication failed during the batch: ${t.paid} sent, ${t.notSent} not sent${where}`, 'run fsapi auth login, then the same command again: it sends only the rows not sent');
  }
  if (t.refused > 0 || t.notSent > 0 || t.failed > 0 || t.reversed > 0) {
    const parts = [
      t.failed > 0 ? `${t.failed} failed` : '',
      t.reversed > 0 ? `${t.reversed} reversed` : '',
      t.refused > 0 ? `${t.refused} refused` : '',
      t.notSent > 0 ? `${t.notSent} not sent` : '',
    ].filter(Boolean).join(', ');
    return new FsapiError(`${parts} of ${t.total} transfers (${t.paid} pending or successful${t.held > 0 ? `, ${t.held} held for approval` : ''})${where}`, {
      exitCode: ExitCode.failed,
      hint: t.notSent > 0
        ? 'run the same command again to send the rows not sent: rows already sent are looked up, not resent'
        : t.failed > 0 || t.reversed > 0
          ? 'failed and reversed rows did not pay their payee: fsapi transfer status <reference> shows the reversal; paying one again needs a new reference'
          : 'refused rows moved no money; the API refuses for an amount above the balance or a limit, or an account it will not pay: fix that and run the same command again',
    });
  }
  if (t.held > 0) {
    const request = /request (AP-[0-9A-Z]+)/.exec(results.find((r) => r.status === 'held')?.message ?? '')?.[1] ?? '<id>';
    return new HeldForApprovalError(request, `${t.held} of ${t.total} transfers held for approval by the payment policy (${t.paid} pending or successful)${where}`);
  }
  return undefined;
}
