// What `webhook events resend <id>` records of its own try, so the event log says what the app got: an
// outcome of the event like the listener's, marked `resent`, with the try counted in `attempts`.
//   delivered   `verified`, `forwarded: true`: a `failed` or undelivered event is delivered now (the listener
//               that kept it sees this outcome before its next try, and does not send it again);
//   not         the event stays in the state it was in (`failed` stays failed, an undelivered one is still
//               tried by the listener), with this try and the app's answer added.
import type { ForwardResult } from './forward.js';
import type { OutcomeRecord } from '../store/events.js';

/**
 * The outcome a resend writes. `latest` is the event's latest outcome, `kept` the outcome whose body was
 * sent (its latest verified or failed one), `attempts` the tries recorded before this one.
 */
export function resendOutcome(latest: OutcomeRecord, kept: OutcomeRecord, result: ForwardResult, attempts: number, at: Date): OutcomeRecord {
  const base = {
    kind: 'outcome' as const,
    id: kept.id,
    at: at.toISOString(),
    reference: kept.reference,
    field: null,
    forwardBody: kept.forwardBody,
    // As kept: a body an older fsapi kept without the list stays without it (read as keptUnverified says).
    ...(kept.forwardUnverified ? { forwardUnverified: kept.forwardUnverified } : {}),
    attempts: attempts + result.tries,
    resent: true,
    ...(kept.eventStatus ? { eventStatus: kept.eventStatus } : {}),
  };
  if (result.ok) return { ...base, state: 'verified', detail: `delivered by webhook events resend (HTTP ${result.status})`, forwarded: true };
  const stillWaiting = latest.state === 'verified' && latest.undelivered === true && !latest.forwarded;
  return {
    ...base,
    state: latest.state === 'failed' ? 'failed' : 'verified',
    detail: `resent by webhook events resend, not delivered: ${result.detail}`,
    forwarded: false,
    lastAnswer: result.detail,
    ...(stillWaiting
      ? {
          undelivered: true,
          ...(latest.firstFailedAt ? { firstFailedAt: latest.firstFailedAt } : {}),
          ...(latest.heldFor ? { heldFor: latest.heldFor, ...(latest.heldUntil ? { heldUntil: latest.heldUntil } : {}) } : {}),
        }
      : {}),
    ...(latest.state === 'failed' && latest.firstFailedAt ? { firstFailedAt: latest.firstFailedAt } : {}),
  };
}
