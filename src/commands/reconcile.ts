// fsapi reconcile [--since DATE]: the journal of transfers sent from here against the API over a period
// (src/books/reconcile.ts). Settles what the journal did not know yet, then reports what needs attention.
// Exit 0 when everything agrees, 1 when anything needs attention (like diff), 2 on bad input.
import { terminalText } from '../common/sanitize.js';
import type { Context } from '../context.js';
import { run } from './run.js';
import { reconcileSpec } from './top/reconcile.spec.js';
import { ExitCode, FsapiError } from '../errors.js';
import { localDay, parsePeriod, periodPages, type Period } from '../books/ledger.js';
import { formatDateTime } from '../common/time.js';
import { formatNaira, koboToDecimal, subtractKobo } from '../money/kobo.js';
import { findingJson, needsAttention, reconcile, type Finding, type Reconciliation } from '../books/reconcile.js';
import { openJournal, transferScope } from '../transfers/transfer.js';
import { colors, outputMode, printJson } from '../ui/output.js';
import { labelledNote } from '../ui/error-lines.js';
import { withProgress } from '../ui/progress.js';

/** A long period is many pages: see CommandModule.longRunning. */
export const longRunning = true;

export default run(reconcileSpec, async (ctx, opts, _args) => {
  const journal = openJournal(ctx);
  const scope = await transferScope(ctx);
  // Without --since: the last 7 local days, or from this profile's first journalled transfer when that is
  // earlier. Never less than the week: a payment made by hand this morning, before the first transfer sent
  // from here, is exactly what reconcile is for.
  const period = opts.since !== undefined ? parsePeriod(opts.since, undefined, ctx.clock.now()) : defaultPeriod(ctx, journal, scope);

  const result = await reconcile(ctx, journal, scope, period, withProgress(ctx, periodPages(ctx, period), 'transactions'));
  for (const warning of result.warnings) ctx.io.note(`warning: ${warning}`);

  if (outputMode(ctx) === 'json') printJson(ctx, reconciliationJson(result));
  // On a terminal its long lines wrap at spaces within the width (src/ui/error-lines.ts); piped, one line each.
  else ctx.io.out(labelledNote(renderReport(ctx, result).replace(/\n$/, ''), ctx.io.columns));

  const attention = result.findings.filter(needsAttention).length;
  if (attention > 0) {
    throw new FsapiError(`${attention} finding${attention === 1 ? ' needs' : 's need'} attention`, {
      exitCode: ExitCode.failed,
      hint: 'fsapi transfer status <reference> looks one transfer up; fsapi transfer log shows the journal',
    });
  }
});

/** The last DEFAULT_PERIOD_DAYS local days up to the end of today, reaching back to the first journalled send. */
function defaultPeriod(ctx: Context, journal: ReturnType<typeof openJournal>, scope: Awaited<ReturnType<typeof transferScope>>): Period {
  const week = parsePeriod(undefined, undefined, ctx.clock.now());
  const first = journal.firstSentMs(scope);
  if (first === undefined) ctx.io.note(`the journal has no transfer of profile ${scope.profile} yet; fsapi reconcile --since DATE compares an earlier period`);
  return { sinceMs: Math.min(week.sinceMs, first ?? week.sinceMs), untilMs: week.untilMs };
}

function reconciliationJson(result: Reconciliation) {
  return {
    since: new Date(result.period.sinceMs).toISOString(),
    until: new Date(result.period.untilMs).toISOString(),
    journal: { count: result.journal.count, total: koboToDecimal(result.journal.totalKobo) },
    api: { count: result.api.count, total: koboToDecimal(result.api.totalKobo), debits: result.apiDebits },
    agrees: !result.findings.some(needsAttention),
    findings: result.findings.map(findingJson),
  };
}

/** The terminal and piped view: one line of totals, then one line per finding, grouped by kind. */
function renderReport(ctx: Context, result: Reconciliation): string {
  const c = colors(ctx);
  const lines = [
    `Reconciliation ${formatDateTime(result.period.sinceMs)} to ${localDay(result.period.untilMs - 1)}: ` +
      `journal ${result.journal.count} transfer(s) ${formatNaira(result.journal.totalKobo)}, ` +
      `API ${result.api.count} of them ${formatNaira(result.api.totalKobo)} (${result.apiDebits} debit(s) listed)`,
  ];
  if (result.findings.length === 0) {
    lines.push(c.green('everything agrees'));
    return `${lines.join('\n')}\n`;
  }
  let kind: string | undefined;
  for (const finding of result.findings) {
    if (finding.kind !== kind) {
      kind = finding.kind;
      lines.push('', (needsAttention(finding) ? c.yellow : c.green)(`${HEADINGS[finding.kind]}:`));
    }
    // References and names come from the API and the journal: text, never terminal commands.
    lines.push(`  ${terminalText(describe(finding))}`);
  }
  return `${lines.join('\n')}\n`;
}

const HEADINGS: Record<Finding['kind'], string> = {
  settled: 'settled now (the journal was updated)',
  'in-transit': 'in transit (on their way: nothing to do yet; do not pay them again)',
  'missing-from-api': 'journalled but not found at the API (do not assume they were paid)',
  failed: 'failed transfers',
  reversed: 'reversed transfers',
  'amount-differs': 'amounts that differ',
  'still-pending': 'still pending',
  'unjournalled-debit': 'debits the journal does not know (sent by another tool or person)',
  'totals-differ': 'totals that differ',
};

function describe(finding: Finding): string {
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
      return `${finding.reference}  ${formatNaira(finding.amountKobo)}  to ${finding.accountNumber} ${finding.accountName}  ${local(finding.time)}  ${reversal}${finding.journalled ? '' : '  (not in the journal)'}`;
    }
    case 'amount-differs':
      return `${finding.reference}  journal ${formatNaira(finding.journalKobo)}, API ${formatNaira(finding.apiKobo)}`;
    case 'totals-differ':
      return `journal ${formatNaira(finding.journalKobo)}, API ${formatNaira(finding.apiKobo)}, difference ${formatNaira(subtractKobo(finding.apiKobo, finding.journalKobo))}`;
  }
}

/** An ISO time from the journal or the API, in local time for the terminal (--json keeps ISO UTC). */
function local(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? formatDateTime(ms) : iso;
}
