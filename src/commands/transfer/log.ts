// fsapi transfer log [--refresh] [--csv]: the journal of money-moving requests (src/core/journal.ts), the
// last known state of each transfer, oldest first, for every profile. Local only, unless --refresh: then
// the transfers of this profile whose status may still change are looked up first, and the journal
// learns what the API says now.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { koboToDecimal } from '../../core/money.js';
import { checkTransferStatus, openJournal, transferScope } from '../../core/transfer.js';
import { FsapiError, UsageError } from '../../errors.js';
import { parseIntegerOption } from '../../core/validate.js';
import type { TransferState } from '../../core/journal.js';
import { journalledTransfers, type JournalledTransfer } from '../../core/transfer-outcome.js';
import { colors, koboCell, printList, statusCell } from '../../ui/output.js';
import { isoTimeCell } from '../../ui/transfers.js';
import { printCsv, refuseCsvWithJson } from '../../ui/csv.js';
import type { Column } from '../../ui/output.js';

/** A journalled transfer with its outcome in the one vocabulary (src/core/transfer-outcome.ts). */
type LoggedTransfer = JournalledTransfer;

const columns: Column<LoggedTransfer>[] = [
  { header: 'TIME', csv: 'sent_at', cell: (t) => isoTimeCell(t.sentAt) },
  { header: 'PROFILE', cell: (t) => t.profile, priority: 4 },
  { header: 'REFERENCE', cell: (t) => t.reference },
  { header: 'ACCOUNT', csv: 'account_number', cell: (t) => t.accountNumber, priority: 1 },
  { header: 'NAME', csv: 'account_name', cell: (t) => t.accountName, flex: true, minWidth: 8 },
  { header: 'BANK', csv: 'bank_name', cell: (t) => t.bankName, priority: 3, flex: true },
  { header: 'AMOUNT', cell: (t) => koboCell(t.amountKobo), align: 'right' },
  // The outcome as last seen by fsapi (at sending, or by a later lookup): never dropped for width.
  { header: 'OUTCOME', csv: 'outcome', cell: (t) => statusCell(t.outcome) },
  // The API's own word for it, as last seen: not necessarily today's. Mostly the same word as OUTCOME, so
  // at a narrow terminal it goes before the payee's name is cut short.
  { header: 'STATUS', csv: 'api_status', cell: (t) => statusCell(t.status), priority: 2 },
  { header: 'MESSAGE', cell: messageCell, priority: 5, flex: true },
];

