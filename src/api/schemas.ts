// The one description of the API's shapes (docs/api-spec.md sections 2, 4, 6 and 7), shared by the
// client (which parses every answer with it) and the simulator (which builds its answers and checks the
// requests it receives with it). Objects are loose: unknown fields pass through untouched, because
// `--json` prints the API's data exactly as it came and the API may add fields at any time.
//
// Quirks kept on purpose, because the real API has them: amounts are numbers in some places and
// two-decimal strings in others; timestamps are epoch milliseconds mostly and seconds in the client list;
// the individual-client create answer spells `firstname` while the list spells `firstName`.
// zod/mini has the same parser as zod with a functional, tree-shakable API: about 40 KB bundled instead of
// about 700 KB, which is most of the start-up cost of every command that talks to the API (npm run bench).
// Every object schema is wrapped in z.lazy: it is built the first time something parses with it. Building
// all of them took about 7 ms of every command's start-up on Node 22, where one command needs two or three.
import * as z from 'zod/mini';

export const amountValue = z.union([z.number(), z.string()]);
export const epochTime = z.number();
const metadata = z.record(z.string(), z.unknown());
const looseRecord = z.record(z.string(), z.unknown());

// Tolerant reading (be liberal in what you accept): an answer fails to parse only when a field fsapi acts
// on is missing or wrong: a transfer's reference and status, the name a name enquiry verifies, the
// business name references are made from, the amounts and account webhook verification compares, a list's
// array. Public integrations of the API show every other field missing, `null`, a number where the spec
// shows text or the reverse, an integer code as text, a status in another case. Those fields are `shown`:
// accepted as any of these, displayed blank or as given, never failing a page. Nothing is transformed,
// so `--json` still prints the API's data exactly as it came.
/** A field fsapi only shows: missing, null, text, a number or a boolean. */
const shown = z.optional(z.nullable(z.union([z.string(), z.number(), z.boolean()])));
/** An amount fsapi only shows (or totals, skipping what it cannot read). */
const shownAmount = z.optional(z.nullable(amountValue));
/** An epoch time in ms or s, maybe as text. */
const shownTime = z.optional(z.nullable(z.union([z.number(), z.string()])));
const shownObject = z.optional(z.nullable(looseRecord));
/** An account number fsapi compares: text, or a JSON number (leading zeros lost; compared as digits). */
export const accountNumberValue = z.union([z.string(), z.number()]);

// ---- envelopes -------------------------------------------------------------------------------------

export const errorBody = z.lazy(() =>
  z.looseObject({
    success: z.literal(false),
    message: z.string(),
    data: z.optional(z.null()),
  }),
);
export type ErrorBody = z.infer<typeof errorBody>;

function buildEnvelope<T extends z.ZodMiniType>(data: T) {
  return z.looseObject({ success: z.literal(true), message: z.optional(z.string()), data });
}

/**
 * `build(schema)` made once per schema and kept: zod compiles a parser for each object schema the first time
 * it parses with it, so an envelope made per request was compiled per request (a transfer batch of 1,000
 * rows made 2,000 of them, all garbage).
 */
function onePerSchema<B extends (schema: z.ZodMiniType) => z.ZodMiniType>(build: B): B {
  const built = new WeakMap<z.ZodMiniType, z.ZodMiniType>();
  return ((schema: z.ZodMiniType) => {
    let kept = built.get(schema);
    if (!kept) built.set(schema, (kept = build(schema)));
    return kept;
  }) as B;
}

/** The answer's envelope around `data`: `{ success: true, message?, data }`. */
export const envelope = onePerSchema(buildEnvelope);

/** A list answer's data (src/auth/api-client.ts reaches zod only through this module). */
export const listOf = onePerSchema(<T extends z.ZodMiniType>(item: T) => z.array(item));

// ---- 2.1 token --------------------------------------------------------------------------------------

export const tokenResponse = z.lazy(() => z.looseObject({ success: z.literal(true), message: z.string(), token: z.string().check(z.minLength(1)) }));
export type TokenResponse = z.infer<typeof tokenResponse>;

// ---- 2.2 / 2.3 client accounts ----------------------------------------------------------------------

