// Verification of a collection notification (docs/api-spec.md section 6). The spec shows no signature
// on notifications, so the only evidence that one is genuine is the API itself: look the notified reference
// up (GET /v1/transactions/reference/{reference}) and compare every field the notification shares with the
// API's record, then its externalReference and currency with the client account that received the money
// (GET /v1/client-enquiry/{virtualAccount}). A notification is verified only when none of them contradicts
// the API, and what is passed on is then built from the API's answers (forwardedEvent), never the bytes
// that arrived. Used by `webhook listen` for every event and by `webhook verify` for one saved payload.
//
// Pure logic: the API and the clock come in through the injected context, so tests hand it fakes.
import { shownText } from '../common/shown.js';
import { Backoff, NOTIFICATION_LOOKUP_RETRY, PENDING_RECHECKS, SENT_ONCE, type RetrySchedule } from '../common/retry.js';
import type { Api } from '../api/types.js';
import { receivedNotification, type ClientEnquiry, type ReceivedNotification, type TransactionRecord } from '../api/schemas.js';
import type { Clock } from '../context.js';
import { ApiError, AuthError, TransportError } from '../errors.js';
import { AmountError, formatNaira, koboToApiNumber, koboToDecimal, parseApiAmount, type Kobo } from '../money/kobo.js';
import { normaliseName } from '../transfers/names.js';
import { epochToDate } from '../common/time.js';
import { apiText, inOwnShape, type ForwardBody } from './forward-shape.js';

/** A notification body is never larger than this; bigger ones are refused (HTTP 413, exit 2). */
export const MAX_NOTIFICATION_BYTES = 1024 * 1024;

/**
 * `webhook listen` does not forward an event whose transaction is older than this (state `stale`): an old
 * genuine notification replayed to a listener with a fresh event log would otherwise reach the app as
 * news. 24 hours covers a sender that retries through a long outage of the listener.
 */
export const MAX_EVENT_AGE_MS = 24 * 60 * 60 * 1000;

export type VerificationState = 'verified' | 'mismatch' | 'not-found' | 'pending' | 'stale' | 'unverifiable';

export interface Verification {
  state: VerificationState;
  /** For a mismatch: the notification field that disagrees with the transaction (virtualAccount, amountReceived, ...). */
  field?: string;
  /** One sentence a person can act on. */
  detail: string;
  /** The transaction as the API returned it, when the lookup answered. */
  transaction?: TransactionRecord;
  /** For a verified event: the client account that received it, when the API's enquiry answered. */
  account?: ClientEnquiry;
}

// ---- reading a notification ---------------------------------------------------------------------------

/** A notification fsapi can act on: a collection to verify, or an event of a kind it cannot verify. */
export type IncomingEvent =
  | { kind: 'collection'; reference: string; notification: ReceivedNotification; amount: Kobo }
  | ({ reference: string; event: string } & OutflowEvent)
  | { kind: 'other'; reference: string; event: string; problem?: string };

export type ParsedNotification = ({ ok: true } & IncomingEvent) | { ok: false; reason: 'not-json' | 'wrong-shape'; detail: string };

/**
 * Reads a notification body: JSON (else `not-json`), an object with a text `event` (else `wrong-shape`).
 * An `event` other than `collection` (any case) is an event of another kind: kept, never verified. A
 * collection must have the fields verification compares, read tolerantly (receivedNotification), a
 * readable `amountReceived`, and a reference that is safe to put in a URL path: a reference like `..` or
 * `a/b` would make the lookup reach another endpoint.
 */
