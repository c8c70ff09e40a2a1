// The statement of account as a PDF (`fsapi statement --pdf FILE`): the account and period, opening and
// closing balance, totals, a chart of each day's money in and out, then every transaction of the period,
// oldest first, with the balance after it. The transactions arrive a page of the API at a time
// (src/books/statement.ts, statementLines) and are written as they come: memory holds one API page and
// one PDF page, whatever the length of the statement. Times and days are the business's (the statement's
// zone), and a statement from the simulator or a sandbox is marked on every page (origin-mark.ts).
import type { StatementLine, Statement } from '../books/statement.js';
import { netKobo } from '../books/statement.js';
import { formatNaira, integerKobo, NO_KOBO, sumKobo, type Kobo } from '../money/kobo.js';
import { zoneAbbreviation, zonedTimeText } from '../common/time-zone.js';
import type { DocumentEnvironment } from '../common/document-origin.js';
import { MARK_COLOUR, markedInfo, markPage } from './origin-mark.js';
import { originMark } from '../common/document-origin.js';
import { shownText } from '../common/shown.js';
import { counterparty } from '../books/transactions.js';
import { clipText, createPdfFile, newPage, PAGE, setFont, type Pdf } from './pdf.js';
import { currentFont, fillColourOps, RowText, type EmbeddedFont } from './row-text.js';

export interface StatementPdfInput {
  statement: Statement;
  account: { name: string; number: string };
  /** Where the figures come from: a simulator's or a sandbox's statement is marked on every page. */
  environment: DocumentEnvironment;
  /** When the API's records were read (epoch ms), printed on every page. */
  readAtMs: number;
  /** The transactions, oldest first, in batches. */
  lines: AsyncIterable<StatementLine[]>;
}

export interface StatementPdfResult {
  pages: number;
  transactions: number;
}

const GREY = '#555555';
const LIGHT = '#e6e6e6';
const IN_COLOUR = '#2e7d32';
const OUT_COLOUR = '#c62828';
const LEFT = PAGE.margin;
const RIGHT = PAGE.width - PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin;

/**
 * The transaction table is set in the monospaced face, each row two lines of text (one text call each):
 * the cells are padded to these widths, in characters.
 */
const CELLS = { time: 22, details: 37, in: 15, out: 15, charges: 11, balance: 16 } as const;
const MONO_SIZE = 6.6;
const FONT_SIZE = 7;

export async function writeStatementPdf(path: string, given: StatementPdfInput): Promise<StatementPdfResult> {
  // The account's name as the API gives it, cut to a length the title and the footer hold.
  const input = { ...given, account: { ...given.account, name: clipText(given.account.name) } };
  const { statement: s, account } = input;
  const file = createPdfFile(
    path,
    markedInfo({ title: `Statement of account ${account.number}, ${s.since} to ${s.until}`, subject: `${account.name} ${account.number}` }, input.environment),
  );
  const { doc } = file;
  const madeAt = zonedTimeText(input.readAtMs, s.timeZone);
  let pages = 0;
  let transactions = 0;
  const footer = () => {
    // Below the bottom margin: pdfkit would start a new page for text there, unless the margin is lifted.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    setFont(doc, 'regular').fontSize(6).fillColor(GREY);
    doc.text(
      `Statement of ${clipText(account.name, 40)}, account ${account.number}, ${s.since} to ${s.until} · page ${pages} · made by fsapi on ${madeAt} from the bank’s records`,
      LEFT,
      BOTTOM + 14,
      // No width: one line, never wrapped (pdfkit wraps any text given a width).
      { lineBreak: false },
    );
    doc.fillColor('black');
    doc.page.margins.bottom = margin;
  };
  const startPage = () => {
    // The mark goes over the page's content: drawn when the page is done, before the next one.
    if (pages > 0) markPage(doc, input.environment);
    newPage(doc);
    pages += 1;
    footer();
    doc.x = LEFT;
    doc.y = PAGE.margin;
  };
  try {
    startPage();
    let y = writeSummary(doc, input);
    y = writeChart(doc, s, y + 14);
    y += 18;
    setFont(doc, 'bold').fontSize(11).text('Transactions', LEFT, y, { lineBreak: false });
    y += 18;
    // The rows' times are the statement's zone, named once in the header.
    const timeHeader = `Date and time (${zoneAbbreviation(input.readAtMs, s.timeZone)})`;
    y = tableHeader(doc, y, timeHeader);
    const rowText = rowFonts(doc, s.timeZone);
    let any = false;
    for await (const batch of input.lines) {
      for (const line of batch) {
        const names = nameLines(doc, partyName(line));
        const details = detailLines(doc, line);
        if (y + rowHeight(names, details) > BOTTOM) {
          startPage();
          y = tableHeader(doc, PAGE.margin, timeHeader);
        }
        y += writeLine(rowText, line, y, names, details);
        transactions += 1;
        any = true;
      }
      await file.drain();
    }
    if (!any)
      setFont(doc, 'regular')
        .fontSize(FONT_SIZE + 1)
        .fillColor(GREY)
        .text('No transactions in the period.', LEFT, y + 4, { lineBreak: false });
    markPage(doc, input.environment);
    await file.finish();
  } catch (error) {
    await file.abort();
    throw error;
  }
  return { pages, transactions };
}

