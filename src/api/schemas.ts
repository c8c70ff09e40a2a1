// The one description of the API's shapes (../shared/api-spec.md sections 2, 4, 6 and 7), shared by the
// client (which parses every answer with it) and the simulator (which builds its answers and checks the
// requests it receives with it). Objects are loose: unknown fields pass through untouched, because
// `--json` prints the API's data exactly as it came and the API may add fields at any time.
//
// Quirks kept on purpose, because the real API has them: amounts are numbers in some places and
// two-decimal strings in others; timestamps are epoch milliseconds mostly and seconds in the client list;
// the individual-client create answer spells `firstname` while the list spells `firstName`.
// zod/mini has the same parser as zod with a functional, tree-shakable API: about 40 KB bundled instead of
// about 700 KB, which is most of the start-up cost of every command that talks to the API (npm run bench).
import * as z from 'zod/mini';

export const amountValue = z.union([z.number(), z.string()]);
export const epochTime = z.number();
const metadata = z.record(z.string(), z.unknown());
const looseRecord = z.record(z.string(), z.unknown());

// ---- envelopes -------------------------------------------------------------------------------------

export const errorBody = z.looseObject({
  success: z.literal(false),
  message: z.string(),
  data: z.optional(z.null()),
});
export type ErrorBody = z.infer<typeof errorBody>;

export function envelope<T extends z.ZodMiniType>(data: T) {
  return z.looseObject({ success: z.literal(true), message: z.optional(z.string()), data });
}

// ---- 2.1 token --------------------------------------------------------------------------------------

export const tokenResponse = z.looseObject({ success: z.literal(true), message: z.string(), token: z.string().check(z.minLength(1)) });
export type TokenResponse = z.infer<typeof tokenResponse>;

// ---- 2.2 / 2.3 client accounts ----------------------------------------------------------------------

export const individualClient = z.looseObject({
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
});
export type IndividualClient = z.infer<typeof individualClient>;

export const corporateClient = z.looseObject({
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
});
export type CorporateClient = z.infer<typeof corporateClient>;

export const clientListItem = z.looseObject({
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
});
export type ClientListItem = z.infer<typeof clientListItem>;

export const clientEnquiry = z.looseObject({
  accountName: z.string(),
  accountNumber: z.string(),
  externalReference: z.string(),
  customAccountNumber: z.string(),
  nubanAccountNumber: z.string(),
  currency: z.string(),
  accountTier: z.nullable(z.number()),
  mobileNumber: z.string(),
  emailAddress: z.string(),
});
export type ClientEnquiry = z.infer<typeof clientEnquiry>;

// ---- 2.6 primary account ----------------------------------------------------------------------------

export const primaryAccount = z.looseObject({
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
});
export type PrimaryAccount = z.infer<typeof primaryAccount>;

// ---- 2.7 / 2.8 banks and name enquiry ---------------------------------------------------------------

export const bank = z.looseObject({
  institutionCode: z.string(),
  institutionName: z.string(),
  category: z.string(),
});
export type Bank = z.infer<typeof bank>;

export const nameEnquiryResult = z.looseObject({
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
});
export type NameEnquiryResult = z.infer<typeof nameEnquiryResult>;

// ---- 2.9 transfer -----------------------------------------------------------------------------------

export const transferResult = z.looseObject({
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
});
export type TransferResult = z.infer<typeof transferResult>;

export const transferResponse = z.looseObject({
  success: z.literal(true),
  message: z.string(),
  data: transferResult,
  beneficiary: z.optional(looseRecord),
});
export type TransferResponse = z.infer<typeof transferResponse>;

// ---- 2.10 transaction record ------------------------------------------------------------------------

export const transactionRecord = z.looseObject({
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
});
export type TransactionRecord = z.infer<typeof transactionRecord>;

// ---- 2.11 transfer requery --------------------------------------------------------------------------

export const tsqResult = z.looseObject({
  transactionStatus: z.string(),
  feedbackCode: z.string(),
  feedbackDescription: z.string(),
});
export type TsqResult = z.infer<typeof tsqResult>;

// ---- section 6: collection notification -------------------------------------------------------------

export const collectionNotification = z.looseObject({
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
});
export type CollectionNotification = z.infer<typeof collectionNotification>;

// ---- request bodies (section 4) ---------------------------------------------------------------------

export const individualClientRequest = z.looseObject({
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
});
export type IndividualClientRequest = z.infer<typeof individualClientRequest>;

// rcNumber and bvn are numbers in the spec; real clients send them as digit strings: both are read.
export const corporateClientRequest = z.looseObject({
  rcNumber: z.union([z.number(), z.string()]),
  businessName: z.string().check(z.minLength(1)),
  emailAddress: z.string().check(z.minLength(1)),
  phoneNumber: z.string().check(z.minLength(1)),
  address: z.optional(z.string()),
  bvn: z.union([z.number(), z.string()]),
  incorporationDate: z.string().check(z.minLength(1)),
  dateOfBirth: z.string().check(z.minLength(1)),
  metadata: z.optional(metadata),
});
export type CorporateClientRequest = z.infer<typeof corporateClientRequest>;

export const nameEnquiryRequest = z.looseObject({
  bankCode: z.string(),
  accountNumber: z.union([z.number(), z.string()]),
});
export type NameEnquiryRequest = z.infer<typeof nameEnquiryRequest>;

export const transferRequest = z.looseObject({
  beneficiaryBankCode: z.string().check(z.minLength(1)),
  beneficiaryAccountNumber: z.string().check(z.minLength(1)),
  narration: z.string().check(z.minLength(1)),
  amount: z.number().check(z.positive()),
  reference: z.optional(z.string().check(z.minLength(1))),
  senderName: z.optional(z.string()),
});
export type TransferRequest = z.infer<typeof transferRequest>;
