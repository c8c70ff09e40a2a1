// What `transfer batch` shows: bad rows, failed name checks and possible duplicates (stderr), the summary
// a person confirms (stderr: a table on a terminal, tab-separated lines when piped), and the per-row
// result (stdout, through src/ui/output.ts so the output rules hold).
import Table from 'cli-table3';
import type { Context } from '../context.js';
import type { RowProblem } from '../batch/file.js';
import {
  rowResults,
  rowsSentAgain,
  rowsToSend,
  type BatchPlan,
  type FileDuplicate,
  type NameCheckFailure,
  type PossibleDuplicate,
  type RowResult,
} from '../batch/payouts.js';
import { reportEntry, tally, type OutcomeGroup, type Tally } from '../batch/report.js';
import { formatNaira } from '../money/kobo.js';
import { colors, createRowStream, koboCell, printList, renderStderrTable, statusCell, type Cell, type Column } from './output.js';
import { terminalText, tsvField } from '../common/sanitize.js';
import { ownerWords } from '../auth/records-owner.js';
import { bankShortName } from '../transfers/bank-aliases.js';

/** One column of a table on stderr: its header, how it aligns, whether it may be cut, wrapped or dropped. */
interface StderrColumn {
  header: string;
  align?: 'left' | 'right';
  priority?: number;
  flex?: boolean;
  wrap?: boolean;
  minWidth?: number;
}

/**
 * Lines of talk on stderr as a list fitted to the terminal (no rule between rows, so a 20-row batch keeps
 * its header on the screen), or tab-separated lines when piped.
 */
function writeStderrTable(ctx: Context, columns: StderrColumn[], rows: Array<Array<Cell>>): void {
  if (!ctx.io.stderrIsTTY) {
    ctx.io.note(columns.map((column) => column.header).join('\t'));
    for (const row of rows) ctx.io.note(row.map((cell) => tsvField(cell.plain)).join('\t'));
    return;
  }
  const tableColumns: Column<Array<Cell>>[] = columns.map((column, index) => ({
    ...column,
    cell: (row) => row[index]!,
  }));
  ctx.io.note(renderStderrTable(Table, ctx, tableColumns, rows));
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
    [
      { header: 'LINE', align: 'right' },
      { header: 'ACCOUNT' },
      { header: 'BANK', priority: 1, flex: true },
      { header: 'AMOUNT', align: 'right', priority: 2 },
      // The name and the problem are what the person acts on: wrapped within their cells, never cut.
      { header: 'VERIFIED NAME', flex: true, wrap: true, minWidth: 12 },
      { header: 'PROBLEM', flex: true, wrap: true, minWidth: 16 },
    ],
    failures.map(({ row, verifiedName, reason }) => [
      plain(String(row.line)),
      plain(row.accountNumber),
      plain(row.bank.institutionName),
      koboCell(row.amountKobo),
      plain(verifiedName ?? ''),
      // Sanitised here, styled when drawn: a style applied before the table's own sanitising would lose its
      // escape codes to U+FFFD and count as width (src/ui/output.ts, toCell).
      { text: terminalText(reason), plain: reason, style: (t, s) => s.red(t) },
    ]),
  );
}

/** Rows of the file that pay the same account, bank and amount as another row: one line per group. */
export function writeFileDuplicates(ctx: Context, duplicates: readonly FileDuplicate[]): void {
  const c = colors(ctx, 'stderr');
  const rows = duplicates.reduce((sum, group) => sum + group.lines.length, 0);
  ctx.io.note(c.bold(c.yellow(`${rows} rows of this file pay the same account, bank and amount as another of its rows:`)));
  writeStderrTable(
    ctx,
    [{ header: 'LINES', flex: true, wrap: true }, { header: 'ACCOUNT' }, { header: 'BANK', flex: true, wrap: true }, { header: 'AMOUNT', align: 'right' }],
    duplicates.map((group) => [plain(group.lines.join(', ')), plain(group.accountNumber), plain(group.bankName), koboCell(group.amountKobo)]),
  );
}