/** Title, account, period and the figures a finance person checks first. Returns the y below them. */
function writeSummary(doc: Pdf, input: StatementPdfInput): number {
  const { statement: s, account } = input;
  setFont(doc, 'bold').fontSize(18).text('Statement of account', LEFT, PAGE.margin, { lineBreak: false });
  setFont(doc, 'bold')
    .fontSize(12)
    .text(account.name, LEFT, PAGE.margin + 28, { width: RIGHT - LEFT });
  let y = doc.y + 2;
  setFont(doc, 'regular').fontSize(9).fillColor(GREY);
  const zone = `${zoneAbbreviation(input.readAtMs, s.timeZone)}, ${s.timeZone}`;
  for (const text of [`Account number ${account.number}`, `Period ${s.since} to ${s.until} (whole days in ${zone})`]) {
    doc.text(text, LEFT, y, { lineBreak: false });
    y += 13;
  }
  // Not of real money: said beside the balances too, the part of a statement people cut out and send.
  const mark = originMark(input.environment);
  if (mark !== undefined) {
    setFont(doc, 'bold').fontSize(9).fillColor(MARK_COLOUR).text(mark, LEFT, y, { lineBreak: false });
    setFont(doc, 'regular').fontSize(9);
    y += 13;
  }
  doc.fillColor('black');
  y += 8;
  const rows: Array<[string, string, string, boolean]> = [
    ['Opening balance', '', formatNaira(s.openingKobo), true],
    ['Money in', `${s.credits.count} credit(s)`, formatNaira(s.credits.totalKobo), false],
    ['Money out', `${s.debits.count} debit(s)`, formatNaira(s.debits.totalKobo), false],
    ['Charges', '', formatNaira(s.chargesKobo), false],
    ['Stamp duty', '', formatNaira(s.stampDutyKobo), false],
    ['Net change', 'in − out − charges − duty', formatNaira(netKobo(s)), false],
    ['Closing balance', '', formatNaira(s.closingKobo), true],
  ];
  const boxTop = y;
  for (const [label, note, amount, strong] of rows) {
    if (strong)
      doc
        .rect(LEFT, y - 3, 300, 16)
        .fill(LIGHT)
        .fillColor('black');
    setFont(doc, strong ? 'bold' : 'regular')
      .fontSize(9.5)
      .text(label, LEFT + 6, y, { lineBreak: false });
    setFont(doc, 'regular')
      .fontSize(7.5)
      .fillColor(GREY)
      .text(note, LEFT + 96, y + 1.5, { lineBreak: false })
      .fillColor('black');
    rightText(doc, amount, LEFT + 294, y, strong ? 'bold' : 'regular', 9.5);
    y += 16;
  }
  doc
    .rect(LEFT, boxTop - 3, 300, y - boxTop)
    .lineWidth(0.5)
    .strokeColor('#999999')
    .stroke();
  const uncounted = s.skipped.failed + s.skipped.otherType;
  setFont(doc, 'regular').fontSize(7.5).fillColor(GREY);
  doc.text(
    'The balances are worked back from the available balance of the account when this statement was made (at the foot of each page), less the transactions since the period. ' +
      (uncounted > 0 ? `${uncounted} transaction(s) that moved no money in the end (failed, reversed, or their reversal) are listed but not counted.` : ''),
    LEFT + 312,
    boxTop,
    { width: RIGHT - LEFT - 312 },
  );
  doc.fillColor('black');
  return y;
}

