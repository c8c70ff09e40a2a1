// What `transfer batch` shows: bad rows, failed name checks and possible duplicates (stderr), the summary
// a person confirms (stderr: a table on a terminal, tab-separated lines when piped), and the per-row
// result (stdout, through src/ui/output.ts so the output rules hold).
import Table from 'cli-table3';
import type { Context } from '../context.js';
import type { RowProblem } from '../core/batch-file.js';
import type { BatchPlan, NameCheckFailure, PossibleDuplicate, RowResult } from '../core/batch.js';
import { reportEntry, tally } from '../core/batch-report.js';
import { formatNaira, sumKobo } from '../core/money.js';
import { colors, koboCell, printList, statusCell } from './output.js';
import { terminalText, tsvField } from './sanitize.js';

/** Lines of talk on stderr as a table (terminal) or tab-separated lines (piped). */
function writeStderrTable(ctx: Context, headers: string[], rows: Array<Array<{ text: string; plain: string }>>, align: Array<'left' | 'right'> = []): void {
  if (!ctx.io.stderrIsTTY) {
    ctx.io.note(headers.join('\t'));
    for (const row of rows) ctx.io.note(row.map((cell) => tsvField(cell.plain)).join('\t'));
    return;
  }
  const c = colors(ctx, 'stderr');
  const table = new Table({
    head: headers.map((header) => c.bold(header)),
    style: { head: [], border: ctx.io.colorStderr ? ['grey'] : [] },
    colAligns: headers.map((_, i) => align[i] ?? 'left'),
  });
  for (const row of rows) table.push(row.map((cell) => cell.text));
  ctx.io.note(table.toString());
}

/** A cell of data (names, narrations, messages from the API or the file): safe for the terminal. */
const plain = (text: string) => ({ text: terminalText(text), plain: text });

export function writeBadRows(ctx: Context, problems: readonly RowProblem[]): void {
  const c = colors(ctx, 'stderr');
  for (const problem of problems) ctx.io.note(`${c.red(`line ${problem.line}:`)} ${problem.reason}`);
}

export function writeNameFailures(ctx: Context, failures: readonly NameCheckFailure[]): void {
  const c = colors(ctx, 'stderr');
  ctx.io.note(c.bold(`${failures.length} row${failures.length === 1 ? '' : 's'} failed the name check:`));
  writeStderrTable(
    ctx,
    ['LINE', 'ACCOUNT', 'BANK', 'AMOUNT', 'VERIFIED NAME', 'PROBLEM'],
    failures.map(({ row, verifiedName, reason }) => [
      plain(String(row.line)),
      plain(row.accountNumber),
      plain(row.bank.institutionName),
      koboCell(row.amountKobo),
      plain(verifiedName ?? ''),
      { text: c.red(terminalText(reason)), plain: reason },
    ]),
    ['right', 'left', 'left', 'right'],
  );
}

export function writePossibleDuplicates(ctx: Context, duplicates: readonly PossibleDuplicate[]): void {
  const c = colors(ctx, 'stderr');
  ctx.io.note(c.bold(`${duplicates.length} row${duplicates.length === 1 ? ' looks' : 's look'} already paid under another reference (same account, bank and amount in the last 24 hours):`));
  writeStderrTable(
    ctx,
    ['LINE', 'ACCOUNT', 'NAME', 'AMOUNT', 'EARLIER REFERENCE', 'SENT', 'STATE'],
    duplicates.map(({ row, earlier }) => [
      plain(String(row.line)),
      plain(row.accountNumber),
      plain(row.accountName),
      koboCell(row.amountKobo),
      plain(earlier.reference),
      plain(earlier.sentAt),
      plain(`${earlier.state}${earlier.origin ? ` (${earlier.origin})` : ''}`),
    ]),
    ['right', 'left', 'left', 'right'],
  );
}

/**
 * The summary before the confirmation: every row to send with its verified name, the totals and the
 * balance, what earlier runs already did, and where the money comes from.
 */
