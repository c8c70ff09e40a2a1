// Which answers to POST /v1/transfer prove that no money moved, and what a 429 allows: the one decision
// every path that sends a transfer shares (executeTransfer for `transfer send`, batch rows and approved
// held transfers, with the resends of src/transfers/rate-limit.ts; `fsapi api POST /v1/transfer
// --allow-transfer`). docs/transfers.md, "Which answers prove a refusal", says the same in words.
//
// Proof that this attempt moved nothing:
//   - the request never left: no token could be had, the profile is not logged in (nothing was sent);
//   - HTTP 400 with the spec's error shape (`success: false`, docs/api-spec.md section 7) to the first and
//     only POST of this reference.
// Nothing else is proof. A 400 to a reference fsapi sent before (a re-run of a batch, a resend after a
// refusal or a 429) may be the API refusing the reference because an earlier attempt went through; a
// 401/403 or a 3xx may come from a proxy or gateway after the API took the transfer; any other status or
// shape is outside the spec. All of these are settled like a lost answer: the reference is looked up
// (src/transfers/lookup.ts) before fsapi says anything.
//
// HTTP 429 is not proof either. The spec shows no rate limit, and a gateway or proxy may answer 429 after
// it passed the POST on and the API took the money. So a 429 is followed by the lookup of the reference,
// before any resend and before any word about the outcome (afterRateLimit):
//   - found (reference, amount and account match): it went through; never sent again;
//   - the API answers that it holds no such reference: it may be sent again, under the same reference
//     (the API keeps references unique: a second POST of one it holds is refused, never paid twice);
//   - no answer (the lookups rate limited to the end of their bounded waits, failing, or answered with
//     another transaction): the outcome is unknown (exit 5, "it may have been paid"), counted by the daily
//     maximum, never sent again by this run; a later `transfer status`, batch re-run or `reconcile` settles it.
import { ApiError, AuthError, TransportError, UsageError } from '../errors.js';
import { isErrorShape } from '../api/answers.js';

/** What fsapi knows of one answer to POST /v1/transfer. */
export interface TransferAnswerFacts {
  status: number;
  /** The body was the spec's error shape: a JSON object with `success: false`. */
  errorShape: boolean;
}

/** Whether this reference was ever sent before this attempt (journal intents before this one). */
export interface SendHistory {
  firstSend: boolean;
}

/** The status of a rate limit: proof of nothing about a transfer, whoever answered it. */
export const RATE_LIMITED = 429;

/** True only when the answer proves that the API did nothing with this attempt. */
export function answerProvesNothingMoved(answer: TransferAnswerFacts, history: SendHistory): boolean {
  return answer.status === 400 && answer.errorShape && history.firstSend;
}

/** The same decision for the raw answer `fsapi api` reads (status and parsed body). */
export function rawAnswerProvesNothingMoved(answer: { status: number; body: unknown }, history: SendHistory): boolean {
  return answerProvesNothingMoved({ status: answer.status, errorShape: isErrorShape(answer.body) }, history);
}

/**
 * The same decision for what client.sendTransfer threw. The client throws AuthError and status-less
 * ApiErrors only before the POST left (src/auth/api-client.ts): those prove nothing was sent. An ApiError with
 * a status is an answer; a TransportError, or anything unexpected, is not proof.
 */
export function errorProvesNothingMoved(error: unknown, history: SendHistory): boolean {
  if (error instanceof TransportError) return false;
  if (error instanceof AuthError || error instanceof UsageError) return true;
  if (!(error instanceof ApiError)) return false;
  if (error.status === undefined) return true;
  return answerProvesNothingMoved({ status: error.status, errorShape: error.errorShape }, history);
}

/** Whether what client.sendTransfer threw is a 429 (with any body, readable or not). */
export function isRateLimitAnswer(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === RATE_LIMITED;
}

/** What the lookups after a 429 found: the transfer, the API's "no such reference", or no answer. */
export type LookupAfterRateLimit = 'found' | 'absent' | 'no-answer';

/**
 * What a 429 to POST /v1/transfer allows once its reference was looked up: `settled` (found: it went
 * through), `send-again` (the API holds no such reference: the same reference may go again), or
 * `unknown` (no lookup answered: it may have been paid; not sent again).
 */
export function afterRateLimit(lookup: LookupAfterRateLimit): 'settled' | 'send-again' | 'unknown' {
  if (lookup === 'found') return 'settled';
  return lookup === 'absent' ? 'send-again' : 'unknown';
}
