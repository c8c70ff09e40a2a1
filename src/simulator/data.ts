// Fixed data of the simulated world: the business that owns the primary account, the bank list, the
// name pools and the fee tables. docs/simulator.md lists the same values; change both together.
import { integerKobo, type Kobo } from '../money/kobo.js';
import type { Bank } from '../api/schemas.js';
import { hash32 } from './random.js';

/** Default credentials accepted by POST /v1/generate-token. Public on purpose: no real money moves. */
export const SIMULATOR_CREDENTIALS = { consumerKey: 'sim-consumer-key', consumerSecret: 'sim-consumer-secret' } as const;

export const BUSINESS = {
  name: 'ACME TRADING LIMITED',
  /** First word of the business name: the required prefix of transfer references (`ACME-...`). */
  referencePrefix: 'ACME',
  businessId: 1042,
  userId: 2187,
  accountNumber: '1100084217',
  productName: 'Business Current Account',
  accountTier: 3,
  /** The bank that holds the primary account and the client (virtual) accounts. */
  bankCode: '000023',
  bankName: 'Providus Bank',
  openingBalanceKobo: integerKobo(500_000_000), // ₦5,000,000.00
  /** The primary account was opened this long before the state was created. */
  openedDaysBefore: 400,
} as const;

/** Seconds after which a new transfer turns from pending to successful, unless told otherwise. */
export const DEFAULT_SETTLE_SECONDS = 5;
export const DEFAULT_SEED_TRANSACTIONS = 200;
export const DEFAULT_SEED = 20240607;
export const MAX_TOKEN_VALIDITY_MINUTES = 2880;
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/**
 * NIP transfer charge: the usual Nigerian bands, ₦10 / ₦25 / ₦50 plus 7.5% VAT.
 * Up to ₦5,000: ₦10.75; up to ₦50,000: ₦26.88; above: ₦53.75.
 */
export function transferChargeKobo(amountKobo: Kobo): Kobo {
  if (amountKobo <= 500_000) return integerKobo(1075);
  if (amountKobo <= 5_000_000) return integerKobo(2688);
  return integerKobo(5375);
}

/** Fee on an inflow to a client account: 0.5%, rounded to the kobo (half up), capped at ₦200. */
export function collectionFeeKobo(amountKobo: Kobo): Kobo {
  return integerKobo(Math.min(Math.floor((amountKobo * 5 + 500) / 1000), 20_000));
}

/** Stamp duty on an inflow: ₦50 when the amount is above ₦10,000, else nothing. */
export function stampDutyKobo(amountKobo: Kobo): Kobo {
  return integerKobo(amountKobo > 1_000_000 ? 5000 : 0);
}

// Categories (numeric text, as the API sends them): our own convention, the spec shows none.
const COMMERCIAL = '2';
const MICROFINANCE = '9';
const MOBILE_MONEY = '10';
const PAYMENT_SERVICE = '12';

/** Real NIP institution codes. Two names share "First" and several end in "Microfinance Bank", on purpose. */
export const BANKS: readonly Bank[] = [
  { institutionCode: '000001', institutionName: 'Sterling Bank', category: COMMERCIAL },
  { institutionCode: '000002', institutionName: 'Keystone Bank', category: COMMERCIAL },
  { institutionCode: '000003', institutionName: 'First City Monument Bank', category: COMMERCIAL },
  { institutionCode: '000004', institutionName: 'United Bank for Africa', category: COMMERCIAL },
  { institutionCode: '000006', institutionName: 'Jaiz Bank', category: COMMERCIAL },
  { institutionCode: '000007', institutionName: 'Fidelity Bank', category: COMMERCIAL },
  { institutionCode: '000008', institutionName: 'Polaris Bank', category: COMMERCIAL },
  { institutionCode: '000009', institutionName: 'Citibank Nigeria', category: COMMERCIAL },
  { institutionCode: '000010', institutionName: 'Ecobank Nigeria', category: COMMERCIAL },
  { institutionCode: '000011', institutionName: 'Unity Bank', category: COMMERCIAL },
  { institutionCode: '000012', institutionName: 'Stanbic IBTC Bank', category: COMMERCIAL },
  { institutionCode: '000013', institutionName: 'Guaranty Trust Bank', category: COMMERCIAL },
  { institutionCode: '000014', institutionName: 'Access Bank', category: COMMERCIAL },
  { institutionCode: '000015', institutionName: 'Zenith Bank', category: COMMERCIAL },
  { institutionCode: '000016', institutionName: 'First Bank of Nigeria', category: COMMERCIAL },
  { institutionCode: '000017', institutionName: 'Wema Bank', category: COMMERCIAL },
  { institutionCode: '000018', institutionName: 'Union Bank of Nigeria', category: COMMERCIAL },
  { institutionCode: '000021', institutionName: 'Standard Chartered Bank', category: COMMERCIAL },
  { institutionCode: '000022', institutionName: 'Suntrust Bank', category: COMMERCIAL },
  { institutionCode: '000023', institutionName: 'Providus Bank', category: COMMERCIAL },
  { institutionCode: '000025', institutionName: 'Titan Trust Bank', category: COMMERCIAL },
  { institutionCode: '000026', institutionName: 'Taj Bank', category: COMMERCIAL },
  { institutionCode: '000027', institutionName: 'Globus Bank', category: COMMERCIAL },
  { institutionCode: '000029', institutionName: 'Lotus Bank', category: COMMERCIAL },
  { institutionCode: '000030', institutionName: 'Parallex Bank', category: COMMERCIAL },
  { institutionCode: '000031', institutionName: 'PremiumTrust Bank', category: COMMERCIAL },
  { institutionCode: '090110', institutionName: 'VFD Microfinance Bank', category: MICROFINANCE },
  { institutionCode: '090267', institutionName: 'Kuda Microfinance Bank', category: MICROFINANCE },
  { institutionCode: '090286', institutionName: 'Safe Haven Microfinance Bank', category: MICROFINANCE },
  { institutionCode: '090405', institutionName: 'Moniepoint Microfinance Bank', category: MICROFINANCE },
  { institutionCode: '090551', institutionName: 'FairMoney Microfinance Bank', category: MICROFINANCE },
  { institutionCode: '100002', institutionName: 'Paga', category: MOBILE_MONEY },
  { institutionCode: '100004', institutionName: 'OPay (Paycom)', category: MOBILE_MONEY },
  { institutionCode: '100033', institutionName: 'PalmPay', category: MOBILE_MONEY },
  { institutionCode: '120001', institutionName: '9mobile 9Payment Service Bank', category: PAYMENT_SERVICE },
  { institutionCode: '120002', institutionName: 'HopePSB', category: PAYMENT_SERVICE },
  { institutionCode: '120003', institutionName: 'MoMo Payment Service Bank', category: PAYMENT_SERVICE },
  { institutionCode: '120004', institutionName: 'SmartCash Payment Service Bank', category: PAYMENT_SERVICE },
];

