// What a terminal shows, read back by tests: its lines (colours removed, a line rewritten with \r as its
// last text), their widths as the terminal counts columns, and a table's rows with wrapped cells joined.
import assert from 'node:assert/strict';
import { displayWidth } from '../../src/common/text-width.js';
import { stripAnsi } from './cli.js';

/** What the terminal shows, line by line: colours removed, and of a line rewritten with \r, its last text. */
export const shownLines = (output: string) =>
  stripAnsi(output)
    .split('\n')
    .map((line) => line.split('\r').at(-1)!);

/** The lines of `output` wider than `columns` on a terminal (src/common/text-width.ts: ₦ one, a wide character two). */
export const overWidth = (output: string, columns = 80) => shownLines(output).filter((line) => displayWidth(line) > columns);

/**
 * The rows of a table on a terminal, each cell's wrapped lines joined with spaces. Columns are told apart
 * by the gaps of two or more spaces that run down the whole table (src/ui/output.ts draws them so); a row
 * starts where column `key` (the first unless given) has text: a column that never wraps (a reference, a
 * line number). The table ends before a blank line or a line matching `end`.
 */
export function tableRows(screen: string, firstHeader: string, end: RegExp, key?: string): Array<Record<string, string>> {
  const lines = shownLines(screen);
  const at = lines.findIndex((line) => line.startsWith(firstHeader));
  assert.ok(at >= 0, screen);
  const after = lines.slice(at + 1);
  const table = [
    lines[at]!,
    ...after.slice(
      0,
      Math.max(
        0,
        after.findIndex((line) => end.test(line) || line.trim() === ''),
      ),
    ),
  ];
  const width = Math.max(...table.map((line) => line.length));
  const used = Array.from({ length: width }, (_, p) => table.some((line) => (line[p] ?? ' ') !== ' '));
  const spans: Array<[number, number]> = [];
  for (let p = 0; p < width; p += 1) {
    if (!used[p]) continue;
    const last = spans.at(-1);
    if (last && p - last[1] < 2) last[1] = p + 1;
    else spans.push([p, p + 1]);
  }
  const cells = (line: string) => spans.map(([from, to]) => line.slice(from, to).trim());
  const names = cells(table[0]!);
  const keyAt = key === undefined ? 0 : names.indexOf(key);
  assert.ok(keyAt >= 0, `no column ${key}: ${names.join(', ')}`);
  const rows: Array<Record<string, string>> = [];
  for (const line of table.slice(1)) {
    const parts = cells(line);
    if (parts[keyAt] !== '' || rows.length === 0) rows.push(Object.fromEntries(names.map((name, i) => [name, parts[i]!])));
    else names.forEach((name, i) => (rows.at(-1)![name] = `${rows.at(-1)![name]} ${parts[i]}`.trim()));
  }
  return rows;
}
