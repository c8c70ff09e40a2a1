// fsapi reconcile [--since DATE]: the journal of transfers sent from here against the API over a period
// (src/books/reconcile.ts). Settles what the journal did not know yet, then reports what needs attention.
// Exit 0 when everything agrees, 1 when anything needs attention (like diff), 2 on bad input. Its days and
// the times a person reads are the business's clock (src/controls/business-clock.ts); piped and --json keep
// ISO 8601 UTC.
import { terminalText } from '../common/sanitize.js';
import type { Context } from '../context.js';
import { run } from './run.js';
import { reconcileSpec } from './top/reconcile.spec.js';
import { ExitCode, FsapiError } from '../errors.js';
import { localDay, parsePeriod, periodPages, type Period } from '../books/ledger.js';
import { zonedClockText } from '../common/time-zone.js';
import { businessClock } from '../controls/business-clock.js';
import { formatNaira, koboToDecimal, subtractKobo, sumKobo, type Kobo } from '../money/kobo.js';
import { findingJson, needsAttention, reconcile, type Finding, type Reconciliation } from '../books/reconcile.js';
import { openJournal, transferScope } from '../transfers/transfer.js';
import { colors, outputMode, printJson, printList, type Column } from '../ui/output.js';
import { labelledNote } from '../ui/error-lines.js';
import { withProgress } from '../ui/progress.js';

/** A long period is many pages: see CommandModule.longRunning. */
export const longRunning = true;

export default run(reconcileSpec, async (ctx, opts, _args) => {
  const journal = openJournal(ctx);
  const scope = await transferScope(ctx);
  const timeZone = await businessClock(ctx);
  // Without --since: the last 7 days, or from this profile's first journalled transfer when that is
  // earlier. Never less than the week: a payment made by hand this morning, before the first transfer sent
  // from here, is exactly what reconcile is for.
  const period = opts.since !== undefined ? parsePeriod(opts.since, undefined, ctx.clock.now(), timeZone) : await defaultPeriod(ctx, journal, scope, timeZone);

  const result = await reconcile(ctx, journal, scope, period, withProgress(ctx, periodPages(ctx, period), 'transactions'));
  for (const warning of result.warnings) ctx.io.note(`warning: ${warning}`);

  const mode = outputMode(ctx);
  if (mode === 'json') printJson(ctx, reconciliationJson(result));
  else if (mode === 'tsv') printTsv(ctx, result, timeZone);
  // On a terminal its long lines wrap at spaces within the width (src/ui/error-lines.ts).
  else ctx.io.out(labelledNote(renderReport(ctx, result, timeZone).replace(/\n$/, ''), ctx.io.columns));

  // Exit 1 for anything a person must look at: a finding on fsapi's own transfers, or money that left the
  // account with no record here (docs/books.md says why both count). The code tells a script which.
  const attention = result.findings.filter(needsAttention).length;
  const others = result.notSentHere.length;
  if (attention > 0) {
    throw new FsapiError(
      `${attention} finding${attention === 1 ? '' : 's'} on fsapi's transfers need${attention === 1 ? 's' : ''} attention${others > 0 ? `; and ${notSentHereWords(others)}` : ''}`,
      {
        exitCode: ExitCode.failed,
        hint: 'fsapi transfer status <reference> looks one transfer up; fsapi transfer log shows the journal',
        code: 'reconcile_differs',
      },
    );
  }
  if (others > 0) {
    throw new FsapiError(notSentHereWords(others), {
      exitCode: ExitCode.failed,
      hint: "fsapi's own transfers agree; find out who made these: by hand, another tool, or fsapi with another store (a team shares one: docs/team.md)",
      code: 'not_sent_here',
    });
  }
});

function notSentHereWords(count: number): string {
  return `${count} debit${count === 1 ? ' on the account was' : 's on the account were'} not sent by fsapi from here`;
}

/** The last DEFAULT_PERIOD_DAYS days of `timeZone` up to the end of today, reaching back to the first journalled send. */
async function defaultPeriod(
  ctx: Context,
  journal: ReturnType<typeof openJournal>,
  scope: Awaited<ReturnType<typeof transferScope>>,
  timeZone: string,
): Promise<Period> {
  const week = parsePeriod(undefined, undefined, ctx.clock.now(), timeZone);
  const first = await journal.firstSentMs(scope);
  if (first === undefined) ctx.io.note(`the journal has no transfer of profile ${scope.profile} yet; fsapi reconcile --since DATE compares an earlier period`);
  return { sinceMs: Math.min(week.sinceMs, first ?? week.sinceMs), untilMs: week.untilMs };
}