export function parseNotification(text: string): ParsedNotification {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: 'not-json', detail: `body is not JSON (${(error as Error).message})` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, reason: 'wrong-shape', detail: 'not a notification (the body is not a JSON object)' };
  }
  const event = (body as { event?: unknown }).event;
  if (typeof event !== 'string' || event.trim() === '') {
    return { ok: false, reason: 'wrong-shape', detail: 'not a notification (no event field)' };
  }
  const outflow = outflowKind(event);
  if (outflow) {
    const read = readOutflowEvent(outflow, body as Record<string, unknown>, event.trim().slice(0, 40));
    if ('problem' in read) {
      // Recorded and answered 200 like any event fsapi cannot act on (a sender must not retry it for
      // ever), shown with the reason, never looked up.
      const reference = (body as { reference?: unknown }).reference;
      const safe = typeof reference === 'string' && isSafeReference(reference) ? reference : '';
      return { ok: true, kind: 'other', event: event.slice(0, 40), reference: safe, problem: read.problem };
    }
    return { ok: true, ...read, reference: read.notification.reference, event: read.notification.event };
  }
  if (event.trim().toLowerCase() !== 'collection') {
    const reference = (body as { reference?: unknown }).reference;
    return { ok: true, kind: 'other', event: event.slice(0, 40), reference: typeof reference === 'string' && isSafeReference(reference) ? reference : '' };
  }
  const parsed = receivedNotification.safeParse(body);
  if (!parsed.success) {
    return { ok: false, reason: 'wrong-shape', detail: `not a collection notification (${describeIssues(body, parsed.error.issues)})` };
  }
  const notification = parsed.data;
  if (!isSafeReference(notification.reference)) {
    return { ok: false, reason: 'wrong-shape', detail: `reference ${JSON.stringify(notification.reference.slice(0, 80))} is not a usable reference` };
  }
  let amount: Kobo;
  try {
    amount = parseApiAmount(notification.amountReceived);
  } catch {
    return { ok: false, reason: 'wrong-shape', detail: `amountReceived ${JSON.stringify(String(notification.amountReceived).slice(0, 40))} is not an amount` };
  }
  return { ok: true, kind: 'collection', reference: notification.reference, notification, amount };
}

