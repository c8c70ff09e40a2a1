// Comparing an account holder's name as the bank returns it ("OBI, ADA-CHIOMA") with what the operator
// expects ("Obi Ada Chioma"). Case, spacing, punctuation and accents never change whose account it is, so
// they are ignored. The words themselves and their order are kept: a looser match (any order, initials)
// would let a near-miss through, and a refused match costs only a second try with the name as shown.

/** The words of a name: lower case, accents removed, punctuation dropped (O'Neil -> oneil), spaces collapsed. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '') // combining accents: "Adébáyọ̀" -> "adebayo"
    .toLowerCase()
    .replace(/['\u2019`]/g, '') // apostrophes join: O'Neil -> oneil
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** True when both names have the same words in the same order once case, spacing and punctuation are ignored. */
export function namesMatch(verified: string, expected: string): boolean {
  const a = normaliseName(verified);
  return a !== '' && a === normaliseName(expected);
}