export const individualClient = z.lazy(() =>
  z.looseObject({
    id: z.number(),
    metadata,
    createdAt: epochTime,
    updatedAt: epochTime,
    accountNumber: z.string(),
    accountName: z.string(),
    accountType: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    middlename: z.optional(z.string()),
    mobileNumber: z.string(),
    externalReference: z.string(),
    emailAddress: z.string(),
    bvn: z.string(),
    gender: z.string(),
    address: z.string(),
    dateOfBirth: z.string(),
    validityType: z.string(),
  }),
);
export type IndividualClient = z.infer<typeof individualClientAsRead>;

export const corporateClient = z.lazy(() =>
  z.looseObject({
    id: z.number(),
    metadata,
    createdAt: epochTime,
    updatedAt: epochTime,
    businessName: z.string(),
    accountNumber: z.string(),
    accountName: z.string(),
    accountType: z.string(),
    rcNumber: z.string(),
    incorporationDate: z.string(),
    mobileNumber: z.string(),
    externalReference: z.string(),
    emailAddress: z.string(),
    bvn: z.string(),
    dateOfBirth: z.string(),
    address: z.optional(z.string()),
    validityType: z.string(),
  }),
);
export type CorporateClient = z.infer<typeof corporateClientAsRead>;

export const clientListItem = z.lazy(() =>
  z.looseObject({
    metadata: z.nullable(metadata),
    id: z.number(),
    externalReference: z.string(),
    accountType: z.string(),
    firstName: z.optional(z.nullable(z.string())),
    lastName: z.optional(z.nullable(z.string())),
    mobileNumber: z.string(),
    accountNumber: z.string(),
    accountName: z.string(),
    accountTier: z.nullable(z.number()),
    emailAddress: z.string(),
    bvn: z.string(),
    dateOfBirth: z.string(),
    businessId: z.number(),
    rcNumber: z.nullable(z.string()),
    incorporationDate: z.nullable(z.string()),
    createdAt: epochTime,
    updatedAt: epochTime,
  }),
);
export type ClientListItem = z.infer<typeof clientListItemAsRead>;

export const clientEnquiry = z.lazy(() =>
  z.looseObject({
    accountName: z.string(),
    accountNumber: z.string(),
    externalReference: z.string(),
    customAccountNumber: z.string(),
    nubanAccountNumber: z.string(),
    currency: z.string(),
    accountTier: z.nullable(z.number()),
    mobileNumber: z.string(),
    emailAddress: z.string(),
  }),
);
export type ClientEnquiry = z.infer<typeof clientEnquiryAsRead>;

// ---- 2.6 primary account ----------------------------------------------------------------------------

export const primaryAccount = z.lazy(() =>
  z.looseObject({
    currency: z.string(),
    accountNumber: z.string(),
    productName: z.string(),
    accountType: z.string(),
    accountName: z.string(),
    accountTier: z.nullable(z.number()),
    createdAt: epochTime,
    updatedAt: epochTime,
    ledgerBalance: amountValue,
    availableBalance: amountValue,
  }),
);
export type PrimaryAccount = z.infer<typeof primaryAccountAsRead>;

// ---- 2.7 / 2.8 banks and name enquiry ---------------------------------------------------------------

export const bank = z.lazy(() =>
  z.looseObject({
    institutionCode: z.string(),
    institutionName: z.string(),
    category: z.string(),
  }),
);
export type Bank = z.infer<typeof bankAsRead>;

export const nameEnquiryResult = z.lazy(() =>
  z.looseObject({
    accountName: z.string(),
    bankCode: z.string(),
    bvn: z.string(),
    message: z.string(),
    sessionID: z.string(),
    transactionId: z.string(),
    responseCode: z.string(),
    kycLevel: z.string(),
    bankVerificationNumber: z.string(),
    channelCode: z.number(),
  }),
);
export type NameEnquiryResult = z.infer<typeof nameEnquiryResultAsRead>;

// ---- 2.9 transfer -----------------------------------------------------------------------------------

