// fsapi statement: the balance at the start and end of a period, money in and out, charges and stamp
// duty, and one row a day with the balance at its end. The balance now (GET /v1/account) and the
// transaction list (GET /v1/transactions), streamed page by page into a running tally
// (src/books/statement.ts); then a summary and a per-day bar chart on a terminal, TSV when piped, CSV with
// --csv (one row per transaction with --transactions), one object with --json, or a PDF with --pdf: for
// the transaction rows the list is read a second time, oldest first, and written as it arrives.
import type { Context } from '../context.js';
import { run } from './run.js';
import { statementSpec } from './top/statement.spec.js';
import { UsageError } from '../errors.js';
import { parsePeriod, type Period } from '../books/ledger.js';
import { parseDateOption } from '../books/dates.js';
import { controlScope } from '../controls/payees.js';
import { businessTimeZone } from '../transfers/limits.js';
import { documentEnvironment, type DocumentEnvironment } from '../common/document-origin.js';
import { zoneAbbreviation } from '../common/time-zone.js';
import { addKobo, formatNaira, type Kobo } from '../money/kobo.js';
import {
  STATEMENT_CSV_COLUMNS,
  STATEMENT_LINE_CSV_COLUMNS,
  STATEMENT_LINE_IDENTIFIERS,
  gatherStatement,
  netKobo,
  statementCsvRow,
  statementJson,
  statementLineCsvRow,
  statementLines,
  type GatheredStatement,
  type Statement,
} from '../books/statement.js';
import { parsePdfPath } from '../documents/output-file.js';
import { bar } from '../ui/bars.js';
import { printCsv, recordColumns } from '../ui/csv.js';
import { colors, koboCell, outputMode, printJson, printList } from '../ui/output.js';
import { withProgress } from '../ui/progress.js';
import { csvRecord } from '../common/sanitize.js';

/** A long period is many pages: see CommandModule.longRunning. */
export const longRunning = true;

export default run(statementSpec, async (ctx, opts, _args) => {
  const csv = opts.csv;
  const transactions = opts.transactions;
  const pdf = opts.pdf === undefined ? undefined : parsePdfPath(opts.pdf);
  if (csv && ctx.globals.json) throw new UsageError('--csv and --json cannot be used together', 'choose one output format');
  if (pdf !== undefined && (csv || ctx.globals.json))
    throw new UsageError('--pdf writes a file; it cannot be used with --csv or --json', 'run the statement twice');
  if (transactions && !csv) throw new UsageError('--transactions lists rows in the CSV: use it with --csv', 'or --pdf, which always lists every transaction');
  // A date that cannot be read is refused before the profile and its store are looked at.
  for (const [value, option] of [
    [opts.since, '--since'],
    [opts.until, '--until'],
  ] as const)
    if (value !== undefined) parseDateOption(value, option, ctx.clock.now(), 'UTC');
  // The business's clock and where the figures come from: both said by every form of the statement.
  const scope = await controlScope(ctx);
  const timeZone = await businessTimeZone(ctx, scope);
  const environment = documentEnvironment(scope.env);
  const period = parsePeriod(opts.since, opts.until, ctx.clock.now(), timeZone);

  const readAtMs = ctx.clock.now();
  const gathered = await gatherStatement(ctx, period, timeZone, (pages) => withProgress(ctx, pages, 'transactions'));
  const result = gathered.statement;

  if (pdf !== undefined) {
    await writePdf(ctx, gathered, period, pdf, readAtMs, environment);
  } else if (csv && transactions) {
    await printLinesCsv(ctx, gathered, period);
  } else if (csv) {
    await printCsv(ctx, recordColumns(STATEMENT_CSV_COLUMNS), result.days.map(statementCsvRow));
  } else if (outputMode(ctx) === 'json') {
    printJson(ctx, statementJson(result, environment));
  } else if (outputMode(ctx) === 'tsv') {
    printList(ctx, recordColumns(STATEMENT_CSV_COLUMNS), result.days.map(statementCsvRow));
  } else {
    ctx.io.out(renderStatement(ctx, gathered));
  }
  if (result.skipped.failed > 0)
    ctx.io.note(`${result.skipped.failed} failed or reversed transfer(s) and reversal credit(s) in the period moved no money in the end and are not counted`);
  if (result.skipped.otherType > 0) ctx.io.note(`${result.skipped.otherType} transaction(s) neither credit nor debit are not counted`);
});

/** The PDF: pdfkit and the font are loaded only here, so no other command pays for them. */
async function writePdf(
  ctx: Context,
  gathered: GatheredStatement,
  period: Period,
  path: string,
  readAtMs: number,
  environment: DocumentEnvironment,
): Promise<void> {
  const { writeStatementPdf } = await import('../documents/statement-pdf.js');
  const written = await writeStatementPdf(path, {
    statement: gathered.statement,
    account: gathered.account,
    environment,
    readAtMs,
    lines: writingProgress(ctx, statementLines(ctx, gathered, period), gathered.rows),
  });
  ctx.io.note(`wrote ${path}: ${written.transactions.toLocaleString('en-US')} transaction(s) on ${written.pages} page(s)`);
}

/** At a terminal, how far the PDF has got (a million rows take minutes); cleared at the end. */
async function* writingProgress<T extends unknown[]>(ctx: Context, batches: AsyncIterable<T>, total: number): AsyncGenerator<T, void, undefined> {
  if (!ctx.io.stderrIsTTY) return yield* batches;
  let written = 0;
  try {
    for await (const batch of batches) {
      yield batch;
      written += batch.length;
      ctx.io.stderr.write(`\r\u001b[2Kwriting the PDF: ${written.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} transactions`);
    }
  } finally {
    if (written > 0) ctx.io.stderr.write('\r\u001b[2K');
  }
}

