// The progress line of src/ui/stream.ts for a listing whose rows are consumed by core logic instead of
// written to stdout (reconcile): passes the pages on unchanged and, on a terminal, says on stderr how
// many rows have been fetched, overwritten in place and cleared at the end.
import type { Context } from '../context.js';

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
