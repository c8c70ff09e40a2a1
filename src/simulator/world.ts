// The simulated bank: what each endpoint does to the state and how the state reads back in the API's
// shapes. Plain functions over a SimulatorState (one database transaction, src/simulator/store.ts) and a
// clock, with no HTTP in sight; src/simulator/app.ts maps them to routes. Every change checks everything
// first and writes last; the store rolls back whatever a refusal thrown half-way would have left.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  ClientEnquiry,
  ClientListItem,
  CollectionNotification,
  CorporateClient,
  CorporateClientRequest,
  IndividualClient,
  IndividualClientRequest,
  NameEnquiryResult,
  PrimaryAccount,
  TransactionRecord,
  TransferRequest,
  TransferResult,
  TsqResult,
} from '../api/schemas.js';
import { addKobo, AmountError, koboToApiNumber, koboToDecimal, NO_KOBO, parseNairaInput, subtractKobo, sumKobo, type Kobo } from '../money/kobo.js';
import {
  BANKS,
  BUSINESS,
  FAILING_ACCOUNT_SUFFIX,
  FAILS_LATER_SUFFIX,
  PENDING_FOREVER_SUFFIX,
  REVERSED_LATER_SUFFIX,
  accountHolderName,
  bvnFor,
  collectionFeeKobo,
  findBank,
  stampDutyKobo,
  transferChargeKobo,
} from './data.js';
import { createRandom, hash32, token } from './random.js';
import { clientAccountNumber, externalReferenceFor, seedClients, seedHistory, sessionIdFor } from './seed.js';
import type { ClientFilter, Counterparty, SimulatorState as StateDoc, StoredClient, StoredTransaction } from './types.js';
import type { SeedHistory } from './seed.js';

const DAY_MS = 86_400_000;

/** Kobo as the API's JSON number of naira (1500.5). */
const apiNumber = (kobo: Kobo) => koboToApiNumber(kobo);

/**
 * A request the simulated API refuses (HTTP 400). The route picks the API's message (one of its two
 * spellings); `reason` says why, for people and tests.
 */
export class SimulatorRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SimulatorRefusal';
  }
}

// ---- tokens -----------------------------------------------------------------------------------------

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A JWT-shaped token (HS256 over the state's key) remembered by its id until it expires. */
export function issueToken(doc: StateDoc, consumerKey: string, lifetimeMs: number, now: number): string {
  const jti = randomBytes(12).toString('hex');
  const expiresAt = now + lifetimeMs;
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ iss: 'fsapi-simulator', sub: consumerKey, jti, iat: Math.floor(now / 1000), exp: Math.floor(expiresAt / 1000) }));
  const signature = createHmac('sha256', doc.signingKey).update(`${header}.${payload}`).digest('base64url');
  doc.addToken(jti, expiresAt, now);
  return `${header}.${payload}.${signature}`;
}

/** True when the token was issued by this state, is intact and has not expired. */
export function tokenIsValid(doc: StateDoc, tokenText: string, now: number): boolean {
  const parts = tokenText.split('.');
  if (parts.length !== 3) return false;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', doc.signingKey).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  let jti: unknown;
  try {
    jti = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { jti?: unknown }).jti;
  } catch {
    return false;
  }
  const expiresAt = typeof jti === 'string' ? doc.tokenExpiry(jti) : undefined;
  return expiresAt !== undefined && now < expiresAt;
}

// ---- the seeded part of the world, cached per state -------------------------------------------------

interface SeededViews {
  key: string;
  /** The seeded clients, oldest first. */
  clients: StoredClient[];
  clientsByNumber: Map<string, StoredClient>;
}

let seededCache: SeededViews | undefined;

function seeded(doc: StateDoc): SeededViews {
  const key = `${doc.id}:${doc.createdAt}`;
  if (seededCache?.key === key) return seededCache;
  const clients = seedClients(doc.id, doc.createdAt);
  seededCache = { key, clients, clientsByNumber: new Map(clients.map((client) => [client.accountNumber, client])) };
  return seededCache;
}