export const transferResult = z.lazy(() =>
  z.looseObject({
    netAmount: amountValue,
    details: looseRecord,
    destinationAccountNumber: z.string(),
    destinationAccountName: z.string(),
    destinationBankCode: z.string(),
    destinationBankName: z.string(),
    sourceAccountName: z.string(),
    sourceAccountNumber: z.string(),
    sourceBankCode: z.string(),
    sourceBankName: z.string(),
    amount: amountValue,
    charge: amountValue,
    completedAt: z.nullable(epochTime),
    sessionId: z.string(),
    type: z.string(),
    description: z.string(),
    transactionTypeName: z.string(),
    status: z.string(),
    reference: z.string(),
  }),
);
export type TransferResult = z.infer<typeof transferResultAsRead>;

export const transferResponse = z.lazy(() =>
  z.looseObject({
    success: z.literal(true),
    message: z.string(),
    data: transferResult,
    beneficiary: z.optional(looseRecord),
  }),
);
export type TransferResponse = z.infer<typeof transferResponseAsRead>;

// ---- 2.10 transaction record ------------------------------------------------------------------------

export const transactionRecord = z.lazy(() =>
  z.looseObject({
    id: z.number(),
    userId: z.number(),
    accountId: z.nullable(z.number()),
    netAmount: amountValue,
    amount: amountValue,
    charge: amountValue,
    stampDuty: z.nullable(amountValue),
    details: z.nullable(looseRecord),
    description: z.string(),
    destinationAccountNumber: z.string(),
    destinationAccountName: z.string(),
    destinationBankCode: z.string(),
    destinationBankName: z.string(),
    sourceAccountNumber: z.string(),
    sourceAccountName: z.string(),
    sourceBankCode: z.string(),
    sourceBankName: z.string(),
    reference: z.string(),
    transactionTypeName: z.string(),
    category: z.string(),
    utilityType: z.nullable(z.string()),
    sessionId: z.string(),
    status: z.string(),
    reversedFlag: z.number(),
    type: z.string(),
    completedAt: z.nullable(epochTime),
    createdAt: epochTime,
    updatedAt: epochTime,
  }),
);
export type TransactionRecord = z.infer<typeof transactionRecordAsRead>;

// ---- 2.11 transfer requery --------------------------------------------------------------------------

export const tsqResult = z.lazy(() =>
  z.looseObject({
    transactionStatus: z.string(),
    feedbackCode: z.string(),
    feedbackDescription: z.string(),
  }),
);
export type TsqResult = z.infer<typeof tsqResultAsRead>;

// ---- as read by the client -----------------------------------------------------------------------
// The shapes above are the spec's: the simulator builds and checks its answers with them (and tests read
// the simulator with them). The client reads every answer with these tolerant twins instead, and the
// exported types are theirs, so display code has to cope with a missing or odd field.

export const individualClientAsRead = z.lazy(() =>
  z.looseObject({
    id: shown,
    metadata: shownObject,
    createdAt: shownTime,
    updatedAt: shownTime,
    accountNumber: shown,
    accountName: shown,
    accountType: shown,
    firstname: shown,
    lastname: shown,
    middlename: shown,
    mobileNumber: shown,
    externalReference: shown,
    emailAddress: shown,
    bvn: shown,
    gender: shown,
    address: shown,
    dateOfBirth: shown,
    validityType: shown,
  }),
);

export const corporateClientAsRead = z.lazy(() =>
  z.looseObject({
    id: shown,
    metadata: shownObject,
    createdAt: shownTime,
    updatedAt: shownTime,
    businessName: shown,
    accountNumber: shown,
    accountName: shown,
    accountType: shown,
    rcNumber: shown,
    incorporationDate: shown,
    mobileNumber: shown,
    externalReference: shown,
    emailAddress: shown,
    bvn: shown,
    dateOfBirth: shown,
    address: shown,
    validityType: shown,
  }),
);

export const clientListItemAsRead = z.lazy(() =>
  z.looseObject({
    metadata: shownObject,
    id: shown,
    externalReference: shown,
    accountType: shown,
    firstName: shown,
    lastName: shown,
    mobileNumber: shown,
    accountNumber: shown,
    accountName: shown,
    accountTier: shown,
    emailAddress: shown,
    bvn: shown,
    dateOfBirth: shown,
    businessId: shown,
    rcNumber: shown,
    incorporationDate: shown,
    createdAt: shownTime,
    updatedAt: shownTime,
  }),
);

