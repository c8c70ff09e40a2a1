// Money is held as integer kobo (1 naira = 100 kobo) in a JS number. Every conversion goes through decimal
// text, never through float multiplication, so 1500.10 is exactly 150010 kobo. The largest amount accepted
// (13 integer digits) is 10^15 kobo, well inside Number.MAX_SAFE_INTEGER (about 9 * 10^15).

export type Kobo = number & { readonly __brand: 'kobo' };

export const MAX_INTEGER_DIGITS = 13;

export class AmountError extends Error {}

const amountPattern = /^(?<int>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.(?<frac>[0-9]{1,2}))?$/;

/**
 * Parses what a user typed for an amount in naira: `1500`, `1500.5`, `1500.50`, `1,500.50`.
 * Refuses exponents, signs, zero, more than two decimals, non-ASCII digits and anything else.
 */
export function parseNairaInput(text: string): Kobo {
  const trimmed = text.trim();
  if (trimmed === '') throw new AmountError('amount is empty');
  const match = amountPattern.exec(trimmed);
  if (!match?.groups) {
    if (/^[0-9,]*\.[0-9]{3,}$/.test(trimmed)) throw new AmountError(`amount ${text} has more than 2 decimals`);
    // fsapi itself prints amounts as ₦1,500.00, so a pasted one is common: say what to leave out.
    // The naira sign as an escape: one character outside ASCII makes Node read the whole bundle as UTF-16
    // (scripts/build.mjs refuses such a bundle).
    const unsigned = trimmed.replace(/^[\u20A6-]\s*/u, '');
    if (unsigned !== trimmed && amountPattern.test(unsigned)) {
      throw new AmountError(
        trimmed.startsWith('-')
          ? `amount ${JSON.stringify(text)} is below zero: give the naira to send, like ${unsigned}`
          : `amount ${JSON.stringify(text)}: leave out the ₦ sign, like ${unsigned}`,
      );
    }
    throw new AmountError(`amount ${JSON.stringify(text)} is not a number of naira like 1500 or 1,500.50`);
  }
  const integerDigits = match.groups.int!.replaceAll(',', '').replace(/^0+(?=\d)/, '');
  if (integerDigits.length > MAX_INTEGER_DIGITS) {
    throw new AmountError(`amount ${text} is too large (at most ${MAX_INTEGER_DIGITS} digits before the point)`);
  }
  const kobo = toKobo(integerDigits, match.groups.frac ?? '');
  if (kobo <= 0) throw new AmountError('amount must be greater than zero');
  return kobo;
}

/**
 * Reads an amount as the API sends it: a number (1500.5) or a two-decimal string ("1500.50").
 * A third decimal is rounded half away from zero (done on the digits, not with floats).
 */
export function parseApiAmount(value: number | string): Kobo {
  let text = typeof value === 'number' ? numberToPlainText(value) : value.trim();
  let negative = false;
  if (text.startsWith('-')) {
    negative = true;
    text = text.slice(1);
  }
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text.replaceAll(',', ''));
  if (!match) throw new AmountError(`unreadable amount from the API: ${JSON.stringify(value)}`);
  const fraction = match[2] ?? '';
  let kobo = toKobo(match[1]!, fraction.slice(0, 2).padEnd(2, '0'));
  if (fraction.length > 2 && Number(fraction[2]) >= 5) kobo = (kobo + 1) as Kobo;
  return (negative ? -kobo : kobo) as Kobo;
}

/** The amount as the API's transfer body wants it: a JSON number with at most two decimals. */
export function koboToApiNumber(kobo: Kobo): number {
  return Number(koboToDecimal(kobo));
}

/** Plain decimal text with two places: 150010 -> "1500.10". Used in CSV, JSON and the API's string fields. */
export function koboToDecimal(kobo: Kobo): string {
  const negative = kobo < 0;
  const digits = String(Math.abs(kobo)).padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Display form: 150010 -> "₦1,500.10". */
export function formatNaira(kobo: Kobo): string {
  const [integer, fraction] = koboToDecimal(Math.abs(kobo) as Kobo).split('.');
  const grouped = integer!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${kobo < 0 ? '-' : ''}₦${grouped}.${fraction}`;
}

/** No money: the start of a sum, a charge not made. */
export const NO_KOBO = 0 as Kobo;

/**
 * An amount fsapi holds itself as integer kobo (read back from its store or the simulator's state, a fee it
 * computes, a constant): refused unless it is a whole number within the safe range. The way in for
 * fsapi's own integers, as parseNairaInput is for what a person types and parseApiAmount for what the API
 * sends.
 */
export function integerKobo(value: unknown): Kobo {
  const kobo = typeof value === 'string' && /^-?[0-9]+$/.test(value.trim()) ? Number(value) : value;
  if (typeof kobo !== 'number' || !Number.isSafeInteger(kobo)) throw new AmountError(`a stored amount is not a whole number of kobo: ${JSON.stringify(value)}`);
  return kobo as Kobo;
}

/** a + b, exactly (integers), refused past the safe range. */
export function addKobo(a: Kobo, b: Kobo): Kobo {
  return sumKobo([a, b]);
}

/** a - b, exactly (integers): a change of balance, what is left under a limit. */
export function subtractKobo(a: Kobo, b: Kobo): Kobo {
  return sumKobo([a, -b as Kobo]);
}

export function sumKobo(amounts: Iterable<Kobo>): Kobo {
  let total = 0;
  for (const amount of amounts) total += amount;
  if (!Number.isSafeInteger(total)) throw new AmountError('total is too large');
  return total as Kobo;
}

function toKobo(integerDigits: string, fractionDigits: string): Kobo {
  const kobo = Number(integerDigits + fractionDigits.padEnd(2, '0'));
  if (!Number.isSafeInteger(kobo)) throw new AmountError('amount is too large');
  return kobo as Kobo;
}

function numberToPlainText(value: number): string {
  if (!Number.isFinite(value)) throw new AmountError(`unreadable amount from the API: ${value}`);
  // toFixed(3) avoids exponent notation for tiny or huge values; the third digit drives rounding above.
  return Math.abs(value) >= 1e21 ? String(value) : value.toFixed(3);
}