const newerFirst = (a: StoredTransaction, b: StoredTransaction) => b.createdAt - a.createdAt || b.id - a.id;

/** The seeded references carry ACME-; a state of another business shows its own prefix in their place. */
const SEEDED_PREFIX = `${BUSINESS.referencePrefix}-`;
const prefixedHistories = new Map<string, SeedHistory>();

function historyOf(doc: StateDoc): SeedHistory {
  const history = seedHistory(doc.seed, doc.seedTransactions, doc.createdAt);
  const prefix = `${doc.business.referencePrefix}-`;
  if (prefix === SEEDED_PREFIX) return history;
  const key = `${doc.seed}:${doc.seedTransactions}:${doc.createdAt}:${prefix}`;
  let prefixed = prefixedHistories.get(key);
  if (!prefixed) {
    if (prefixedHistories.size >= 8) prefixedHistories.clear();
    const shown = (tx: StoredTransaction): StoredTransaction =>
      tx.reference.startsWith(SEEDED_PREFIX) ? { ...tx, reference: prefix + tx.reference.slice(SEEDED_PREFIX.length) } : tx;
    prefixed = {
      count: history.count,
      row: (id) => shown(history.row(id)),
      slice: (start, end) => history.slice(start, end).map(shown),
      findByReference: (reference) => {
        // Only this business's prefix finds a seeded transfer; collections (COL-) read the same for every business.
        if (reference.startsWith(SEEDED_PREFIX)) return undefined;
        const tx = history.findByReference(reference.startsWith(prefix) ? SEEDED_PREFIX + reference.slice(prefix.length) : reference);
        return tx && shown(tx);
      },
      findBySessionId: (sessionId) => {
        const tx = history.findBySessionId(sessionId);
        return tx && shown(tx);
      },
    };
    prefixedHistories.set(key, prefixed);
  }
  return prefixed;
}

export function findClient(doc: StateDoc, accountNumber: string): StoredClient | undefined {
  return seeded(doc).clientsByNumber.get(accountNumber) ?? doc.clientByAccountNumber(accountNumber);
}

/** By reference or by NIP session id, seeded or made since. */
export function findTransaction(doc: StateDoc, id: string): StoredTransaction | undefined {
  const history = historyOf(doc);
  return doc.transactionByReference(id) ?? history.findByReference(id) ?? doc.transactionBySessionId(id) ?? history.findBySessionId(id);
}

function referenceTaken(doc: StateDoc, reference: string): boolean {
  return doc.transactionByReference(reference) !== undefined || historyOf(doc).findByReference(reference) !== undefined;
}

/** Newest first: the changes, then the seeded history (ids descending). */
function newestFirstSlice(doc: StateDoc, start: number, end: number): StoredTransaction[] {
  const history = historyOf(doc);
  const oldestChange = doc.oldestTransaction();
  const newestSeeded = history.count > 0 ? history.row(history.count) : undefined;
  if (!oldestChange || !newestSeeded || newerFirst(oldestChange, newestSeeded) <= 0) {
    // The usual case: everything made since is newer than the seeded history, so the list is the two
    // side by side and a page costs only its own rows.
    const fromChanges = doc.newestTransactions(start, end - start);
    if (fromChanges.length === end - start) return fromChanges;
    // The page reaches past the changes: their count says where the seeded history starts.
    const changeCount = fromChanges.length > 0 ? start + fromChanges.length : doc.transactionCount();
    const fromHistory = history.slice(Math.max(0, start - changeCount), Math.max(0, end - changeCount));
    return [...fromChanges, ...fromHistory];
  }
  // A clock that went backwards (tests can do that): merge the two lists, O(n) per page.
  const changeCount = doc.transactionCount();
  return [...doc.newestTransactions(0, changeCount), ...history.slice(0, history.count)].sort(newerFirst).slice(start, end);
}

// ---- reading ------------------------------------------------------------------------------------------

export function transactionStatus(tx: StoredTransaction, now: number): 'pending' | 'successful' | TransferFailure {
  if (tx.settlesAt === null || now < tx.settlesAt) return 'pending';
  return transferFailure(tx) ?? 'successful';
}