const banksByCode = new Map(BANKS.map((bank) => [bank.institutionCode, bank]));

export function findBank(code: string): Bank | undefined {
  return banksByCode.get(code);
}

const FIRST_NAMES = [
  'ADAEZE',
  'CHINEDU',
  'OLUWASEUN',
  'FUNMILAYO',
  'IBRAHIM',
  'AMINA',
  'EMEKA',
  'NGOZI',
  'TUNDE',
  'YETUNDE',
  'MUSA',
  'HAUWA',
  'OBINNA',
  'CHIAMAKA',
  'BABATUNDE',
  'ZAINAB',
  'IFEANYI',
  'BUKOLA',
  'SANI',
  'KEMI',
  'UCHENNA',
  'TEMITOPE',
  'ABUBAKAR',
  'NNEKA',
  'SEGUN',
  'FATIMA',
  'KELECHI',
  'TOLULOPE',
  'YUSUF',
  'OLUCHI',
];
const SURNAMES = [
  'OKAFOR',
  'ADEYEMI',
  'BELLO',
  'EZE',
  'OGUNLEYE',
  'ABDULLAHI',
  'NWOSU',
  'ADEBAYO',
  'MOHAMMED',
  'OKONKWO',
  'OLAWALE',
  'USMAN',
  'CHUKWU',
  'ADELEKE',
  'ALIYU',
  'OBI',
  'ODUYA',
  'IBRAHIM',
  'NWANKWO',
  'AJAYI',
  'EKWUEME',
  'SALAU',
  'ANYANWU',
  'ONYEKACHI',
  'BALOGUN',
  'DANJUMA',
  'IWU',
  'OYELARAN',
  'UMEH',
  'LAWAL',
];

/** Name enquiry answers for the account numbers the docs name. Any other number gets a derived name. */
export const KNOWN_ACCOUNT_NAMES: Readonly<Record<string, string>> = {
  '0123456789': 'OKAFOR CHIAMAKA ADAEZE',
  '1234567890': 'BELLO IBRAHIM MUSA',
  '2222222222': 'ADEYEMI FUNMILAYO YETUNDE',
  '3333333333': 'NWOSU EMEKA OBINNA',
};

/** The account holder's name at any bank: the same number always gives the same name. */
export function accountHolderName(accountNumber: string): string {
  const known = KNOWN_ACCOUNT_NAMES[accountNumber];
  if (known) return known;
  const h = hash32(`name:${accountNumber}`);
  const surname = SURNAMES[h % SURNAMES.length]!;
  const first = FIRST_NAMES[Math.floor(h / SURNAMES.length) % FIRST_NAMES.length]!;
  let other = FIRST_NAMES[Math.floor(h / (SURNAMES.length * FIRST_NAMES.length)) % FIRST_NAMES.length]!;
  if (other === first) other = FIRST_NAMES[(FIRST_NAMES.indexOf(first) + 7) % FIRST_NAMES.length]!;
  return `${surname} ${first} ${other}`;
}

/** An 11-digit BVN for an account holder, stable per account number. */
export function bvnFor(accountNumber: string): string {
  return `22${String(hash32(`bvn:${accountNumber}`))
    .padStart(9, '0')
    .slice(-9)}`;
}

/** Test values: destination accounts ending in these digits behave specially (docs/simulator.md). */
export const FAILING_ACCOUNT_SUFFIX = '0000';
export const PENDING_FOREVER_SUFFIX = '1111';
/** Accepted as pending, then `failed` when it would have settled; the money comes back, no reversal credit. */
export const FAILS_LATER_SUFFIX = '4040';
/** Accepted as pending, then `reversed`, with a separate reversal credit `R-<reference>`. */
export const REVERSED_LATER_SUFFIX = '5050';
