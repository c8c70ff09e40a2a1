// Input checks shared by commands. Each returns the parsed value or throws UsageError (exit 2) before
// anything is sent.
import { UsageError } from '../errors.js';
import { AmountError, parseNairaInput, type Kobo } from './money.js';

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
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

/** Why `text` is not one line of plain text, or undefined when it is. `what` names it: "narration". */
export function controlCharacterProblem(text: string, what: string): string | undefined {
  const found = CONTROL_CHARACTER.exec(text)?.[0];
  if (found === undefined) return undefined;
  const code = found.codePointAt(0)!;
  const names: Record<number, string> = { 0x09: 'a tab', 0x0a: 'a newline', 0x0d: 'a carriage return', 0x1b: 'an escape character' };
  const name = names[code] ?? `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${what} contains ${name}: it must be one line of plain text`;
}
