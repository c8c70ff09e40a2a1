// What the PDF documents share (a receipt, a statement): pdfkit, the embedded font, the page and the file.
//
// The font is DejaVu Sans (npm `dejavu-fonts-ttf`), embedded and subset: PDF's standard fonts have no
// naira sign (U+20A6) and no Yoruba or Igbo letters with dots below (ọ, ẹ, ṣ), so a name such as
// "Adébáyọ̀ Ọlátúnjí" would lose letters. The monospaced face sets the rows of a statement's table, a
// line of text each: pdfkit takes about 60 µs a text call, so one call per line instead of one per cell
// is what makes a million-row statement a matter of minutes. The build copies the TTFs and their licence to
// dist/fonts/; from the sources they are read from node_modules.
//
// pdfkit writes each page out when the next one starts (bufferPages off), so a long document is made a
// page at a time. Its per-font cache of laid-out words would keep every distinct word of the document (a
// million references), so it is emptied at a new page once it holds LAYOUT_CACHE_WORDS words (see
// `newPage`): names and banks that recur over pages are laid out once, and memory stays bounded. The
// file is written under a temporary name and renamed at the end (src/common/atomic-file.ts): a failed or
// interrupted run leaves no half PDF under the name, and a link planted where the temporary goes is
// never followed.
import { closeSync, createWriteStream, existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { commitBeside, openBesideSync } from '../common/atomic-file.js';

export type Pdf = InstanceType<typeof PDFDocument>;

export const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', mono: 'DejaVuSansMono.ttf' } as const;

let fontFolder: string | undefined;

/** The folder holding the fonts: dist/fonts/ beside the bundle, else the package in node_modules. */
export function fontDir(): string {
  if (fontFolder) return fontFolder;
  const beside = join(dirname(fileURLToPath(import.meta.url)), 'fonts');
  fontFolder = existsSync(join(beside, FONT_FILES.regular))
    ? beside
    : dirname(createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${FONT_FILES.regular}`));
  return fontFolder;
}

export type FontStyle = keyof typeof FONT_FILES;

/**
 * Sets the font by its file path: pdfkit caches a font under the name it was first asked by, and one
 * asked by a registered alias after the same file was opened under its path is parsed again at every
 * call (seconds for a long statement), so the path is the one name used.
 */
export function setFont(doc: Pdf, style: FontStyle): Pdf {
  return doc.font(join(fontDir(), FONT_FILES[style]));
}

/**
 * The most characters of a name or a narration a document shows (a payee's, a sender's, an account's,
 * a bank's, as the API or a file gives them): longer ones are cut, with an ellipsis, so that a receipt
 * stays one page whatever the API answers. Real account names and narrations are far shorter (a
 * narration sent by fsapi is at most 100 characters).
 */
export const MAX_DOCUMENT_TEXT = 100;

/** `text` cut to `max` characters (letters with their accents, as a reader counts them), `…` ending it. */
export function clipText(text: string, max = MAX_DOCUMENT_TEXT): string {
  // Code units are at least as many as characters: most text needs no counting.
  if (text.length <= max) return text;
  const characters: string[] = [];
  // A bounded slice is counted: a letter is rarely more than a few code units, even with its accents.
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text.slice(0, max * 8))) {
    characters.push(segment);
    if (characters.length > max) break;
  }
  if (characters.length <= max && text.length <= max * 8) return text;
  return `${characters
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** A4 in points, and the margin every page keeps. */
export const PAGE = { width: 595.28, height: 841.89, margin: 48 } as const;

export interface PdfFile {
  doc: Pdf;
  /** Waits while the file is behind (called between pages, so a long document never piles up in memory). */
  drain(): Promise<void>;
  /** Ends the document and moves it to its name. */
  finish(): Promise<void>;
  /** Drops the partial file. */
  abort(): Promise<void>;
}

export interface PdfInfo {
  title: string;
  subject: string;
  keywords?: string;
}

export function createPdfFile(path: string, info: PdfInfo): PdfFile {
  const dir = fontDir();
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: false,
    // The first page is made by the writer, so the default font is never a standard font.
    autoFirstPage: false,
    font: join(dir, FONT_FILES.regular),
    info: {
      Title: info.title,
      Subject: info.subject,
      ...(info.keywords === undefined ? {} : { Keywords: info.keywords }),
      Creator: 'fsapi',
      Producer: 'fsapi (pdfkit)',
    },
    compress: true,
  });
  const { fd, temporary } = openBesideSync(path);
  // The descriptor stays open after the stream ends: it is synced before the rename (commitBeside).
  const file = createWriteStream(temporary, { fd, autoClose: false });
  let failure: Error | undefined;
  file.on('error', (error) => (failure ??= error));
  doc.on('data', (chunk: Buffer) => file.write(chunk));
  const ended = once(doc, 'end');
  return {
    doc,
    async drain() {
      if (failure) throw failure;
      // pdfkit pushes its output into its readable side, which hands it on only when the event loop turns:
      // rows that arrive without a pause (a fast API, a generated stream) would otherwise pile up there.
      if (doc.readableLength > 0) await new Promise((resolve) => setImmediate(resolve));
      if (file.writableNeedDrain) await once(file, 'drain');
    },
    async finish() {
      doc.end();
      await ended;
      file.end();
      await once(file, 'finish').catch(() => undefined);
      if (failure) {
        closeSync(fd);
        await rm(temporary, { force: true });
        throw failure;
      }
      await commitBeside(fd, temporary, path);
    },
    async abort() {
      file.destroy();
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      await rm(temporary, { force: true });
    },
  };
}

/** The objects of a page that pdfkit keeps after writing it. */
interface PageRefs {
  dictionary?: { data: object };
  resources?: { data: object };
  content?: { data: object };
}

/**
 * The most words a font's layout cache holds at the start of a page; past it the cache starts again
 * empty. A word laid out takes about 2.4 KB (its glyphs and positions), so a font's cache stays under
 * 5 MB, while the names, banks and narrations that recur over a statement are laid out once: emptied at
 * every page, the cache made a 100,000-row statement take twice the CPU time (bench/documents.mjs).
 */
const LAYOUT_CACHE_WORDS = 2000;

/** pdfkit's embedded font, as far as its word-layout cache goes. */
interface CachingFont {
  layoutCache?: Record<string, unknown>;
  layoutRun?: (...args: unknown[]) => unknown;
}

/** Words laid out into each font's cache since it was last emptied (pdfkit lays a word out only on a miss). */
const wordsLaidOut = new WeakMap<CachingFont, { count: number }>();

function boundLayoutCache(font: CachingFont): void {
  if (!font.layoutCache || !font.layoutRun) return;
  let counter = wordsLaidOut.get(font);
  if (!counter) {
    const tally = { count: 0 };
    const layoutRun = font.layoutRun;
    font.layoutRun = (...args: unknown[]) => {
      tally.count += 1;
      return layoutRun.apply(font, args);
    };
    wordsLaidOut.set(font, tally);
    counter = tally;
  }
  if (counter.count > LAYOUT_CACHE_WORDS) {
    font.layoutCache = Object.create(null) as Record<string, unknown>;
    counter.count = 0;
  }
}

/** A new page, with pdfkit's word-layout caches bounded so memory does not grow with the document. */
export function newPage(doc: Pdf): void {
  const previous = (doc as unknown as { page?: PageRefs }).page;
  doc.addPage(); // writes the previous page out (bufferPages is off)
  // What pdfkit keeps of a written page: its dictionary, resources and content objects, all still holding
  // their data, for the page tree it writes at the end, which needs only their numbers (a ref prints as
  // `12 0 R`). Dropped, a page leaves a few numbers behind instead of about 2.5 KB.
  if (previous) for (const ref of [previous.dictionary, previous.resources, previous.content]) if (ref) ref.data = {};
  // pdfkit keeps its fonts in `_fontFamilies`, each with a `layoutCache` of every word it has laid out.
  const families = (doc as unknown as { _fontFamilies?: Record<string, CachingFont> })._fontFamilies ?? {};
  for (const font of Object.values(families)) boundLayoutCache(font);
  setFont(doc, 'regular');
}
