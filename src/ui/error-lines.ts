// The contract's `error: …` and `hint: …` lines (and `held: …`), as src/main.ts and commander's usage
// errors (src/program.ts) write them, and the `warning: …`, `note: …` and `line N: …` (a batch file's bad
// rows) lines commands write as notes. Piped or redirected, each stays one line exactly as it always was:
// scripts grep them and tests match whole lines. On a terminal a line longer than the terminal is wrapped
// here, at spaces, with the continuation indented under the text after the label, because the terminal
// itself would cut it wherever the edge falls, mid-word. A word longer than the room (a path, a URL) is
// never cut: it goes whole on its own line, so it can still be copied.
// Dependency-free and small: src/main.ts loads it on every error.

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
 * One line of talk for stderr (src/ui/io.ts note) with a label of this voice, `warning:`, `note:` or a bad
 * row's `line N:` too,
 * the label perhaps coloured: wrapped as `labelledLines` does on a terminal of `width` columns. Any other
 * line, or one that already holds line breaks, is left as it is.
 */
export function labelledNote(line: string, width: number | undefined): string {
  const match = width === undefined || line.includes('\n') ? null : LABELLED.exec(line);
  if (!match) return `${line}\n`;
  const [, before = '', label = '', after = '', text = ''] = match;
  return labelledLines(`${label}:`, text, width, (plain) => `${before}${plain}${after}`);
}

// eslint-disable-next-line no-control-regex
const LABELLED = /^((?:\u001b\[[0-9;]*m)*)(error|hint|held|warning|note|line \d+):((?:\u001b\[[0-9;]*m)*) (.*)$/;
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

/** Columns a text takes: one a code point, colours none (the messages hold no wide characters). */
const length = (text: string): number => [...text.replace(SGR, '')].length;

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
