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
  /** The name people know the bank by, short enough for a table column (`GTBank`, `FCMB`). */
  brand: string;
}

export const BANK_ALIASES: readonly BankAlias[] = [
  { aliases: ['gtbank', 'gtb', 'gtco', 'guaranty trust', 'guaranty'], code: '000013', name: 'guaranty trust', brand: 'GTBank' },
  { aliases: ['access', 'access bank', 'diamond', 'diamond bank'], code: '000014', name: 'access bank', brand: 'Access' },
  { aliases: ['zenith', 'zenith bank'], code: '000015', name: 'zenith', brand: 'Zenith' },
  { aliases: ['first bank', 'firstbank', 'fbn', 'fbnquest', 'first bank of nigeria'], code: '000016', name: 'first bank', brand: 'First Bank' },
  { aliases: ['uba', 'united bank for africa'], code: '000004', name: 'united bank for africa', brand: 'UBA' },
  { aliases: ['stanbic', 'stanbic ibtc', 'ibtc'], code: '000012', name: 'stanbic', brand: 'Stanbic IBTC' },
  { aliases: ['fcmb', 'first city monument', 'first city monument bank'], code: '000003', name: 'first city monument', brand: 'FCMB' },
  { aliases: ['wema', 'wema bank', 'alat', 'alat by wema'], code: '000017', name: 'wema', brand: 'Wema' },
  { aliases: ['sterling', 'sterling bank'], code: '000001', name: 'sterling', brand: 'Sterling' },
  { aliases: ['fidelity', 'fidelity bank'], code: '000007', name: 'fidelity', brand: 'Fidelity' },
  { aliases: ['union', 'union bank', 'ubn'], code: '000018', name: 'union bank', brand: 'Union Bank' },
  { aliases: ['ecobank', 'eco bank', 'eco'], code: '000010', name: 'ecobank', brand: 'Ecobank' },
  { aliases: ['polaris', 'polaris bank', 'skye bank', 'skye'], code: '000008', name: 'polaris', brand: 'Polaris' },
  { aliases: ['keystone', 'keystone bank'], code: '000002', name: 'keystone', brand: 'Keystone' },
  { aliases: ['providus', 'providus bank'], code: '000023', name: 'providus', brand: 'Providus' },
  { aliases: ['unity', 'unity bank'], code: '000011', name: 'unity bank', brand: 'Unity Bank' },
  { aliases: ['jaiz', 'jaiz bank'], code: '000006', name: 'jaiz', brand: 'Jaiz' },
  { aliases: ['citi', 'citibank'], code: '000009', name: 'citibank', brand: 'Citibank' },
  { aliases: ['stanchart', 'standard chartered', 'scb'], code: '000021', name: 'standard chartered', brand: 'StanChart' },
  { aliases: ['titan', 'titan trust'], code: '000025', name: 'titan trust', brand: 'Titan Trust' },
  { aliases: ['globus', 'globus bank'], code: '000027', name: 'globus', brand: 'Globus' },
  { aliases: ['opay', 'o pay', 'paycom'], code: '100004', name: 'opay', brand: 'OPay' },
  { aliases: ['palmpay', 'palm pay'], code: '100033', name: 'palmpay', brand: 'PalmPay' },
  { aliases: ['moniepoint', 'monie point', 'moniepoint mfb', 'teamapt'], code: '090405', name: 'moniepoint', brand: 'Moniepoint' },
  { aliases: ['kuda', 'kuda bank', 'kuda mfb'], code: '090267', name: 'kuda', brand: 'Kuda' },
  { aliases: ['vfd', 'vbank', 'v bank'], code: '090110', name: 'vfd', brand: 'VFD' },
  { aliases: ['fairmoney', 'fair money'], code: '090551', name: 'fairmoney', brand: 'FairMoney' },
  { aliases: ['paga'], code: '100002', name: 'paga', brand: 'Paga' },
  { aliases: ['safe haven', 'safehaven'], code: '090286', name: 'safe haven', brand: 'Safe Haven' },
];

/** Case, spaces and punctuation ignored: "GT-Bank", "gt bank" and "GTBANK" are one key. */
const aliasKey = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** Official names normalised the way an entry's `name` is: lower case, letters and digits, single spaces. */
const normaliseName = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

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
  return banks.filter((bank) => normaliseName(bank.institutionName).includes(entry.name));
}

/** The aliases of a bank (for the picker's search and labels), by institution code. */
export function aliasesOf(bank: Bank): readonly string[] {
  return BANK_ALIASES.find((entry) => entry.code === bank.institutionCode)?.aliases ?? [];
}

/**
 * The short name people know a bank by (`FCMB` for First City Monument Bank), for a table too narrow for
 * official names; the official name when the bank is not a known one. Given only when both the code and
 * the official name agree with the entry, so two banks of a list never share a short name.
 */
export function bankShortName(bank: Pick<Bank, 'institutionCode' | 'institutionName'>): string {
  const entry = BANK_ALIASES.find((candidate) => candidate.code === bank.institutionCode);
  return entry && normaliseName(bank.institutionName).includes(entry.name) ? entry.brand : bank.institutionName;
}
