// The simulator's "realistic" mode (`simulator serve --realistic`, FSAPI_SIM_REALISTIC=1): answers reshaped
// the way public integrations of the API show the real service varying from its spec. The routes build
// every answer in the spec's shape and check it (app.ts); this layer then reshapes the successful ones, so
// the client meets what it will meet in production:
//   - optional display fields `null`, a different one on each row (by the row's id), so a page of rows
//     puts each field to null in turn;
//   - numbers as text and text as numbers (ids, tiers, amounts, times, account numbers with no leading zero);
//   - statuses in another case (`SUCCESSFUL`, `Pending`);
//   - a name enquiry that answers what integrations read, `accountName`, `accountNumber`, `bank`, with the
//     `bankCode` spec 2.8 shows (nothing shows the real API drops it);
//   - notifications with `amountReceived` as `"1000.0"` and `virtualAccount` as a number, and events of
//     other kinds (payout, reversal) besides collections (reshapeNotification).
// Bank fields stay text: an integration calls `.trim()` on a bank's code, name and category, and nothing
// shows the real API sends them otherwise. Every variation and its evidence is in docs/simulator.md.
// Fields fsapi acts on keep a usable value (a reference, a status in some case, an amount as number or
// text, the name a name enquiry verifies, the business name, the available balance), and the fields a
// collection's verification compares (type, account, amount, reversedFlag) are left as they are.
// Deterministic: the same state gives the same answer, so tests can assert on it.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Display-only fields of a transaction record, put to null one per row in turn. */
export const NULLABLE_TRANSACTION_FIELDS = [
  'description',
  'destinationAccountName',
  'destinationBankName',
  'destinationBankCode',
  'sourceAccountName',
  'sourceAccountNumber',
  'sourceBankName',
  'sourceBankCode',
  'category',
  'transactionTypeName',
  'utilityType',
  'sessionId',
  'details',
  'charge',
  'netAmount',
  'stampDuty',
  'accountId',
  'userId',
  'completedAt',
  'updatedAt',
  'createdAt',
  'id',
] as const;

/** Display-only fields of a client list row, put to null one per row in turn. */
export const NULLABLE_CLIENT_FIELDS = [
  'metadata',
  'firstName',
  'lastName',
  'mobileNumber',
  'accountTier',
  'emailAddress',
  'bvn',
  'dateOfBirth',
  'businessId',
  'rcNumber',
  'incorporationDate',
  'externalReference',
  'createdAt',
  'updatedAt',
  'accountName',
] as const;

/** Reshapes one answer body, or returns it as it is (failures, the token, unknown paths). */
export function reshapeAnswer(method: string, path: string, body: unknown): unknown {
  if (!isObject(body) || body.success !== true) return body;
  const data = body.data;
  if (method === 'GET' && path === '/v1/transactions' && Array.isArray(data)) return { ...body, data: data.map(reshapeTransaction) };
  if (method === 'GET' && path.startsWith('/v1/transactions/reference/') && isObject(data)) return { ...body, data: reshapeTransaction(data) };
  if (method === 'POST' && path === '/v1/transfer' && isObject(data)) return { ...body, data: reshapeTransferResult(data) };
  if (method === 'POST' && path === '/v1/transfer/name-enquiry' && isObject(data)) {
    return { ...body, data: { accountName: data.accountName, bankCode: data.bankCode, accountNumber: data.accountNumber, bank: data.bank } };
  }
  if (method === 'GET' && path === '/v1/account' && isObject(data)) return { ...body, data: reshapeAccount(data) };
  if (method === 'GET' && path === '/v1/account/clients' && Array.isArray(data)) return { ...body, data: data.map(reshapeClient) };
  if (method === 'GET' && path.startsWith('/v1/client-enquiry/') && isObject(data)) return { ...body, data: reshapeClientEnquiry(data) };
  if (method === 'GET' && path === '/v1/transfer/tsq' && isObject(data)) return { ...body, data: { ...data, feedbackDescription: null } };
  if (method === 'POST' && path.startsWith('/v1/account/clients/') && isObject(data)) return { ...body, data: reshapeCreatedClient(data) };
  return body;
}

