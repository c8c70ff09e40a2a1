// What `webhook listen` needs to know of its event history at start-up and for each event, kept by index
// beside the `events` table so neither grows with the number of events (src/store/event-log.ts writes,
// src/notifications/event-processor.ts asks):
//   events_open         the received events with no outcome that finishes them, with the account whose
//                       listener received them and their reference: what listeners take to process;
//   events_undelivered  the verified events whose forward failed: delivered by a later round or run;
//   event_claims        which listener is processing a reference now, and until when (src/store/event-log.ts);
//   events (reference), events (id): an event's earlier deliveries, to recognise a resend.
// Each is folded from the records as each is written, the way EventProcessor.restore once folded the whole
// log in memory at every start; a database made before these tables is folded once, when migrated.
import type { Queries } from './store.js';

// ---- the records: webhook listen's event history, as src/notifications/event-log.ts writes them ----------

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

/** One stored record, or undefined when it is not one (written by hand, or by a newer fsapi). */
export function parseEventRecord(line: string): EventRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.id !== 'string' || typeof record.reference !== 'string') return undefined;
  if (record.kind === 'received' && typeof record.body === 'string' && typeof record.sha256 === 'string' && typeof record.receivedAt === 'string') {
    return record as unknown as EventRecord;
  }
  if (record.kind === 'outcome' && typeof record.state === 'string') return record as unknown as EventRecord;
  return undefined;
}

/**
 * An outcome that leaves its event open: a verified event left undelivered by an older fsapi, which kept
 * no body to forward; only the received bytes would be left, so the next run verifies it again.
 */
export function leavesOpen(record: EventRecord): boolean {
  return record.kind === 'outcome' && Boolean(record.undelivered) && !record.forwarded && record.forwardBody === undefined;
}

/** Folds the record stored at `seq` into events_open and events_undelivered, in the caller's write transaction. */
export async function indexEvent(q: Queries, seq: number, record: EventRecord): Promise<void> {
  if (record.kind === 'received') {
    // An event received before listeners kept their account has none: any listener may take it up.
    await q
      .sql('INSERT INTO events_open (id, seq, account, reference) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq')
      .run(record.id, seq, record.account ?? null, record.reference);
    return;
  }
  if (leavesOpen(record)) return;
  // Delivered, or given up on (failed): no longer waiting.
  if (record.forwarded || record.state === 'failed') await q.sql('DELETE FROM events_undelivered WHERE id = ?').run(record.id);
  else if (record.undelivered && record.forwardBody !== undefined) {
    // Kept in the order first left undelivered, for the account that received it; the latest outcome
    // holds the body to forward.
    await q
      .sql(
        `INSERT INTO events_undelivered (id, seq, since, account) VALUES (?, ?, ?, (SELECT account FROM events_open WHERE id = ?))
         ON CONFLICT (id) DO UPDATE SET seq = excluded.seq`,
      )
      .run(record.id, seq, seq, record.id);
  }
  await q.sql('DELETE FROM events_open WHERE id = ?').run(record.id);
}

/** Folds every stored record, a page at a time (a database made before the tables, once, when migrated). */
export async function indexAllEvents(q: Queries): Promise<void> {
  await q.sql('DELETE FROM events_open').run();
  await q.sql('DELETE FROM events_undelivered').run();
  let after = 0;
  for (;;) {
    const rows = await q.sql('SELECT seq, record FROM events WHERE seq > ? ORDER BY seq LIMIT 500').all(after);
    for (const row of rows) {
      const record = parseEventRecord(String(row.record));
      if (record) await indexEvent(q, Number(row.seq), record);
    }
    if (rows.length < 500) return;
    after = Number(rows[rows.length - 1]!.seq);
  }
}
