// Transfer references. The API wants `PREFIX-<random>`, PREFIX being the first word of the business name
// (spec 4.9). fsapi always makes the reference itself before sending, so that the reference of a transfer
// is known even when the answer to the POST is lost: it is the key of the journal and of the lookup.
import { randomCrockford } from '../common/crockford.js';
import { UsageError } from '../errors.js';

/** Crockford base32 symbols after the prefix: no I, L, O or U, so a reference read aloud is not misread. */
export const RANDOM_LENGTH = 12; // 60 bits: a collision needs about a billion references
export const MAX_REFERENCE_LENGTH = 64;
const REFERENCE_PATTERN = /^[A-Za-z0-9]+-[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The first word of the business name, upper case, letters and digits only: "ACME TRADING LIMITED" -> "ACME". */
export function referencePrefix(businessName: string): string {
  const firstWord = businessName.trim().split(/\s+/)[0] ?? '';
  const prefix = firstWord
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  if (prefix === '') {
    throw new UsageError(
      `cannot make a transfer reference: the business name ${JSON.stringify(businessName)} has no usable first word`,
      'pass --reference PREFIX-... with the prefix your account manager gave you',
    );
  }
  return prefix;
}

/** `random` is injectable for tests; by default the bytes come from the operating system's CSPRNG. */
export function makeReference(prefix: string, random?: (size: number) => Uint8Array): string {
  return `${prefix}-${randomCrockford(RANDOM_LENGTH, random)}`;
}

/**
 * Checks the shape of a user-given --reference without asking anything of the API: letters, digits, `.`, `-`
 * and `_`, a dash after the first word, at most 64 characters. Returns it trimmed.
 */
export function parseReferenceOption(text: string): string {
  const reference = text.trim();
  if (reference === '') throw new UsageError('--reference is empty', 'leave it out and fsapi makes one');
  if (reference.length > MAX_REFERENCE_LENGTH || !REFERENCE_PATTERN.test(reference)) {
    throw new UsageError(
      `--reference ${JSON.stringify(text)} must look like PREFIX-XXXX: letters, digits, ".", "-" and "_", at most ${MAX_REFERENCE_LENGTH} characters`,
      'leave it out and fsapi makes one',
    );
  }
  return reference;
}

/** A given reference must carry the business prefix (compared case-insensitively), as the API requires. */
export function checkReferencePrefix(reference: string, prefix: string): void {
  if (!reference.toUpperCase().startsWith(`${prefix.toUpperCase()}-`)) {
    throw new UsageError(
      `--reference ${reference} must start with ${prefix}- (the first word of the business name)`,
      `for example ${prefix}-INVOICE-42, or leave it out and fsapi makes one`,
    );
  }
}

/**
 * The reference to send for a given one that carries the prefix: as typed when the prefix is written as
 * the API expects it (upper case), else upper-cased whole, since the API would refuse or mis-file a
 * prefix in another case. `changed` says whether it was, so the caller can say so.
 */
export function referenceToSend(reference: string, prefix: string): { reference: string; changed: boolean } {
  checkReferencePrefix(reference, prefix);
  if (reference.startsWith(`${prefix}-`)) return { reference, changed: false };
  return { reference: reference.toUpperCase(), changed: true };
}
