// Which answers to POST /v1/transfer prove that no money moved: the one decision every path that sends a
// transfer shares (executeTransfer for `transfer send`, batch rows, approved held transfers and the
// resends after a 429; `fsapi api POST /v1/transfer --allow-transfer`). docs/transfers.md, "Which answers
// prove a refusal", says the same in words.
//
// Proof that this attempt moved nothing:
//   - the request never left: no token could be had, the profile is not logged in (nothing was sent);
//   - HTTP 429: the API declined to look at the request at all (rate limited), whatever the reference;
//   - HTTP 400 with the spec's error shape (`success: false`, docs/api-spec.md section 7) to the first and
//     only POST of this reference.
// Nothing else is proof. A 400 to a reference fsapi sent before (a re-run of a batch, a resend after a
// refusal, the resends after a 429) may be the API refusing the reference because an earlier attempt went
// through; a 401/403 or a 3xx may come from a proxy or gateway after the API took the transfer; any other
// status or shape is outside the spec. All of these are settled like a lost answer: the reference is looked
// up (src/transfers/lookup.ts) before fsapi says anything.
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

/** True only when the answer proves that the API did nothing with this attempt. */
export function answerProvesNothingMoved(answer: TransferAnswerFacts, history: SendHistory): boolean {
  if (answer.status === 429) return true;
  return answer.status === 400 && answer.errorShape && history.firstSend;
}

/** The same decision for the raw answer `fsapi api` reads (status and parsed body). */
export function rawAnswerProvesNothingMoved(answer: { status: number; body: unknown }, history: SendHistory): boolean {
  return answerProvesNothingMoved({ status: answer.status, errorShape: isErrorShape(answer.body) }, history);
}

/**
 * The same decision for what client.sendTransfer threw. The client throws AuthError and status-less
 * ApiErrors only before the POST left (src/api/client.ts): those prove nothing was sent. An ApiError with
 * a status is an answer; a TransportError, or anything unexpected, is not proof.
 */
export function errorProvesNothingMoved(error: unknown, history: SendHistory): boolean {
  if (error instanceof TransportError) return false;
  if (error instanceof AuthError || error instanceof UsageError) return true;
  if (!(error instanceof ApiError)) return false;
  if (error.status === undefined) return true;
  return answerProvesNothingMoved({ status: error.status, errorShape: error.errorShape }, history);
}
