// The contract's `error: …` and `hint: …` lines (and `held: …`), as src/main.ts and commander's usage
// errors (src/program.ts) write them. Piped or redirected, each stays one line exactly as it always was:
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

/** Columns a text takes: one a code point (the messages hold no wide characters, and colours are added after). */
const length = (text: string): number => [...text].length;