/** Bars of money in (green) and out (red) per day, or per group of days in a long period. */
function writeChart(doc: Pdf, s: Statement, top: number): number {
  setFont(doc, 'bold').fontSize(11).text('Money in and out per day', LEFT, top, { lineBreak: false });
  const chartTop = top + 20;
  const height = 110;
  const width = RIGHT - LEFT - 50;
  const x0 = LEFT + 50;
  // At most 92 bars of a pair: a longer period is drawn in groups of whole days.
  const groupSize = Math.max(1, Math.ceil(s.days.length / 92));
  const groups: Array<{ label: string; inKobo: Kobo; outKobo: Kobo }> = [];
  for (let i = 0; i < s.days.length; i += groupSize) {
    const days = s.days.slice(i, i + groupSize);
    groups.push({
      label: days[0]!.date,
      inKobo: sumKobo(days.map((day) => day.credits.totalKobo)),
      outKobo: sumKobo(days.map((day) => day.debits.totalKobo)),
    });
  }
  const max = Math.max(1, ...groups.flatMap((g) => [g.inKobo, g.outKobo]));
  doc.lineWidth(0.5).strokeColor('#999999');
  doc
    .moveTo(x0, chartTop + height)
    .lineTo(x0 + width, chartTop + height)
    .stroke();
  setFont(doc, 'regular').fontSize(6.5).fillColor(GREY);
  rightText(doc, formatNaira(integerKobo(max)), x0 - 4, chartTop - 2, 'regular', 6.5);
  rightText(doc, formatNaira(NO_KOBO), x0 - 4, chartTop + height - 6, 'regular', 6.5);
  doc
    .moveTo(x0, chartTop)
    .lineTo(x0 + width, chartTop)
    .dash(1, { space: 2 })
    .stroke()
    .undash();
  const slot = width / Math.max(1, groups.length);
  const bar = Math.max(0.5, Math.min(14, slot * 0.38));
  const labelEvery = Math.max(1, Math.ceil(groups.length / 8));
  groups.forEach((group, i) => {
    const x = x0 + i * slot + slot / 2;
    const inHeight = (group.inKobo / max) * height;
    const outHeight = (group.outKobo / max) * height;
    if (inHeight > 0) doc.rect(x - bar, chartTop + height - inHeight, bar, inHeight).fill(IN_COLOUR);
    if (outHeight > 0) doc.rect(x, chartTop + height - outHeight, bar, outHeight).fill(OUT_COLOUR);
    if (i % labelEvery === 0) {
      doc
        .fillColor(GREY)
        .fontSize(6.5)
        .text(group.label.slice(5), x - 15, chartTop + height + 3, { width: 30, align: 'center', lineBreak: false });
    }
  });
  const legendY = chartTop + height + 14;
  doc.rect(x0, legendY + 1, 6, 6).fill(IN_COLOUR);
  doc
    .fillColor('black')
    .fontSize(7)
    .text('money in', x0 + 9, legendY, { lineBreak: false });
  doc.rect(x0 + 55, legendY + 1, 6, 6).fill(OUT_COLOUR);
  doc.fillColor('black').text('money out', x0 + 64, legendY, { lineBreak: false });
  if (groupSize > 1)
    doc
      .fillColor(GREY)
      .text(`(each pair of bars is ${groupSize} days)`, x0 + 115, legendY, { lineBreak: false })
      .fillColor('black');
  return legendY + 10;
}

