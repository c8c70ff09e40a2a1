// Input checks shared by commands. Each returns the parsed value or throws UsageError (exit 2) before
// anything is sent.
import { UsageError } from '../errors.js';
import { AmountError, parseNairaInput, type Kobo } from '../money/kobo.js';

/** A NUBAN account number: exactly 10 ASCII digits. */
export function parseAccountNumber(text: string, what = 'account number'): string {
  const trimmed = text.trim();
  if (!/^[0-9]{10}$/.test(trimmed)) {
    throw new UsageError(`${what} must be 10 digits, not ${JSON.stringify(text)}`);
  }
  return trimmed;
}

export function parseAmountOption(text: string, option = '--amount'): Kobo {
  try {
    return parseNairaInput(text);
  } catch (error) {
    if (error instanceof AmountError) throw new UsageError(`${option}: ${error.message}`, 'give naira like 1500, 1500.50 or 1,500.50');
    throw error;
  }
}

/** A whole number option within bounds, e.g. --page or --limit. */
export function parseIntegerOption(text: unknown, option: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = String(text).trim();
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}, not ${JSON.stringify(String(text))}`);
  }
  return Number(value);
}

// Newlines, tabs and every other control character (C0, DEL, C1), and the Unicode line and paragraph
// separators. In a narration they would reach the receiver's statement, a bank's systems and every CSV
// or terminal that shows it, where a line break splits a record and an escape sequence acts.
// Also the invisible ones that change what a reader sees: the bidirectional controls (embeddings and
// overrides U+202A-202E, isolates U+2066-2069, the marks U+200E/200F and U+061C), which can show
// "Invoice 42" for text that reads otherwise, and the zero-width characters (U+200B-200D, U+2060, U+FEFF),
// which make two narrations that look the same differ, or hide a word inside another.
const NOT_PLAIN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]/u;

const NAMES: Record<number, string> = {
  0x09: 'a tab',
  0x0a: 'a newline',
  0x0d: 'a carriage return',
  0x1b: 'an escape character',
  0x200b: 'a zero-width space (U+200B)',
  0x200c: 'a zero-width non-joiner (U+200C)',
  0x200d: 'a zero-width joiner (U+200D)',
  0x2060: 'a word joiner (U+2060)',
  0xfeff: 'a zero-width no-break space (U+FEFF)',
  0x200e: 'a left-to-right mark (U+200E)',
  0x200f: 'a right-to-left mark (U+200F)',
  0x061c: 'an Arabic letter mark (U+061C)',
  0x202a: 'a left-to-right embedding (U+202A)',
  0x202b: 'a right-to-left embedding (U+202B)',
  0x202c: 'a pop directional formatting (U+202C)',
  0x202d: 'a left-to-right override (U+202D)',
  0x202e: 'a right-to-left override (U+202E)',
  0x2066: 'a left-to-right isolate (U+2066)',
  0x2067: 'a right-to-left isolate (U+2067)',
  0x2068: 'a first strong isolate (U+2068)',
  0x2069: 'a pop directional isolate (U+2069)',
};

/**
 * Why `text` is not one line of plain text, or undefined when it is. `what` names it: "narration". The
 * character is named with its position, counted in characters (code points) from 1.
 */
export function controlCharacterProblem(text: string, what: string): string | undefined {
  const match = NOT_PLAIN.exec(text);
  if (!match) return undefined;
  const code = match[0].codePointAt(0)!;
  const name = NAMES[code] ?? `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const position = characterCount(text.slice(0, match.index)) + 1;
  return `${what} contains ${name} at character ${position}: it must be one line of plain text`;
}

/** How many characters (code points) a person counts in `text`: an emoji is one, not two UTF-16 units. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
