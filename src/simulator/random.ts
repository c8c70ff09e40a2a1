// Deterministic randomness for the simulator: the same seed gives the same history, names and references
// on every machine, so tests and docs can name concrete values. Not for anything secret.

/** FNV-1a, 32 bits: a stable hash of a text (account numbers -> names, ids -> references). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, fast, well-distributed 32-bit generator. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    digits: (count) => {
      let text = '';
      for (let i = 0; i < count; i++) text += String(Math.floor(next() * 10));
      return text;
    },
  };
}

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` decimal digits (leading zeros possible). */
  digits(count: number): string;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Upper-case letters and digits without look-alikes (no I, O, 0, 1), `length` of them, from `random`. */
export function token(random: Random, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(random.next() * ALPHABET.length)];
  return text;
}
