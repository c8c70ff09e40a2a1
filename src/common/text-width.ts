// How many columns of a terminal a text takes, and text wrapped at words within a width. A terminal gives
// most characters one column (the naira sign too), East Asian wide characters and emoji two, combining
// marks and other zero-width characters none, and colours (SGR sequences) none: counting code points
// instead would push a line with a Chinese or emoji name past the edge, where the terminal breaks it
// mid-word. Every width fsapi fits a screen to is measured here.
// Dependency-free and small: src/main.ts loads it (through src/ui/error-lines.ts) on every error.

const SGR = /\u001b\[[0-9;]*m/g;
/** Text every character of which takes one column and one UTF-16 unit: printable ASCII, Latin-1 and Latin Extended, ₦. */
const ONE_COLUMN_EACH = /^[\u0020-\u007e\u00a0-\u02ff\u20a6]*$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u;

/** East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F), as code point ranges. */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

let segmenter: Intl.Segmenter | undefined;
const graphemes = (text: string): string[] => [...(segmenter ??= new Intl.Segmenter()).segment(text)].map((part) => part.segment);

function clusterWidth(cluster: string): number {
  if (EMOJI.test(cluster)) return 2;
  const first = cluster.codePointAt(0)!;
  if (WIDE.some(([from, to]) => first >= from && first <= to)) return 2;
  return ZERO_WIDTH.test(cluster) ? 0 : 1;
}

/** The columns `text` takes on a terminal, its colours not counted. */
export function displayWidth(text: string): number {
  const plain = text.includes('\u001b') ? text.replace(SGR, '') : text;
  if (ONE_COLUMN_EACH.test(plain)) return plain.length;
  let width = 0;
  for (const cluster of graphemes(plain)) width += clusterWidth(cluster);
  return width;
}

/** `text` (no colours) cut to at most `width` columns, ending in `…` when it was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const cluster of graphemes(text)) {
    const columns = clusterWidth(cluster);
    if (used + columns > width - 1) break;
    kept += cluster;
    used += columns;
  }
  return `${kept}…`;
}

/** Where a word too long for its line may be broken: after these, a path, an address or a name reads on. */
const BREAK_AFTER = /[/\\@.,;:=&?_-]/;

/**
 * A word (no spaces, no colours) wider than `width` in pieces of at most `width` columns: each piece ends
 * after the last `/`, `-`, `.`, `@` (and the like) that fits, so `ada@finance-laptop` becomes `ada@` and
 * `finance-laptop`; only a run with no such place is cut where the width ends.
 */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = graphemes(word);
  while (rest.length > 0) {
    let used = 0;
    let fits = 0;
    let lastBreak = 0;
    for (const cluster of rest) {
      const columns = clusterWidth(cluster);
      if (used + columns > width) break;
      used += columns;
      fits += 1;
      if (BREAK_AFTER.test(cluster)) lastBreak = fits;
    }
    const take = fits === rest.length ? fits : lastBreak > 0 ? lastBreak : Math.max(1, fits);
    pieces.push(rest.slice(0, take).join(''));
    rest = rest.slice(take);
  }
  return pieces;
}

/**
 * `text` (no colours) as lines of at most `width` columns, broken at spaces; runs of spaces between words
 * become one. A word wider than `width` is broken after punctuation where it can be (see breakWord).
 */
export function wrapWords(text: string, width: number): string[] {
  if (width < 1 || displayWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  for (const word of text.split(/ +/)) {
    if (word === '') continue;
    const pieces = displayWidth(word) > width ? breakWord(word, width) : [word];
    for (const piece of pieces) {
      const pieceWidth = displayWidth(piece);
      if (line === '') {
        line = piece;
        lineWidth = pieceWidth;
      } else if (lineWidth + 1 + pieceWidth <= width && pieces.length === 1) {
        line += ` ${piece}`;
        lineWidth += 1 + pieceWidth;
      } else {
        lines.push(line);
        line = piece;
        lineWidth = pieceWidth;
      }
    }
  }
  if (line !== '') lines.push(line);
  return lines.length > 0 ? lines : [''];
}
