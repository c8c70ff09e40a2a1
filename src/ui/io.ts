import type { GlobalOptions, IO } from '../context.js';
import { labelledNote } from './error-lines.js';
import { stderrNote } from '../common/sanitize.js';

export function createNodeIO(globals: GlobalOptions, env: Readonly<Record<string, string | undefined>>): IO {
  const forceColor = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const dumb = env.TERM === 'dumb';
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const allowed = (isTTY: boolean) => forceColor || (globals.color && isTTY && !dumb);
  const stderrColumns = stderrIsTTY ? process.stderr.columns : undefined;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin is made on first use: creating it loads Node's file streams, a few ms that only the
    // commands reading stdin or prompting should pay. Whether it is a terminal is asked of fd 0 directly.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY,
    stderrIsTTY,
    // Asked only by prompts: node:tty is not loaded otherwise when stdout and stderr are not terminals.
    get stdinIsTTY() {
      return process.getBuiltinModule('node:tty').isatty(0);
    },
    colorStdout: allowed(stdoutIsTTY) && !globals.json,
    colorStderr: allowed(stderrIsTTY),
    columns: stdoutIsTTY ? process.stdout.columns : undefined,
    stderrColumns,
    out: (text) => {
      process.stdout.write(text);
    },
    note: (raw) => {
      // Notes often quote the API (a refusal, a status): the terminal shows them, never obeys them.
      const line = stderrNote(raw);
      // A long `warning: …` on a terminal wraps at spaces under its text, as errors do; piped, one line.
      process.stderr.write(labelledNote(line.endsWith('\n') ? line.slice(0, -1) : line, stderrColumns));
    },
  };
}