/** A row's turn: its numeric id (the rows of a page have consecutive ids), else 0. */
function turnOf(row: Json): number {
  const id = Number(row.id);
  return Number.isSafeInteger(id) && id >= 0 ? id : 0;
}

/** `successful` as `SUCCESSFUL` or `Successful`, by turn; every third row keeps the spec's case. */
function otherCase(status: unknown, turn: number): unknown {
  if (typeof status !== 'string' || status === '') return status;
  if (turn % 3 === 1) return status.toUpperCase();
  if (turn % 3 === 2) return status[0]!.toUpperCase() + status.slice(1);
  return status;
}

/** A number as text, text as a number (only when that loses nothing: no leading zero, at most 2 decimals). */
function flip(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (typeof value === 'string' && /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/.test(value)) return Number(value);
  return value;
}

function reshapeTransaction(row: unknown): unknown {
  if (!isObject(row)) return row;
  const turn = turnOf(row);
  const out: Json = { ...row };
  out.status = otherCase(row.status, turn);
  if (turn % 2 === 0) out.amount = flip(row.amount);
  out.netAmount = flip(row.netAmount);
  if (turn % 4 === 0) out.id = String(row.id);
  if (turn % 5 === 0) out.createdAt = String(row.createdAt);
  // A debit's destination is not what a collection's verification compares: it may come as a number.
  if (row.type === 'debit' && turn % 2 === 1) out.destinationAccountNumber = flip(row.destinationAccountNumber);
  out.sourceAccountNumber = flip(row.sourceAccountNumber);
  const nulled = NULLABLE_TRANSACTION_FIELDS[turn % NULLABLE_TRANSACTION_FIELDS.length]!;
  out[nulled] = null;
  return out;
}

function reshapeTransferResult(data: Json): Json {
  return {
    ...data,
    status: typeof data.status === 'string' ? data.status.toUpperCase() : data.status,
    amount: flip(data.amount),
    netAmount: flip(data.netAmount),
    charge: flip(data.charge),
    completedAt: null,
    sessionId: null,
    details: null,
    destinationAccountNumber: flip(data.destinationAccountNumber),
  };
}

function reshapeAccount(data: Json): Json {
  return {
    ...data,
    accountTier: flip(data.accountTier),
    ledgerBalance: flip(data.ledgerBalance),
    accountNumber: flip(data.accountNumber),
    createdAt: String(data.createdAt),
    productName: null,
  };
}

function reshapeClient(row: unknown): unknown {
  if (!isObject(row)) return row;
  const turn = turnOf(row);
  const out: Json = { ...row, accountTier: flip(row.accountTier), accountNumber: flip(row.accountNumber) };
  if (turn % 2 === 0) out.id = String(row.id);
  if (turn % 3 === 0) out.createdAt = String(row.createdAt);
  out[NULLABLE_CLIENT_FIELDS[turn % NULLABLE_CLIENT_FIELDS.length]!] = null;
  return out;
}

function reshapeClientEnquiry(data: Json): Json {
  return { ...data, accountTier: flip(data.accountTier), nubanAccountNumber: null, mobileNumber: null, customAccountNumber: flip(data.customAccountNumber) };
}

function reshapeCreatedClient(data: Json): Json {
  return { ...data, id: String(data.id), metadata: null, middlename: null, validityType: null, createdAt: String(data.createdAt) };
}

/**
 * A collection notification as public integrations show the real service sending it: `amountReceived`
 * as text with one decimal where that loses nothing (`"1000.0"`), `virtualAccount` as a JSON number when
 * it has no leading zero. Every other field is the spec's.
 */
export function reshapeNotification<T extends { amountReceived: unknown; virtualAccount: unknown }>(notification: T): Json {
  const out: Json = { ...notification };
  const amount = String(notification.amountReceived);
  if (/^\d+\.\d0$/.test(amount)) out.amountReceived = amount.slice(0, -1);
  else if (/^\d+$/.test(amount)) out.amountReceived = `${amount}.0`;
  if (typeof notification.virtualAccount === 'string' && /^[1-9]\d{0,14}$/.test(notification.virtualAccount))
    out.virtualAccount = Number(notification.virtualAccount);
  return out;
}
