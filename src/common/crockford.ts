// Crockford's base32: digits and capitals without I, L, O and U, so an id read aloud or copied by hand is
// not misread. The one encoder of fsapi's ids: transfer references (random), a batch row's reference
// (derived from the file's bytes: the same bytes must give the same reference on every run), approval
// request ids.
import { randomBytes } from './random.js';

export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The first `length` symbols of `bytes` read as one stream of bits, five bits a symbol, most significant
 * first. `bytes` must hold at least `length * 5` bits.
 */
export function crockfordBase32(bytes: Uint8Array, length: number): string {
  if (bytes.length * 8 < length * 5) throw new RangeError(`${bytes.length} bytes cannot make ${length} base32 symbols`);
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && text.length < length) {
      text += CROCKFORD_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (text.length === length) break;
  }
  return text;
}

/**
 * `length` symbols of fresh randomness (5 bits each). `random` is injectable for tests; by default the
 * bytes come from the operating system's CSPRNG.
 */
export function randomCrockford(length: number, random: (size: number) => Uint8Array = randomBytes): string {
  return crockfordBase32(random(Math.ceil((length * 5) / 8)), length);
}