function netAmountKobo(tx: StoredTransaction): Kobo {
  // What leaves the account for a transfer (amount + charge); what arrives for a collection.
  return tx.kind === 'transfer' ? addKobo(tx.amountKobo, tx.chargeKobo) : subtractKobo(tx.amountKobo, addKobo(tx.chargeKobo, tx.stampDutyKobo));
}

const primarySide = (doc: StateDoc): Counterparty => ({
  accountNumber: BUSINESS.accountNumber,
  accountName: doc.business.name,
  bankCode: BUSINESS.bankCode,
  bankName: BUSINESS.bankName,
});

export function renderTransaction(doc: StateDoc, tx: StoredTransaction, now: number): TransactionRecord {
  const status = transactionStatus(tx, now);
  const settledAt = status === 'pending' ? null : tx.settlesAt;
  const isTransfer = tx.kind === 'transfer';
  const client = tx.clientAccountNumber ? findClient(doc, tx.clientAccountNumber) : undefined;
  const destination: Counterparty = isTransfer
    ? tx.counterparty
    : { accountNumber: tx.clientAccountNumber ?? '', accountName: client?.accountName ?? '', bankCode: BUSINESS.bankCode, bankName: BUSINESS.bankName };
  const source: Counterparty = isTransfer ? primarySide(doc) : tx.counterparty;
  return {
    id: tx.id,
    userId: BUSINESS.userId,
    accountId: isTransfer ? null : (client?.id ?? null),
    netAmount: apiNumber(netAmountKobo(tx)),
    amount: koboToDecimal(tx.amountKobo),
    charge: koboToDecimal(tx.chargeKobo),
    stampDuty: isTransfer ? null : apiNumber(tx.stampDutyKobo),
    details: transactionDetails(doc, tx, client),
    description: tx.narration,
    destinationAccountNumber: destination.accountNumber,
    destinationAccountName: destination.accountName,
    destinationBankCode: destination.bankCode,
    destinationBankName: destination.bankName,
    sourceAccountNumber: source.accountNumber,
    sourceAccountName: source.accountName,
    sourceBankCode: source.bankCode,
    sourceBankName: source.bankName,
    reference: tx.reference,
    transactionTypeName: isTransfer ? 'bank_transfer' : 'collection',
    category: isTransfer ? 'bank_transfer' : 'collection',
    utilityType: null,
    sessionId: tx.sessionId,
    status,
    reversedFlag: status === 'reversed' ? 1 : 0,
    type: isTransfer ? 'debit' : 'credit',
    completedAt: settledAt,
    createdAt: tx.createdAt,
    updatedAt: settledAt ?? tx.createdAt,
  };
}

function transactionDetails(doc: StateDoc, tx: StoredTransaction, client: StoredClient | undefined): Record<string, unknown> {
  if (tx.kind === 'transfer') return { senderName: tx.senderName ?? doc.business.name, narration: tx.narration };
  return { virtualAccount: tx.clientAccountNumber ?? '', externalReference: client?.externalReference ?? '', remarks: tx.narration };
}

export function transactionsPage(doc: StateDoc, page: number, limit: number, now: number): TransactionRecord[] {
  const start = (page - 1) * limit;
  return newestFirstSlice(doc, start, start + limit).map((tx) => renderTransaction(doc, tx, now));
}

export function tsq(doc: StateDoc, id: string, now: number): TsqResult {
  const tx = findTransaction(doc, id);
  if (!tx) throw new SimulatorRefusal(`no transaction with reference or session id ${id}`);
  const status = transactionStatus(tx, now);
  if (status === 'successful') return { transactionStatus: 'SUCCESSFUL', feedbackCode: '00', feedbackDescription: 'Approved or completed successfully' };
  if (status === 'pending') return { transactionStatus: 'PENDING', feedbackCode: '09', feedbackDescription: 'Request processing in progress' };
  return {
    transactionStatus: status.toUpperCase(),
    feedbackCode: '91',
    feedbackDescription: status === 'reversed' ? 'Transaction reversed' : 'Beneficiary bank not available',
  };
}