function reconciliationJson(result: Reconciliation) {
  return {
    since: new Date(result.period.sinceMs).toISOString(),
    until: new Date(result.period.untilMs).toISOString(),
    journal: { count: result.journal.count, total: koboToDecimal(result.journal.totalKobo) },
    api: { count: result.api.count, total: koboToDecimal(result.api.totalKobo), debits: result.apiDebits },
    agrees: agrees(result),
    ownTransfersAgree: !result.findings.some(needsAttention),
    findings: result.findings.map(findingJson),
    notSentHere: { count: result.notSentHere.length, total: koboToDecimal(movedKobo(result)), debits: result.notSentHere.map(findingJson) },
  };
}

function agrees(result: Reconciliation): boolean {
  return !result.findings.some(needsAttention) && result.notSentHere.length === 0;
}

/** What the debits not sent from here took from the account: failed and reversed ones gave it back. */
function movedKobo(result: Reconciliation): Kobo {
  return sumKobo(result.notSentHere.flatMap((finding) => (finding.kind === 'unjournalled-debit' ? [finding.amountKobo] : [])));
}

/** The totals, under the period in `timeZone` (named: the times of the findings below are in it too). */
function summaryLine(result: Reconciliation, timeZone: string): string {
  const since = zonedClockText(result.period.sinceMs, timeZone, { zone: true });
  return (
    `Reconciliation ${since} to ${localDay(result.period.untilMs - 1, timeZone)}: ` +
    `journal ${result.journal.count} transfer(s) ${formatNaira(result.journal.totalKobo)}, ` +
    `API ${result.api.count} of them ${formatNaira(result.api.totalKobo)} (${result.apiDebits} debit(s) listed)`
  );
}

/** The one line before the debits fsapi did not send, saying what they are and what they took. */
function notSentHereLine(result: Reconciliation, where = 'listed below'): string {
  const count = result.notSentHere.length;
  return `${notSentHereWords(count)} (${formatNaira(movedKobo(result))} left the account): ${where}`;
}

/**
 * The terminal view: one line of totals; the findings on fsapi's own transfers, grouped by kind; then, in
 * a section of their own, the debits fsapi did not send from here, under one line that says so.
 */
function renderReport(ctx: Context, result: Reconciliation, timeZone: string): string {
  const c = colors(ctx);
  const local = (iso: string) => localTime(iso, timeZone);
  const lines = [summaryLine(result, timeZone)];
  if (agrees(result) && !result.findings.some((f) => !needsAttention(f))) {
    lines.push(c.green('everything agrees'));
    return `${lines.join('\n')}\n`;
  }
  if (result.findings.length === 0) lines.push('', c.green("fsapi's transfers from here: everything agrees"));
  let kind: string | undefined;
  for (const finding of result.findings) {
    if (finding.kind !== kind) {
      kind = finding.kind;
      lines.push('', (needsAttention(finding) ? c.yellow : c.green)(`${HEADINGS[finding.kind]}:`));
    }
    // References and names come from the API and the journal: text, never terminal commands.
    lines.push(`  ${terminalText(describe(finding, local))}`);
  }
  if (result.notSentHere.length > 0) {
    lines.push('', c.yellow(notSentHereLine(result)));
    for (const finding of result.notSentHere) lines.push(`  ${terminalText(describeNotSentHere(finding, local))}`);
  }
  return `${lines.join('\n')}\n`;
}

interface TsvRow {
  section: 'ours' | 'not-sent-here';
  finding: Finding;
}

/**
 * Piped: one header line and one tab-separated line per finding, fsapi's own transfers first (SECTION
 * `ours`), then the debits it did not send (`not-sent-here`); the totals and the line about the others
 * are talk, on stderr.
 */
