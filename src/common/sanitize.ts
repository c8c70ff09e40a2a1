// Data from outside (API answers, notifications, CSV files) is data, never commands. Every text fsapi
// writes for a person or a program passes through one of these, chosen by where it goes:
//   terminalText  a table cell or a line on a terminal: no control character reaches the terminal, so an
//                 account name cannot move the cursor, clear the screen, set the window title, ring the
//                 bell, or hide text behind a carriage return; bidi overrides, which make text read in
//                 another order than it is stored (an account number shown reversed), go the same way;
//   tsvField      a TSV value: the same, with tab, newline, carriage return and backslash escaped as
//                 \t \n \r \\ (so every line is one record and every tab a column break, and the escaping
//                 is reversible);
//   csvCell       a CSV cell: the same control characters replaced, and a cell a spreadsheet would run
//                 as a formula (leading = + - @, tab or carriage return, also after spaces) prefixed with
//                 an apostrophe, except plain numbers (-500.00 stays a number);
//   csvTextCell   a CSV cell of an identifier made of digits (an account number, a bank code, a phone
//                 number): kept as text, so a spreadsheet keeps its leading zero.
//   stderrNote    a line of talk on stderr (src/ui/io.ts): the safety net for messages that quote the API
//                 (a refusal, a status): fsapi's own colours (SGR sequences), line breaks and tabs pass,
//                 every other control and bidi character becomes U+FFFD.
//   labelText     a label from outside kept on a record (the MCP client's name, SUDO_USER): agentText's
//                 rules, one line, bounded.
//   agentText     a text an AI agent reads (`fsapi mcp`: every string of a tool's result, its notes and
//                 errors): what terminalText does, and more, because a model reads a line that starts
//                 "SYSTEM:" as a line of its own: a whole escape sequence (CSI, OSC with its text, ESC and
//                 one character) becomes one U+FFFD, and every line break a model could see (CR, LF, VT,
//                 FF, NEL, the Unicode line and paragraph separators) becomes a space, so nothing the bank
//                 or a payer wrote can start a line.
// `--json` uses none of them: JSON escapes control characters itself, and its values stay exact.
// Dependency-free and small: src/main.ts loads it on every error.

/** C0 controls, DEL and C1 controls (U+0080..U+009F, which some terminals obey like ESC sequences). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** Bidi embeddings, overrides and isolates, and the invisible direction marks. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** What a removed character becomes: visible, so a person sees that something was there. */
export const REPLACEMENT = '\uFFFD';

const LINE_BREAKS = /\r\n|[\r\n\t]/g;
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Text for a terminal: tabs and line breaks become spaces, other controls and bidi controls U+FFFD. */
export function terminalText(text: string): string {
  if (!UNSAFE.test(text)) return text;
  return text.replace(LINE_BREAKS, ' ').replace(CONTROL, REPLACEMENT).replace(BIDI, REPLACEMENT);
}

/** An escape sequence, whole: CSI (ESC [ or C1 CSI), OSC (ESC ] or C1 OSC) up to BEL or ST, or ESC and one character. */
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u007e]?/g;
/** Every character a reader may take as the end of a line. */
const ANY_LINE_BREAK = /\r\n|[\r\n\t\u000b\u000c\u0085\u2028\u2029]/g;
const AGENT_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/**
 * Text for an AI agent: escape sequences whole and other controls and bidi controls become U+FFFD, every
 * line break a space. Data, not instructions, stays on the line it came on.
 */
export function agentText(text: string): string {
  if (!AGENT_UNSAFE.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCE, REPLACEMENT).replace(ANY_LINE_BREAK, ' ').replace(CONTROL, REPLACEMENT).replace(BIDI, REPLACEMENT);
}

/**
 * A label that came from outside and is kept on a record (the MCP client's name, SUDO_USER): agentText's
 * rules, runs of spaces made one, and at most `max` characters. A label, never proof of anything.
 */
export function labelText(text: string, max: number): string {
  const cleaned = agentText(text).replace(/\s+/g, ' ').trim();
  const characters = [...cleaned];
  return characters.length <= max ? cleaned : `${characters.slice(0, max - 1).join('')}…`;
}

const SGR_OR_UNSAFE = /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A stderr note: colours (SGR), newlines and tabs kept; any other control or bidi character U+FFFD. */
export function stderrNote(text: string): string {
  if (!UNSAFE.test(text)) return text;
  return text.replace(SGR_OR_UNSAFE, (match) => (match.length > 1 ? match : REPLACEMENT));
}

/** A TSV value: `\` `\t` `\n` `\r` escaped with a backslash, other controls and bidi controls U+FFFD. */
export function tsvField(text: string): string {
  if (!UNSAFE.test(text) && !text.includes('\\')) return text;
  return text
    .replace(/[\\\t\n\r]/g, (char) => TSV_ESCAPES[char]!)
    .replace(CONTROL, REPLACEMENT)
    .replace(BIDI, REPLACEMENT);
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A plain number as a spreadsheet reads one: optional sign, digits, optional decimals. */
const PLAIN_NUMBER = /^[+-]?[0-9]+(\.[0-9]+)?$/;
/** What makes a spreadsheet evaluate a cell, allowing for the spaces some spreadsheets skip. */
const FORMULA_START = /^[\s]*[=+\-@]/;

/** A CSV cell that a spreadsheet shows as text: no control characters, no formula. */
export function csvCell(text: string): string {
  if (PLAIN_NUMBER.test(text)) return text;
  const startsWithControl = /^[\t\r]/.test(text);
  const cleaned = terminalText(text);
  return startsWithControl || FORMULA_START.test(cleaned) ? `'${cleaned}` : cleaned;
}

/**
 * An identifier of digits as a CSV cell a spreadsheet keeps as text: `="0123456789"`, the one form Excel,
 * LibreOffice and Google Sheets all open with the leading zero (a bare 0123456789 opens as the number
 * 123456789). Only digits are wrapped, so no text from the API can write a formula this way; anything
 * else is an ordinary cell (csvCell). Every CSV fsapi writes keeps its account numbers and codes so.
 */
export function csvTextCell(text: string): string {
  return DIGITS.test(text) ? `="${text}"` : csvCell(text);
}

const DIGITS = /^[0-9]+$/;

/** A cell fsapi wrote with csvTextCell (`="0123456789"`), read back as its digits; any other text as it is. */
export function fromCsvTextCell(text: string): string {
  const wrapped = /^="([0-9]+)"$/.exec(text);
  return wrapped ? wrapped[1]! : text;
}

/**
 * Every value of a record as a CSV cell (numbers and other values as their text first); the keys in
 * `identifiers` (account numbers, codes) as csvTextCell.
 */
export function csvRecord<K extends string>(record: Record<K, unknown>, identifiers: readonly NoInfer<K>[] = []): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of Object.keys(record) as K[]) {
    const text = String(record[key] ?? '');
    out[key] = identifiers.includes(key) ? csvTextCell(text) : csvCell(text);
  }
  return out;
}
