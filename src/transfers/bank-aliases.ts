// The names people type for Nigerian banks: brand names and abbreviations ("GTBank", "FBN", "OPay") that
// are not part of the official institution names the API lists ("Guaranty Trust Bank", "First Bank of
// Nigeria", "OPay Digital Services"). src/transfers/banks.ts resolves these before any partial match, so the
// common short names land on one bank instead of none or several.
//
// Each entry names its bank twice: the NIP institution code, which the real list and the simulator share,
// and a part of the official name, used when a list does not carry that code (a test environment with
// other codes). Data from outside (the bank list) still decides: an alias never invents a bank.
import type { Bank } from '../api/schemas.js';

interface BankAlias {
  /** What people type, compared without case, spaces or punctuation. */
  aliases: readonly string[];
  /** The NIP institution code. */
  code: string;
  /** A part of the official name (normalised: lower case, single spaces). */
  name: string;
}

export const BANK_ALIASES: readonly BankAlias[] = [
  { aliases: ['gtbank', 'gtb', 'gtco', 'guaranty trust', 'guaranty'], code: '000013', name: 'guaranty trust' },
  { aliases: ['access', 'access bank', 'diamond', 'diamond bank'], code: '000014', name: 'access bank' },
  { aliases: ['zenith', 'zenith bank'], code: '000015', name: 'zenith' },
  { aliases: ['first bank', 'firstbank', 'fbn', 'fbnquest', 'first bank of nigeria'], code: '000016', name: 'first bank' },
  { aliases: ['uba', 'united bank for africa'], code: '000004', name: 'united bank for africa' },
  { aliases: ['stanbic', 'stanbic ibtc', 'ibtc'], code: '000012', name: 'stanbic' },
  { aliases: ['fcmb', 'first city monument', 'first city monument bank'], code: '000003', name: 'first city monument' },
  { aliases: ['wema', 'wema bank', 'alat', 'alat by wema'], code: '000017', name: 'wema' },
  { aliases: ['sterling', 'sterling bank'], code: '000001', name: 'sterling' },
  { aliases: ['fidelity', 'fidelity bank'], code: '000007', name: 'fidelity' },
  { aliases: ['union', 'union bank', 'ubn'], code: '000018', name: 'union bank' },
  { aliases: ['ecobank', 'eco bank', 'eco'], code: '000010', name: 'ecobank' },
  { aliases: ['polaris', 'polaris bank', 'skye bank', 'skye'], code: '000008', name: 'polaris' },
  { aliases: ['keystone', 'keystone bank'], code: '000002', name: 'keystone' },
  { aliases: ['providus', 'providus bank'], code: '000023', name: 'providus' },
  { aliases: ['unity', 'unity bank'], code: '000011', name: 'unity bank' },
  { aliases: ['jaiz', 'jaiz bank'], code: '000006', name: 'jaiz' },
  { aliases: ['citi', 'citibank'], code: '000009', name: 'citibank' },
  { aliases: ['stanchart', 'standard chartered', 'scb'], code: '000021', name: 'standard chartered' },
  { aliases: ['titan', 'titan trust'], code: '000025', name: 'titan trust' },
  { aliases: ['globus', 'globus bank'], code: '000027', name: 'globus' },
  { aliases: ['opay', 'o pay', 'paycom'], code: '100004', name: 'opay' },
  { aliases: ['palmpay', 'palm pay'], code: '100033', name: 'palmpay' },
  { aliases: ['moniepoint', 'monie point', 'moniepoint mfb', 'teamapt'], code: '090405', name: 'moniepoint' },
  { aliases: ['kuda', 'kuda bank', 'kuda mfb'], code: '090267', name: 'kuda' },
  { aliases: ['vfd', 'vbank', 'v bank'], code: '090110', name: 'vfd' },
  { aliases: ['fairmoney', 'fair money'], code: '090551', name: 'fairmoney' },
  { aliases: ['paga'], code: '100002', name: 'paga' },
  { aliases: ['safe haven', 'safehaven'], code: '090286', name: 'safe haven' },
];

/** Case, spaces and punctuation ignored: "GT-Bank", "gt bank" and "GTBANK" are one key. */
const aliasKey = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');

const byKey = new Map<string, BankAlias>();
for (const entry of BANK_ALIASES) for (const alias of entry.aliases) byKey.set(aliasKey(alias), entry);

/**
 * The banks an alias names in this list: the one with the alias's institution code, else those whose
 * official name contains the alias's name part. Empty when the query is no alias or the list lacks it.
 */
export function banksForAlias(banks: readonly Bank[], query: string): Bank[] {
  const entry = byKey.get(aliasKey(query));
  if (!entry) return [];
  const byCode = banks.filter((bank) => bank.institutionCode === entry.code);
  if (byCode.length > 0) return byCode;
  const normalise = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return banks.filter((bank) => normalise(bank.institutionName).includes(entry.name));
}

/** The aliases of a bank (for the picker's search and labels), by institution code. */
export function aliasesOf(bank: Bank): readonly string[] {
  return BANK_ALIASES.find((entry) => entry.code === bank.institutionCode)?.aliases ?? [];
}
