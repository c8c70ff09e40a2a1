// The transfer receipt as a one-page PDF (`fsapi transfer receipt <reference> --pdf FILE`): the amount in
// figures and in words, who paid whom at which bank, the narration, the reference and the NIP session id a
// bank traces a transfer by, the time (in the business's zone), and from which record and when it was made.
// A receipt from the simulator or a sandbox is marked on its page and in its metadata (origin-mark.ts).
import type { Receipt } from '../books/receipt.js';
import { receiptFields } from '../books/receipt.js';
import { amountInWords } from '../money/amount-words.js';
import { formatNaira } from '../money/kobo.js';
import { zonedTimeText } from '../common/time-zone.js';
import { clipText, createPdfFile, newPage, PAGE, setFont } from './pdf.js';
import { MARK_COLOUR, markedInfo, markPage } from './origin-mark.js';
import { originMark } from '../common/document-origin.js';

const GREY = '#555555';
const LIGHT = '#eef3ee';
const GREEN = '#2e7d32';
const LEFT = PAGE.margin;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const LABEL_WIDTH = 120;

export async function writeReceiptPdf(path: string, receipt: Receipt): Promise<void> {
  const file = createPdfFile(
    path,
    markedInfo(
      {
        title: `Transfer receipt ${receipt.reference}`,
        subject: `${formatNaira(receipt.amountKobo)} to ${clipText(receipt.payee.name)}`,
      },
      receipt.environment,
    ),
  );
  const { doc } = file;
  try {
    newPage(doc);
    setFont(doc, 'bold').fontSize(20).text('Transfer receipt', LEFT, PAGE.margin);
    setFont(doc, 'regular')
      .fontSize(10)
      .fillColor(GREY)
      .text(clipText(receipt.payer.name), LEFT, doc.y + 2, { width: WIDTH });
    doc.fillColor('black');

    // The amount, large, on a tinted band with the status.
    const bandTop = doc.y + 16;
    // The band holds the words however many lines they take.
    const words = amountInWords(receipt.amountKobo);
    const wordsHeight = setFont(doc, 'regular')
      .fontSize(10)
      .heightOfString(words, { width: WIDTH - 28 });
    const bandHeight = 62 + wordsHeight + 12;
    doc.rect(LEFT, bandTop, WIDTH, bandHeight).fill(LIGHT);
    setFont(doc, 'bold')
      .fontSize(10)
      .fillColor(GREEN)
      .text(receipt.status.toUpperCase(), LEFT + 14, bandTop + 12, { width: WIDTH - 28 });
    // Not of real money: said beside the amount too, the part of a receipt people cut out and send.
    const mark = originMark(receipt.environment);
    if (mark !== undefined) {
      setFont(doc, 'bold').fontSize(10).fillColor(MARK_COLOUR);
      doc.text(mark, LEFT + WIDTH - 14 - doc.widthOfString(mark), bandTop + 12, { lineBreak: false });
    }
    setFont(doc, 'bold')
      .fontSize(26)
      .fillColor('black')
      .text(formatNaira(receipt.amountKobo), LEFT + 14, bandTop + 28, { width: WIDTH - 28 });
    setFont(doc, 'regular')
      .fontSize(10)
      .fillColor(GREY)
      .text(words, LEFT + 14, bandTop + 62, { width: WIDTH - 28 });
    doc.fillColor('black');

    // Every fact, a labelled line each; long values (a name, a narration) wrap under themselves, and are
    // cut (clipText) so that the page holds them all.
    let y = bandTop + bandHeight + 18;
    for (const [label, value] of receiptFields(receipt)) {
      if (label === 'Status' || label === 'Amount' || label === 'Amount in words') continue;
      setFont(doc, 'regular').fontSize(9).fillColor(GREY).text(label, LEFT, y, { width: LABEL_WIDTH });
      const strong = label === 'Paid to' || label === 'Reference' || label === 'Session ID';
      setFont(doc, strong ? 'bold' : 'regular')
        .fontSize(11)
        .fillColor('black')
        .text(clipText(value), LEFT + LABEL_WIDTH, y - 1.5, { width: WIDTH - LABEL_WIDTH });
      y = Math.max(doc.y, y + 14) + 9;
      doc
        .moveTo(LEFT, y - 5)
        .lineTo(LEFT + WIDTH, y - 5)
        .lineWidth(0.4)
        .strokeColor('#dddddd')
        .stroke();
    }

    y += 14;
    setFont(doc, 'regular').fontSize(8.5).fillColor(GREY);
    doc.text(
      `This receipt was made by fsapi on ${zonedTimeText(receipt.readAtMs, receipt.timeZone)} from the bank’s record of the transfer, ` +
        'checked against what was sent: the amount, the accounts, the status, the time and the session ID are as the bank recorded them. ' +
        'The name of the payee is the one their bank gave for the account before the money was sent. ' +
        'To trace this transfer, give your bank its session ID.',
      LEFT,
      y,
      { width: WIDTH },
    );
    // The large mark across the middle of what the page holds, the amount's band to the footnote.
    markPage(doc, receipt.environment, (bandTop + doc.y) / 2);
    await file.finish();
  } catch (error) {
    await file.abort();
    throw error;
  }
}
