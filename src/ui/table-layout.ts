// Fitting a table to the terminal's width. Pure arithmetic on column widths, no terminal: src/ui/output.ts
// measures the cells and draws; this decides which columns are shown and how wide each one is.
//
// The rules, in order, until the table fits:
//   1. every column starts at its natural width (its widest cell or header);
//   2. while even the narrowest layout is too wide, the column of the highest `priority` number drops
//      out (priority 0, the default, never drops: a reference or an amount must not disappear); in that
//      layout an essential flex column keeps up to NAME_ROOM columns, so a name is not cut to a stub to
//      make room for an optional column;
//   3. `flex` columns (names, descriptions) are narrowed, widest first, down to their minimum, the ones that
//      may drop out (priority > 0) before the ones that never do; their cells end in `…`;
//   4. if the essential columns alone are still too wide (a very narrow terminal), every column is
//      narrowed, widest first: a cut cell is better than a line that wraps mid-cell.
// A column whose cells wrap (`wrapped`: a narration, a name, a time) is narrowed in 3 like a flex column,
// but its cells continue on more lines of the row at word breaks instead of ending in `…`; each step takes
// it to the width its wrapped cells really use, so no room is kept that no line fills.
import { wrapWords } from '../common/text-width.js';

export interface ColumnSpace {
  /** The widest cell, header included, in terminal columns. */
  natural: number;
  /** The header's width: a flex column is not narrowed below it unless nothing else fits. */
  header: number;
  /** 0 (default): always shown. Higher numbers drop out first when the terminal is narrow. */
  priority?: number;
  /** May be cut with `…` to make room. */
  flex?: boolean;
  /** The narrowest a flex column gets before columns drop (default 8, or the header if wider). */
  minWidth?: number;
  /**
   * A flex column whose cells wrap instead of being cut: the width its cells take when wrapped to `width`
   * (at most `width`; its longest line).
   */
  wrapped?: (width: number) => number;
}

export interface TableFit {
  /** Indexes of the columns shown, in their original order. */
  shown: number[];
  /** Widths of the shown columns, in the same order as `shown`. */
  widths: number[];
}

/** The room an essential name keeps before optional columns are shown (most names fit in it whole). */
const NAME_ROOM = 24;

/** The narrowest any column gets, even on an absurdly narrow terminal: one character and the `…`. */
const NARROWEST = 2;

/**
 * Which columns fit in `available` terminal columns and at what width. `gap` is the space between two
 * columns (lists use two spaces and no borders).
 */
export function fitColumns(columns: readonly ColumnSpace[], available: number, gap = 2): TableFit {
  const minimum = (column: ColumnSpace) => (column.flex ? Math.min(column.natural, Math.max(column.minWidth ?? 8, column.header)) : column.natural);
  const totalOf = (indexes: readonly number[], width: (index: number) => number) =>
    indexes.reduce((sum, index) => sum + width(index), 0) + gap * Math.max(0, indexes.length - 1);

  // While optional columns remain, an essential flex column (a payee's name) counts at up to NAME_ROOM of
  // its natural width: an optional column drops out before the name is cut to its bare minimum.
  const reserved = (column: ColumnSpace) =>
    column.flex && (column.priority ?? 0) === 0 ? Math.max(minimum(column), Math.min(column.natural, NAME_ROOM)) : minimum(column);

  // 2. Drop columns, highest priority number first (the rightmost of equals), while even the narrowest
  //    layout of what is left is too wide.
  const shown = columns.map((_, index) => index);
  while (totalOf(shown, (index) => reserved(columns[index]!)) > available) {
    let drop = -1;
    for (const index of shown) {
      const priority = columns[index]!.priority ?? 0;
      if (priority > 0 && (drop === -1 || priority >= (columns[drop]!.priority ?? 0))) drop = index;
    }
    if (drop === -1 || shown.length === 1) break;
    shown.splice(shown.indexOf(drop), 1);
  }

  // 1, 3, 4. Natural widths, then narrow flex columns, then anything, widest first.
  const widths = shown.map((index) => columns[index]!.natural);
  let excess = totalOf(shown, (index) => widths[shown.indexOf(index)]!) - available;
  const narrow = (canNarrow: (position: number) => boolean) => {
    while (excess > 0) {
      let widest = -1;
      widths.forEach((width, position) => {
        if (canNarrow(position) && (widest === -1 || width > widths[widest]!)) widest = position;
      });
      if (widest === -1) return;
      const column = columns[shown[widest]!]!;
      const narrower = widths[widest]! - 1;
      // A wrapping column takes the width its lines then need, which may be several columns less.
      const used = column.wrapped && narrower >= minimum(column) ? Math.max(minimum(column), column.wrapped(narrower)) : narrower;
      excess -= widths[widest]! - used;
      widths[widest] = used;
    }
  };
  // Optional flex columns (a bank's name, a message) give up their room before an essential one (the
  // payee's name) is cut: at 120 columns a name keeps its length while the bank's ends in `…`.
  for (const essential of [false, true]) {
    narrow((position) => {
      const column = columns[shown[position]!]!;
      return column.flex === true && ((column.priority ?? 0) === 0) === essential && widths[position]! > minimum(column);
    });
  }
  narrow((position) => widths[position]! > NARROWEST);
  return { shown, widths };
}

/**
 * A value wrapped to `width` columns at spaces (a word longer than the width is broken after punctuation
 * where it can be: src/common/text-width.ts), for record views whose long values continue under themselves
 * instead of under the label, and for the cells of wrapping columns.
 */
export const wrapText = wrapWords;
