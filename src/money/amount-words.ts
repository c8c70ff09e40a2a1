// An amount in words, as Nigerian banks write it on a receipt or a cheque: "One thousand two hundred and
// thirty-four naira, fifty kobo". Made from integer kobo with integer arithmetic only (no float ever
// holds the amount), in British usage ("and" after the hundreds), the usage of Nigerian English.
// Written here rather than taken from a package: the ones that do currencies take a float.
import type { Kobo } from './kobo.js';

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
/** Short scale, largest first: a safe-integer amount of kobo is under a hundred trillion naira. */
const SCALES: ReadonlyArray<[number, string]> = [
  [1_000_000_000_000, 'trillion'],
  [1_000_000_000, 'billion'],
  [1_000_000, 'million'],
  [1_000, 'thousand'],
];

/** 0..99 in words: "seven", "forty-two". */
function underHundred(n: number): string {
  if (n < 20) return UNITS[n]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 === 0 ? tens : `${tens}-${UNITS[n % 10]}`;
}

/** 1..999 in words: "three hundred and five". */
function underThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return underHundred(rest);
  return rest === 0 ? `${UNITS[hundreds]} hundred` : `${UNITS[hundreds]} hundred and ${underHundred(rest)}`;
}

/** A whole number in words ("one million, two hundred thousand and five"). */
export function integerInWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`cannot write ${value} in words`);
  if (value === 0) return 'zero';
  const parts: string[] = [];
  let rest = value;
  for (const [size, name] of SCALES) {
    const count = Math.floor(rest / size);
    if (count > 0) {
      // A count of trillions can itself pass a thousand (a hundred trillion naira and more).
      parts.push(`${count >= 1000 ? integerInWords(count) : underThousand(count)} ${name}`);
      rest -= count * size;
    }
  }
  if (rest === 0) return parts.join(', ');
  // "one thousand and five": the British "and" before a last group under a hundred.
  if (parts.length > 0 && rest < 100) return `${parts.join(', ')} and ${underHundred(rest)}`;
  return [...parts, underThousand(rest)].join(', ');
}

/** "Five thousand naira only", "Twelve naira, fifty kobo", "Fifty kobo only". */
export function amountInWords(kobo: Kobo): string {
  if (!Number.isSafeInteger(kobo) || kobo < 0) throw new RangeError(`cannot write ${kobo} kobo in words`);
  const naira = Math.floor(kobo / 100);
  const rest = kobo % 100;
  const nairaPart = `${integerInWords(naira)} naira`;
  const koboPart = `${underHundred(rest)} kobo`;
  const text = naira === 0 && rest > 0 ? `${koboPart} only` : rest === 0 ? `${nairaPart} only` : `${nairaPart}, ${koboPart}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
