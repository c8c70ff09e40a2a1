// The seeded world: ten client accounts (individual and corporate) and a history of inflows and outflows
// over the 90 days before the state was created, busiest in the last week. Everything here is derived
// from (seed, count, createdAt), which the state file stores instead of the rows, so a 20,000-row history
// costs nothing to persist; rows are computed when a request needs them.
import { BANKS, BUSINESS, accountHolderName, collectionFeeKobo, stampDutyKobo, transferChargeKobo } from './data.js';
import { createRandom, hash32, token, type Random } from './random.js';
import type { Counterparty, StoredClient, StoredTransaction } from './types.js';
import { integerKobo, NO_KOBO } from '../money/kobo.js';

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 90;

/** Client account numbers: `99` and eleven times the id, so they are unique and never collide. */
export function clientAccountNumber(id: number): string {
  return `99${String(id * 11).padStart(8, '0')}`;
}

/** A UUID-shaped external reference, stable for a state and a client id. */
export function externalReferenceFor(stateSeed: string, id: number): string {
  const hex = (n: number) => hash32(`${stateSeed}:${id}:${n}`).toString(16).padStart(8, '0');
  const h = hex(1) + hex(2) + hex(3) + hex(4);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * NIP-style session id: sending bank code, yyMMddHHmmss (Lagos time), then 12 digits: a serial that keeps
 * it unique and random filler.
 */
export function sessionIdFor(bankCode: string, at: number, serial: number, random: Random): string {
  const lagos = new Date(at + 3_600_000); // West Africa Time, UTC+1, no daylight saving
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${pad(lagos.getUTCFullYear() % 100)}${pad(lagos.getUTCMonth() + 1)}${pad(lagos.getUTCDate())}${pad(lagos.getUTCHours())}${pad(lagos.getUTCMinutes())}${pad(lagos.getUTCSeconds())}`;
  return `${bankCode}${stamp}${String(serial % 1e8).padStart(8, '0')}${random.digits(4)}`;
}

interface SeedClientSpec {
  accountType: 'individual' | 'corporate';
  firstname?: string;
  lastname?: string;
  middlename?: string;
  gender?: 'male' | 'female';
  businessName?: string;
  rcNumber?: string;
  incorporationDate?: string;
  dateOfBirth: string;
  address: string;
  email: string;
  phone: string;
}

const SEED_CLIENTS: readonly SeedClientSpec[] = [
  {
    accountType: 'individual',
    firstname: 'Chiamaka',
    lastname: 'Okafor',
    middlename: 'Adaeze',
    gender: 'female',
    dateOfBirth: '1992/04/17',
    address: '14 Admiralty Way, Lekki, Lagos',
    email: 'chiamaka.okafor@example.com',
    phone: '08031234501',
  },
  {
    accountType: 'individual',
    firstname: 'Ibrahim',
    lastname: 'Bello',
    middlename: 'Musa',
    gender: 'male',
    dateOfBirth: '1988/11/02',
    address: '7 Ahmadu Bello Way, Kaduna',
    email: 'ibrahim.bello@example.com',
    phone: '08061234502',
  },
  {
    accountType: 'corporate',
    businessName: 'Zenkwe Foods Limited',
    rcNumber: '1458823',
    incorporationDate: '2018-03-09T00:00:00.000Z',
    dateOfBirth: '12/06/1979',
    address: '22 Aba Road, Port Harcourt',
    email: 'accounts@zenkwefoods.example.com',
    phone: '08091234503',
  },
  {
    accountType: 'individual',
    firstname: 'Funmilayo',
    lastname: 'Adeyemi',
    middlename: 'Yetunde',
    gender: 'female',
    dateOfBirth: '1995/01/30',
    address: '3 Ring Road, Ibadan',
    email: 'funmi.adeyemi@example.com',
    phone: '08121234504',
  },
  {
    accountType: 'corporate',
    businessName: 'Northwind Logistics Nigeria Ltd',
    rcNumber: '987321',
    incorporationDate: '2015-07-21T00:00:00.000Z',
    dateOfBirth: '03/02/1975',
    address: 'Plot 5, Trans-Amadi, Port Harcourt',
    email: 'finance@northwind.example.com',
    phone: '07031234505',
  },
  {
    accountType: 'individual',
    firstname: 'Emeka',
    lastname: 'Nwosu',
    middlename: 'Obinna',
    gender: 'male',
    dateOfBirth: '1990/08/08',
    address: '11 Ogui Road, Enugu',
    email: 'emeka.nwosu@example.com',
    phone: '09031234506',
  },
  {
    accountType: 'corporate',
    businessName: 'Sahel Agro Ventures Ltd',
    rcNumber: '1620457',
    incorporationDate: '2019-10-14T00:00:00.000Z',
    dateOfBirth: '21/09/1983',
    address: '9 Zoo Road, Kano',
    email: 'payments@sahelagro.example.com',
    phone: '08051234507',
  },
  {
    accountType: 'individual',
    firstname: 'Aisha',
    lastname: 'Danjuma',
    middlename: 'Halima',
    gender: 'female',
    dateOfBirth: '1997/06/12',
    address: '5 Gana Street, Maitama, Abuja',
    email: 'aisha.danjuma@example.com',
    phone: '08141234508',
  },
  {
    accountType: 'corporate',
    businessName: 'Lagoon Pharmacy Limited',
    rcNumber: '734219',
    incorporationDate: '2012-02-27T00:00:00.000Z',
    dateOfBirth: '08/11/1970',
    address: '31 Broad Street, Lagos Island',
    email: 'accounts@lagoonpharmacy.example.com',
    phone: '08021234509',
  },
  {
    accountType: 'individual',
    firstname: 'Tunde',
    lastname: 'Balogun',
    middlename: 'Olamide',
    gender: 'male',
    dateOfBirth: '1985/02/19',
    address: '18 Awolowo Road, Ikoyi, Lagos',
    email: 'tunde.balogun@example.com',
    phone: '07061234510',
  },
];

export const SEED_CLIENT_COUNT = SEED_CLIENTS.length;

/** The seeded client accounts, oldest first (ids 1..10). */
export function seedClients(stateId: string, createdAt: number): StoredClient[] {
  return SEED_CLIENTS.map((spec, index) => {
    const id = index + 1;
    const accountNumber = clientAccountNumber(id);
    const personName = [spec.firstname, spec.middlename, spec.lastname].filter(Boolean).join(' ');
    return {
      id,
      accountType: spec.accountType,
      accountNumber,
      accountName: spec.accountType === 'individual' ? personName : spec.businessName!,
      externalReference: externalReferenceFor(stateId, id),
      createdAt: createdAt - (130 - id * 10) * DAY_MS,
      metadata: {},
      mobileNumber: spec.phone,
      emailAddress: spec.email,
      bvn: `22${String(hash32(`seed-bvn:${id}`))
        .padStart(9, '0')
        .slice(-9)}`,
      address: spec.address,
      dateOfBirth: spec.dateOfBirth,
      validityType: 'permanent',
      status: 'active',
      accountTier: spec.accountType === 'individual' ? 1 : null,
      ...(spec.accountType === 'individual'
        ? { firstname: spec.firstname!, lastname: spec.lastname!, middlename: spec.middlename ?? '', gender: spec.gender! }
        : { businessName: spec.businessName!, rcNumber: spec.rcNumber!, incorporationDate: spec.incorporationDate! }),
    };
  });
}

/**
 * The seeded history as a virtual list: row `id` (1 = oldest) is computed on demand from its own random
 * stream, so nothing is built up front, memory stays flat, and a 20,000-row (or 1,000,000-row) history
 * costs only the rows a request shows. Times grow with the id, so "newest first" is "id descending".
 */
export interface SeedHistory {
  readonly count: number;
  /** Row `id`, 1..count. */
  row(id: number): StoredTransaction;
  /** Newest first: position 0 is row `count`. */
  slice(start: number, end: number): StoredTransaction[];
  findByReference(reference: string): StoredTransaction | undefined;
  findBySessionId(sessionId: string): StoredTransaction | undefined;
}

const NARRATIONS = ['Supplier payment', 'Invoice settlement', 'Logistics', 'Staff reimbursement', 'Rent', 'Office supplies', 'Vendor payout', 'Refund'];
const CLIENT_NUMBERS = SEED_CLIENTS.map((_, index) => clientAccountNumber(index + 1));
const EXTERNAL_BANKS = BANKS.filter((bank) => bank.institutionCode !== BUSINESS.bankCode);
/** Seeded references end in the row id (at least six digits): `ACME-XXXXXXXX000123`, `COL-XXXXXXXX000124`. */
const SEEDED_REFERENCE = /^(?:ACME|COL)-[A-Z2-9]{8}(\d{6,})$/;

/**
 * The two oldest rows keep the same readable references whatever the seed, so the examples in `--help`
 * (`fsapi tx get ACME-EXAMPLES000001`) run as shown on every fresh simulator: row 1 is a transfer, row 2
 * a collection.
 */
export const EXAMPLE_TRANSFER_REFERENCE = `${BUSINESS.referencePrefix}-EXAMPLES000001`;
export const EXAMPLE_COLLECTION_REFERENCE = 'COL-EXAMPLES000002';
const exampleToken = (id: number, random: Random) => {
  const drawn = token(random, 8); // drawn anyway, so the rows after these stay as they were
  return id <= 2 ? 'EXAMPLES' : drawn;
};

const histories = new Map<string, SeedHistory>();

/** The seeded history for these parameters (one per process and parameters, for its row cache). */
export function seedHistory(seed: number, count: number, createdAt: number): SeedHistory {
  const key = `${seed}:${count}:${createdAt}`;
  let history = histories.get(key);
  if (!history) {
    if (histories.size >= 8) histories.clear();
    history = createHistory(seed, count, createdAt);
    histories.set(key, history);
  }
  return history;
}

function createHistory(seed: number, count: number, createdAt: number): SeedHistory {
  const start = createdAt - HISTORY_DAYS * DAY_MS;
  // The last five minutes stay empty, so every seeded transfer has settled when the state is created.
  const span = HISTORY_DAYS * DAY_MS - 300_000;
  const cache = new Map<number, StoredTransaction>();
  const row = (id: number): StoredTransaction => {
    let tx = cache.get(id);
    if (!tx) {
      if (cache.size > 5000) cache.clear();
      tx = seedRow(seed, id, count, start, span);
      cache.set(id, tx);
    }
    return tx;
  };
  const inRange = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= count;
  return {
    count,
    row,
    slice: (from, to) => {
      const rows: StoredTransaction[] = [];
      for (let position = Math.max(0, from); position < Math.min(to, count); position++) rows.push(row(count - position));
      return rows;
    },
    findByReference: (reference) => {
      const match = SEEDED_REFERENCE.exec(reference);
      const id = match ? Number(match[1]) : 0;
      if (!inRange(id)) return undefined;
      const tx = row(id);
      return tx.reference === reference ? tx : undefined;
    },
    findBySessionId: (sessionId) => {
      // bank code (6), time (12), serial (8), random (4): the serial is the row id.
      if (!/^\d{30}$/.test(sessionId)) return undefined;
      const id = Number(sessionId.slice(18, 26));
      if (!inRange(id)) return undefined;
      const tx = row(id);
      return tx.sessionId === sessionId ? tx : undefined;
    },
  };
}

/**
 * Where in the history (0 = its start, 1 = its end) the row at `position` (0..1, by id) falls. The last
 * week is busier than the weeks before, as a finance team's "this week" should be: the newest
 * RECENT_SHARE of the rows fall in the last RECENT_DAYS days, the rest spread evenly before them. The
 * mapping only grows, so times still grow with the id.
 */
const RECENT_DAYS = 7;
const RECENT_SHARE = 0.4;
function historyPoint(position: number): number {
  const recentStart = (HISTORY_DAYS - RECENT_DAYS) / HISTORY_DAYS;
  const split = 1 - RECENT_SHARE;
  return position < split ? (position / split) * recentStart : recentStart + ((position - split) / RECENT_SHARE) * (1 - recentStart);
}

/** One seeded transaction, from a random stream of its own (seed and id), at a random point of its time slot. */
function seedRow(seed: number, id: number, count: number, start: number, span: number): StoredTransaction {
  const random = createRandom(hash32(`${seed}:${id}`));
  const at = Math.floor(start + historyPoint((id - 1 + random.next() * 0.9) / Math.max(count, 1)) * span);
  const bank = random.pick(EXTERNAL_BANKS);
  const partyNumber = random.digits(10).replace(/0000$|1111$/, '4321');
  const counterparty: Counterparty = {
    accountNumber: partyNumber,
    accountName: accountHolderName(partyNumber),
    bankCode: bank.institutionCode,
    bankName: bank.institutionName,
  };
  const collection = random.next() < 0.55;
  if (id === 2 || (id !== 1 && collection)) {
    const amountKobo = integerKobo(random.int(10, 5000) * 5000); // ₦500 .. ₦250,000 in steps of ₦50
    return {
      id,
      kind: 'collection',
      reference: `COL-${exampleToken(id, random)}${String(id).padStart(6, '0')}`,
      sessionId: sessionIdFor(bank.institutionCode, at, id, random),
      amountKobo,
      chargeKobo: collectionFeeKobo(amountKobo),
      stampDutyKobo: stampDutyKobo(amountKobo),
      createdAt: at,
      settlesAt: at,
      counterparty,
      clientAccountNumber: random.pick(CLIENT_NUMBERS),
      narration: `Transfer from ${counterparty.accountName}`,
    };
  }
  const amountKobo = integerKobo(random.int(10, 5000) * 10_000); // ₦1,000 .. ₦500,000 in steps of ₦100
  return {
    id,
    kind: 'transfer',
    reference: `${BUSINESS.referencePrefix}-${exampleToken(id, random)}${String(id).padStart(6, '0')}`,
    sessionId: sessionIdFor(BUSINESS.bankCode, at, id, random),
    amountKobo,
    chargeKobo: transferChargeKobo(amountKobo),
    stampDutyKobo: NO_KOBO,
    createdAt: at,
    settlesAt: at + random.int(2, 30) * 1000,
    counterparty,
    narration: random.pick(NARRATIONS),
  };
}
