// Every observation of a transfer, checked against what was meant to be sent, and the one look-up of a
// transaction by reference (GET /v1/transactions/reference/{reference}) every caller uses.
//
// An answer or a lookup counts only when it is about *this* transfer (docs/cli-contract.md, "Outcomes"):
// its reference (without regard to case), its amount in kobo, its destination account and, when the record
// names one, its bank code all match the intent. Anything else is a mismatch: never taken as proof that a
// transfer was made, reported with what came back, and for a lookup the same as "not found for that
// reference" (the outcome stays unknown). A hostile or broken server answering a lookup with another
// transaction must not make fsapi call a transfer paid. `checkObservation` is the one place that decides
// it, for the POST answer, `transfer status`, `--wait`, the lookups after a lost answer, a batch's resume,
// the rate limiter's lookup and `reconcile`.
import type { Context } from '../context.js';
import type { TransactionRecord } from '../api/schemas.js';
import { ApiError, AuthError, TransportError } from '../errors.js';
import { formatNaira, parseApiAmount, type Kobo } from '../money/kobo.js';
import { shownText } from '../common/shown.js';

/** What a transfer was meant to be: what every observation of it is checked against. */
export interface TransferIntent {
  reference: string;
  amountKobo: Kobo;
  accountNumber: string;
  /** Compared when both the intent and the record have one. */
  bankCode?: string | undefined;
}

/** The fields of a transfer answer or a transaction record that say which transfer it is. */
export interface Observation {
  reference?: unknown;
  amount?: unknown;
  destinationAccountNumber?: unknown;
  destinationBankCode?: unknown;
}

export type Verdict = { matches: true } | { matches: false; detail: string };

const sameReference = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

function amountOf(value: unknown): Kobo | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  try {
    return parseApiAmount(value);
  } catch {
    return undefined;
  }
}

/** "reference X, ₦1,000.00 to account 0123456789 (bank 000013)": what an observation names, for messages. */
export function describeObservation(observed: Observation): string {
  const reference = shownText(observed.reference) || '(none)';
  const kobo = amountOf(observed.amount);
  const amount = kobo === undefined ? `amount ${shownText(observed.amount) || '(none)'}` : formatNaira(kobo);
  const account = shownText(observed.destinationAccountNumber) || '(none)';
  const bank = shownText(observed.destinationBankCode);
  return `reference ${reference}, ${amount} to account ${account}${bank ? ` (bank ${bank})` : ''}`;
}

/**
 * Whether an observation is of this transfer. `intent` without an amount or account (a reference typed at
 * `transfer status` that the journal does not know) checks the reference alone.
 */
export function checkObservation(intent: TransferIntent | { reference: string }, observed: Observation): Verdict {
  const differences: string[] = [];
  if (!sameReference(shownText(observed.reference), intent.reference)) differences.push('reference');
  if ('amountKobo' in intent) {
    if (amountOf(observed.amount) !== intent.amountKobo) differences.push('amount');
    if (shownText(observed.destinationAccountNumber).trim() !== intent.accountNumber) differences.push('account');
    const bank = shownText(observed.destinationBankCode).trim();
    if (intent.bankCode && bank !== '' && bank !== intent.bankCode) differences.push('bank');
  }
  if (differences.length === 0) return { matches: true };
  const meant =
    'amountKobo' in intent
      ? `${intent.reference}, ${formatNaira(intent.amountKobo)} to account ${intent.accountNumber}${intent.bankCode ? ` (bank ${intent.bankCode})` : ''}`
      : intent.reference;
  return {
    matches: false,
    detail: `it named another transaction (${describeObservation(observed)}; the ${differences.join(', ')} differ${differences.length === 1 ? 's' : ''} from ${meant})`,
  };
}

export type SingleLookup =
  | { kind: 'found'; transaction: TransactionRecord }
  /** The API refused the lookup (a 4xx): it knows no such reference. */
  | { kind: 'absent' }
  /** An answer about another transaction: not this one's outcome, and not a definite "absent" either. */
  | { kind: 'mismatch'; transaction: TransactionRecord; detail: string }
  | { kind: 'failed'; detail: string };

/**
 * Whether an error is the API's refusal of the request itself (a 4xx answer), not a failure to get one.
 * A 429 is not: it says the API would not answer yet (src/api/http.ts waits for it), nothing about what
 * was asked, so a lookup answered 429 must never read as "no such transaction".
 */
export function isRefusal(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    !(error instanceof TransportError) &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429
  );
}

/**
 * One lookup of `intent.reference`, its record checked against the intent. A refused token is not an
 * answer about the transaction: it is thrown, so the command stops with exit 3.
 */
export async function lookUpOnce(ctx: Context, intent: TransferIntent | { reference: string }): Promise<SingleLookup> {
  const api = await ctx.api();
  let transaction: TransactionRecord;
  try {
    transaction = await api.getTransaction(intent.reference);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (isRefusal(error)) return { kind: 'absent' };
    return { kind: 'failed', detail: error instanceof Error ? error.message : String(error) };
  }
  const verdict = checkObservation(intent, transaction);
  if (!verdict.matches) return { kind: 'mismatch', transaction, detail: `the lookup of ${intent.reference} was answered, but ${verdict.detail}` };
  return { kind: 'found', transaction };
}
