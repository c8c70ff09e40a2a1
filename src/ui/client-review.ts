// The review a person reads before `clients create` sends anything (stderr, like a transfer's summary).
import type { Context } from '../context.js';
import { colors } from './output.js';
import { terminalText } from '../common/sanitize.js';

export function writeClientReview(ctx: Context, title: string, rows: ReadonlyArray<readonly [string, string]>, environment: string): void {
  const c = colors(ctx, 'stderr');
  const all = [...rows, ['Environment', environment] as const];
  const width = Math.max(...all.map(([label]) => label.length));
  ctx.io.note(c.bold(title));
  // What the user typed is shown as text, never obeyed by the terminal.
  for (const [label, value] of all) ctx.io.note(`  ${label.padEnd(width)}  ${terminalText(value)}`);
}
