// Verification of a collection notification (../shared/api-spec.md section 6). The spec shows no signature
// on notifications, so the only evidence that one is genuine is the API itself: look the notified reference
// up (GET /v1/transactions/reference/{reference}) and compare what the notification claims with what the
// API holds. Used by `webhook listen` for every event and by `webhook verify` for one saved payload.
//
// Pure logic: the API and the clock come in through the injected context, so tests hand it fakes.
import type { Api } from '../api/types.js';
import { collectionNotification, type CollectionNotification, type TransactionRecord } from '../api/schemas.js';
import type { Clock } from '../context.js';
import { ApiError, AuthError, TransportError } from '../errors.js';
import { AmountError, formatNaira, parseApiAmount, type Kobo } from './money.js';

/** A notification body is never larger than this; bigger ones are refused (HTTP 413, exit 2). */
export const MAX_NOTIFICATION_BYTES = 1024 * 1024;

export type VerificationState = 'verified' | 'mismatch' | 'not-found' | 'pending' | 'unverifiable';

export interface Verification {
  state: VerificationState;
  /** For a mismatch: the notification field that disagrees with the transaction (virtualAccount, amountReceived, ...). */
  field?: string;
  /** One sentence a person can act on. */
  detail: string;
  /** The transaction as the API returned it, when the lookup answered. */
  transaction?: TransactionRecord;
}

// ---- reading a notification ---------------------------------------------------------------------------

export type ParsedNotification =
  | { ok: true; notification: CollectionNotification; amount: Kobo }
  | { ok: false; reason: 'not-json' | 'wrong-shape'; detail: string };

/**
 * Reads a notification body: JSON (else `not-json`), then the section-6 shape (else `wrong-shape`).
 * Beyond the schema it requires `event` to be `collection` (the only kind the spec shows, and the only one
 * we know how to verify), `amountReceived` to be a readable amount, and a reference that is safe to put in
 * a URL path: a reference like `..` or `a/b` would make the lookup reach another endpoint.
 */
export function parseNotification(text: string): ParsedNotification {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: 'not-json', detail: `body is not JSON (${(error as Error).message})` };
  }
  const parsed = collectionNotification.safeParse(body);
  if (!parsed.success) {
    return { ok: false, reason: 'wrong-shape', detail: `not a collection notification (${describeIssues(body, parsed.error.issues)})` };
  }
  const notification = parsed.data;
  if (notification.event !== 'collection') {
    return { ok: false, reason: 'wrong-shape', detail: `event ${JSON.stringify(notification.event)} is not supported (only collection)` };
  }
  if (!isSafeReference(notification.reference)) {
    return { ok: false, reason: 'wrong-shape', detail: `reference ${JSON.stringify(notification.reference.slice(0, 80))} is not a usable reference` };
  }
  let amount: Kobo;
  try {
    amount = parseApiAmount(notification.amountReceived);
  } catch {
    return { ok: false, reason: 'wrong-shape', detail: `amountReceived ${JSON.stringify(notification.amountReceived.slice(0, 40))} is not an amount` };
  }
  return { ok: true, notification, amount };
}