export default async function log(ctx: Context, input: CommandInput): Promise<void> {
  const csv = input.options.csv === true;
  const jsonl = input.options.jsonl === true;
  refuseCsvWithJson(ctx, csv);
  if (jsonl && (csv || ctx.globals.json || input.options.limit !== undefined || input.options.refresh === true)) {
    throw new UsageError('--jsonl exports every record as written: it goes with no --csv, --json, --limit or --refresh');
  }
  const limit = parseIntegerOption(input.options.limit, '--limit', 1, 1_000_000);
  const journal = openJournal(ctx);
  if (jsonl) return exportRecords(ctx, journal);
  if (input.options.refresh === true) await refreshPending(ctx, journal);
  const { transfers, warnings } = await journalledTransfers(journal, { limit });
  for (const warning of warnings) ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${warning}`);
  // An intent without an answer whose writer still runs is in flight, not unknown.
  const rows = [...transfers].sort((a, b) => Date.parse(a.sentAt) - Date.parse(b.sentAt));
  if (csv) return printCsv(ctx, columns, rows);
  printList<LoggedTransfer>(
    ctx,
    columns,
    rows,
    rows.map(toJson),
    `the journal ${journal.file} has no transfers yet`,
  );
  const unknown = rows.filter((t) => t.outcome === 'unknown');
  if (unknown.length > 0 && !ctx.globals.json) {
    ctx.io.note(`${unknown.length} transfer${unknown.length === 1 ? ' has' : 's have'} no known outcome: do not resend; fsapi transfer status <reference> settles each`);
  }
  const stale = rows.filter(mayStillChange);
  if (stale.length > 0 && !ctx.globals.json && input.options.refresh !== true && ctx.io.stderrIsTTY) {
    ctx.io.note(`OUTCOME is as last seen; fsapi transfer log --refresh looks up ${stale.length} pending`);
  }
}

/**
 * The journal's records, oldest first, each the JSON object fsapi wrote (journal.jsonl's format): readable
 * without fsapi, a page of records in memory at a time.
 */
async function exportRecords(ctx: Context, journal: ReturnType<typeof openJournal>): Promise<void> {
  const stdout = ctx.io.stdout as NodeJS.WritableStream & { writableNeedDrain?: boolean };
  let closed = false;
  stdout.on('error', () => (closed = true)); // a reader that went away (head) ends the export quietly
  const writeOut = async (_: Context, text: string) => {
    ctx.io.out(text);
    if (stdout.writableNeedDrain && !closed) {
      await new Promise((resolve) => {
        stdout.once('drain', resolve);
        stdout.once('close', resolve);
        stdout.once('error', resolve);
      });
    }
  };
  let chunk = '';
  for (const record of journal.records()) {
    if (closed) return;
    chunk += `${JSON.stringify(record)}\n`;
    if (chunk.length >= 64 * 1024) {
      await writeOut(ctx, chunk);
      chunk = '';
    }
  }
  if (chunk !== '') await writeOut(ctx, chunk);
}

/**
 * The message kept is the answer to the POST ("Transfer successful, ..."), given while the transfer was still
 * pending: beside a failed or reversed outcome it would read as a payment. Those rows say what happened
 * instead; --json keeps the API's message as it came.
 */
function messageCell(t: LoggedTransfer): string {
  if (t.outcome !== 'failed' && t.outcome !== 'reversed') return t.message ?? '';
  return `${t.outcome} after it was taken: the payee was not paid; fsapi transfer status ${t.reference} shows the reversal`;
}

/** Sent, and its last seen status is not final: pending, or never seen. */
const mayStillChange = (t: TransferState) => t.state !== 'rejected' && (t.status === undefined || t.status.toLowerCase() === 'pending');

/**
 * Looks up this profile's transfers whose status may still change; the journal records what is found.
 * Transfers of other profiles need their own credentials: `--profile <name>` refreshes those.
 */
async function refreshPending(ctx: Context, journal: ReturnType<typeof openJournal>): Promise<void> {
  const scope = await transferScope(ctx);
  const { transfers } = await journal.transfers();
  const mine = transfers.filter((t) => mayStillChange(t) && t.profile === scope.profile && t.baseUrl === scope.baseUrl);
  const others = transfers.filter((t) => mayStillChange(t) && !mine.includes(t)).length;
  for (const transfer of mine) {
    try {
      await checkTransferStatus(ctx, journal, scope, transfer.reference);
    } catch (error) {
      if (!(error instanceof FsapiError) || error.exitCode === 3) throw error;
      ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${transfer.reference}: ${error.message}`);
    }
  }
  if (others > 0) ctx.io.note(`${others} pending transfer${others === 1 ? '' : 's'} of other profiles not looked up: add --profile <name> for those`);
}

/** The journal's own JSON (not an API object): one object per transfer, amounts as decimal text and kobo. */
function toJson(t: LoggedTransfer) {
  return {
    sentAt: t.sentAt,
    updatedAt: t.updatedAt,
    profile: t.profile,
    env: t.env,
    baseUrl: t.baseUrl,
    reference: t.reference,
    accountNumber: t.accountNumber,
    accountName: t.accountName,
    bankCode: t.bankCode,
    bankName: t.bankName,
    amount: koboToDecimal(t.amountKobo),
    amountKobo: t.amountKobo,
    narration: t.narration,
    senderName: t.senderName ?? null,
    origin: t.origin ?? null,
    outcome: t.outcome,
    /** How the journal got there (accepted, reconciled, rejected, unknown): kept for scripts that read it. */
    state: t.state,
    status: t.status ?? null,
    message: t.message ?? null,
    httpStatus: t.httpStatus ?? null,
  };
}
