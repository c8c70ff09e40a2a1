// A spinner on stderr for waits the user watches (`--wait`, reconciliation). Only on a terminal: piped
// stderr gets one plain line when the wait starts and one when it ends, never animation frames. ora is
// loaded only when a spinner is actually shown.
import type { Context } from '../context.js';

export interface Spinner {
  /** Replaces the text next to the spinner (no output when not on a terminal). */
  update(text: string): void;
  /** Stops and leaves `finalText` as a plain stderr line, if given. */
  stop(finalText?: string): void;
}

export async function startSpinner(ctx: Context, text: string): Promise<Spinner> {
  if (!ctx.io.stderrIsTTY) {
    ctx.io.note(text);
    return {
      update: () => undefined,
      stop: (finalText) => {
        if (finalText) ctx.io.note(finalText);
      },
    };
  }
  const { default: ora } = await import('ora');
  const spinner = ora({
    text,
    stream: ctx.io.stderr,
    isEnabled: true,
    color: 'cyan',
    // ora's default swallows keys typed on stdin while spinning; stdin is not ours to touch here.
    discardStdin: false,
  }).start();
  return {
    update: (next) => {
      spinner.text = next;
    },
    stop: (finalText) => {
      spinner.stop();
      if (finalText) ctx.io.note(finalText);
    },
  };
}
