// fsapi transfer log [--refresh] [--csv] [--all-profiles]: the journal of money-moving requests
// (src/transfers/journal.ts), the last known state of each transfer, oldest first, of the profile in use (at
// its base address); --all-profiles shows every profile's, with a PROFILE column no width drops, so a
// simulator's rows never look like real money. Local only, unless --refresh: then the transfers of this
// profile whose status may still change are looked up first, and the journal learns what the API says now.
import { recordsScope } from '../../auth/records-owner.js';
import { teamChoice } from '../../store/team-choice.js';
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { logSpec } from './log.spec.js';
import { koboToDecimal } from '../../money/kobo.js';
import { checkTransferStatus, openJournal, transferScope } from '../../transfers/transfer.js';
import { FsapiError, UsageError } from '../../errors.js';
import type { Journal, TransferState } from '../../transfers/journal.js';
import { journalledTransfers, withOutcomes, type JournalledTransfer } from '../../transfers/outcome.js';
import { colors, createRowStream, isoTimeCell, koboCell, outputMode, printList, statusCell, timeColumn } from '../../ui/output.js';
import { shownTimeZone } from '../../controls/business-clock.js';
import { createCsvSink, printCsv, refuseCsvWithJson } from '../../ui/csv.js';
import { streamPages, type RowSink, type StreamedPage } from '../../ui/stream.js';
import type { Column } from '../../ui/output.js';
import { viaWords } from '../../transfers/asker.js';
import { reasonInWords } from '../../notifications/failure-reason.js';

/** A journalled transfer with its outcome in the one vocabulary (src/transfers/outcome.ts). */
type LoggedTransfer = JournalledTransfer;

/**
 * The columns; with rows of several profiles, PROFILE is never dropped for width (priority 0), nor is
 * OPERATOR on a team store. At a narrow terminal the time, the operator and the name wrap within their
 * cells (the date above the time, `ada@` above `finance-laptop`) so that those, the reference, the amount
 * and the outcome all stay. TIME is on the business's clock of the profile in use (`--all-profiles` too:
 * one table, one clock, named in its header); the CSV's sent_at stays ISO 8601 UTC.
 */
const columnsFor = (timeZone: string, nowMs: number, severalProfiles: boolean, team = false): Column<LoggedTransfer>[] => [
  timeColumn('TIME', timeZone, nowMs, (t) => isoTimeCell(t.sentAt, timeZone), { csv: 'sent_at', flex: true, wrap: true, minWidth: 10 }),
  // One profile's rows all say the same profile: the first column to go for width.
  { header: 'PROFILE', cell: (t) => t.profile, priority: severalProfiles ? 0 : 6, flex: true, wrap: true },
  // A team store's rows are the whole team's: who sent each (docs/team.md).
  ...(team ? [{ header: 'OPERATOR', cell: (t: LoggedTransfer) => t.operator ?? '', flex: true, wrap: true }] : []),
  { header: 'REFERENCE', cell: (t) => t.reference },
  { header: 'ACCOUNT', csv: 'account_number', identifier: true, cell: (t) => t.accountNumber, priority: 1 },
  { header: 'NAME', csv: 'account_name', cell: (t) => t.accountName, flex: true, wrap: true, minWidth: 8 },
  { header: 'BANK', csv: 'bank_name', cell: (t) => t.bankName, priority: 3, flex: true },
  { header: 'AMOUNT', cell: (t) => koboCell(t.amountKobo), align: 'right' },
  // The outcome as last seen by fsapi (at sending, or by a later lookup): never dropped for width.
  { header: 'OUTCOME', csv: 'outcome', cell: (t) => statusCell(t.outcome) },
  // The API's own word for it, as last seen: not necessarily today's. Mostly the same word as OUTCOME, so
  // at a narrow terminal it goes before the payee's name is cut short.
  { header: 'STATUS', csv: 'api_status', cell: (t) => statusCell(t.status), priority: 2 },
  // A message cut to a few characters says nothing: it is shown with room to be read, or not at all.
  { header: 'MESSAGE', cell: messageCell, priority: 5, flex: true, minWidth: 30 },
  // The labels the intent came with (src/transfers/asker.ts): the MCP client, the person behind sudo. Last, and
  // the first to go for width; a terminal's table leaves it out when no row has any.
  { header: 'VIA', csv: 'via', cell: (t) => viaWords(t.via), priority: 7, flex: true, wrap: true, minWidth: 12 },
];

/** Without --limit it reads the whole history, a page at a time: see CommandModule.longRunning. */
export const longRunning = (options: { limit?: number }) => options.limit === undefined;

/**
 * On a terminal a table needs every row to fit its columns, so it is drawn whole up to this many
 * transfers; a longer history shows its last TABLE_ROWS with a note (docs/transfers.md, "transfer log").
 * --json, --jsonl, --csv and piped TSV stream every transfer, a page at a time.
 */
