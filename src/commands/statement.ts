// fsapi statement: counts and totals of credits, debits, charges and stamp duty over a period, and one row
// a day. The transaction list is streamed page by page into a running tally (src/core/statement.ts);
// then the statement is printed: a summary and a per-day bar chart on a terminal, TSV when piped, CSV
// with --csv, one object with --json.
import type { Context } from '../context.js';
import type { CommandInput } from './types.js';
import { UsageError } from '../errors.js';
import { parsePeriod, periodPages } from '../core/ledger.js';
import { formatNaira } from '../core/money.js';
import {
  STATEMENT_CSV_COLUMNS,
  createStatementTally,
  netKobo,
  statementCsvRow,
  statementJson,
  type Statement,
} from '../core/statement.js';
import { bar } from '../ui/bars.js';
import { printCsv, recordColumns } from '../ui/csv.js';
import { colors, koboCell, outputMode, printJson, printList } from '../ui/output.js';
import { withProgress } from '../ui/page-progress.js';

/** A long period is many pages: see CommandModule.longRunning. */
export const longRunning = true;

export default async function statement(ctx: Context, input: CommandInput): Promise<void> {
  const csv = input.options.csv === true;
  if (csv && ctx.globals.json) throw new UsageError('--csv and --json cannot be used together', 'choose one output format');
  const period = parsePeriod(input.options.since, input.options.until, ctx.clock.now());

  const tally = createStatementTally(period);
  for await (const page of withProgress(ctx, periodPages(ctx, period), 'transactions')) tally.add(page.rows);
  const result = tally.result();

  if (csv) {
    await printCsv(ctx, recordColumns(STATEMENT_CSV_COLUMNS), result.days.map(statementCsvRow));
  } else if (outputMode(ctx) === 'json') {
    printJson(ctx, statementJson(result));
  } else if (outputMode(ctx) === 'tsv') {
    printList(ctx, recordColumns(STATEMENT_CSV_COLUMNS), result.days.map(statementCsvRow));
  } else {
    ctx.io.out(renderStatement(ctx, result));
  }
  if (result.skipped.failed > 0) ctx.io.note(`${result.skipped.failed} failed or reversed transfer(s) and reversal credit(s) in the period moved no money in the end and are not counted`);
  if (result.skipped.otherType > 0) ctx.io.note(`${result.skipped.otherType} transaction(s) neither credit nor debit are not counted`);
}

/** The widest a bar gets; on a narrow terminal the bars shrink first, and go when under MIN_BAR_WIDTH. */
const MAX_BAR_WIDTH = 20;
const MIN_BAR_WIDTH = 4;

/** The terminal view: the period's totals, then one line a day with bars of what came in and went out. */
function renderStatement(ctx: Context, s: Statement): string {
  const c = colors(ctx);
  const money = (kobo: number) => koboCell(kobo).text;
  const summary: Array<[string, string, string]> = [
    ['Credits', String(s.credits.count), money(s.credits.totalKobo)],
    ['Debits', String(s.debits.count), money(s.debits.totalKobo)],
    ['Charges', '', money(s.chargesKobo)],
    ['Stamp duty', '', money(s.stampDutyKobo)],
    ['Net', '', money(netKobo(s))],
  ];
  const countWidth = Math.max(5, ...summary.map(([, count]) => count.length));
  const totalWidth = Math.max(...summary.map(([, , total]) => total.length));
  const lines = [
    c.bold(`Statement ${s.since} to ${s.until}`) + c.dim(' (local days)'),
    '',
    `${''.padEnd(10)}  ${c.dim('COUNT'.padStart(countWidth))}  ${c.dim('TOTAL'.padStart(totalWidth))}`,
    ...summary.map(([label, count, total]) => `${label.padEnd(10)}  ${count.padStart(countWidth)}  ${label === 'Net' ? c.bold(total.padStart(totalWidth)) : total.padStart(totalWidth)}`),
    '',
  ];
  const maxDay = Math.max(0, ...s.days.flatMap((day) => [day.credits.totalKobo, day.debits.totalKobo]));
  const inWidth = Math.max(2, ...s.days.map((day) => formatNaira(day.credits.totalKobo).length));
  const outWidth = Math.max(3, ...s.days.map((day) => formatNaira(day.debits.totalKobo).length));
  const netWidth = Math.max(3, ...s.days.map((day) => formatNaira(netKobo(day)).length));
  // The day lines fit the terminal: the figures keep their width, the two bars share what is left.
  const fixed = 10 + 2 + inWidth + 2 + outWidth + 2 + netWidth + 2 * 2;
  const spare = Math.floor(((ctx.io.columns ?? 80) - fixed) / 2);
  const barWidth = Math.min(MAX_BAR_WIDTH, spare);
  const withBars = barWidth >= MIN_BAR_WIDTH;
  const barColumn = (text: string) => (withBars ? `${text.padEnd(barWidth)}  ` : '');
  lines.push(c.dim(`${'DATE'.padEnd(10)}  ${'IN'.padStart(inWidth)}  ${barColumn('')}${'OUT'.padStart(outWidth)}  ${barColumn('')}${'NET'.padStart(netWidth)}`));
  for (const day of s.days) {
    const inBar = withBars ? c.green(barColumn(bar(day.credits.totalKobo, maxDay, barWidth))) : '';
    const outBar = withBars ? c.red(barColumn(bar(day.debits.totalKobo, maxDay, barWidth))) : '';
    lines.push(
      `${day.date}  ${formatNaira(day.credits.totalKobo).padStart(inWidth)}  ${inBar}` +
        `${formatNaira(day.debits.totalKobo).padStart(outWidth)}  ${outBar}${formatNaira(netKobo(day)).padStart(netWidth)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
