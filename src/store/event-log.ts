// The webhook event log's tables in the local store (src/store/database.ts; the schema is a step of
// src/store/migrations.ts): every query the event log (src/notifications/event-log.ts) makes, by name.
// What a record means, which ones finish an event and what a listing shows is decided there; this module
// only reads and writes rows, and keeps the indexes of src/store/events.ts as each record is written.
//
//   events   every record in the order written (`seq`), as the JSON text it was written as (`record`),
//            with its kind, event id and reference;
//   imports  the files carried over into the store (events.jsonl), so none is read twice;
//   event_claims  the references listeners are processing now: (account, reference) -> claimed_by and
//            claimed_until, in ms by the store's own clock (never a machine's: machines disagree), so a
//            claim's end is the same for every listener and lives in a row, not in a session or a
//            connection: a reset connection, a pooler in front or a restarted server leave it as it was.
import type { EventRecord } from './events.js';
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
}

/** A listener of one account, as its claims name it. */
export interface ListenerClaims {
  /** The account whose events it takes ('' for one that verifies none: it takes events of no account). */
  account: string;
  /** This listener (host, pid and a random part), as `claimed_by` says. */
  listener: string;
  /** How long a claim holds without being renewed. */
  claimMs: number;
}

/** An open event taken by a listener: its row and the reference it claimed. */
export interface TakenEvent extends StoredEvent {
  reference: string;
}

/**
 * The claims of listeners on references (event_claims) and the events they take. Each method runs in the
 * caller's write transaction: one writer at a time across every process and machine sharing the store, so
 * two listeners never both take one event or both claim one reference.
 */
export class EventClaims {
  constructor(
    readonly store: Store,
    readonly who: ListenerClaims,
  ) {}

  /** Now, in epoch ms, by the store's clock, as SQL (the database server's for a team store). */
  private get now(): string {
    return this.store.backend === 'postgresql'
      ? '(extract(epoch FROM clock_timestamp()) * 1000)::bigint'
      : "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
  }

  /**
   * Up to `limit` open events of this listener's account (or of none), oldest first, leaving out the rows
   * `excluding` (those this listener is processing) and every reference another listener holds a live
   * claim on; each reference taken is claimed for `claimMs` (this listener's own claims are extended: a
   * later delivery of a reference it is processing waits behind the earlier one, in this listener). An
   * event of no account becomes this account's.
   */
  async take(q: Queries, limit: number, excluding: readonly number[]): Promise<TakenEvent[]> {
    const { account, listener, claimMs } = this.who;
    const notTaken = excluding.length === 0 ? '' : `AND o.seq NOT IN (${excluding.map(() => '?').join(', ')})`;
    const rows = await q
      .sql(
        `SELECT o.seq, o.reference, o.account, e.record FROM events_open o JOIN events e ON e.seq = o.seq
         WHERE (o.account = ? OR o.account IS NULL) ${notTaken}
           AND NOT EXISTS (SELECT 1 FROM event_claims c WHERE c.account = ? AND c.reference = o.reference
                             AND c.claimed_by <> ? AND c.claimed_until > ${this.now})
         ORDER BY o.seq LIMIT ?`,
      )
      .all(account, ...excluding, account, listener, limit);
    const references = new Set<string>();
    for (const row of rows) {
      references.add(String(row.reference));
      if (row.account === null && account !== '')
        await q.sql('UPDATE events_open SET account = ? WHERE seq = ? AND account IS NULL').run(account, Number(row.seq));
    }
    for (const reference of references) {
      await q
        .sql(
          `INSERT INTO event_claims (account, reference, claimed_by, claimed_until) VALUES (?, ?, ?, ${this.now} + ?)
           ON CONFLICT (account, reference) DO UPDATE SET claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until`,
        )
        .run(account, reference, listener, claimMs);
    }
    return rows.map((row) => ({ seq: Number(row.seq), text: String(row.record), reference: String(row.reference) }));
  }

  /** Drops an open row whose record cannot be read (written by hand, or by a newer fsapi): no listener can process it. */
  async dropOpen(q: Queries, seq: number): Promise<void> {
    await q.sql('DELETE FROM events_open WHERE seq = ?').run(seq);
  }

  /**
   * Claims `reference` for this listener (or extends its own claim) unless another listener's is live:
   * whether this listener holds it now, for `claimMs` more.
   */
  async claim(q: Queries, reference: string): Promise<boolean> {
    const { account, listener, claimMs } = this.who;
    const { changes } = await q
      .sql(
        `INSERT INTO event_claims (account, reference, claimed_by, claimed_until) VALUES (?, ?, ?, ${this.now} + ?)
         ON CONFLICT (account, reference) DO UPDATE SET claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until
         WHERE event_claims.claimed_by = excluded.claimed_by OR event_claims.claimed_until <= ${this.now}`,
      )
      .run(account, reference, listener, claimMs);
    return changes > 0;
  }

  /** Extends this listener's claim on `reference`: false when it has none any more (it ran out and another took it). */
  async extend(q: Queries, reference: string): Promise<boolean> {
    const { account, listener, claimMs } = this.who;
    const { changes } = await q
      .sql(`UPDATE event_claims SET claimed_until = ${this.now} + ? WHERE account = ? AND reference = ? AND claimed_by = ?`)
      .run(claimMs, account, reference, listener);
    return changes > 0;
  }

  /** Extends every claim of this listener; returns how many it holds. */
  async renewAll(q: Queries): Promise<number> {
    const { listener, claimMs } = this.who;
    return (await q.sql(`UPDATE event_claims SET claimed_until = ${this.now} + ? WHERE claimed_by = ?`).run(claimMs, listener)).changes;
  }

  /** Lets go of this listener's claim on `reference`, or of all its claims. */
  async release(q: Queries, reference?: string): Promise<void> {
    const { account, listener } = this.who;
    if (reference === undefined) await q.sql('DELETE FROM event_claims WHERE claimed_by = ?').run(listener);
    else await q.sql('DELETE FROM event_claims WHERE account = ? AND reference = ? AND claimed_by = ?').run(account, reference, listener);
  }

  /** How many open events this listener's account (or none) has: what is left to take, here or by others. */
  async openCount(q: Queries): Promise<number> {
    const row = await q.sql('SELECT count(*) AS n FROM events_open WHERE account = ? OR account IS NULL').get(this.who.account);
    return Number(row?.n ?? 0);
  }

  /** The ids of the undelivered events of this listener's account (or of none), in the order first left undelivered. */
  async undeliveredIds(q: Queries): Promise<string[]> {
    const rows = await q.sql('SELECT id FROM events_undelivered WHERE account = ? OR account IS NULL ORDER BY since').all(this.who.account);
    return rows.map((row) => String(row.id));
  }

  /** The rows (the latest outcome of each) of the undelivered events `ids`. */
  async undeliveredRowsOf(q: Queries, ids: readonly string[]): Promise<StoredEvent[]> {
    const rows: StoredEvent[] = [];
    for (let at = 0; at < ids.length; at += EVENT_PAGE) {
      const page = ids.slice(at, at + EVENT_PAGE);
      const found = await q
        .sql(
          `SELECT e.seq, e.record FROM events_undelivered u JOIN events e ON e.seq = u.seq WHERE u.id IN (${page.map(() => '?').join(', ')}) ORDER BY u.since`,
        )
        .all(...page);
      rows.push(...found.map(stored));
    }
    return rows;
  }
}