export function writePossibleDuplicates(ctx: Context, duplicates: readonly PossibleDuplicate[]): void {
  const c = colors(ctx, 'stderr');
  ctx.io.note(
    c.bold(
      `${duplicates.length} row${duplicates.length === 1 ? ' looks' : 's look'} already paid under another reference (same account, bank and amount in the last 24 hours):`,
    ),
  );
  writeStderrTable(
    ctx,
    [
      { header: 'LINE', align: 'right' },
      { header: 'ACCOUNT' },
      // The earlier reference is never cut (it is what the person looks up); the name and the outcome
      // with where it came from wrap within their cells.
      { header: 'NAME', flex: true, wrap: true },
      { header: 'AMOUNT', align: 'right' },
      { header: 'EARLIER REFERENCE' },
      { header: 'SENT', priority: 1 },
      { header: 'OUTCOME', flex: true, wrap: true, minWidth: 10 },
    ],
    duplicates.map(({ row, earlier }) => [
      plain(String(row.line)),
      plain(row.accountNumber),
      plain(row.accountName),
      koboCell(row.amountKobo),
      plain(earlier.reference),
      plain(earlier.sentAt),
      plain(`${earlier.outcome}${earlier.origin ? ` (${earlier.origin})` : ''}`),
    ]),
  );
}

/** Rows a summary lists: past this, a person cannot read them all before answering, and the rest is counted. */
export const SUMMARY_ROWS = 1000;

/**
 * The summary before the confirmation: the rows to send with their verified names (the first SUMMARY_ROWS
 * of a bigger file, then how many more), the totals and the balance, what earlier runs already did, and
 * where the money comes from.
 */
export function writeBatchSummary(ctx: Context, plan: BatchPlan): void {
  const c = colors(ctx, 'stderr');
  const { scope, source } = plan;
  if (scope.env === 'production') ctx.io.note(c.alarm(' PRODUCTION ') + c.red(' real money moves from this account'));
  const rowCount = plan.rowCount;
  ctx.io.note(c.bold(`Batch ${plan.file.name}: ${rowCount} row${rowCount === 1 ? '' : 's'}`));
  if (plan.toSendCount > 0) {
    writeStderrTable(
      ctx,
      [
        { header: 'LINE', align: 'right' },
        // What the person confirms is read whole: the name, the bank and the narration wrap within their
        // cells at words rather than end in `…` (two "Nov supplies …" rows must be told apart); the bank is
        // given the short name people know it by (FCMB, GTBank). Only the reference, derived by fsapi, may
        // drop out for width.
        { header: 'VERIFIED NAME', flex: true, wrap: true, minWidth: 12 },
        { header: 'ACCOUNT' },
        { header: 'BANK', flex: true, wrap: true },
        { header: 'AMOUNT', align: 'right' },
        { header: 'NARRATION', flex: true, wrap: true, minWidth: 12 },
        { header: 'REFERENCE', priority: 1 },
      ],
      [...take(rowsToSend(plan), SUMMARY_ROWS)].map((row) => [
        plain(String(row.line)),
        { text: terminalText(row.accountName), plain: row.accountName, style: (t, s) => s.bold(t) },
        plain(row.accountNumber),
        // Piped (TSV), the official name: a script reads it as the bank list gives it.
        { text: terminalText(bankShortName(row.bank)), plain: row.bank.institutionName },
        koboCell(row.amountKobo),
        plain(row.narration),
        plain(row.reference),
      ]),
    );
    if (plan.toSendCount > SUMMARY_ROWS) {
      ctx.io.note(c.dim(`… and ${plan.toSendCount - SUMMARY_ROWS} more rows; --dry-run --json lists them all`));
    }
    for (const row of take(rowsSentAgain(plan), SUMMARY_ROWS)) ctx.io.note(`${c.yellow(`line ${row.line}:`)} sent again with the same reference: ${row.again}`);
  }
  if (plan.settledCount > 0) {
    // Each one's outcome as the lookup found it now: a failed or reversed row is never called paid.
    const settled = tally(rowResults(plan, 'settled')).earlier;
    ctx.io.note(
      `${settled.count} row${settled.count === 1 ? ' was' : 's were'} sent by an earlier run and looked up, not sent again: ${outcomeCounts(ctx, settled)}`,
    );
  }
  const labels: Array<[string, string]> = [
    ['From', `${source.accountName} (${source.accountNumber})`],
    [
      'Environment',
      `${scope.env === 'production' ? c.bold(c.red('production')) : scope.env} (${ownerWords(scope)}${scope.baseUrl === 'local' ? '' : `, ${scope.baseUrl}`})`,
    ],
    [
      'To send',
      plan.toSendCount === 0
        ? 'nothing: no row is new'
        : `${plan.toSendCount} transfer${plan.toSendCount === 1 ? '' : 's'}, total ${c.bold(formatNaira(plan.totalKobo))}`,
    ],
    ...(plan.toSendCount > 0 ? [['Charges', 'set by the API per transfer; shown in the totals after sending'] as [string, string]] : []),
    ['Available', `${formatNaira(plan.availableKobo)}${plan.totalKobo > plan.availableKobo ? c.red('  (less than the total)') : ''}`],
  ];
  const width = Math.max(...labels.map(([label]) => label.length));
  for (const [label, value] of labels) ctx.io.note(`  ${c.dim(label.padEnd(width))}  ${value}`);
}