export function primaryAccount(doc: StateDoc, now: number): PrimaryAccount {
  // Money of a pending transfer is held: out of the available balance at once, out of the ledger when it settles.
  const heldKobo = doc.pendingTransfersKobo(now);
  // Failed or reversed transfers gave their money back (src/simulator/world.ts, at the end).
  const returned = returnedKobo(doc, now);
  return {
    currency: 'NGN',
    accountNumber: BUSINESS.accountNumber,
    productName: BUSINESS.productName,
    accountType: 'business',
    accountName: doc.business.name,
    accountTier: BUSINESS.accountTier,
    createdAt: doc.createdAt - BUSINESS.openedDaysBefore * DAY_MS,
    updatedAt: doc.updatedAt,
    ledgerBalance: koboToDecimal(sumKobo([doc.balanceKobo, returned, heldKobo])),
    availableBalance: koboToDecimal(addKobo(doc.balanceKobo, returned)),
  };
}

// ---- name enquiry -------------------------------------------------------------------------------------

/** A 10-digit account number from a string, or from a number whose leading zeros JSON dropped. */
export function normaliseAccountNumber(value: string | number): string {
  const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value).padStart(10, '0') : String(value).trim();
  if (!/^\d{10}$/.test(text)) throw new SimulatorRefusal(`account number ${JSON.stringify(String(value))} is not 10 digits`);
  return text;
}

function requireBank(code: string) {
  const bank = findBank(code);
  if (!bank) throw new SimulatorRefusal(`unknown bank code ${JSON.stringify(code)}; see GET /v1/transfer/banks`);
  return bank;
}

/** The name on an account, or a refusal for the documented failing test accounts. */
function resolveAccountName(doc: StateDoc, bankCode: string, accountNumber: string): string {
  if (accountNumber.endsWith(FAILING_ACCOUNT_SUFFIX)) {
    throw new SimulatorRefusal(`account ${accountNumber} not found at bank ${bankCode} (test accounts ending ${FAILING_ACCOUNT_SUFFIX} always fail)`);
  }
  if (bankCode === BUSINESS.bankCode) {
    if (accountNumber === BUSINESS.accountNumber) return doc.business.name;
    const client = findClient(doc, accountNumber);
    if (client) return client.accountName;
  }
  return accountHolderName(accountNumber);
}

export function nameEnquiry(doc: StateDoc, bankCode: string, rawAccountNumber: string | number, now: number): NameEnquiryResult {
  const bank = requireBank(bankCode);
  const accountNumber = normaliseAccountNumber(rawAccountNumber);
  const accountName = resolveAccountName(doc, bank.institutionCode, accountNumber);
  const random = createRandom(hash32(`${doc.id}:ne:${accountNumber}:${now}`));
  const sessionID = sessionIdFor(BUSINESS.bankCode, now, hash32(accountNumber), random);
  const bvn = bvnFor(accountNumber);
  return {
    accountName,
    // Not in spec 2.8, but public integrations read both from the real answer (docs/real-api-notes.md).
    accountNumber,
    bank: bank.institutionName,
    bankCode: bank.institutionCode,
    bvn,
    message: 'Approved or completed successfully',
    sessionID,
    transactionId: sessionID,
    responseCode: '00',
    kycLevel: String(1 + (hash32(`kyc:${accountNumber}`) % 3)),
    bankVerificationNumber: bvn,
    channelCode: 1,
  };
}

// ---- transfers ----------------------------------------------------------------------------------------

export const TRANSFER_MESSAGE = 'Transfer successful, the destination bank receives it in less than 5 minutes';

const referencePattern = (prefix: string) => new RegExp(`^${prefix}-[A-Za-z0-9][A-Za-z0-9._-]{0,59}$`, 'i');

export interface TransferOutcome {
  data: TransferResult;
  beneficiary: Record<string, unknown>;
}