export const TABLE_ROWS = 1_000;

export default run(logSpec, async (ctx, opts, _args) => {
  const csv = opts.csv;
  const jsonl = opts.jsonl;
  refuseCsvWithJson(ctx, csv);
  if (jsonl && (csv || ctx.globals.json || opts.limit !== undefined || opts.refresh)) {
    throw new UsageError('--jsonl exports every record as written: it goes with no --csv, --json, --limit or --refresh');
  }
  let { limit } = opts;
  const allProfiles = opts.allProfiles;
  if (jsonl && allProfiles) throw new UsageError('--jsonl exports every record of every profile already: it goes without --all-profiles');
  const journal = openJournal(ctx);
  if (jsonl) return exportRecords(ctx, journal);
  if (opts.refresh) await refreshPending(ctx, journal);
  for (const warning of await journal.importNotes()) ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${warning}`);
  const scope = allProfiles ? undefined : await profileInUse(ctx);
  const columns = columnsFor(await shownTimeZone(ctx), ctx.clock.now(), allProfiles, teamChoice(ctx.paths.dataDir) !== undefined);
  const total = await journal.count(scope);
  const table = !csv && outputMode(ctx) === 'table';
  // A terminal's table of a long history: its last rows (see TABLE_ROWS); the notes still count every transfer.
  const capped = table && limit === undefined && total > TABLE_ROWS;
  if (capped) limit = TABLE_ROWS;
  const tally = { unknown: 0, stale: 0 };
  const count = (rows: readonly LoggedTransfer[]) => {
    tally.unknown += rows.filter((t) => t.outcome === 'unknown').length;
    tally.stale += rows.filter(mayStillChange).length;
  };

  if (limit !== undefined || table || total === 0) {
    // Bounded (--limit, or a terminal's table of at most TABLE_ROWS): the rows in memory, fitted as one table.
    const { transfers } = await journalledTransfers(journal, { limit, scope });
    const rows = [...transfers].sort((a, b) => Date.parse(a.sentAt) - Date.parse(b.sentAt));
    if (capped) for await (const page of journal.transferPages(undefined, scope)) count(await withOutcomes(journal, page));
    else count(rows);
    const empty = scope ? `the journal ${journal.file} has no transfers of profile ${scope.profile} yet` : `the journal ${journal.file} has no transfers yet`;
    if (csv) await printCsv(ctx, columns, rows);
    else printList<LoggedTransfer>(ctx, table ? withoutRepeatedStatus(columns, rows) : columns, rows, rows.map(toJson), empty);
    if (capped) {
      // Two lines, each within 80 columns.
      ctx.io.note(`showing the last ${TABLE_ROWS.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} transfers (--limit <n>: more or fewer)`);
      ctx.io.note('all of them: --json, --jsonl, --csv, or piped (fsapi transfer log | less -S)');
    }
  } else {
    // Every transfer, a page at a time, written as it is read: memory stays flat whatever the history.
    const sink: RowSink<LoggedTransfer> = csv ? await createCsvSink(ctx, columns) : createRowStream(ctx, columns, toJson);
    const summary = await streamPages(ctx, pagesOf(journal, count, scope), sink, { noun: 'transfers', progress: false });
    if (summary.readerClosed) return;
  }
  if (csv) return;
  const others = scope ? (await journal.count()) - total : 0;
  if (others > 0 && !ctx.globals.json) {
    ctx.io.note(`${others.toLocaleString('en-US')} other transfer${others === 1 ? '' : 's'} (other profiles or addresses) not shown: --all-profiles`);
  }
  if (tally.unknown > 0 && !ctx.globals.json) {
    // Two lines, each within 80 columns.
    ctx.io.note(`${tally.unknown.toLocaleString('en-US')} transfer${tally.unknown === 1 ? ' has' : 's have'} no known outcome: do not resend`);
    ctx.io.note(`fsapi transfer status <reference> settles ${tally.unknown === 1 ? 'it' : 'each'}`);
  }
  if (tally.stale > 0 && !ctx.globals.json && !opts.refresh && ctx.io.stderrIsTTY) {
    ctx.io.note(`OUTCOME is as last seen; fsapi transfer log --refresh looks up ${tally.stale} pending`);
  }
});

/**
 * A terminal's table leaves STATUS out when it says what OUTCOME says on every row (the API's `successful`
 * beside the outcome `successful`): the room goes to the payee's name; and VIA when no row has any. TSV and
 * CSV keep every column.
 */
function withoutRepeatedStatus(columns: Column<LoggedTransfer>[], rows: readonly LoggedTransfer[]): Column<LoggedTransfer>[] {
  const repeated = rows.every((t) => (t.status ?? '').toLowerCase() === t.outcome.toLowerCase());
  const noVia = rows.every((t) => t.via === undefined);
  return columns.filter((column) => !(repeated && column.header === 'STATUS') && !(noVia && column.header === 'VIA'));
}

/** The journal's transfers with their outcomes, page by page, each page counted for the closing notes. */
async function* pagesOf(
  journal: Journal,
  count: (rows: readonly LoggedTransfer[]) => void,
  scope: JournalScope | undefined,
): AsyncGenerator<StreamedPage<LoggedTransfer>> {
  let page = 0;
  for await (const states of journal.transferPages(undefined, scope)) {
    const rows = await withOutcomes(journal, states);
    count(rows);
    page += 1;
    yield { page, rows, received: rows.length };
  }
}

/**
 * The journal's records, oldest first, each the JSON object fsapi wrote (journal.jsonl's format, the text
 * as stored): readable without fsapi, a page of records in memory at a time.
 */
async function exportRecords(ctx: Context, journal: Journal): Promise<void> {
  const pages = (async function* () {
    let page = 0;
    for await (const rows of journal.recordTextPages()) yield { page: (page += 1), rows, received: rows.length };
  })();
  const sink: RowSink<string> = { write: (rows) => ctx.io.out(`${rows.join('\n')}\n`), end: () => undefined };
  await streamPages(ctx, pages, sink, { noun: 'records', progress: false });
}

/**
 * The message kept is the answer to the POST ("Transfer successful, ..."), given while the transfer was still
 * pending: beside a pending outcome it is labelled as the API's, and beside a failed or reversed one it
 * would read as a payment: those rows say what happened instead, with the reason the API gave when a
 * lookup learnt one (src/notifications/failure-reason.ts). --json keeps the API's message as it came.
 */
function messageCell(t: LoggedTransfer): string {
  if (t.outcome === 'failed' || t.outcome === 'reversed') {
    return `${t.outcome} after it was taken: ${t.reason ?? 'the API gave no reason'}; the payee was not paid; fsapi transfer status ${t.reference} shows the reversal`;
  }
  if (t.outcome === 'pending' && t.state === 'accepted' && t.message) return `not settled yet; the API said: ${t.message}`;
  return t.message ?? '';
}

type JournalScope = { profile: string; baseUrl: string };

/**
 * The profile in use and its base address, as its transfers are journalled (src/transfers/transfer.ts,
 * transferScope), read without opening the API: the log stays local, and the local profile's simulator
 * is not started to learn that its address is `local` (src/api/http.ts names it so).
 */
async function profileInUse(ctx: Context): Promise<JournalScope> {
  const profile = await ctx.profile();
  return recordsScope(ctx, profile, profile.baseUrl ?? 'local');
}

/** Sent, and its last seen status is not final: pending, or never seen. */
const mayStillChange = (t: TransferState) => t.state !== 'rejected' && (t.status === undefined || t.status.toLowerCase() === 'pending');

/**
 * Looks up this profile's transfers whose status may still change; the journal records what is found.
 * Transfers of other profiles need their own credentials: `--profile <name>` refreshes those.
 */
async function refreshPending(ctx: Context, journal: Journal): Promise<void> {
  const scope = await transferScope(ctx);
  // Page by page: only the pending ones of this profile are kept.
  const mine: TransferState[] = [];
  let others = 0;
  for await (const page of journal.transferPages()) {
    for (const t of page) {
      if (!mayStillChange(t)) continue;
      if (t.profile === scope.profile && t.baseUrl === scope.baseUrl) mine.push(t);
      else others += 1;
    }
  }
  for (const transfer of mine) {
    try {
      await checkTransferStatus(ctx, journal, scope, transfer.reference, reasonInWords(ctx));
    } catch (error) {
      if (!(error instanceof FsapiError) || error.exitCode === 3) throw error;
      ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${transfer.reference}: ${error.message}`);
    }
  }
  if (others > 0) ctx.io.note(`${others} pending transfer${others === 1 ? '' : 's'} of other profiles not looked up: add --profile <name> for those`);
}

/** The journal's own JSON (not an API object): one object per transfer, the amount as two-decimal naira text. */
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
    narration: t.narration,
    senderName: t.senderName ?? null,
    origin: t.origin ?? null,
    operator: t.operator ?? null,
    // Who the store says sent it: a team store's login (src/common/actor.ts).
    actor: t.actor ?? null,
    /** The MCP client and the person behind sudo it came through: labels, not proof (docs/agents.md). */
    via: t.via ?? null,
    outcome: t.outcome,
    /** How the journal got there (accepted, reconciled, rejected, unknown): kept for scripts that read it. */
    state: t.state,
    status: t.status ?? null,
    message: t.message ?? null,
    /** Failed or reversed: the reason the API gave and where it was read, once a lookup learnt it. */
    reason: t.reason ?? null,
    httpStatus: t.httpStatus ?? null,
  };
}
