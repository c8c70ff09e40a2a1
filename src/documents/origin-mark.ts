// The mark of a document not of real money (src/common/document-origin.ts): on every page, in three
// places, so that no crop leaves a page that looks real. A solid band across the top and another across
// the bottom, each with the whole sentence ("SANDBOX: no real money moved, not proof of payment"), and the
// environment's name written large across the middle of the page, over the content, light enough that
// every figure stays readable. The part people cut out and send (a receipt's amount, a statement's
// balances) says it beside the figures too (`MARK_COLOUR`, drawn by each document). The PDF's title,
// subject and keywords say it as well.
import type { DocumentEnvironment } from '../common/document-origin.js';
import { originMark } from '../common/document-origin.js';
import { PAGE, setFont, type Pdf, type PdfInfo } from './pdf.js';

/** The colour of every part of the mark. */
export const MARK_COLOUR = '#b71c1c';
const BAND_COLOUR = MARK_COLOUR;
const BAND_HEIGHT = 17;
/** The top band sits in the top margin, the bottom one below the statement's footer line. */
const TOP_BAND_Y = 12;
const BOTTOM_BAND_Y = PAGE.height - BAND_HEIGHT - 6;
const WATERMARK_OPACITY = 0.13;

/** The document's metadata, with the mark when it is not of real money. */
export function markedInfo(info: PdfInfo, environment: DocumentEnvironment): PdfInfo {
  const mark = originMark(environment);
  if (mark === undefined) return info;
  const name = environment.toUpperCase();
  return {
    title: `${name}: ${info.title} (no real money moved, not proof of payment)`,
    subject: `${info.subject}. ${mark}`,
    keywords: `${name}, no real money moved, not proof of payment`,
  };
}

/**
 * Draws the mark over the page as it is now (call it when the page's content is done); nothing for
 * production. The large name is centred at `centreY` (default: the middle of the page), so that it
 * crosses the content of a page that is not full. The position, font and colour in effect are left as
 * they were.
 */
export function markPage(doc: Pdf, environment: DocumentEnvironment, centreY = PAGE.height / 2): void {
  const mark = originMark(environment);
  if (mark === undefined) return;
  const { x, y } = doc;
  // Below the bottom margin: pdfkit would start a new page for text there, unless the margin is lifted.
  const margin = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc.save();
  for (const top of [TOP_BAND_Y, BOTTOM_BAND_Y]) band(doc, mark, top);
  watermark(doc, environment.toUpperCase(), 'no real money moved · not proof of payment', centreY);
  doc.restore();
  doc.page.margins.bottom = margin;
  doc.x = x;
  doc.y = y;
  setFont(doc, 'regular').fillColor('black');
}

function band(doc: Pdf, mark: string, top: number): void {
  doc.rect(0, top, PAGE.width, BAND_HEIGHT).fill(BAND_COLOUR);
  setFont(doc, 'bold').fontSize(9.5).fillColor('white');
  const width = doc.widthOfString(mark);
  doc.text(mark, (PAGE.width - width) / 2, top + 3.5, { lineBreak: false });
}

/** The environment's name across the middle of the page, with the sentence under it, turned along the diagonal. */
function watermark(doc: Pdf, name: string, words: string, centreY: number): void {
  const centreX = PAGE.width / 2;
  doc.save();
  doc.rotate(-Math.atan2(PAGE.height, PAGE.width) * (180 / Math.PI) + 10, { origin: [centreX, centreY] });
  doc.fillColor(BAND_COLOUR, WATERMARK_OPACITY);
  setFont(doc, 'bold').fontSize(88);
  const nameWidth = doc.widthOfString(name);
  doc.text(name, centreX - nameWidth / 2, centreY - 62, { lineBreak: false });
  setFont(doc, 'bold').fontSize(22);
  const wordsWidth = doc.widthOfString(words);
  doc.text(words, centreX - wordsWidth / 2, centreY + 40, { lineBreak: false });
  doc.restore();
}
