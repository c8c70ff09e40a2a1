import type { GlobalOptions, IO } from '../context.js';

export function createNodeIO(globals: GlobalOptions, env: Readonly<Record<string, string | undefined>>): IO {
  const forceColor = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const dumb = env.TERM === 'dumb';
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const allowed = (isTTY: boolean) => forceColor || (globals.color && isTTY && !dumb);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY,
    stderrIsTTY,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    colorStdout: allowed(stdoutIsTTY) && !globals.json,
    colorStderr: allowed(stderrIsTTY),
    columns: stdoutIsTTY ? process.stdout.columns : undefined,
    stderrColumns: stderrIsTTY ? process.stderr.columns : undefined,
    out: (text) => {
      process.stdout.write(text);
    },
    note: (line) => {
      process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
    },
  };
}