export const clientEnquiryAsRead = z.lazy(() =>
  z.looseObject({
    accountName: shown,
    accountNumber: shown,
    externalReference: shown,
    customAccountNumber: shown,
    nubanAccountNumber: shown,
    currency: shown,
    accountTier: shown,
    mobileNumber: shown,
    emailAddress: shown,
  }),
);

export const primaryAccountAsRead = z.lazy(() =>
  z.looseObject({
    currency: shown,
    accountNumber: shown,
    productName: shown,
    accountType: shown,
    accountName: z.string(),
    accountTier: shown,
    createdAt: shownTime,
    updatedAt: shownTime,
    ledgerBalance: shownAmount,
    // Acted on: a batch checks its total against it before sending.
    availableBalance: amountValue,
  }),
);

export const bankAsRead = z.lazy(() =>
  z.looseObject({
    institutionCode: z.string(),
    institutionName: z.string(),
    category: shown,
  }),
);

export const nameEnquiryResultAsRead = z.lazy(() =>
  z.looseObject({
    accountName: z.string(),
    bankCode: shown,
    bvn: shown,
    message: shown,
    sessionID: shown,
    transactionId: shown,
    responseCode: shown,
    kycLevel: shown,
    bankVerificationNumber: shown,
    channelCode: shown,
  }),
);

export const transferResultAsRead = z.lazy(() =>
  z.looseObject({
    netAmount: shownAmount,
    details: shownObject,
    destinationAccountNumber: shown,
    destinationAccountName: shown,
    destinationBankCode: shown,
    destinationBankName: shown,
    sourceAccountName: shown,
    sourceAccountNumber: shown,
    sourceBankCode: shown,
    sourceBankName: shown,
    amount: shownAmount,
    charge: shownAmount,
    completedAt: shownTime,
    sessionId: shown,
    type: shown,
    description: shown,
    transactionTypeName: shown,
    status: z.string(),
    reference: z.string(),
  }),
);

export const transactionRecordAsRead = z.lazy(() =>
  z.looseObject({
    id: shown,
    userId: shown,
    accountId: shown,
    netAmount: shownAmount,
    amount: amountValue,
    charge: shownAmount,
    stampDuty: shownAmount,
    details: shownObject,
    description: shown,
    destinationAccountNumber: z.optional(z.nullable(accountNumberValue)),
    destinationAccountName: shown,
    destinationBankCode: shown,
    destinationBankName: shown,
    sourceAccountNumber: shown,
    sourceAccountName: shown,
    sourceBankCode: shown,
    sourceBankName: shown,
    reference: z.string(),
    transactionTypeName: shown,
    category: shown,
    utilityType: shown,
    sessionId: shown,
    status: z.string(),
    reversedFlag: shown,
    type: z.string(),
    completedAt: shownTime,
    createdAt: shownTime,
    updatedAt: shownTime,
  }),
);

export const tsqResultAsRead = z.lazy(() =>
  z.looseObject({
    transactionStatus: shown,
    feedbackCode: shown,
    feedbackDescription: shown,
  }),
);

/** The spec's shapes as types: what the simulator sends (tests read it with these). */
export type IndividualClientAsSpecified = z.infer<typeof individualClient>;
export type ClientListItemAsSpecified = z.infer<typeof clientListItem>;
export type ClientEnquiryAsSpecified = z.infer<typeof clientEnquiry>;
export type TransactionRecordAsSpecified = z.infer<typeof transactionRecord>;

export const transferResponseAsRead = z.lazy(() =>
  z.looseObject({
    success: z.literal(true),
    message: z.optional(z.nullable(z.string())),
    data: transferResultAsRead,
    beneficiary: z.optional(z.nullable(looseRecord)),
  }),
);

// ---- section 6: collection notification -------------------------------------------------------------

export const collectionNotification = z.lazy(() =>
  z.looseObject({
    event: z.string(),
    reference: z.string().check(z.minLength(1)),
    virtualAccount: z.string(),
    externalReference: z.string(),
    amountReceived: z.string(),
    transactionFee: z.number(),
    netAmount: z.number(),
    stampDuty: z.number(),
    sessionId: z.string(),
    sourceCurrency: z.string(),
    sourceAccountNumber: z.string(),
    sourceAccountName: z.string(),
    sourceBankCode: z.string(),
    sourceBankName: z.string(),
    remarks: z.string(),
    destinationCurrency: z.string(),
    status: z.string(),
    createdAt: epochTime,
    updatedAt: epochTime,
  }),
);
export type CollectionNotification = z.infer<typeof collectionNotification>;

