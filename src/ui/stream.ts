// Writes a paged listing (`--all`) to stdout as the pages arrive, the terminal-facing half of
// src/api/paging.ts:
//   - backpressure: after each page, if stdout's buffer is over its high-water mark, wait for 'drain'
//     before asking for more, so a slow reader (a pipe into a slow program, a full disk) holds the
//     paging back instead of the rows piling up in memory;
//   - a closed reader (`fsapi tx list --all | head`) ends the listing quietly: no more requests;
//   - a progress line on stderr when stderr is a terminal, overwritten in place and cleared at the end.
// ctx.io.out() does not report backpressure, so the drain check reads ctx.io.stdout, the stream it writes to.
import type { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { FsapiError } from '../errors.js';

export interface StreamedPage<Row> {
  page: number;
  rows: readonly Row[];
  /** Rows the API sent on this page before any filtering: what the progress line counts. */
  received: number;
}

export interface RowSink<Row> {
  write(rows: readonly Row[]): void;
  end(): unknown;
}

export interface StreamSummary {
  pages: number;
  received: number;
  written: number;
  /** The reader went away (EPIPE) before the end. */
  readerClosed: boolean;
}

const CLEAR_LINE = '\r\u001b[2K';

export async function streamPages<Row>(
  ctx: Context,
  pages: AsyncIterable<StreamedPage<Row>>,
  sink: RowSink<Row>,
  options: { noun: string; progress: boolean },
): Promise<StreamSummary> {
  const stdout = ctx.io.stdout as NodeJS.WritableStream & Partial<Pick<Writable, 'writableNeedDrain'>>;
  const showProgress = options.progress && ctx.io.stderrIsTTY;
  const summary: StreamSummary = { pages: 0, received: 0, written: 0, readerClosed: false };
  let failure: Error | undefined;
  let wake: (() => void) | undefined;

  // Left attached after the listing too: an EPIPE reported late must not crash the process.
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') summary.readerClosed = true;
    else failure ??= error;
    wake?.();
  });

  const waitForDrain = async () => {
    if (!stdout.writableNeedDrain || summary.readerClosed || failure) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stdout.off('drain', done);
        stdout.off('close', done);
        wake = undefined;
        resolve();
      };
      wake = done;
      stdout.once('drain', done);
      stdout.once('close', done);
    });
  };

  let progressShown = false;
  const clearProgress = () => {
    if (progressShown) ctx.io.stderr.write(CLEAR_LINE);
    progressShown = false;
  };

  try {
    for await (const page of pages) {
      summary.pages += 1;
      summary.received += page.received;
      clearProgress();
      if (page.rows.length > 0) sink.write(page.rows);
      summary.written += page.rows.length;
      if (showProgress) {
        const shown = summary.written === summary.received ? '' : `, ${summary.written.toLocaleString('en-US')} shown`;
        ctx.io.stderr.write(`fetched ${summary.received.toLocaleString('en-US')} ${options.noun} (page ${page.page})${shown}`);
        progressShown = true;
      }
      await waitForDrain();
      if (failure) throw new FsapiError(`cannot write to stdout: ${failure.message}`, { exitCode: 1, cause: failure });
      if (summary.readerClosed) break; // leaving the loop stops the paging: no further request is sent
    }
  } finally {
    clearProgress();
  }
  if (!summary.readerClosed) sink.end();
  return summary;
}