export function makeTransfer(doc: StateDoc, body: TransferRequest, now: number, settleSeconds: number): TransferOutcome {
  if (body.narration.trim() === '') throw new SimulatorRefusal('narration: must not be empty');
  const bank = requireBank(body.beneficiaryBankCode);
  const accountNumber = normaliseAccountNumber(body.beneficiaryAccountNumber);
  let amountKobo: Kobo;
  try {
    amountKobo = parseNairaInput(String(body.amount));
  } catch (error) {
    if (error instanceof AmountError) throw new SimulatorRefusal(`amount ${body.amount}: ${error.message}`);
    throw error;
  }
  if (body.reference !== undefined) {
    if (!referencePattern(doc.business.referencePrefix).test(body.reference)) {
      throw new SimulatorRefusal(
        `reference ${JSON.stringify(body.reference)} must be ${doc.business.referencePrefix}-<letters, digits, . _ -> (at most 65 characters)`,
      );
    }
    if (referenceTaken(doc, body.reference)) throw new SimulatorRefusal(`reference ${body.reference} was already used`);
  }
  const accountName = resolveAccountName(doc, bank.institutionCode, accountNumber);
  const chargeKobo = transferChargeKobo(amountKobo);
  const availableKobo = addKobo(doc.balanceKobo, returnedKobo(doc, now));
  if (addKobo(amountKobo, chargeKobo) > availableKobo) {
    throw new SimulatorRefusal(
      `insufficient balance: ${koboToDecimal(amountKobo)} + charge ${koboToDecimal(chargeKobo)} is more than the available ${koboToDecimal(availableKobo)}`,
    );
  }

  // Everything is checked: commit.
  const id = doc.nextTransactionId();
  const random = createRandom(hash32(`${doc.id}:tx:${id}`));
  const reference = body.reference ?? newReference(doc, id);
  const counterparty: Counterparty = { accountNumber, accountName, bankCode: bank.institutionCode, bankName: bank.institutionName };
  const tx: StoredTransaction = {
    id,
    kind: 'transfer',
    reference,
    sessionId: sessionIdFor(BUSINESS.bankCode, now, id, random),
    amountKobo,
    chargeKobo,
    stampDutyKobo: NO_KOBO,
    createdAt: now,
    settlesAt: accountNumber.endsWith(PENDING_FOREVER_SUFFIX) ? null : now + Math.round(settleSeconds * 1000),
    counterparty,
    narration: body.narration,
    senderName: body.senderName ?? doc.business.name,
  };
  doc.addTransaction(tx);
  const netKobo = addKobo(amountKobo, chargeKobo);
  doc.changeBalance(subtractKobo(NO_KOBO, netKobo), now);
  return {
    data: {
      netAmount: apiNumber(netKobo),
      details: transactionDetails(doc, tx, undefined),
      destinationAccountNumber: accountNumber,
      destinationAccountName: accountName,
      destinationBankCode: bank.institutionCode,
      destinationBankName: bank.institutionName,
      sourceAccountName: doc.business.name,
      sourceAccountNumber: BUSINESS.accountNumber,
      sourceBankCode: BUSINESS.bankCode,
      sourceBankName: BUSINESS.bankName,
      amount: apiNumber(amountKobo),
      charge: apiNumber(chargeKobo),
      // The spec types completedAt as an integer even on a new (pending) transfer: the time it was accepted.
      completedAt: now,
      sessionId: tx.sessionId,
      type: 'debit',
      description: body.narration,
      transactionTypeName: 'bank_transfer',
      status: 'pending',
      reference,
    },
    beneficiary: { accountNumber, accountName, bankCode: bank.institutionCode, bankName: bank.institutionName },
  };
}

function newReference(doc: StateDoc, id: number): string {
  const random = createRandom(hash32(`${doc.id}:ref:${id}`));
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidate = `${doc.business.referencePrefix}-${token(random, 12)}`;
    if (!referenceTaken(doc, candidate)) return candidate;
  }
  return `${doc.business.referencePrefix}-${token(random, 8)}${id}`;
}

// ---- collections --------------------------------------------------------------------------------------

