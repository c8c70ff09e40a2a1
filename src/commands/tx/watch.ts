// fsapi tx watch: prints each new transaction once, as it appears, until Ctrl-C (src/books/watch.ts).
// A terminal gets one readable line per transaction; piped, tab-separated lines under one header; with
// --json one JSON object per line (NDJSON), the API's record as it came. Talk goes to stderr. A terminal's
// lines start with the time on the business's clock and its zone (`2026-11-22 21:23 WAT`): each line of a
// stream that runs for hours says its zone, and the counterparty, cut to the width, makes the room.
import { terminalText, tsvField } from '../../common/sanitize.js';
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { watchSpec } from './watch.spec.js';
import type { TransactionRecord } from '../../api/schemas.js';
import { parseDateOption } from '../../books/dates.js';
import { directionOf, type Direction } from '../../books/ledger.js';
import { counterpartyLabel, toExportRow } from '../../books/transactions.js';
import { watchTransactions } from '../../books/watch.js';
import { colors, moneyCell, outputMode, statusCell, timeCell } from '../../ui/output.js';
import { businessClock, shownTimeZone } from '../../controls/business-clock.js';
import { onStopSignal } from '../stop-signal.js';

/** It runs until stopped: see CommandModule.longRunning. */
export const longRunning = true;

export default run(watchSpec, async (ctx, opts, _args) => {
  const intervalSeconds = opts.interval;
  const maxCount = opts.count;
  // --since is a day (or a time) of the business's clock, as in every other command.
  const sinceMs = opts.since === undefined ? undefined : parseDateOption(opts.since, '--since', ctx.clock.now(), await businessClock(ctx)).startMs;
  const type: Direction | undefined = opts.type;

  const stop = new AbortController();
  const stopOnSignal = onStopSignal(() => stop.abort());
  const print = createPrinter(ctx, await shownTimeZone(ctx));
  const c = colors(ctx, 'stderr');
  if (ctx.io.stderrIsTTY) ctx.io.note(c.dim(`watching for new ${type ?? 'transaction'}s every ${intervalSeconds} s; press Ctrl+C to stop`));
  try {
    const summary = await watchTransactions(ctx, {
      intervalMs: intervalSeconds * 1000,
      type,
      sinceMs,
      maxCount,
      signal: stop.signal,
      show: (tx) => print(tx),
      // A pending row that settled (or failed, or was reversed) is shown again with its new status.
      showUpdate: (tx, was) => print(tx, was),
      onRetry: (message, delayMs) => ctx.io.note(`${c.yellow('warning:')} polling failed: ${message}; trying again in ${Math.round(delayMs / 1000)} s`),
      onRecovered: () => ctx.io.note('polling works again'),
      onGap: (message) => ctx.io.note(`${c.yellow('warning:')} ${message}`),
    });
    if (summary.reason === 'stopped' && ctx.io.stderrIsTTY) ctx.io.note(`stopped; ${summary.shown} transaction${summary.shown === 1 ? '' : 's'} shown`);
  } finally {
    stopOnSignal();
  }
});

/**
 * One line per transaction in the output mode of the run, times on the business's clock `timeZone`; `was`
 * (the status it was shown with before) marks a line that updates a pending row.
 */
function createPrinter(ctx: Context, timeZone: string): (tx: TransactionRecord, was?: string) => void {
  const mode = outputMode(ctx);
  if (mode === 'json') return (tx) => ctx.io.out(`${JSON.stringify(tx)}\n`);
  if (mode === 'tsv') {
    let headerWritten = false;
    return (tx) => {
      const row = toExportRow(tx);
      if (!headerWritten) ctx.io.out(`${Object.keys(row).join('\t')}\n`);
      headerWritten = true;
      ctx.io.out(`${Object.values(row).map(tsvField).join('\t')}\n`);
    };
  }
  const c = colors(ctx);
  return (tx, was) => {
    const credit = directionOf(tx) === 'credit';
    const amount = moneyCell(tx.amount).text.padStart(16);
    const status = statusCell(tx.status);
    const statusText = terminalText(status.text).padEnd(10);
    const reference = terminalText(tx.reference);
    // Direction, amount and status first: a narrow terminal cuts the counterparty, never the answer.
    const fixed = [timeCell(tx.createdAt, timeZone, { zone: true }).text, credit ? 'IN ' : 'OUT', amount, statusText, reference];
    const room = Math.max(0, (ctx.io.columns ?? 80) - fixed.reduce((sum, part) => sum + [...part].length + 2, 0));
    const partyText = was === undefined ? `${credit ? 'from' : 'to'} ${counterpartyLabel(tx)}` : `(was ${was})`;
    const party = terminalText(partyText);
    const cut = [...party].length <= room ? party : room > 1 ? `${[...party].slice(0, room - 1).join('')}…` : '';
    const line = [
      fixed[0],
      credit ? c.green('IN ') : c.red('OUT'),
      credit ? c.green(amount) : amount,
      status.style ? status.style(statusText, c) : statusText,
      c.dim(reference),
      cut,
    ]
      .join('  ')
      .trimEnd();
    ctx.io.out(`${line}\n`);
  };
}
