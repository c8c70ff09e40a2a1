// The records of webhook listen's event history, as src/notifications/event-log.ts writes them and the
// store indexes them (src/store/events.ts). Types only: the store reads them without importing the log.

/**
 * What a listener shows for an event. `stale`: genuine but too old to forward; `unknown-kind`: an event
 * fsapi cannot verify; `unverified`: --no-verify; `duplicate`: a resend, not shown again; `failed`: verified,
 * but the app refused it until --retry-for ran out (or answered 410 Gone): no more tries.
 */
export type EventState = 'verified' | 'mismatch' | 'not-found' | 'pending' | 'stale' | 'unverifiable' | 'unknown-kind' | 'unverified' | 'duplicate' | 'failed';

export interface ReceivedRecord {
  kind: 'received';
  id: string;
  /** ISO 8601, UTC. */
  receivedAt: string;
  reference: string;
  /** Hex SHA-256 of the body bytes: identical resends are recognised by it. */
  sha256: string;
  /** The body exactly as posted (UTF-8 text), so a forward after a restart sends the same bytes. */
  body: string;
  /**
   * The API account whose listener received it (listenerAccount in src/notifications/event-log.ts): only
   * a listener of that account verifies it, against that account's API. Absent in events received before
   * listeners kept it, and under --no-verify: any listener may take those up.
   */
  account?: string;
}

export interface OutcomeRecord {
  kind: 'outcome';
  /** The id of the received record this outcome belongs to. */
  id: string;
  at: string;
  reference: string;
  state: EventState;
  field: string | null;
  detail: string;
  forwarded: boolean;
  /**
   * True when a verified event has not reached the app yet: its forward was tried and failed, or it is
   * held (heldFor). Later tries (in this run or the next) deliver it; a later outcome of the same id with
   * `forwarded: true` records the delivery.
   */
  undelivered?: boolean;
  /**
   * A reversal held back until its payout's `reversed` event reaches the app (the payout's reference), at
   * most until `heldUntil` (ISO 8601) unless that event is still being tried; never tried before then.
   */
  heldFor?: string;
  heldUntil?: string;
  /**
   * With `undelivered`: the body to forward (the verified facts, JSON text), so a later run delivers what
   * was verified without trusting the received bytes.
   */
  forwardBody?: string;
  /** With forwardBody: the fields of it that are the notification's own (X-Fsapi-Unverified-Fields). */
  forwardUnverified?: string[];
  /** A payout's status as forwarded: a payout is forwarded once per reference and status. */
  eventStatus?: string;
  /** An undelivered or failed event: when its first forward failed (ISO 8601), and the tries so far. */
  firstFailedAt?: string;
  attempts?: number;
  /** A failed event: the app's last answer. */
  lastAnswer?: string;
  /** Written by `webhook events resend` for its own try (delivered or not). */
  resent?: boolean;
}

export type EventRecord = ReceivedRecord | OutcomeRecord;