/** "missing event, reference, ...; amountReceived: expected string": short enough for one log line. */
function describeIssues(body: unknown, issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const missing = issues.filter((issue) => issue.path.length === 1 && !(String(issue.path[0]) in body)).map((issue) => String(issue.path[0]));
  const wrong = issues
    .filter((issue) => !(issue.path.length === 1 && !(String(issue.path[0]) in body)))
    .map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message.replace(/^Invalid input: /, '')}`);
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`missing ${missing.slice(0, 6).join(', ')}${missing.length > 6 ? ` and ${missing.length - 6} more` : ''}`);
  parts.push(...wrong.slice(0, 3));
  if (wrong.length > 3) parts.push(`${wrong.length - 3} more problem(s)`);
  return parts.join('; ');
}

/** 1 to 200 visible characters, no whitespace, no `/ ? # % \`, and not a dot segment. */
function isSafeReference(reference: string): boolean {
  return reference.length <= 200 && /^[\x21-\x7e]+$/.test(reference) && !/[/?#%\\]/.test(reference) && reference !== '.' && reference !== '..';
}

// ---- comparing with the transaction -------------------------------------------------------------------

/**
 * What the API's transaction says about the notification. Pure. The account, amount and direction are
 * checked before the status, so a forged amount on a pending transaction reads as a mismatch.
 *  - destination account: `destinationAccountNumber` is where a collection's money went (for an inflow the
 *    source fields describe the payer), so it must equal `virtualAccount`;
 *  - amount: `amount` (the gross amount) must equal `amountReceived`, compared as integer kobo;
 *  - direction: `type` must be `credit`: a debit's reference with a made-up account is not an inflow;
 *  - status: `successful` verifies; `pending` is pending; anything else, or a reversal, is a mismatch.
 */
export function compareWithTransaction(notification: CollectionNotification, transaction: TransactionRecord): Verification {
  const base = { transaction };
  if (transaction.reference !== notification.reference) {
    return { ...base, state: 'mismatch', field: 'reference', detail: `the API answered with transaction ${transaction.reference}` };
  }
  if (transaction.type.toLowerCase() !== 'credit') {
    return { ...base, state: 'mismatch', field: 'event', detail: `the transaction is a ${transaction.type}, not an inflow` };
  }
  if (transaction.destinationAccountNumber !== notification.virtualAccount) {
    return {
      ...base,
      state: 'mismatch',
      field: 'virtualAccount',
      detail: `notified account ${notification.virtualAccount}, but the money went to ${transaction.destinationAccountNumber || '(none)'}`,
    };
  }
  let notified: Kobo;
  let actual: Kobo;
  try {
    notified = parseApiAmount(notification.amountReceived);
    actual = parseApiAmount(transaction.amount);
  } catch (error) {
    if (error instanceof AmountError) return { ...base, state: 'unverifiable', detail: `cannot compare amounts: ${error.message}` };
    throw error;
  }
  if (notified !== actual) {
    return {
      ...base,
      state: 'mismatch',
      field: 'amountReceived',
      detail: `notified ${formatNaira(notified)}, but the transaction is ${formatNaira(actual)}`,
    };
  }
  if (transaction.reversedFlag !== 0) {
    return { ...base, state: 'mismatch', field: 'status', detail: 'the transaction was reversed' };
  }
  const status = transaction.status.toLowerCase();
  if (status === 'pending') return { ...base, state: 'pending', detail: 'the transaction exists but is not successful yet' };
  if (status !== 'successful') {
    return { ...base, state: 'mismatch', field: 'status', detail: `the transaction status is ${transaction.status}` };
  }
  return { ...base, state: 'verified', detail: `${formatNaira(actual)} to ${transaction.destinationAccountNumber} confirmed by the API` };
}

// ---- looking the reference up -------------------------------------------------------------------------

export interface VerifyPolicy {
  /** Waits between lookups that could not reach the API; their count + 1 is the number of tries. */
  retryDelaysMs: readonly number[];
  /** Waits before looking a pending transaction up again; empty: report pending at once. */
  pendingDelaysMs: readonly number[];
  /** Let AuthError through (exit 3 for a one-shot command) instead of making the event unverifiable. */
  throwAuthErrors?: boolean;
}

/**
 * `webhook listen`: 3 tries over about 4 s when the API cannot be reached (the HTTP layer already retries
 * a GET twice within a second, so these cover a longer blip); a pending inflow is looked at again for
 * about 30 s, since collections settle within seconds.
 */
export const LISTEN_POLICY: VerifyPolicy = { retryDelaysMs: [1000, 3000], pendingDelaysMs: [2000, 4000, 8000, 16000] };

/** `webhook verify`: the same retries, but a pending transaction is reported at once (run it again later). */
export const VERIFY_ONCE_POLICY: VerifyPolicy = { retryDelaysMs: [1000, 3000], pendingDelaysMs: [], throwAuthErrors: true };

export interface VerifyDeps {
  /** Only the lookup is needed (the listener hands in one that bounds lookups in flight). */
  api: Pick<Api, 'baseUrl' | 'getTransaction'>;
  clock: Clock;
}

/**
 * Verifies one notification by its reference. Every outcome is a state; it throws only an AuthError, and
 * only when the policy asks for it.
 * An unknown reference is an API error with status 400 (the spec's only error status) or 404. Transport
 * failures and other refusals are retried; authentication failures are not (retrying cannot fix them).
 * `signal` cuts the waits short (shutdown): the result is then `unverifiable`.
 */
export async function verifyNotification(
  deps: VerifyDeps,
  notification: CollectionNotification,
  policy: VerifyPolicy,
  signal?: AbortSignal,
): Promise<Verification> {
  let pendingChecks = 0;
  for (;;) {
    const lookup = await lookUp(deps, notification.reference, policy, signal);
    if ('state' in lookup) return lookup;
    const verdict = compareWithTransaction(notification, lookup.transaction);
    if (verdict.state !== 'pending' || pendingChecks >= policy.pendingDelaysMs.length) {
      if (verdict.state === 'pending' && pendingChecks > 0) {
        return { ...verdict, detail: `${verdict.detail} (looked ${pendingChecks + 1} times)` };
      }
      return verdict;
    }
    if (!(await sleep(deps.clock, policy.pendingDelaysMs[pendingChecks]!, signal))) {
      return { ...verdict, detail: `${verdict.detail} (stopped before it settled)` };
    }
    pendingChecks += 1;
  }
}

async function lookUp(
  deps: VerifyDeps,
  reference: string,
  policy: VerifyPolicy,
  signal: AbortSignal | undefined,
): Promise<{ transaction: TransactionRecord } | Verification> {
  const { retryDelaysMs } = policy;
  const tries = retryDelaysMs.length + 1;
  let lastProblem = '';
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    try {
      return { transaction: await deps.api.getTransaction(reference) };
    } catch (error) {
      if (error instanceof AuthError) {
        if (policy.throwAuthErrors) throw error;
        return { state: 'unverifiable', detail: `${error.message} (${error.hint ?? 'run fsapi auth login'})` };
      }
      if (error instanceof ApiError && !(error instanceof TransportError) && (error.status === 400 || error.status === 404)) {
        return { state: 'not-found', detail: `the API knows no transaction ${reference}` };
      }
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    if (attempt < tries && !(await sleep(deps.clock, retryDelaysMs[attempt - 1]!, signal))) {
      return { state: 'unverifiable', detail: `stopped before the API could be reached: ${lastProblem}` };
    }
  }
  return { state: 'unverifiable', detail: `could not reach the API at ${deps.api.baseUrl} after ${tries} tries: ${lastProblem}` };
}

/** Sleeps; false when the signal cut the wait short. */
async function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return false;
  try {
    await clock.sleep(ms, signal);
    return true;
  } catch {
    return false;
  }
}
