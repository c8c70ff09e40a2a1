// The webhook event log's tables in the local store (src/store/database.ts; the schema is a step of
// src/store/migrations.ts): every query the event log (src/notifications/event-log.ts) makes, by name.
// What a record means, which ones finish an event and what a listing shows is decided there; this module
// only reads and writes rows, and keeps the indexes of src/store/events.ts as each record is written.
//
//   events   every record in the order written (`seq`), as the JSON text it was written as (`record`),
//            with its kind, event id and reference;
//   imports  the files carried over into the store (events.jsonl), so none is read twice.
import type { EventRecord } from '../notifications/types.js';
import { indexEvent } from './events.js';
import type { Queries, SqlRow, Store } from './store.js';

/** One stored row of `events`: its position and its text (parsed by the caller: it may not be a record). */
export interface StoredEvent {
  seq: number;
  text: string;
}

/** An outcome's row, with the text of the received record of the delivery it finished (null when none is kept). */
export interface StoredOutcome {
  outcome: string;
  received: string | null;
}

const stored = (row: SqlRow): StoredEvent => ({ seq: Number(row.seq), text: String(row.record) });

/**
 * Rows of events read per statement where a caller wants them all (the open and undelivered ones): a
 * received record holds its body (up to 1 MB), so a page stays well inside the store's bound on one result.
 */
const EVENT_PAGE = 32;

/**
 * The `events` and `imports` rows of one store. Each method runs in the caller's transaction (its handle
 * `q`): writing ones in a write transaction, so a record and its index entries, or a whole import, are
 * committed together.
 */
export class EventStore {
  constructor(readonly store: Store) {}

  // ---- writing (the caller holds the write transaction) ------------------------------------------

  /** Appends one record and folds it into the indexes; returns its seq. */
  async insert(q: Queries, record: EventRecord): Promise<number> {
    const { lastInsertRowid } = await q
      .sql('INSERT INTO events (kind, id, reference, record) VALUES (?, ?, ?, ?)')
      .run(record.kind, record.id, record.reference, JSON.stringify(record));
    const seq = Number(lastInsertRowid);
    await indexEvent(q, seq, record);
    return seq;
  }

  /** Whether the file `name` was carried over already. */
  async imported(q: Queries, name: string): Promise<boolean> {
    return (await q.sql('SELECT 1 AS done FROM imports WHERE name = ?').get(name)) !== undefined;
  }

  async noteImport(q: Queries, name: string, at: string, records: number, bytes: number): Promise<void> {
    await q.sql('INSERT INTO imports (name, at, records, bytes) VALUES (?, ?, ?, ?)').run(name, at, records, bytes);
  }

  // ---- reading -------------------------------------------------------------------------------------

  /** Up to `limit` rows after `afterSeq`, in the order written. */
  async rowsAfter(q: Queries, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    return (await q.sql('SELECT seq, record FROM events WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit)).map(stored);
  }

  /** Every outcome row of a reference, oldest first, each with the last received row of its event before it: by index. */
  async outcomesOf(q: Queries, reference: string): Promise<StoredOutcome[]> {
    const rows = await q
      .sql(
        `SELECT o.record AS outcome,
           (SELECT r.record FROM events r WHERE r.id = o.id AND r.kind = 'received' AND r.seq < o.seq ORDER BY r.seq DESC LIMIT 1) AS received
         FROM events o WHERE o.reference = ? AND o.kind = 'outcome' ORDER BY o.seq`,
      )
      .all(reference);
    return rows.map((row) => ({ outcome: String(row.outcome), received: row.received === null ? null : String(row.received) }));
  }

  /** The rows of events_open (received events no outcome finished), oldest first, a page at a time. */
  openRows(q: Queries): Promise<StoredEvent[]> {
    return everyPage(q, 'SELECT e.seq, e.record, o.seq AS k FROM events_open o JOIN events e ON e.seq = o.seq WHERE o.seq > ? ORDER BY o.seq LIMIT ?');
  }

  /** The rows of events_undelivered, in the order first left undelivered, a page at a time. */
  undeliveredRows(q: Queries): Promise<StoredEvent[]> {
    return everyPage(
      q,
      'SELECT e.seq, e.record, u.since AS k FROM events_undelivered u JOIN events e ON e.seq = u.seq WHERE u.since > ? ORDER BY u.since LIMIT ?',
    );
  }
}

/** Every row of a query paged by its key `k` (its two parameters: the key after which, and EVENT_PAGE). */
async function everyPage(q: Queries, sql: string): Promise<StoredEvent[]> {
  const rows: StoredEvent[] = [];
  for (let after = 0; ; ) {
    const page = await q.sql(sql).all(after, EVENT_PAGE);
    rows.push(...page.map(stored));
    if (page.length < EVENT_PAGE) return rows;
    after = Number(page[page.length - 1]!.k);
  }
}
