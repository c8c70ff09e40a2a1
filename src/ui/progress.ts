// A progress bar on stderr, for work a person watches row by row (a batch's name enquiries and
// transfers). Only on a terminal: piped stderr gets the notes and no bar, never carriage returns.
//
//   sending   [███████████░░░░░░░░░░░░░] 120/200  successful 118  refused 2  12s
//
// Lines written through note() appear above the bar, which is redrawn under them. Redraws are at most
// every 100 ms (plus a tick each second for the clock), so a fast run does not flood the terminal.
import type { Context } from '../context.js';
import { colors } from './output.js';

export interface Progress {
  /** One more item done; `outcome` is counted and shown next to the bar (e.g. successful, refused). */
  tick(outcome?: string): void;
  /** A line of talk above the bar (on a terminal), or just the line (piped). */
  note(line: string): void;
  /** Removes the bar; leaves `finalLine` if given. */
  stop(finalLine?: string): void;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

export function startProgress(ctx: Context, label: string, total: number): Progress {
  if (!ctx.io.stderrIsTTY || total === 0) {
    return {
      tick: () => undefined,
      note: (line) => ctx.io.note(line),
      stop: (finalLine) => {
        if (finalLine) ctx.io.note(finalLine);
      },
    };
  }
  const c = colors(ctx, 'stderr');
  const started = ctx.clock.now();
  const counts = new Map<string, number>();
  let done = 0;
  let drawn = false;
  let lastDraw = 0;
  let stopped = false;
  const write = (text: string) => ctx.io.stderr.write(text);
  const clear = () => {
    if (drawn) write('\r\u001b[2K');
    drawn = false;
  };
  const styleOf: Record<string, (text: string) => string> = {
    successful: c.green,
    pending: c.yellow,
    verified: c.green,
    refused: c.red,
    failed: c.red,
    reversed: c.red,
    unknown: c.yellow,
    'in flight': c.yellow,
  };
  const draw = () => {
    if (stopped) return;
    lastDraw = ctx.clock.now();
    const filled = Math.round((done / total) * BAR_WIDTH);
    const bar = `${c.cyan('█'.repeat(filled))}${c.dim('░'.repeat(BAR_WIDTH - filled))}`;
    const tallies = [...counts].map(([outcome, count]) => (styleOf[outcome] ?? ((text: string) => text))(`${outcome} ${count}`)).join('  ');
    const seconds = Math.floor((lastDraw - started) / 1000);
    write(`\r\u001b[2K${label.padEnd(9)} [${bar}] ${done}/${total}${tallies ? `  ${tallies}` : ''}  ${c.dim(`${seconds}s`)}`);
    drawn = true;
  };
  const clock = setInterval(draw, 1000);
  clock.unref();
  draw();
  return {
    tick(outcome) {
      done += 1;
      if (outcome) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      if (done === total || ctx.clock.now() - lastDraw >= REDRAW_MS) draw();
    },
    note(line) {
      clear();
      ctx.io.note(line);
      draw();
    },
    stop(finalLine) {
      if (stopped) return;
      stopped = true;
      clearInterval(clock);
      clear();
      if (finalLine) ctx.io.note(finalLine);
    },
  };
}

// ---- pages fetched -------------------------------------------------------------------------------

// The progress line of src/ui/stream.ts for a listing whose rows are consumed by core logic instead of
// written to stdout (reconcile): passes the pages on unchanged and, on a terminal, says on stderr how
// many rows have been fetched, overwritten in place and cleared at the end.
const CLEAR_LINE = '\r\u001b[2K';

export async function* withProgress<Page extends { page: number; received: number }>(
  ctx: Context,
  pages: AsyncIterable<Page>,
  noun: string,
): AsyncGenerator<Page, void, undefined> {
  if (!ctx.io.stderrIsTTY) return yield* pages;
  let received = 0;
  let shown = false;
  try {
    for await (const page of pages) {
      received += page.received;
      ctx.io.stderr.write(`${CLEAR_LINE}fetched ${received.toLocaleString('en-US')} ${noun} (page ${page.page})`);
      shown = true;
      yield page;
    }
  } finally {
    if (shown) ctx.io.stderr.write(CLEAR_LINE);
  }
}
