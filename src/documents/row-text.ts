// The statement's rows of text, written into the page's content in one piece per row instead of through
// pdfkit's `text()`. A `text()` call lays its string out three times (twice for widths it does not need
// here, once to draw it), copies the glyph arrays word by word, and turns each of its eight or so content
// operators into a byte array of its own: most of the time and nearly all of the garbage of a long
// statement (bench/documents.mjs). Here each line is laid out once and a row's operators go out as one
// string.
//
// The monospaced face needs no layout at all for the characters of figures, times and references: in
// DejaVu Sans Mono each of them is one glyph of one width, with no kerning or ligature (test/documents.test.ts
// checks that against pdfkit's own layout), so their glyph codes are kept per character for the document.
// Any other character, and every line in the proportional face (names with their tone marks, kerned
// pairs), goes through pdfkit's layout (`font.encode`) as `text()` would, and is drawn the same way.
//
// Text drawn here is in the PDF as pdfkit draws it: the same fonts, glyph codes, positions and
// ToUnicode map, so copying or extracting text finds the same words.
import type { Pdf } from './pdf.js';

/** A glyph's position as pdfkit's font layout gives it, in thousandths of the font size. */
interface GlyphPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth: number;
}

/** The part of pdfkit's embedded font this file uses. */
export interface EmbeddedFont {
  id: string;
  ascender: number;
  ref(): unknown;
  /** Glyph codes (4 hex digits each, the font's subset updated) and their positions. */
  encode(text: string): [string[], GlyphPosition[]];
}

/** The font pdfkit draws with now (set with setFont). */
export function currentFont(doc: Pdf): EmbeddedFont {
  return (doc as unknown as { _font: EmbeddedFont })._font;
}

/** The characters whose glyph codes are kept per character in the monospaced face. */
const PLAIN_MONO = /^[\u0020-\u007e\u20a6\u2026\u2212]*$/;

/** A PDF number as pdfkit writes one: at most six decimals. */
const pdfNumber = (n: number) => Math.round(n * 1e6) / 1e6;

/** `#555555` as the fill colour operators pdfkit writes for it. */
export function fillColourOps(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `/DeviceRGB cs\n${[value >> 16, (value >> 8) & 0xff, value & 0xff].map((part) => pdfNumber(part / 255)).join(' ')} scn`;
}

export class RowText {
  private readonly ops: string[] = [];
  /** Glyph codes by character, per monospaced font (a few dozen characters). */
  private readonly monoCodes = new Map<EmbeddedFont, Map<string, string>>();
  private font: EmbeddedFont | undefined;
  private size = 0;

  constructor(private readonly doc: Pdf) {}

  /** The font and size of the lines that follow (a font of setFont, read with currentFont). */
  use(font: EmbeddedFont, size: number): this {
    if (font !== this.font || size !== this.size) {
      this.font = font;
      this.size = size;
      this.ops.push(`/${font.id} ${pdfNumber(size)} Tf`);
    }
    return this;
  }

  /** The fill colour of the lines that follow (ops from fillColourOps). */
  colour(ops: string): this {
    this.ops.push(ops);
    return this;
  }

  /** One line whose top is at `y`, left edge at `x` (as pdfkit's `text(..., { lineBreak: false })`). */
  line(text: string, x: number, y: number): this {
    const font = this.font;
    // A line break inside the API's text is dropped, as pdfkit drops it from a line it draws.
    if (text.includes('\n')) text = text.replace(/\n/g, '');
    if (!font || text === '') return this;
    const baseline = this.doc.page.height - y - (font.ascender / 1000) * this.size;
    if (PLAIN_MONO.test(text) && this.monoCodes.has(font)) {
      this.ops.push(`1 0 0 1 ${pdfNumber(x)} ${pdfNumber(baseline)} Tm`, `[<${this.monoHex(font, text)}> 0] TJ`);
      return this;
    }
    this.laidOut(font, text, x, baseline);
    return this;
  }

  /** Declares a font monospaced: its plain characters are drawn from codes kept per character. */
  monospaced(font: EmbeddedFont): this {
    if (!this.monoCodes.has(font)) this.monoCodes.set(font, new Map());
    return this;
  }

  /** Writes the row's text into the page: one text object in its own graphics state. */
  flush(): void {
    if (this.ops.length === 0) return;
    const page = this.doc.page as unknown as { height: number; fonts: Record<string, unknown> };
    for (const font of this.usedFonts) page.fonts[font.id] ??= font.ref();
    this.usedFonts.clear();
    // pdfkit's pages are drawn upside down (top-left origin); text is set in the PDF's own orientation.
    this.doc.addContent(`q\n1 0 0 -1 0 ${pdfNumber(page.height)} cm\nBT\n${this.ops.join('\n')}\nET\nQ`);
    this.ops.length = 0;
    // The next row sets its font again: a new page starts a new content stream.
    this.font = undefined;
  }

  private readonly usedFonts = new Set<EmbeddedFont>();

  private monoHex(font: EmbeddedFont, text: string): string {
    this.usedFonts.add(font);
    const codes = this.monoCodes.get(font)!;
    let hex = '';
    for (const character of text) {
      let code = codes.get(character);
      if (code === undefined) {
        code = font.encode(character)[0].join('');
        codes.set(character, code);
      }
      hex += code;
    }
    return hex;
  }

  /** A line through pdfkit's layout, drawn as its `_fragment` draws one: kerning as TJ adjustments, marks placed by offsets. */
  private laidOut(font: EmbeddedFont, text: string, x: number, baseline: number): void {
    this.usedFonts.add(font);
    const [codes, positions] = font.encode(text);
    const scale = this.size / 1000;
    const parts: string[] = [];
    let start = 0;
    let lineStarted = false;
    let atX = x;
    const segment = (end: number) => {
      if (start < end) {
        const last = positions[end - 1]!;
        parts.push(`<${codes.slice(start, end).join('')}> ${pdfNumber(-(last.xAdvance - last.advanceWidth))}`);
      }
      start = end;
    };
    const flushParts = (end: number) => {
      segment(end);
      if (parts.length > 0) {
        this.ops.push(`[${parts.join(' ')}] TJ`);
        parts.length = 0;
      }
    };
    for (let i = 0; i < positions.length; i += 1) {
      const position = positions[i]!;
      if (!lineStarted) {
        this.ops.push(`1 0 0 1 ${pdfNumber(x)} ${pdfNumber(baseline)} Tm`);
        lineStarted = true;
      }
      if (position.xOffset || position.yOffset) {
        flushParts(i);
        this.ops.push(`1 0 0 1 ${pdfNumber(atX + position.xOffset * scale)} ${pdfNumber(baseline + position.yOffset * scale)} Tm`);
        flushParts(i + 1);
        this.ops.push(`1 0 0 1 ${pdfNumber(atX + position.xAdvance * scale)} ${pdfNumber(baseline)} Tm`);
      } else if (position.xAdvance - position.advanceWidth !== 0) {
        segment(i + 1);
      }
      atX += position.xAdvance * scale;
    }
    flushParts(positions.length);
  }
}
