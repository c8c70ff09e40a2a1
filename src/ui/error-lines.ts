// The contract's `error: …` and `hint: …` lines (and `held: …`), as src/main.ts and commander's usage
// errors (src/program.ts) write them, and the `warning: …`, `note: …` and `line N: …` (a batch file's bad
// rows) lines commands write as notes. Piped or redirected, each stays one line exactly as it always was:
// scripts grep them and tests match whole lines. On a terminal a line longer than the terminal is wrapped
// here, at spaces, with the continuation indented under the text after the label, because the terminal
// itself would cut it wherever the edge falls, mid-word. A word longer than the room (a path, a URL) is
// never cut: it goes whole on its own line, so it can still be copied. Every other line of talk (a total,
// a summary of a re-run) wraps at spaces as well, its continuation indented two columns, so no line fsapi
// writes on a terminal is cut mid-word by the edge. Widths are the terminal's columns (src/common/text-width.ts):
// a wide character counts two, a colour none.
// Small, with no dependency but src/common/text-width.ts: src/main.ts loads it on every error.
import { displayWidth } from '../common/text-width.js';

/**
 * Whether stderr shows colour, for the lines written before a command's context exists (errors, commander's
 * usage errors): FORCE_COLOR, then NO_COLOR or --no-color, then a terminal (src/ui/io.ts decides the same).
 */
export function stderrColour(
  env: Readonly<Record<string, string | undefined>> = process.env,
  argv: readonly string[] = process.argv,
  isTTY = Boolean(process.stderr.isTTY),
): boolean {
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined || argv.includes('--no-color')) return false;
  return isTTY;
}

/** The red of an `error:` label, when `colour`. */
export const errorRed = (colour: boolean) => (text: string) => (colour ? `\u001b[31m${text}\u001b[39m` : text);

/** Below this much room after the label, wrapping would make a column of single words: left to the terminal. */
const NARROWEST_ROOM = 16;

/**
 * `label text` as the lines to write, each ending in a newline. `width` is the terminal's width, or
 * undefined when the stream is not a terminal (then always one line). `paint` colours the label only.
 */
export function labelledLines(label: string, text: string, width: number | undefined, paint: (label: string) => string = (s) => s): string {
  const indent = length(label) + 1;
  const room = (width ?? 0) - indent;
  if (width === undefined || room < NARROWEST_ROOM || indent + length(text) <= width) return `${paint(label)} ${text}\n`;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (word === '') continue;
    if (line === '') line = word;
    else if (length(line) + 1 + length(word) <= room) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return `${lines.map((part, i) => `${i === 0 ? paint(label) : ' '.repeat(indent - 1)} ${part}`).join('\n')}\n`;
}

/**
 * Talk for stderr (src/ui/io.ts note) as the lines to write on a terminal of `width` columns: a line with
 * a label of this voice, `warning:`, `note:` or a bad row's `line N:` (the label perhaps coloured), wraps
 * as `labelledLines` does; any other line longer than the terminal wraps at spaces too, its continuation
 * two columns in from where the line starts. Each line of a text that holds line breaks is taken alone.
 * Piped (`width` undefined), everything stays as it was written.
 */
export function labelledNote(text: string, width: number | undefined): string {
  if (width === undefined) return `${text}\n`;
  return text
    .split('\n')
    .map((line) => terminalLine(line, width))
    .join('');
}

/** One line as `labelledNote` writes it on a terminal of `width` columns, ending in a newline. */
export function terminalLine(line: string, width: number | undefined): string {
  if (width === undefined || length(line) <= width) return `${line}\n`;
  const match = LABELLED.exec(line);
  if (match) {
    const [, before = '', label = '', after = '', text = ''] = match;
    return labelledLines(`${label}:`, text, width, (plain) => `${before}${plain}${after}`);
  }
  const indent = /^ */.exec(line)![0];
  const hanging = `${indent}  `;
  if (width - hanging.length < NARROWEST_ROOM) return `${line}\n`;
  const lines: string[] = [];
  let current = indent;
  let empty = true;
  // Split on single spaces, so runs of spaces inside the line (aligned columns) are kept where it does not break.
  for (const word of line.slice(indent.length).split(' ')) {
    if (empty) {
      if (word === '') continue;
      current += word;
      empty = false;
    } else if (length(current) + 1 + length(word) <= width) current += ` ${word}`;
    else if (word === '') continue;
    else {
      lines.push(current.trimEnd());
      current = hanging + word;
    }
  }
  if (!empty) lines.push(current.trimEnd());
  return `${lines.join('\n')}\n`;
}

const LABELLED = /^((?:\u001b\[[0-9;]*m)*)(error|hint|held|warning|note|line \d+):((?:\u001b\[[0-9;]*m)*) (.*)$/;
const length = displayWidth;

/** Whether the run asked for `--json` (before any `--`): then errors and talk on stderr are JSON lines. */
export function jsonRequested(argv: readonly string[] = process.argv): boolean {
  for (const arg of argv.slice(2)) {
    if (arg === '--') return false;
    if (arg === '--json') return true;
  }
  return false;
}

/**
 * The `--json` error object (docs/scripting.md), one line: `code` a stable machine word, `hint` null when
 * there is none, `exitCode` the process's exit status. Plain text: JSON escapes control characters, so
 * a message quoting the API cannot drive a terminal.
 */
export function errorObjectLine(code: string, message: string, hint: string | undefined, exitCode: number): string {
  return `${JSON.stringify({ error: { code, message, hint: hint ?? null, exitCode } })}\n`;
}