export function writeBatchSummary(ctx: Context, plan: BatchPlan): void {
  const c = colors(ctx, 'stderr');
  const { scope, source } = plan;
  if (scope.env === 'production') ctx.io.note(c.bgRed.white.bold(' PRODUCTION ') + c.red(' real money moves from this account'));
  ctx.io.note(c.bold(`Batch ${plan.file.name}: ${plan.file.rows.length} row${plan.file.rows.length === 1 ? '' : 's'}`));
  if (plan.toSend.length > 0) {
    writeStderrTable(
      ctx,
      ['LINE', 'VERIFIED NAME', 'ACCOUNT', 'BANK', 'AMOUNT', 'NARRATION', 'REFERENCE'],
      plan.toSend.map((row) => [
        plain(String(row.line)),
        { text: c.bold(terminalText(row.accountName)), plain: row.accountName },
        plain(row.accountNumber),
        plain(row.bank.institutionName),
        koboCell(row.amountKobo),
        plain(row.narration),
        plain(row.reference),
      ]),
      ['right', 'left', 'left', 'left', 'right'],
    );
    for (const row of plan.toSend) if (row.again) ctx.io.note(`${c.yellow(`line ${row.line}:`)} sent again with the same reference: ${row.again}`);
  }
  if (plan.settled.length > 0) {
    const t = tally(plan.settled);
    const parts = [t.accepted ? `${t.accepted} paid` : '', t.unknown ? c.yellow(`${t.unknown} with an unknown outcome`) : ''].filter(Boolean).join(', ');
    ctx.io.note(`${plan.settled.length} row${plan.settled.length === 1 ? ' was' : 's were'} sent by an earlier run and looked up, not sent again: ${parts}`);
  }
  const labels: Array<[string, string]> = [
    ['From', `${source.accountName} (${source.accountNumber})`],
    ['Environment', `${scope.env === 'production' ? c.red.bold('production') : scope.env} (profile ${scope.profile}${scope.baseUrl === 'local' ? '' : `, ${scope.baseUrl}`})`],
    ['To send', `${plan.toSend.length} transfer${plan.toSend.length === 1 ? '' : 's'}, total ${c.bold(formatNaira(plan.totalKobo))}`],
    ...(plan.toSend.length > 0 ? [['Charges', 'set by the API per transfer; shown in the totals after sending'] as [string, string]] : []),
    ['Available', `${formatNaira(plan.availableKobo)}${plan.totalKobo > plan.availableKobo ? c.red('  (less than the total)') : ''}`],
  ];
  const width = Math.max(...labels.map(([label]) => label.length));
  for (const [label, value] of labels) ctx.io.note(`  ${c.dim(label.padEnd(width))}  ${value}`);
}

/** The result of each row on stdout: a table, TSV when piped, the report's objects with --json. */
export function printBatchResults(ctx: Context, results: readonly RowResult[]): void {
  printList<RowResult>(
    ctx,
    [
      { header: 'LINE', cell: (r) => String(r.line), align: 'right' },
      { header: 'ACCOUNT', cell: (r) => r.accountNumber },
      { header: 'NAME', cell: (r) => r.verifiedName },
      { header: 'BANK', cell: (r) => r.bankName },
      { header: 'AMOUNT', cell: (r) => koboCell(r.amountKobo), align: 'right' },
      { header: 'REFERENCE', cell: (r) => r.reference },
      { header: 'STATUS', cell: (r) => statusCell(r.status) },
      { header: 'MESSAGE', cell: (r) => r.message },
    ],
    results,
    results.map(reportEntry),
  );
}

/** The closing line on stderr: counts, the money that moved, the charges the API reported. */
export function writeBatchTotals(ctx: Context, results: readonly RowResult[], reportPath: string | undefined): void {
  const c = colors(ctx, 'stderr');
  const t = tally(results);
  const accepted = results.filter((r) => r.status === 'accepted');
  const amount = sumKobo(accepted.map((r) => r.amountKobo));
  const charges = accepted.filter((r) => r.chargeKobo !== undefined);
  const chargeText = charges.length === 0 ? '' : ` + charges ${formatNaira(sumKobo(charges.map((r) => r.chargeKobo!)))}${charges.length < accepted.length ? ` (known for ${charges.length})` : ''}`;
  const parts = [
    c.green(`${t.accepted} accepted`) + ` (${formatNaira(amount)}${chargeText})`,
    t.refused ? c.red(`${t.refused} refused`) : '',
    t.unknown ? c.yellow(`${t.unknown} unknown`) : '',
    t.notSent ? c.yellow(`${t.notSent} not sent`) : '',
  ].filter(Boolean);
  ctx.io.note(`${parts.join(', ')} of ${t.total}${reportPath ? `; report: ${reportPath}` : ''}`);
}