/** At most `count` items of `items`. */
function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  let taken = 0;
  for (const item of items) {
    yield item;
    taken += 1;
    if (taken >= count) return;
  }
}

/** Results a terminal table is fitted to all at once; a longer list streams with widths fixed by its first page. */
const LIST_AT_ONCE = 1000;

/**
 * The result of each row on stdout: a table, TSV when piped, the report's objects with --json. A long list
 * is written as it is read (src/ui/output.ts, createRowStream): every row, in file order, memory flat.
 */
export function printBatchResults(ctx: Context, results: Iterable<RowResult>, count: number): void {
  const columns: Column<RowResult>[] = [
    { header: 'LINE', cell: (r) => String(r.line), align: 'right' },
    { header: 'ACCOUNT', cell: (r) => r.accountNumber, priority: 2 },
    { header: 'NAME', cell: (r) => r.verifiedName, flex: true, minWidth: 12 },
    { header: 'BANK', cell: (r) => r.bankName, priority: 3, flex: true },
    { header: 'AMOUNT', cell: (r) => koboCell(r.amountKobo), align: 'right' },
    { header: 'REFERENCE', cell: (r) => r.reference, priority: 4 },
    // The outcome is the answer: never dropped for width (names, banks and references go first).
    { header: 'OUTCOME', cell: (r) => statusCell(r.status) },
    { header: 'SENT', cell: (r) => (r.status === 'not-sent' ? '' : r.earlier ? 'earlier run' : 'now'), priority: 1 },
    { header: 'MESSAGE', cell: (r) => r.message, priority: 5, flex: true },
  ];
  if (count <= LIST_AT_ONCE) {
    const rows = [...results];
    printList<RowResult>(ctx, columns, rows, rows.map(reportEntry));
    return;
  }
  const stream = createRowStream(ctx, columns, reportEntry);
  let page: RowResult[] = [];
  for (const result of results) {
    page.push(result);
    if (page.length === LIST_AT_ONCE) {
      stream.write(page);
      page = [];
    }
  }
  stream.write(page);
  stream.end();
}

const OUTCOME_ORDER: ReadonlyArray<RowResult['status']> = [
  'successful',
  'pending',
  'failed',
  'reversed',
  'refused',
  'unknown',
  'in flight',
  'not-sent',
  'held',
];

/** "2 successful, 1 failed": how many rows have each outcome, in a fixed order, coloured by meaning. */
function outcomeCounts(ctx: Context, group: OutcomeGroup): string {
  const c = colors(ctx, 'stderr');
  const paint: Partial<Record<RowResult['status'], (text: string) => string>> = {
    successful: c.green,
    pending: c.yellow,
    failed: c.red,
    reversed: c.red,
    refused: c.red,
    unknown: c.yellow,
    'in flight': c.yellow,
    'not-sent': c.yellow,
    held: c.yellow,
  };
  return OUTCOME_ORDER.map((status) => {
    const count = group.byStatus[status] ?? 0;
    if (count === 0) return '';
    const text = `${count} ${status === 'not-sent' ? 'not sent' : status === 'held' ? 'held for approval' : status}`;
    return (paint[status] ?? ((t: string) => t))(text);
  })
    .filter(Boolean)
    .join(', ');
}

/** Pending and successful rows: the money they moved (failed and reversed rows paid nobody) and the charges. */
function paidTotal(group: OutcomeGroup): string {
  if (group.paid === 0) return '';
  const chargeText =
    group.charged === 0 ? '' : ` + charges ${formatNaira(group.chargeKobo)}${group.charged < group.paid ? ` (known for ${group.charged})` : ''}`;
  return ` (${formatNaira(group.paidKobo)}${chargeText} paid or on its way)`;
}

/**
 * The closing lines on stderr: what this run sent and what earlier runs had sent, each by outcome, with
 * the money that moved; a failed or reversed row is never counted as paid.
 */
export function writeBatchTotals(ctx: Context, t: Tally, reportPath: string | undefined): void {
  if (t.now.count > 0) ctx.io.note(`sent now: ${outcomeCounts(ctx, t.now)}${paidTotal(t.now)}`);
  if (t.earlier.count > 0) ctx.io.note(`sent by earlier runs: ${outcomeCounts(ctx, t.earlier)}${paidTotal(t.earlier)}`);
  ctx.io.note(`${t.total} row${t.total === 1 ? '' : 's'}${reportPath ? `; report: ${reportPath}` : ''}`);
}