function tableHeader(doc: Pdf, y: number, timeHeader: string): number {
  doc
    .rect(LEFT, y - 3, RIGHT - LEFT, 12)
    .fill(LIGHT)
    .fillColor('black');
  setFont(doc, 'mono').fontSize(MONO_SIZE);
  doc.text(tableRow([timeHeader, 'Details', 'Money in', 'Money out', 'Charges', 'Balance']), LEFT + 2, y, { lineBreak: false });
  return y + 14;
}

/** One line of the table: the cells padded or cut to CELLS, the money right-aligned. */
function tableRow(cells: [string, string, string, string, string, string]): string {
  const [time, details, money, out, charges, balance] = cells;
  return [
    padCell(time, CELLS.time, 'left'),
    padCell(details, CELLS.details, 'left'),
    padCell(money, CELLS.in, 'right'),
    padCell(out, CELLS.out, 'right'),
    padCell(charges, CELLS.charges, 'right'),
    padCell(balance, CELLS.balance, 'right'),
  ].join(' ');
}

/** The characters a cell takes: combining marks (the dot below ọ, the tone marks) take no column. */
const columnsOf = (text: string) => text.replace(/\p{M}/gu, '').length;

/** Text padded to a width in columns, or cut with an ellipsis (never inside a letter and its marks). */
export function padCell(text: string, width: number, align: 'left' | 'right'): string {
  let flat = text.replace(/\s+/g, ' ').trim();
  if (columnsOf(flat) > width) {
    let cut = '';
    for (const cluster of flat.match(/\P{M}\p{M}*/gu) ?? []) {
      if (columnsOf(cut) + 1 > width - 1) break;
      cut += cluster;
    }
    flat = `${cut.trimEnd()}…`;
  }
  const padding = ' '.repeat(Math.max(0, width - columnsOf(flat)));
  return align === 'left' ? flat + padding : padding + flat;
}

/**
 * The details column is set in the proportional face: DejaVu Sans Mono draws a combining mark (the tone
 * mark over ọ̀) as a character of its own, DejaVu Sans places it over its letter. Its left edge and width
 * follow from the monospaced cells before it.
 */
const MONO_ADVANCE = (1233 / 2048) * MONO_SIZE;
const DETAILS_X = LEFT + 2 + (CELLS.time + 1) * MONO_ADVANCE;
const DETAILS_WIDTH = CELLS.details * MONO_ADVANCE;

/** The other party's name in lines of the details column: whole, over two lines when it is long. */
export function nameLines(doc: Pdf, name: string): string[] {
  return detailsColumnLines(doc, name, 2);
}

/**
 * Under the name: the status of a row that is not plainly successful (`failed, not counted:`) first, so it
 * is never the part cut off, then the other party's bank and the narration, over more lines when long.
 */
export function detailLines(doc: Pdf, line: StatementLine): string[] {
  const status = String(line.tx.status ?? '').toLowerCase();
  const note = line.counted ? (status === 'successful' ? '' : `${status}:`) : `${status || 'other'}, not counted:`;
  const bank = counterparty(line.tx).bank.trim();
  const narration = shownText(line.tx.description).trim();
  const details = [bank, narration].filter((part) => part !== '').join(' · ');
  // Four lines hold a status, a long bank name and a narration of the API's 100 characters.
  const lines = detailsColumnLines(doc, [note, details].filter((part) => part !== '').join(' '), 4);
  return lines.length > 0 ? lines : [''];
}

/**
 * Text in lines of the details column, broken at spaces; past `most` lines the last one ends in `…`.
 * pdfkit lays a line out word by word, each word with the space after it, so a line's width is the sum
 * of its words' (`word ` for all but the last): each word is measured once, never the growing line.
 */