export function makeCollection(doc: StateDoc, accountNumber: string, amountKobo: Kobo, now: number): CollectionNotification {
  if (!Number.isSafeInteger(amountKobo) || amountKobo <= 0) throw new SimulatorRefusal(`amount must be a positive number of kobo, not ${amountKobo}`);
  const client = findClient(doc, accountNumber);
  if (!client) throw new SimulatorRefusal(`no client account ${accountNumber} in the simulator; see GET /v1/account/clients`);
  const id = doc.nextTransactionId();
  const random = createRandom(hash32(`${doc.id}:col:${id}`));
  const payerBank = random.pick(BANKS.filter((bank) => bank.institutionCode !== BUSINESS.bankCode));
  const payerNumber = random.digits(10).replace(/0000$|1111$/, '4321');
  const payer: Counterparty = {
    accountNumber: payerNumber,
    accountName: accountHolderName(payerNumber),
    bankCode: payerBank.institutionCode,
    bankName: payerBank.institutionName,
  };
  const tx: StoredTransaction = {
    id,
    kind: 'collection',
    reference: `COL-${token(random, 8)}${String(id).padStart(6, '0')}`,
    sessionId: sessionIdFor(payer.bankCode, now, id, random),
    amountKobo,
    chargeKobo: collectionFeeKobo(amountKobo),
    stampDutyKobo: stampDutyKobo(amountKobo),
    createdAt: now,
    settlesAt: now,
    counterparty: payer,
    clientAccountNumber: client.accountNumber,
    narration: `Transfer from ${payer.accountName}`,
  };
  doc.addTransaction(tx);
  doc.changeBalance(netAmountKobo(tx), now);
  return {
    event: 'collection',
    reference: tx.reference,
    virtualAccount: client.accountNumber,
    externalReference: client.externalReference,
    amountReceived: koboToDecimal(amountKobo),
    transactionFee: apiNumber(tx.chargeKobo),
    netAmount: apiNumber(netAmountKobo(tx)),
    stampDuty: apiNumber(tx.stampDutyKobo),
    sessionId: tx.sessionId,
    sourceCurrency: 'NGN',
    sourceAccountNumber: payer.accountNumber,
    sourceAccountName: payer.accountName,
    sourceBankCode: payer.bankCode,
    sourceBankName: payer.bankName,
    remarks: tx.narration,
    destinationCurrency: 'NGN',
    status: 'successful',
    createdAt: now,
    updatedAt: now,
  };
}

// ---- clients ------------------------------------------------------------------------------------------

const NUBAN_NOT_ENABLED = 'NUBAN generation is not enabled';

function requireBvn(text: string | undefined): string {
  if (text === undefined || !/^\d{11}$/.test(text)) throw new SimulatorRefusal('bvn: expected 11 digits');
  return text;
}

/** A whole number sent as a JSON number or, as real clients send it, a string of digits. */
function digitsOf(value: number | string): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  const text = value.trim();
  return /^\d+$/.test(text) ? text : undefined;
}

function newClientBase(doc: StateDoc, now: number) {
  const id = doc.nextClientId();
  return { id, accountNumber: clientAccountNumber(id), externalReference: externalReferenceFor(doc.id, id), createdAt: now };
}

function commitClient(doc: StateDoc, client: StoredClient): void {
  doc.addClient(client);
}

export function createIndividualClient(doc: StateDoc, body: IndividualClientRequest, now: number): IndividualClient {
  const bvn = requireBvn(body.bvn.trim());
  const base = newClientBase(doc, now);
  const middlename = body.middlename?.trim() ?? '';
  const client: StoredClient = {
    ...base,
    accountType: 'individual',
    accountName: [body.firstname.trim(), middlename, body.lastname.trim()].filter(Boolean).join(' '),
    metadata: body.metadata ?? {},
    mobileNumber: body.phoneNumber,
    emailAddress: body.emailAddress,
    bvn,
    address: body.address,
    dateOfBirth: body.dateOfBirth,
    validityType: 'permanent',
    status: 'active',
    accountTier: 1,
    firstname: body.firstname.trim(),
    lastname: body.lastname.trim(),
    middlename,
    gender: body.gender,
    ...(body.nin ? { nin: body.nin } : {}),
  };
  commitClient(doc, client);
  return {
    id: client.id,
    metadata: client.metadata,
    createdAt: now,
    updatedAt: now,
    accountNumber: client.accountNumber,
    accountName: client.accountName,
    accountType: 'individual',
    firstname: client.firstname!,
    lastname: client.lastname!,
    middlename,
    mobileNumber: client.mobileNumber,
    externalReference: client.externalReference,
    emailAddress: client.emailAddress,
    bvn,
    gender: body.gender,
    address: client.address,
    dateOfBirth: client.dateOfBirth,
    validityType: client.validityType,
  };
}