function printTsv(ctx: Context, result: Reconciliation, timeZone: string): void {
  ctx.io.note(summaryLine(result, timeZone));
  if (agrees(result)) ctx.io.note('everything agrees');
  else if (result.notSentHere.length > 0) ctx.io.note(notSentHereLine(result, 'the rows of SECTION not-sent-here'));
  const rows: TsvRow[] = [
    ...result.findings.map((finding) => ({ section: 'ours' as const, finding })),
    ...result.notSentHere.map((finding) => ({ section: 'not-sent-here' as const, finding })),
  ];
  const field = (row: TsvRow, name: string): string => {
    const value = (row.finding as unknown as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : '';
  };
  const columns: Column<TsvRow>[] = [
    { header: 'SECTION', cell: (row) => row.section },
    { header: 'KIND', cell: (row) => row.finding.kind },
    { header: 'REFERENCE', cell: (row) => field(row, 'reference') },
    { header: 'AMOUNT', cell: (row) => amountOf(row.finding) },
    { header: 'ACCOUNT', cell: (row) => field(row, 'accountNumber') },
    { header: 'NAME', cell: (row) => field(row, 'accountName') },
    { header: 'BANK', cell: (row) => field(row, 'bankName') },
    { header: 'TIME', cell: (row) => field(row, 'time') || field(row, 'sentAt') },
    { header: 'STATUS', cell: (row) => statusOfFinding(row.finding) },
    { header: 'DETAIL', cell: (row) => detailOf(row.finding) },
  ];
  printList(ctx, columns, rows, [], '');
}

/** The amount a finding is about, as two-decimal naira: the API's where the journal's differs. */
function amountOf(finding: Finding): string {
  if (finding.kind === 'amount-differs' || finding.kind === 'totals-differ') return koboToDecimal(finding.apiKobo);
  return 'amountKobo' in finding ? koboToDecimal(finding.amountKobo) : '';
}

function statusOfFinding(finding: Finding): string {
  switch (finding.kind) {
    case 'settled':
    case 'unjournalled-debit':
      return finding.status;
    case 'missing-from-api':
      return finding.outcome;
    case 'failed':
    case 'reversed':
      return finding.kind;
    case 'still-pending':
      return 'pending';
    default:
      return '';
  }
}

function detailOf(finding: Finding): string {
  switch (finding.kind) {
    case 'settled':
      return `was ${finding.was}`;
    case 'in-transit':
      return finding.why;
    case 'missing-from-api':
      return finding.detail ?? 'not found at the API';
    case 'failed':
    case 'reversed':
      return finding.reversal ? `reversal ${finding.reversal.reference} ${koboToDecimal(finding.reversal.amountKobo)}` : 'no reversal credit found';
    case 'amount-differs':
      return `journal ${koboToDecimal(finding.journalKobo)}`;
    case 'totals-differ':
      return `journal ${koboToDecimal(finding.journalKobo)}, difference ${koboToDecimal(subtractKobo(finding.apiKobo, finding.journalKobo))}`;
    default:
      return '';
  }
}

const HEADINGS: Record<Finding['kind'], string> = {
  settled: 'settled now (the journal was updated)',
  'in-transit': 'in transit (on their way: nothing to do yet; do not pay them again)',
  'missing-from-api': 'journalled but not found at the API (do not assume they were paid)',
  failed: 'failed transfers',
  reversed: 'reversed transfers',
  'amount-differs': 'amounts that differ',
  'still-pending': 'still pending',
  'unjournalled-debit': 'debits not sent by fsapi from here',
  'totals-differ': 'totals that differ',
};

/** A debit fsapi did not send from here, with its status (and for one that did not go through, its reversal). */
function describeNotSentHere(finding: Finding, local: (iso: string) => string): string {
  if (finding.kind !== 'failed' && finding.kind !== 'reversed') return describe(finding, local);
  const reversal = finding.reversal ? `reversal ${finding.reversal.reference} ${formatNaira(finding.reversal.amountKobo)}` : 'no reversal credit found';
  return `${finding.reference}  ${formatNaira(finding.amountKobo)}  to ${finding.accountNumber} ${finding.accountName}  ${local(finding.time)}  ${finding.kind}, ${reversal}`;
}

/** One finding on one line; `local` writes a time of it on the business's clock. */
function describe(finding: Finding, local: (iso: string) => string): string {
  switch (finding.kind) {
    case 'settled':
      return `${finding.reference}  was ${finding.was}, now ${finding.status}`;
    case 'in-transit':
      return `${finding.reference}  ${formatNaira(finding.amountKobo)}  to ${finding.accountNumber} ${finding.accountName}  ${finding.why.startsWith('sent ') ? finding.why : `sent ${local(finding.sentAt)}, ${finding.why}`}`;
    case 'still-pending':
      return `${finding.reference}  ${formatNaira(finding.amountKobo)}  sent ${local(finding.sentAt)}`;
    case 'missing-from-api':
      return `${finding.reference}  ${formatNaira(finding.amountKobo)}  to ${finding.accountNumber} ${finding.accountName}  sent ${local(finding.sentAt)} (${finding.outcome})${finding.detail ? `; ${finding.detail}` : ''}`;
    case 'unjournalled-debit':
      return `${finding.reference}  ${formatNaira(finding.amountKobo)}  to ${finding.accountNumber} ${finding.accountName}, ${finding.bankName}  ${local(finding.time)}  ${finding.status}`;
    case 'failed':
    case 'reversed': {
      const reversal = finding.reversal ? `reversal ${finding.reversal.reference} ${formatNaira(finding.reversal.amountKobo)}` : 'no reversal credit found';
      return `${finding.reference}  ${formatNaira(finding.amountKobo)}  to ${finding.accountNumber} ${finding.accountName}  ${local(finding.time)}  ${reversal}`;
    }
    case 'amount-differs':
      return `${finding.reference}  journal ${formatNaira(finding.journalKobo)}, API ${formatNaira(finding.apiKobo)}`;
    case 'totals-differ':
      return `journal ${formatNaira(finding.journalKobo)}, API ${formatNaira(finding.apiKobo)}, difference ${formatNaira(subtractKobo(finding.apiKobo, finding.journalKobo))}`;
  }
}

/** An ISO time from the journal or the API on the business's clock for the terminal (--json keeps ISO UTC). */
function localTime(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? zonedClockText(ms, timeZone) : iso;
}