function detailsColumnLines(doc: Pdf, text: string, most: number): string[] {
  setFont(doc, 'regular').fontSize(MONO_SIZE);
  const lines: string[] = [];
  const widths: number[] = [];
  // Of the last line: the width of its words but the last, each with its space, and its last word.
  let before = 0;
  let lastWord = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    if (word === '') continue;
    const width = doc.widthOfString(word);
    const last = lines.length - 1;
    const withSpace = last < 0 ? 0 : before + doc.widthOfString(`${lastWord} `);
    if (last >= 0 && withSpace + width <= DETAILS_WIDTH) {
      lines[last] = `${lines[last]} ${word}`;
      widths[last] = withSpace + width;
      before = withSpace;
    } else {
      lines.push(word);
      widths.push(width);
      before = 0;
    }
    lastWord = word;
  }
  if (lines.length > most) return [...lines.slice(0, most - 1), fit(doc, lines.slice(most - 1).join(' '), DETAILS_WIDTH)];
  // Only a single word wider than the column is cut.
  return lines.map((line, i) => (widths[i]! <= DETAILS_WIDTH ? line : fit(doc, line, DETAILS_WIDTH)));
}

/** Text that fits a width at the current font: cut with an ellipsis (never inside a letter and its marks). */
function fit(doc: Pdf, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  const clusters = text.match(/\P{M}\p{M}*/gu) ?? [];
  let low = 0;
  let high = clusters.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.widthOfString(`${clusters.slice(0, mid).join('')}…`) <= width) low = mid;
    else high = mid - 1;
  }
  return `${clusters.slice(0, low).join('').trimEnd()}…`;
}

const partyName = (line: StatementLine) => {
  const party = counterparty(line.tx);
  return party.name.trim() || party.accountNumber.trim() || '(no name given)';
};

/**
 * One transaction: local time, the other party's name (whole), the money and the balance after it; under
 * them the reference, and the row's status, the other party's bank and the narration. Returns the height
 * it took.
 */
function writeLine(text: RowFonts, line: StatementLine, y: number, names: string[], details: string[]): number {
  const money = (kobo: Kobo) => (kobo > 0 ? formatNaira(kobo) : '');
  const colour = line.counted ? BLACK_OPS : GREY_OPS;
  text.rows
    .use(text.mono, MONO_SIZE)
    .colour(colour)
    .line(
      tableRow([
        zonedTimeText(line.timeMs, text.timeZone).slice(0, 16),
        '',
        money(line.inKobo),
        money(line.outKobo),
        money(line.chargesKobo),
        formatNaira(line.balanceKobo),
      ]),
      LEFT + 2,
      y,
    )
    .colour(GREY_OPS)
    .line(shownText(line.tx.reference), LEFT + 2, y + 8 * names.length)
    .use(text.regular, MONO_SIZE)
    .colour(colour);
  names.forEach((name, i) => text.rows.line(name, DETAILS_X, y + 8 * i));
  text.rows.colour(GREY_OPS);
  details.forEach((detail, i) => text.rows.line(detail, DETAILS_X, y + 8 * (names.length + i)));
  text.rows.flush();
  return rowHeight(names, details);
}

/** The writer of the table's rows and the two fonts it sets them in. */
interface RowFonts {
  rows: RowText;
  mono: EmbeddedFont;
  regular: EmbeddedFont;
  /** The zone of the rows' times. */
  timeZone: string;
}

function rowFonts(doc: Pdf, timeZone: string): RowFonts {
  const mono = currentFont(setFont(doc, 'mono'));
  const regular = currentFont(setFont(doc, 'regular'));
  return { rows: new RowText(doc).monospaced(mono), mono, regular, timeZone };
}

const BLACK_OPS = fillColourOps('#000000');
const GREY_OPS = fillColourOps(GREY);

const rowHeight = (names: readonly string[], details: readonly string[]) => 8 * (names.length + details.length) + 3;

function rightText(doc: Pdf, text: string, right: number, y: number, font: 'regular' | 'bold', size: number): void {
  if (text === '') return;
  setFont(doc, font).fontSize(size);
  doc.text(text, right - doc.widthOfString(text), y, { lineBreak: false });
}
