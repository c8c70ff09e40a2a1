// The webhook event log's tables in the local store (src/store/database.ts; the schema is a step of
// src/store/migrations.ts): every query the event log (src/notifications/event-log.ts) makes, by name.
// What a record means, which ones finish an event and what a listing shows is decided there; this module
// only reads and writes rows, and keeps the indexes of src/store/events.ts as each record is written.
//
//   events   every record in the order written (`seq`), as the JSON text it was written as (`record`),
//            with its kind, event id and reference;
//   imports  the files carried over into the store (events.jsonl), so none is read twice.
import type { EventRecord } from '../notifications/types.js';
import type { LocalStore } from './database.js';
import { indexEvent } from './events.js';
import type { SqlRow } from './sqlite.js';

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
 * The `events` and `imports` rows of one store. Reading methods run in a read transaction of their own;
 * writing ones join the caller's write transaction (`store.write`), so a record and its index entries,
 * or a whole import, are committed together.
 */
export class EventStore {
  constructor(readonly store: LocalStore) {}

  // ---- writing (the caller holds the write transaction) ------------------------------------------

  /** Appends one record and folds it into the indexes; returns its seq. */
  insert(record: EventRecord): number {
    const { lastInsertRowid } = this.store
      .sql('INSERT INTO events (kind, id, reference, record) VALUES (?, ?, ?, ?)')
      .run(record.kind, record.id, record.reference, JSON.stringify(record));
    const seq = Number(lastInsertRowid);
    indexEvent((text) => this.store.sql(text), seq, record);
    return seq;
  }

  /** Whether the file `name` was carried over already (in the caller's transaction, if any). */
  imported(name: string): boolean {
    return this.store.read(() => this.store.sql('SELECT 1 AS done FROM imports WHERE name = ?').get(name) !== undefined);
  }

  noteImport(name: string, at: string, records: number, bytes: number): void {
    this.store.sql('INSERT INTO imports (name, at, records, bytes) VALUES (?, ?, ?, ?)').run(name, at, records, bytes);
  }

  // ---- reading -------------------------------------------------------------------------------------

  /** Up to `limit` rows after `afterSeq`, in the order written. */
  rowsAfter(afterSeq: number, limit: number): StoredEvent[] {
    return this.store.read(() => this.store.sql('SELECT seq, record FROM events WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit)).map(stored);
  }

  /** Every outcome row of a reference, oldest first, each with the last received row of its event before it: by index. */
  outcomesOf(reference: string): StoredOutcome[] {
    const rows = this.store.read(() =>
      this.store
        .sql(
          `SELECT o.record AS outcome,
             (SELECT r.record FROM events r WHERE r.id = o.id AND r.kind = 'received' AND r.seq < o.seq ORDER BY r.seq DESC LIMIT 1) AS received
           FROM events o WHERE o.reference = ? AND o.kind = 'outcome' ORDER BY o.seq`,
        )
        .all(reference),
    );
    return rows.map((row) => ({ outcome: String(row.outcome), received: row.received === null ? null : String(row.received) }));
  }

  /** The rows of events_open (received events no outcome finished), oldest first. */
  openRows(): StoredEvent[] {
    return this.store.read(() => this.store.sql('SELECT e.seq, e.record FROM events_open o JOIN events e ON e.seq = o.seq ORDER BY o.seq').all()).map(stored);
  }

  /** The rows of events_undelivered, in the order first left undelivered. */
  undeliveredRows(): StoredEvent[] {
    return this.store
      .read(() => this.store.sql('SELECT e.seq, e.record FROM events_undelivered u JOIN events e ON e.seq = u.seq ORDER BY u.since').all())
      .map(stored);
  }
}