export function createCorporateClient(doc: StateDoc, body: CorporateClientRequest, now: number): CorporateClient {
  const rcNumber = digitsOf(body.rcNumber);
  if (rcNumber === undefined || /^0+$/.test(rcNumber)) throw new SimulatorRefusal('rcNumber: expected a positive whole number (digits)');
  const bvn = requireBvn(digitsOf(body.bvn));
  const incorporated = new Date(body.incorporationDate);
  if (Number.isNaN(incorporated.getTime())) throw new SimulatorRefusal('incorporationDate: expected a date such as 2018-03-09T00:00:00Z');
  const base = newClientBase(doc, now);
  const client: StoredClient = {
    ...base,
    accountType: 'corporate',
    accountName: body.businessName.trim(),
    metadata: body.metadata ?? {},
    mobileNumber: body.phoneNumber,
    emailAddress: body.emailAddress,
    bvn,
    address: body.address ?? '',
    dateOfBirth: body.dateOfBirth,
    validityType: 'permanent',
    status: 'active',
    accountTier: null,
    businessName: body.businessName.trim(),
    rcNumber,
    incorporationDate: incorporated.toISOString(),
  };
  commitClient(doc, client);
  return {
    id: client.id,
    metadata: client.metadata,
    createdAt: now,
    updatedAt: now,
    businessName: client.businessName!,
    accountNumber: client.accountNumber,
    accountName: client.accountName,
    accountType: 'corporate',
    rcNumber: client.rcNumber!,
    incorporationDate: client.incorporationDate!,
    mobileNumber: client.mobileNumber,
    externalReference: client.externalReference,
    emailAddress: client.emailAddress,
    bvn,
    dateOfBirth: client.dateOfBirth,
    address: client.address,
    validityType: client.validityType,
  };
}

export type { ClientFilter } from './types.js';

/** Newest first; filters compare case-insensitively; an unknown filter value matches nothing. */
export function clientsPage(doc: StateDoc, filter: ClientFilter, page: number, limit: number): ClientListItem[] {
  const start = (page - 1) * limit;
  const end = start + limit;
  // The clients created since come first (stored, filtered by the database), then the seeded ones.
  const createdCount = doc.clientCount(filter);
  const created = start < createdCount ? doc.newestClients(filter, start, Math.min(end, createdCount) - start) : [];
  const matches = (actual: string, wanted: string | undefined) => wanted === undefined || actual.toLowerCase() === wanted.toLowerCase();
  const seededMatches = seeded(doc)
    .clients.filter((c) => matches(c.accountType, filter.accountType) && matches(c.validityType, filter.validityType) && matches(c.status, filter.status))
    .reverse();
  const fromSeeded = seededMatches.slice(Math.max(0, start - createdCount), Math.max(0, end - createdCount));
  return [...created, ...fromSeeded].map(clientListItem);
}

function clientListItem(client: StoredClient): ClientListItem {
  const seconds = Math.floor(client.createdAt / 1000);
  const individual = client.accountType === 'individual';
  return {
    metadata: client.metadata,
    id: client.id,
    externalReference: client.externalReference,
    accountType: client.accountType,
    firstName: individual ? (client.firstname ?? null) : null,
    lastName: individual ? (client.lastname ?? null) : null,
    mobileNumber: client.mobileNumber,
    accountNumber: client.accountNumber,
    accountName: client.accountName,
    accountTier: client.accountTier,
    emailAddress: client.emailAddress,
    bvn: client.bvn,
    dateOfBirth: client.dateOfBirth,
    businessId: BUSINESS.businessId,
    rcNumber: client.rcNumber ?? null,
    incorporationDate: client.incorporationDate ?? null,
    createdAt: seconds,
    updatedAt: seconds,
  };
}