/**
 * A notification as `webhook listen` and `webhook verify` read it: tolerantly, since public integrations
 * show `amountReceived` as "1000.0" and `virtualAccount` as a JSON number. What verification acts on must
 * be there and readable (`event`, `reference`, `virtualAccount`, `amountReceived`); every other field may
 * be missing, null, a number or text, and is compared with the API's record only when present. Numbers in
 * text fields are read as their text; amounts stay as sent and are read into kobo where compared.
 * `collectionNotification` above stays the spec's exact shape: it is what the simulator sends.
 */
const receivedText = z.optional(
  z.nullable(
    z.pipe(
      z.union([z.string(), z.number()]),
      z.transform((value) => String(value)),
    ),
  ),
);
const receivedAmount = z.optional(z.nullable(amountValue));

export const receivedNotification = z.lazy(() =>
  z.looseObject({
    event: z.string(),
    reference: z.string().check(z.minLength(1)),
    virtualAccount: z.pipe(
      z.union([z.string(), z.number()]),
      z.transform((value) => String(value)),
    ),
    externalReference: receivedText,
    amountReceived: amountValue,
    transactionFee: receivedAmount,
    netAmount: receivedAmount,
    stampDuty: receivedAmount,
    sessionId: receivedText,
    sourceCurrency: receivedText,
    sourceAccountNumber: receivedText,
    sourceAccountName: receivedText,
    sourceBankCode: receivedText,
    sourceBankName: receivedText,
    remarks: receivedText,
    destinationCurrency: receivedText,
    status: receivedText,
    type: receivedText,
    createdAt: z.optional(z.nullable(epochTime)),
    updatedAt: z.optional(z.nullable(epochTime)),
  }),
);
export type ReceivedNotification = z.infer<typeof receivedNotification>;

// ---- request bodies (section 4) ---------------------------------------------------------------------

export const individualClientRequest = z.lazy(() =>
  z.looseObject({
    firstname: z.string().check(z.minLength(1)),
    lastname: z.string().check(z.minLength(1)),
    middlename: z.optional(z.string()),
    phoneNumber: z.string().check(z.minLength(1)),
    emailAddress: z.string().check(z.minLength(1)),
    address: z.string().check(z.minLength(1)),
    bvn: z.string().check(z.minLength(1)),
    nin: z.optional(z.string()),
    gender: z.enum(['male', 'female']),
    dateOfBirth: z.string().check(z.regex(/^\d{4}\/\d{2}\/\d{2}$/)),
    metadata: z.optional(metadata),
  }),
);
export type IndividualClientRequest = z.infer<typeof individualClientRequest>;

// rcNumber and bvn are numbers in the spec; real clients send them as digit strings: both are read.
export const corporateClientRequest = z.lazy(() =>
  z.looseObject({
    rcNumber: z.union([z.number(), z.string()]),
    businessName: z.string().check(z.minLength(1)),
    emailAddress: z.string().check(z.minLength(1)),
    phoneNumber: z.string().check(z.minLength(1)),
    address: z.optional(z.string()),
    bvn: z.union([z.number(), z.string()]),
    incorporationDate: z.string().check(z.minLength(1)),
    dateOfBirth: z.string().check(z.minLength(1)),
    metadata: z.optional(metadata),
  }),
);
export type CorporateClientRequest = z.infer<typeof corporateClientRequest>;

export const nameEnquiryRequest = z.lazy(() =>
  z.looseObject({
    bankCode: z.string(),
    accountNumber: z.union([z.number(), z.string()]),
  }),
);
export type NameEnquiryRequest = z.infer<typeof nameEnquiryRequest>;

export const transferRequest = z.lazy(() =>
  z.looseObject({
    beneficiaryBankCode: z.string().check(z.minLength(1)),
    beneficiaryAccountNumber: z.string().check(z.minLength(1)),
    narration: z.string().check(z.minLength(1)),
    amount: z.number().check(z.positive()),
    reference: z.optional(z.string().check(z.minLength(1))),
    senderName: z.optional(z.string()),
  }),
);
export type TransferRequest = z.infer<typeof transferRequest>;
