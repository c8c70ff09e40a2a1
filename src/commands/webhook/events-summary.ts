// What `webhook events` shows of one event: its kind (read from the stored body), state now, tries.
import { currentState, type EventHistory } from '../../notifications/event-log.js';
import { parseNotification } from '../../notifications/verify.js';

export interface EventSummary {
  id: string;
  receivedAt: string;
  kind: string;
  /** A payout's status as forwarded (the API's), else as notified; null for other kinds. */
  status: string | null;
  reference: string;
  state: string;
  forwarded: boolean;
  /** Forwards tried (0 when none was). */
  attempts: number;
  detail: string;
}

export function summarise(history: EventHistory): EventSummary {
  const parsed = parseNotification(history.received.body);
  const kind = !parsed.ok ? 'unreadable' : parsed.kind === 'other' ? parsed.event : parsed.kind;
  const last = history.outcomes.at(-1);
  const forwarded = history.outcomes.some((outcome) => outcome.forwarded);
  const status = last?.eventStatus ?? (parsed.ok && parsed.kind === 'payout' ? parsed.notification.status : null);
  const attempts = last?.attempts ?? (last?.forwardBody !== undefined && (forwarded || last.undelivered) ? 1 : 0);
  return {
    id: history.received.id,
    receivedAt: history.received.receivedAt,
    kind,
    status,
    reference: history.received.reference,
    state: currentState(history),
    forwarded,
    attempts,
    detail: last?.detail ?? 'not finished yet (the next webhook listen takes it up)',
  };
}

/** The event whose id is `given` or starts with it (at least 6 characters); undefined when none or many. */
export function findEvent(histories: EventHistory[], given: string): EventHistory | 'ambiguous' | undefined {
  const exact = histories.find((history) => history.received.id === given);
  if (exact) return exact;
  if (given.length < 6) return undefined;
  const matches = histories.filter((history) => history.received.id.startsWith(given));
  if (matches.length > 1) return 'ambiguous';
  return matches[0];
}