export function clientEnquiry(doc: StateDoc, accountNumber: string): ClientEnquiry {
  const client = findClient(doc, accountNumber);
  if (!client) throw new SimulatorRefusal(`no client account ${accountNumber}`);
  return {
    accountName: client.accountName,
    accountNumber: client.accountNumber,
    externalReference: client.externalReference,
    customAccountNumber: client.accountNumber,
    nubanAccountNumber: NUBAN_NOT_ENABLED,
    currency: 'NGN',
    accountTier: client.accountTier,
    mobileNumber: client.mobileNumber,
    emailAddress: client.emailAddress,
  };
}

// ---- transfers that fail after being accepted ---------------------------------------------------------
//
// The spec shows only pending and successful; public integrations of the API also see `failed` and
// `reversed`, a reversal being booked as a separate credit with the reference `R-<reference>`. Two test
// accounts play them (docs/simulator.md): a transfer to an account ending in 4040 is accepted as pending and
// turns `failed` when it would have settled; one ending in 5050 turns `reversed` and its reversal credit
// `R-<reference>` can then be looked up. Both are derived from the stored transfer when read, so the
// stored state needs nothing new: the money counts as returned from the moment the status changes.

export type TransferFailure = 'failed' | 'reversed';

function transferFailure(tx: StoredTransaction): TransferFailure | undefined {
  if (tx.kind !== 'transfer') return undefined;
  if (tx.counterparty.accountNumber.endsWith(FAILS_LATER_SUFFIX)) return 'failed';
  if (tx.counterparty.accountNumber.endsWith(REVERSED_LATER_SUFFIX)) return 'reversed';
  return undefined;
}

/** What failed and reversed transfers gave back to the account so far (amount and charge). */
function returnedKobo(doc: StateDoc, now: number): Kobo {
  return doc.settledTransfersKoboTo(now, [FAILS_LATER_SUFFIX, REVERSED_LATER_SUFFIX]);
}

export const REVERSAL_PREFIX = 'R-';

/** The reversal credit `R-<reference>` of a reversed transfer, once it is reversed; else undefined. */
export function reversalRecord(doc: StateDoc, reference: string, now: number): TransactionRecord | undefined {
  if (!reference.startsWith(REVERSAL_PREFIX)) return undefined;
  const original = findTransaction(doc, reference.slice(REVERSAL_PREFIX.length));
  if (!original || original.reference !== reference.slice(REVERSAL_PREFIX.length)) return undefined;
  if (transactionStatus(original, now) !== 'reversed') return undefined;
  const reversedAt = original.settlesAt!;
  const returned = netAmountKobo(original);
  const business = primarySide(doc);
  return {
    id: 1_000_000_000 + original.id,
    userId: BUSINESS.userId,
    accountId: null,
    netAmount: apiNumber(returned),
    amount: koboToDecimal(returned),
    charge: koboToDecimal(NO_KOBO),
    stampDuty: null,
    details: { reversalOf: original.reference },
    description: `Reversal of ${original.reference}`,
    destinationAccountNumber: business.accountNumber,
    destinationAccountName: business.accountName,
    destinationBankCode: business.bankCode,
    destinationBankName: business.bankName,
    sourceAccountNumber: original.counterparty.accountNumber,
    sourceAccountName: original.counterparty.accountName,
    sourceBankCode: original.counterparty.bankCode,
    sourceBankName: original.counterparty.bankName,
    reference,
    transactionTypeName: 'reversal',
    category: 'reversal',
    utilityType: null,
    sessionId: original.sessionId,
    status: 'successful',
    reversedFlag: 0,
    type: 'credit',
    completedAt: reversedAt,
    createdAt: reversedAt,
    updatedAt: reversedAt,
  };
}
