import type { GlobalOptions, IO } from '../context.js';
import { labelledNote } from './error-lines.js';
import { stderrNote } from '../common/sanitize.js';

/** The three streams a run talks through, and what they are. */
export interface Terminal {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** Widths of stdout and stderr when each is a terminal (80 when a terminal does not say). */
  readonly stdoutColumns: number | undefined;
  readonly stderrColumns: number | undefined;
}

/** The process's own streams. */
function processTerminal(): Terminal {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin is made on first use: creating it loads Node's file streams, a few ms that only the
    // commands reading stdin or prompting should pay. Whether it is a terminal is asked of fd 0 directly.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    // Asked only by prompts: node:tty is not loaded otherwise when stdout and stderr are not terminals.
    get stdinIsTTY() {
      return process.getBuiltinModule('node:tty').isatty(0);
    },
    get stdoutColumns() {
      return process.stdout.isTTY ? process.stdout.columns || 80 : undefined;
    },
    get stderrColumns() {
      return process.stderr.isTTY ? process.stderr.columns || 80 : undefined;
    },
  };
}

export function createNodeIO(globals: GlobalOptions, env: Readonly<Record<string, string | undefined>>, terminal: Terminal = processTerminal()): IO {
  const forceColor = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const dumb = env.TERM === 'dumb';
  const { stdoutIsTTY, stderrIsTTY } = terminal;
  const allowed = (isTTY: boolean) => forceColor || (globals.color && isTTY && !dumb);
  const stderrColumns = terminal.stderrColumns;
  return {
    stdout: terminal.stdout,
    stderr: terminal.stderr,
    get stdin() {
      return terminal.stdin;
    },
    stdoutIsTTY,
    stderrIsTTY,
    get stdinIsTTY() {
      return terminal.stdinIsTTY;
    },
    colorStdout: allowed(stdoutIsTTY) && !globals.json,
    colorStderr: allowed(stderrIsTTY),
    columns: terminal.stdoutColumns,
    stderrColumns,
    out: (text) => {
      terminal.stdout.write(text);
    },
    note: (raw) => {
      // Notes often quote the API (a refusal, a status): the terminal shows them, never obeys them.
      const line = stderrNote(raw);
      // A long `warning: …` on a terminal wraps at spaces under its text, as errors do; piped, one line.
      terminal.stderr.write(labelledNote(line.endsWith('\n') ? line.slice(0, -1) : line, stderrColumns));
    },
  };
}