/** "missing event, reference, ...; amountReceived: expected string": short enough for one log line. */
function describeIssues(body: object, issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
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
export function isSafeReference(reference: string): boolean {
  return reference.length <= 200 && /^[\x21-\x7e]+$/.test(reference) && !/[/?#%\\]/.test(reference) && reference !== '.' && reference !== '..';
}

// ---- comparing with the transaction -------------------------------------------------------------------

/** A notified text field, trimmed; missing, null and empty are all "not said". */
function said(value: string | null | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

/**
 * The text fields a notification shares with the transaction record, and how they are compared when
 * both sides say something: account numbers, codes and the session exactly, names and bank names
 * ignoring case, spacing and punctuation (the API's own spelling varies between its endpoints).
 */
const SHARED_TEXT_FIELDS = [
  ['sessionId', 'sessionId', 'exact'],
  ['sourceAccountNumber', 'sourceAccountNumber', 'exact'],
  ['sourceBankCode', 'sourceBankCode', 'exact'],
  ['sourceAccountName', 'sourceAccountName', 'name'],
  ['sourceBankName', 'sourceBankName', 'name'],
] as const;

export interface CompareOptions {
  /** Epoch ms of now; with maxAgeMs, an older transaction is `stale`. */
  now?: number;
  maxAgeMs?: number;
}

/**
 * What the API's transaction says about the notification. Pure. A notification is verified only when no
 * field it shares with the record contradicts it; a field the notification leaves out contradicts nothing
 * (the forwarded facts carry the record's value). In order, the first disagreement wins:
 *  - reference: the record must be the one asked for;
 *  - direction: `type` must be `credit` (a debit's reference with a made-up account is not an inflow), and
 *    a notified `type` must equal it;
 *  - `virtualAccount` must equal `destinationAccountNumber` (where a collection's money went; for an
 *    inflow the source fields describe the payer);
 *  - `amountReceived` must equal `amount` and a notified `netAmount` the record's `netAmount`, as kobo;
 *  - `sessionId`, `sourceAccountNumber`, `sourceBankCode` exactly, `sourceAccountName` and
 *    `sourceBankName` as names, whenever both sides give one;
 *  - status: a reversed record is a mismatch; a notified status must be the record's unless one of the
 *    two is `pending` (an earlier state of the other); then the record's `successful` verifies, `pending`
 *    is pending (looked at again), anything else is a mismatch;
 *  - age (listen only): a transaction older than `maxAgeMs` is `stale`, not verified.
 * So a forged amount on a pending transaction reads as a mismatch, not as pending.
 */
export function compareWithTransaction(notification: ReceivedNotification, transaction: TransactionRecord, options: CompareOptions = {}): Verification {
  const base = { transaction };
  const mismatch = (field: string, detail: string): Verification => ({ ...base, state: 'mismatch', field, detail });
  if (transaction.reference !== notification.reference) return mismatch('reference', `the API answered with transaction ${transaction.reference}`);
  const recordType = String(transaction.type ?? '').toLowerCase();
  if (recordType !== 'credit') return mismatch('event', `the transaction is a ${transaction.type || '(no type)'}, not an inflow`);
  const notifiedType = said(notification.type);
  if (notifiedType !== undefined && notifiedType.toLowerCase() !== recordType)
    return mismatch('type', `notified type ${notifiedType}, but the transaction is a ${transaction.type}`);
  // The record is read tolerantly (src/api/schemas.ts): an account number may come as a JSON number.
  if (shownText(transaction.destinationAccountNumber) !== notification.virtualAccount) {
    return mismatch(
      'virtualAccount',
      `notified account ${notification.virtualAccount}, but the money went to ${transaction.destinationAccountNumber || '(none)'}`,
    );
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
  if (notified !== actual) return mismatch('amountReceived', `notified ${formatNaira(notified)}, but the transaction is ${formatNaira(actual)}`);
  if (notification.netAmount !== undefined && notification.netAmount !== null && notification.netAmount !== '') {
    const notifiedNet = readAmount(notification.netAmount);
    const actualNet = readAmount(transaction.netAmount);
    if (notifiedNet === undefined) return mismatch('netAmount', `notified net amount ${JSON.stringify(notification.netAmount)} is not an amount`);
    if (actualNet !== undefined && notifiedNet !== actualNet) {
      return mismatch('netAmount', `notified net ${formatNaira(notifiedNet)}, but the transaction's net amount is ${formatNaira(actualNet)}`);
    }
  }
  for (const [field, recordField, how] of SHARED_TEXT_FIELDS) {
    const claim = said(notification[field]);
    const truth = said(shownText(transaction[recordField]));
    if (claim === undefined || truth === undefined) continue;
    const same = how === 'exact' ? claim === truth : normaliseName(claim) === normaliseName(truth);
    if (!same)
      return mismatch(field, `notified ${field} ${JSON.stringify(claim.slice(0, 60))}, but the transaction says ${JSON.stringify(truth.slice(0, 60))}`);
  }

  if (transaction.reversedFlag !== 0 && transaction.reversedFlag !== undefined && transaction.reversedFlag !== null) {
    return mismatch('status', 'the transaction was reversed');
  }
  const status = String(transaction.status ?? '').toLowerCase();
  const notifiedStatus = said(notification.status)?.toLowerCase();
  // Pending on either side is an earlier state of the other; two different final states contradict.
  if (notifiedStatus !== undefined && notifiedStatus !== status && notifiedStatus !== 'pending' && status !== 'pending') {
    return mismatch('status', `notified status ${notifiedStatus}, but the transaction is ${transaction.status}`);
  }
  if (status === 'pending') return { ...base, state: 'pending', detail: 'the transaction exists but is not successful yet' };
  if (status !== 'successful') return mismatch('status', `the transaction status is ${transaction.status}`);
  if (options.now !== undefined && options.maxAgeMs !== undefined) {
    const when = epochToDate(transaction.createdAt);
    if (when && options.now - when.getTime() > options.maxAgeMs) {
      return {
        ...base,
        state: 'stale',
        detail: `genuine, but the transaction is from ${when.toISOString()}, older than ${options.maxAgeMs / 3_600_000} h: not forwarded (an old event replayed)`,
      };
    }
  }
  return { ...base, state: 'verified', detail: `${formatNaira(actual)} to ${transaction.destinationAccountNumber} confirmed by the API` };
}

export function readAmount(value: unknown): Kobo | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  try {
    return parseApiAmount(value);
  } catch {
    return undefined;
  }
}

// ---- what is passed on ----------------------------------------------------------------------------------

/** The fields of a collection notification, in the order of the spec's section 6. */
export const NOTIFICATION_FIELDS = [
  'event',
  'reference',
  'virtualAccount',
  'externalReference',
  'amountReceived',
  'transactionFee',
  'netAmount',
  'stampDuty',
  'sessionId',
  'sourceCurrency',
  'sourceAccountNumber',
  'sourceAccountName',
  'sourceBankCode',
  'sourceBankName',
  'remarks',
  'destinationCurrency',
  'status',
  'createdAt',
  'updatedAt',
] as const;
export type NotificationField = (typeof NOTIFICATION_FIELDS)[number];

/**
 * The fields a verified event always takes from the API's record: verification fails without them. A
 * forward kept from an earlier run (whose list of unchecked fields was not kept with it) counts every
 * other field as unchecked, which claims less, never more.
 */
export const ALWAYS_CHECKED_FIELDS: readonly NotificationField[] = ['event', 'reference', 'virtualAccount', 'amountReceived', 'status'];

const UNCHECKED_IN_AN_OLD_FORWARD = NOTIFICATION_FIELDS.filter((field) => !ALWAYS_CHECKED_FIELDS.includes(field));

/**
 * The fields of a kept forward that are the notification's own: as recorded with it, or, for a body kept
 * by an older fsapi without that list (always a collection's), every field but ALWAYS_CHECKED_FIELDS.
 */
export function keptUnverified(outcome: { forwardUnverified?: string[] | undefined }): readonly string[] {
  return outcome.forwardUnverified ?? UNCHECKED_IN_AN_OLD_FORWARD;
}

/** The record's fields a collection notification repeats under the same name. */
const SAME_NAME_FIELDS = new Set(['sessionId', 'sourceAccountNumber', 'sourceAccountName', 'sourceBankCode', 'sourceBankName']);

/**
 * The body forwarded for a verified collection, in the notification's own shape (src/notifications/
 * forward-shape.ts): the fields it came with, none added, so a handler written against section 6 reads
 * every field where it expects it. Each value is the API's where fsapi learnt it: from the transaction
 * record (GET /v1/transactions/reference/{reference}) and, for `externalReference` and
 * `destinationCurrency`, from the client account (GET /v1/client-enquiry/{virtualAccount}); otherwise the
 * notification's own (as read: a text field sent as a number is its digits), and the field is listed in
 * `unverified` (the forward's X-Fsapi-Unverified-Fields header). Nothing here can contradict the API:
 * verification already refused a notification whose field disagrees with what the API says. The API's
 * amounts are exact: text with two decimals for `amountReceived`, JSON numbers of at most two decimals
 * for the others; its times are epoch milliseconds.
 */
export function forwardedEvent(notification: ReceivedNotification, transaction: TransactionRecord, account?: ClientEnquiry): ForwardBody {
  const number = (value: unknown): number | undefined => {
    const kobo = readAmount(value);
    return kobo === undefined ? undefined : koboToApiNumber(kobo);
  };
  const fromApi = (field: string): unknown => {
    switch (field) {
      // The name the API sent: the record being a credit is what verified it.
      case 'event':
        return notification.event;
      case 'reference':
        return transaction.reference;
      case 'virtualAccount':
        return shownText(transaction.destinationAccountNumber);
      case 'amountReceived':
        return koboToDecimal(parseApiAmount(transaction.amount));
      case 'transactionFee':
        return number(transaction.charge);
      case 'netAmount':
        return number(transaction.netAmount);
      case 'stampDuty':
        return number(transaction.stampDuty);
      case 'externalReference':
        return apiText(account?.externalReference);
      case 'destinationCurrency':
        return apiText(account?.currency);
      case 'status':
        return String(transaction.status ?? '').toLowerCase();
      case 'type':
        return apiText(transaction.type);
      case 'createdAt':
      case 'updatedAt':
        return epochToDate(transaction[field])?.getTime();
      default:
        // sourceCurrency and remarks: nothing the API answers holds them (the record's `description` is not
        // shown to be the payer's remark); fields section 6 does not list: the notification's own.
        return SAME_NAME_FIELDS.has(field) ? apiText(transaction[field as keyof TransactionRecord]) : undefined;
    }
  };
  return inOwnShape(notification, fromApi);
}

/**
 * What the client account (GET /v1/client-enquiry/{virtualAccount}) says against the notification, for a
 * notification the transaction record already verified: its `externalReference` exactly and its currency
 * (as `destinationCurrency`, ignoring case), whenever both sides give one. Pure.
 */
export function compareWithAccount(notification: ReceivedNotification, account: ClientEnquiry, transaction: TransactionRecord): Verification | undefined {
  const checks = [
    ['externalReference', said(notification.externalReference), said(shownText(account.externalReference)), (a: string, b: string) => a === b],
    [
      'destinationCurrency',
      said(notification.destinationCurrency),
      said(shownText(account.currency)),
      (a: string, b: string) => a.toUpperCase() === b.toUpperCase(),
    ],
  ] as const;
  for (const [field, claim, truth, same] of checks) {
    if (claim === undefined || truth === undefined || same(claim, truth)) continue;
    return {
      state: 'mismatch',
      field,
      transaction,
      account,
      detail: `notified ${field} ${JSON.stringify(claim.slice(0, 60))}, but client account ${notification.virtualAccount} says ${JSON.stringify(truth.slice(0, 60))}`,
    };
  }
  return undefined;
}

// ---- looking the reference up -------------------------------------------------------------------------

export interface VerifyPolicy {
  /** Lookups that could not reach the API, tried again. */
  retries: RetrySchedule;
  /** A pending transaction looked up again; SENT_ONCE: reported pending at once. */
  pending: RetrySchedule;
  /** Let AuthError through (exit 3 for a one-shot command) instead of making the event unverifiable. */
  throwAuthErrors?: boolean;
  /** A transaction older than this is `stale` (listen); undefined: no age limit (verify). */
  maxAgeMs?: number;
}

/**
 * `webhook listen`: 3 tries over about 4 s when the API cannot be reached (the HTTP layer already retries
 * a GET twice within a second, so these cover a longer blip); a pending inflow is looked at again for
 * about 30 s, since collections settle within seconds.
 */
export const LISTEN_POLICY: VerifyPolicy = { retries: NOTIFICATION_LOOKUP_RETRY, pending: PENDING_RECHECKS, maxAgeMs: MAX_EVENT_AGE_MS };

/** `webhook verify`: the same retries, but a pending transaction is reported at once (run it again later). */
export const VERIFY_ONCE_POLICY: VerifyPolicy = { retries: NOTIFICATION_LOOKUP_RETRY, pending: SENT_ONCE, throwAuthErrors: true };

export interface VerifyDeps {
  /**
   * Only the lookups are needed (the listener hands in ones that bound lookups in flight). Without
   * getClient the client account is not asked, and its fields stay unchecked.
   */
  api: Pick<Api, 'baseUrl' | 'getTransaction'> & Partial<Pick<Api, 'getClient'>>;
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
  notification: ReceivedNotification,
  policy: VerifyPolicy,
  signal?: AbortSignal,
): Promise<Verification> {
  return untilSettled(deps, policy, signal, async () => {
    const lookup = await lookUp(deps, notification.reference, policy, signal);
    if ('state' in lookup) return lookup;
    const verdict = compareWithTransaction(notification, lookup.transaction, { now: deps.clock.now(), maxAgeMs: policy.maxAgeMs });
    return verdict.state === 'verified' ? withAccount(deps, notification, verdict, policy, signal) : verdict;
  });
}

/**
 * `look`, again while what it finds is pending, as long as the policy's rechecks allow: the last verdict,
 * saying how many times it looked, or that a stop came before it settled.
 */
export async function untilSettled<V extends Verification>(
  deps: Pick<VerifyDeps, 'clock'>,
  policy: VerifyPolicy,
  signal: AbortSignal | undefined,
  look: () => Promise<V>,
): Promise<V> {
  const rechecks = new Backoff(policy.pending, { clock: deps.clock, signal });
  for (;;) {
    const verdict = await look();
    if (verdict.state !== 'pending') return verdict;
    const wait = rechecks.next();
    if (wait === undefined) return rechecks.waited > 0 ? { ...verdict, detail: `${verdict.detail} (looked ${rechecks.waited + 1} times)` } : verdict;
    if (!(await rechecks.sleep(wait))) return { ...verdict, detail: `${verdict.detail} (stopped before it settled)` };
  }
}

/**
 * A verified event, checked against its client account too: a field the account contradicts makes it a
 * mismatch. An account the API cannot show (unknown, unreachable, credentials refused) contradicts
 * nothing; its fields are then passed on as unchecked.
 */
async function withAccount(
  deps: VerifyDeps,
  notification: ReceivedNotification,
  verdict: Verification,
  policy: VerifyPolicy,
  signal: AbortSignal | undefined,
): Promise<Verification> {
  const getClient = deps.api.getClient;
  if (!getClient) return verdict;
  const retries = new Backoff(policy.retries, { clock: deps.clock, signal });
  do {
    try {
      const account = await getClient(notification.virtualAccount);
      return compareWithAccount(notification, account, verdict.transaction!) ?? { ...verdict, account };
    } catch (error) {
      const retryable =
        error instanceof TransportError || (error instanceof ApiError && error.status !== 400 && error.status !== 404 && !(error instanceof AuthError));
      if (!retryable) return verdict;
    }
  } while (await retries.wait());
  return verdict;
}

export async function lookUp(
  deps: VerifyDeps,
  reference: string,
  policy: VerifyPolicy,
  signal: AbortSignal | undefined,
): Promise<{ transaction: TransactionRecord } | Verification> {
  const retries = new Backoff(policy.retries, { clock: deps.clock, signal });
  let lastProblem = '';
  for (let attempt = 1; ; attempt += 1) {
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
    const wait = retries.next();
    if (wait === undefined) {
      return { state: 'unverifiable', detail: `could not reach the API at ${deps.api.baseUrl} after ${attempt} tries: ${lastProblem}` };
    }
    if (!(await retries.sleep(wait))) return { state: 'unverifiable', detail: `stopped before the API could be reached: ${lastProblem}` };
  }
}

// ---- payouts and reversals: read here, with the collection, so that parseNotification can tell them apart;
// verified in src/notifications/payout-event.ts ----

/** A payout notification, read tolerantly: only `reference` and a status are required. */
export interface PayoutNotification {
  /** The event name as sent (`payout`, `transfer.failed`, ...): passed on so the app routes it as before. */
  event: string;
  reference: string;
  /** Lower case; `success` read as `successful`, `fail` as `failed`. */
  status: string;
  amount: Kobo | undefined;
  accountNumber: string | undefined;
  bankCode: string | undefined;
  /** `failureReason`, else `message`: never checked (the API's record holds no such text). */
  failureReason: string | undefined;
  message: string | undefined;
  /** The body as received: the shape of the forward (src/notifications/forward-shape.ts). */
  said: Readonly<Record<string, unknown>>;
}

export interface ReversalNotification {
  event: string;
  /** `R-<original reference>`. */
  reference: string;
  originalReference: string;
  amount: Kobo | undefined;
  /** The body as received: the shape of the forward. */
  said: Readonly<Record<string, unknown>>;
}

export type OutflowEvent = { kind: 'payout'; notification: PayoutNotification } | { kind: 'reversal'; notification: ReversalNotification };

/** Which kind an event name is: `payout*` and `transfer*` are payouts, `revers*` reversals; else undefined. */
export function outflowKind(event: string): 'payout' | 'reversal' | undefined {
  const name = event.trim().toLowerCase();
  if (name.startsWith('payout') || name.startsWith('transfer')) return 'payout';
  if (name.startsWith('revers')) return 'reversal';
  return undefined;
}

export const STATUS_WORDS: Record<string, string> = {
  pending: 'pending',
  processing: 'pending',
  successful: 'successful',
  success: 'successful',
  completed: 'successful',
  failed: 'failed',
  fail: 'failed',
  failure: 'failed',
  reversed: 'reversed',
  reversal: 'reversed',
};

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Reads a payout or reversal body, or says why it cannot be acted on (a reference that is not safe in a
 * URL path, a payout with no status, an amount that is not one). A payout's status is its `status`, else
 * the last word of the event name (`payout.failed`).
 */
export function readOutflowEvent(kind: 'payout' | 'reversal', body: Record<string, unknown>, event: string): OutflowEvent | { problem: string } {
  const reference = text(body.reference);
  if (reference === undefined || !isSafeReference(reference))
    return { problem: `a ${kind} event needs a usable reference, not ${JSON.stringify(String(body.reference ?? '').slice(0, 80))}` };
  let amount: Kobo | undefined;
  if (body.amount !== undefined && body.amount !== null && body.amount !== '') {
    amount = readAmount(body.amount);
    if (amount === undefined) return { problem: `amount ${JSON.stringify(String(body.amount).slice(0, 40))} is not an amount` };
  }
  if (kind === 'reversal') {
    const original = text(body.originalReference) ?? (reference.toUpperCase().startsWith('R-') ? reference.slice(2) : undefined);
    if (original === undefined || !isSafeReference(original))
      return { problem: `a reversal names its transfer as R-<reference> or originalReference; ${JSON.stringify(reference.slice(0, 80))} does neither` };
    return { kind, notification: { event, reference, originalReference: original, amount, said: body } };
  }
  const said = text(body.status) ?? event.split(/[._:\s-]/).pop();
  const status = said === undefined ? undefined : STATUS_WORDS[said.toLowerCase()];
  if (status === undefined)
    return {
      problem: `a payout event needs a status (pending, successful, failed or reversed), not ${JSON.stringify(String(body.status ?? '').slice(0, 40))}`,
    };
  return {
    kind,
    notification: {
      event,
      reference,
      status,
      amount,
      accountNumber: text(body.destinationAccountNumber) ?? text(body.accountNumber) ?? text(body.beneficiaryAccountNumber),
      bankCode: text(body.destinationBankCode) ?? text(body.bankCode) ?? text(body.beneficiaryBankCode),
      failureReason: text(body.failureReason),
      message: text(body.message),
      said: body,
    },
  };
}