/** `--csv --transactions`: every transaction, oldest first, a page of the API at a time. */
async function printLinesCsv(ctx: Context, gathered: GatheredStatement, period: Period): Promise<void> {
  const { stringify } = await import('csv-stringify/sync');
  ctx.io.out(stringify([[...STATEMENT_LINE_CSV_COLUMNS]]));
  for await (const lines of statementLines(ctx, gathered, period)) {
    const records = lines.map((line) => {
      // Every cell made inert for a spreadsheet, the account number kept as text (a leading zero stays).
      const safe = csvRecord(statementLineCsvRow(line, gathered.statement.timeZone), STATEMENT_LINE_IDENTIFIERS);
      return STATEMENT_LINE_CSV_COLUMNS.map((column) => safe[column]);
    });
    ctx.io.out(stringify(records));
  }
}

/** The widest a bar gets; on a narrow terminal the bars shrink first, and go when under MIN_BAR_WIDTH. */
const MAX_BAR_WIDTH = 20;
const MIN_BAR_WIDTH = 4;

/** The terminal view: balances and totals, then one line a day with bars of what came in and went out. */
function renderStatement(ctx: Context, gathered: GatheredStatement): string {
  const s: Statement = gathered.statement;
  const c = colors(ctx);
  const money = (kobo: Kobo) => koboCell(kobo).text;
  const summary: Array<[string, string, string]> = [
    ['Opening balance', '', money(s.openingKobo)],
    ['Credits', String(s.credits.count), money(s.credits.totalKobo)],
    ['Debits', String(s.debits.count), money(s.debits.totalKobo)],
    ['Charges', '', money(s.chargesKobo)],
    ['Stamp duty', '', money(s.stampDutyKobo)],
    ['Net', '', money(netKobo(s))],
    ['Closing balance', '', money(s.closingKobo)],
  ];
  const labelWidth = Math.max(...summary.map(([label]) => label.length));
  const countWidth = Math.max(5, ...summary.map(([, count]) => count.length));
  const totalWidth = Math.max(...summary.map(([, , total]) => total.length));
  const lines = [
    c.bold(`Statement ${s.since} to ${s.until}`) + c.dim(` (days in ${zoneAbbreviation(ctx.clock.now(), s.timeZone)}, ${s.timeZone})`),
    `${gathered.account.name} ${c.dim(gathered.account.number)}`,
    '',
    `${''.padEnd(labelWidth)}  ${c.dim('COUNT'.padStart(countWidth))}  ${c.dim('TOTAL'.padStart(totalWidth))}`,
    ...summary.map(([label, count, total]) => {
      const strong = label === 'Net' || label.endsWith('balance');
      return `${label.padEnd(labelWidth)}  ${count.padStart(countWidth)}  ${strong ? c.bold(total.padStart(totalWidth)) : total.padStart(totalWidth)}`;
    }),
    '',
  ];
  // Charges here are charge and stamp duty together, so each line reads IN - OUT - CHARGES = NET.
  const dayCharges = (day: Statement['days'][number]) => addKobo(day.chargesKobo, day.stampDutyKobo);
  const maxDay = Math.max(0, ...s.days.flatMap((day) => [day.credits.totalKobo, day.debits.totalKobo]));
  const width = (header: string, values: Kobo[]) => Math.max(header.length, ...values.map((kobo) => formatNaira(kobo).length));
  const inWidth = width(
    'IN',
    s.days.map((day) => day.credits.totalKobo),
  );
  const outWidth = width(
    'OUT',
    s.days.map((day) => day.debits.totalKobo),
  );
  const chargesWidth = width('CHARGES', s.days.map(dayCharges));
  const netWidth = width(
    'NET',
    s.days.map((day) => netKobo(day)),
  );
  const balanceWidth = width(
    'BALANCE',
    s.days.map((day) => day.balanceKobo),
  );
  // The day lines fit the terminal: the figures keep their width (one space apart when two do not fit),
  // the two bars share what is left.
  const columns = ctx.io.columns ?? 80;
  const figures = 10 + inWidth + outWidth + chargesWidth + netWidth + balanceWidth;
  const gap = figures + 5 * 2 <= columns ? '  ' : ' ';
  const spare = Math.floor((columns - figures - 5 * gap.length - 2 * 2) / 2);
  const barWidth = Math.min(MAX_BAR_WIDTH, spare);
  const withBars = barWidth >= MIN_BAR_WIDTH;
  const barColumn = (text: string) => (withBars ? `${text.padEnd(barWidth)}  ` : '');
  lines.push(
    c.dim(
      [
        `${'DATE'.padEnd(10)}`,
        `${'IN'.padStart(inWidth)}`,
        `${barColumn('')}${'OUT'.padStart(outWidth)}`,
        `${barColumn('')}${'CHARGES'.padStart(chargesWidth)}`,
        'NET'.padStart(netWidth),
        'BALANCE'.padStart(balanceWidth),
      ].join(gap),
    ),
  );
  for (const day of s.days) {
    const inBar = withBars ? c.green(barColumn(bar(day.credits.totalKobo, maxDay, barWidth))) : '';
    const outBar = withBars ? c.red(barColumn(bar(day.debits.totalKobo, maxDay, barWidth))) : '';
    lines.push(
      [
        day.date,
        formatNaira(day.credits.totalKobo).padStart(inWidth),
        `${inBar}${formatNaira(day.debits.totalKobo).padStart(outWidth)}`,
        `${outBar}${formatNaira(dayCharges(day)).padStart(chargesWidth)}`,
        formatNaira(netKobo(day)).padStart(netWidth),
        formatNaira(day.balanceKobo).padStart(balanceWidth),
      ].join(gap),
    );
  }
  return `${lines.join('\n')}\n`;
}
