// The transfer journal's tables in the local store (src/store/database.ts; the schema is a step of
// src/store/migrations.ts): every query the journal (src/transfers/journal.ts) makes, by name. What a
// record means and how it changes its transfer's state is decided there; this module only reads and
// writes rows.
//
//   journal     every record in the order written, as the JSON text it was written as (`record`);
//   transfers   each transfer's state as the journal folded it (`doc`, JSON), with the columns the claim
//               and `transfer log` look it up by: profile, base_url, reference, claim_key (the reference
//               upper-cased), sent_ms, the payee and amount, state, and the send attempts of the reference;
//   imports     the files carried over into the store, so none is read twice.
//
// Each method runs in the caller's transaction, given by its handle (`q`): a write's for the writing ones
// (a claim, an outcome, an import), a read's or a write's for the reading ones.
import type { Kobo } from '../money/kobo.js';
import type { PlannedRead, Queries, SqlRow, SqlValue, Store } from './store.js';

/** Which account and reference a row belongs to. */
export interface JournalScope {
  profile: string;
  baseUrl: string;
}

export interface ReferenceScope extends JournalScope {
  reference: string;
}

/** One stored record: its position in the journal and its text. */
export interface StoredRecord {
  seq: number;
  text: string;
}

/** A transfer's folded state as JSON, and who the store says wrote its latest intent (src/common/actor.ts). */
export interface TransferDoc {
  doc: string;
  actor: string | undefined;
}

/** A transfer's row: where its first intent is (its key), its folded state and its actor. */
export interface StoredTransfer extends TransferDoc {
  firstSeq: number;
}

/** The send attempts of a reference as the transfers table keeps them. */
export interface StoredAttempts {
  intents: number;
  lastPid: number | undefined;
  lastRun: string | undefined;
  lastIntentAt: string;
  answered: boolean;
}

/** Which process made an intent: its pid and run. */
export interface IntentAttempt {
  pid: number | undefined;
  run: string | undefined;
}

/** A new transfer's row, made from its first intent (whose seq it takes as its key: insertTransfer). */
export interface NewTransfer extends ReferenceScope {
  /** The intent's time in ms since the epoch; null when the time is not a date (a hand-edited journal.jsonl). */
  sentMs: number | null;
  accountNumber: string;
  bankCode: string;
  amountKobo: Kobo;
  state: string;
  lastIntentAt: string;
  doc: string;
  /** Who acts (Store.actor): a team store's server stamps its login whatever is given. */
  actor: string;
}

/** What the duplicate guard compares: the payee and the amount, in one account. */
export interface DuplicateQuery extends JournalScope {
  accountNumber: string;
  bankCode: string;
  amountKobo: Kobo;
}

export interface TransferFilter {
  limit?: number | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
  scope?: JournalScope | undefined;
}

const claimKeyOf = (reference: string) => reference.toUpperCase();

// The reads a claim makes (and a batch's lookups, a page of rows at a time), as statements: what a
// transaction asks in advance, together (Queries.prefetch), is what its lookups then ask, to the letter.

/**
 * Every transfer of a reference's claim key (its spellings in any case), oldest first, with the send
 * attempts the first of them holds: one statement for both, so a claim asks it once (a reference has one
 * spelling or two, never many).
 */
export function claimKeyRead(scope: ReferenceScope): PlannedRead {
  return {
    text: `SELECT first_seq, reference, doc, actor, intents, last_pid, last_run, last_intent_at, answered
             FROM transfers WHERE profile = ? AND base_url = ? AND claim_key = ? ORDER BY first_seq`,
    params: [scope.profile, scope.baseUrl, claimKeyOf(scope.reference)],
  };
}

/** The duplicate guard's rule: the same account, bank and amount, not refused, sent within `windowMs` of `now`. */
export function duplicatesRead(query: DuplicateQuery, now: number, windowMs: number): PlannedRead {
  return {
    text: `SELECT doc, actor FROM transfers WHERE profile = ? AND base_url = ? AND account_number = ? AND bank_code = ? AND amount_kobo = ?
           AND sent_ms > ? AND sent_ms < ? AND state <> 'rejected' ORDER BY first_seq`,
    params: [query.profile, query.baseUrl, query.accountNumber, query.bankCode, query.amountKobo, now - windowMs, now + windowMs],
  };
}

export class JournalStore {
  constructor(readonly store: Store) {}

  // ---- writing (the caller holds the write transaction) ------------------------------------------

  /**
   * Appends one record's text to the journal. Its seq is not read back: a new transfer's row takes it in
   * the same transaction (insertTransfer), so a team store sends both with a later statement (Statement.write).
   */
  async appendRecord(q: Queries, type: string, scope: ReferenceScope, time: string, text: string): Promise<void> {
    await q
      .sql('INSERT INTO journal (type, profile, base_url, reference, time, record) VALUES (?, ?, ?, ?, ?, ?)')
      .write(type, scope.profile, scope.baseUrl, scope.reference, time, text);
  }

  /** The transfer with exactly this reference in this scope. */
  async exactTransfer(q: Queries, scope: ReferenceScope): Promise<StoredTransfer | undefined> {
    const row = await q
      .sql('SELECT first_seq, doc, actor FROM transfers WHERE profile = ? AND base_url = ? AND reference = ?')
      .get(scope.profile, scope.baseUrl, scope.reference);
    return row ? stored(row) : undefined;
  }

  /**
   * Every transfer of the reference's claim key (its spellings in any case), oldest first: the row that
   * holds its attempts (the first) and the one with exactly this reference, in one statement (a record's
   * fold reads both).
   */
  async claimKeyTransfers(q: Queries, scope: ReferenceScope): Promise<Array<StoredTransfer & { reference: string }>> {
    const read = claimKeyRead(scope);
    const rows = await q.sql(read.text).all(...read.params);
    return rows.map((row) => ({ ...stored(row), reference: String(row.reference) }));
  }

  /** The first transfer of the reference's claim key (any case). */
  async claimTransfer(q: Queries, scope: ReferenceScope): Promise<StoredTransfer | undefined> {
    const row = await q
      .sql('SELECT first_seq, doc, actor FROM transfers WHERE profile = ? AND base_url = ? AND claim_key = ? ORDER BY first_seq LIMIT 1')
      .get(scope.profile, scope.baseUrl, claimKeyOf(scope.reference));
    return row ? stored(row) : undefined;
  }

  /**
   * A new transfer's row, keyed by the journal record appended last in this transaction (its first intent):
   * SQLite's last_insert_rowid(), PostgreSQL's lastval() (the journal's seq; nothing between the two takes
   * another number). `attempt`: the intent's attempt when this row holds the reference's attempts (no other
   * spelling of it came first).
   */
  async insertTransfer(q: Queries, row: NewTransfer, attempt: IntentAttempt | undefined): Promise<void> {
    // A team store's server sets the actor itself (its login, on every insert); here fsapi does.
    const lastSeq = this.store.backend === 'sqlite' ? 'last_insert_rowid()' : 'lastval()';
    await q
      .sql(
        `INSERT INTO transfers (first_seq, profile, base_url, reference, claim_key, sent_ms, account_number, bank_code, amount_kobo, state,
           intents, last_pid, last_run, last_intent_at, answered, doc, actor) VALUES (${lastSeq}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
      )
      .write(
        row.profile,
        row.baseUrl,
        row.reference,
        claimKeyOf(row.reference),
        row.sentMs,
        row.accountNumber,
        row.bankCode,
        row.amountKobo,
        row.state,
        attempt ? 1 : 0,
        attempt?.pid ?? null,
        attempt?.run ?? null,
        row.lastIntentAt,
        row.doc,
        row.actor,
      );
  }

  /** Stores a transfer's folded state. */
  async saveState(q: Queries, firstSeq: number, state: string, doc: string): Promise<void> {
    await q.sql('UPDATE transfers SET state = ?, doc = ? WHERE first_seq = ?').write(state, doc, firstSeq);
  }

  /** One more intent of the reference whose attempts `firstSeq` holds, by `actor`: unanswered until an outcome. */
  async noteIntent(q: Queries, firstSeq: number, attempt: IntentAttempt, time: string, actor: string): Promise<void> {
    // A team store's server sets the actor itself (its login, on a new intent); here fsapi does.
    const setActor = this.store.backend === 'sqlite' ? ', actor = ?' : '';
    await q
      .sql(`UPDATE transfers SET intents = intents + 1, last_pid = ?, last_run = ?, last_intent_at = ?, answered = 0${setActor} WHERE first_seq = ?`)
      .write(attempt.pid ?? null, attempt.run ?? null, time, ...(setActor ? [actor] : []), firstSeq);
  }

  /** An outcome of the transfer that holds its reference's attempts: its state stored, its attempts answered. */
  async saveAnsweredState(q: Queries, firstSeq: number, state: string, doc: string): Promise<void> {
    await q.sql('UPDATE transfers SET state = ?, doc = ?, answered = 1 WHERE first_seq = ?').write(state, doc, firstSeq);
  }

  /** An outcome was written after the last intent of the reference whose attempts `firstSeq` holds. */
  async noteAnswered(q: Queries, firstSeq: number): Promise<void> {
    await q.sql('UPDATE transfers SET answered = 1 WHERE first_seq = ?').write(firstSeq);
  }

  /** Whether the file `name` was carried over already. */
  async imported(q: Queries, name: string): Promise<boolean> {
    return (await q.sql('SELECT 1 AS done FROM imports WHERE name = ?').get(name)) !== undefined;
  }

  async noteImport(q: Queries, name: string, at: string, records: number, bytes: number): Promise<void> {
    await q.sql('INSERT INTO imports (name, at, records, bytes) VALUES (?, ?, ?, ?)').run(name, at, records, bytes);
  }

  // ---- reading -------------------------------------------------------------------------------------

  /** Up to `limit` records after `afterSeq`, in the order written. */
  async recordsAfter(q: Queries, afterSeq: number, limit: number): Promise<StoredRecord[]> {
    const rows = await q.sql('SELECT seq, record FROM journal WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit);
    return rows.map((row) => ({ seq: Number(row.seq), text: String(row.record) }));
  }

  /** A page of the transfers whose intent time is not a date, after `afterSeq`, by first_seq. */
  async undatedTransfersAfter(q: Queries, scope: JournalScope | undefined, afterSeq: number, limit: number): Promise<StoredTransfer[]> {
    const [inScope, params] = scopeFilter(scope);
    const rows = await q
      .sql(`SELECT first_seq, doc, actor FROM transfers WHERE ${inScope}sent_ms IS NULL AND first_seq > ? ORDER BY first_seq LIMIT ?`)
      .all(...params, afterSeq, limit);
    return rows.map(stored);
  }

  /** A page of the dated transfers after (sentMs, firstSeq), by the index on sent_ms. */
  async datedTransfersAfter(
    q: Queries,
    scope: JournalScope | undefined,
    after: { sentMs: number; firstSeq: number },
    limit: number,
  ): Promise<Array<StoredTransfer & { sentMs: number }>> {
    const [inScope, params] = scopeFilter(scope);
    const rows = await q
      .sql(
        `SELECT first_seq, sent_ms, doc, actor FROM transfers WHERE ${inScope}sent_ms IS NOT NULL AND (sent_ms, first_seq) > (?, ?) ORDER BY sent_ms, first_seq LIMIT ?`,
      )
      .all(...params, after.sentMs, after.firstSeq, limit);
    return rows.map((row) => ({ ...stored(row), sentMs: Number(row.sent_ms) }));
  }

  /**
   * The transfers `filter` selects, oldest intent first; with `limit`, the last ones (still oldest first).
   * Read a page of PAGE rows at a time, so no one result holds a long history.
   */
  async transfers(q: Queries, filter: TransferFilter): Promise<TransferDoc[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.scope) {
      where.push('profile = ? AND base_url = ?');
      params.push(filter.scope.profile, filter.scope.baseUrl);
    }
    if (filter.fromMs !== undefined) {
      where.push('sent_ms >= ?');
      params.push(filter.fromMs);
    }
    if (filter.toMs !== undefined) {
      where.push('sent_ms < ?');
      params.push(filter.toMs);
    }
    const docs: TransferDoc[] = [];
    const newestFirst = filter.limit !== undefined;
    let left = filter.limit ?? Number.POSITIVE_INFINITY;
    let after: number | undefined;
    while (left > 0) {
      const keyset = after === undefined ? [] : [newestFirst ? 'first_seq < ?' : 'first_seq > ?'];
      const clause = [...where, ...keyset].length > 0 ? `WHERE ${[...where, ...keyset].join(' AND ')}` : '';
      const size = Math.min(PAGE, left);
      const page = await q
        .sql(`SELECT first_seq, doc, actor FROM transfers ${clause} ORDER BY first_seq ${newestFirst ? 'DESC' : ''} LIMIT ?`)
        .all(...params, ...(after === undefined ? [] : [after]), size);
      for (const row of page) docs.push(docOf(row));
      left -= page.length;
      if (page.length < size) break;
      after = Number(page[page.length - 1]!.first_seq);
    }
    return newestFirst ? docs.reverse() : docs;
  }

  /** The send attempts of a reference (its claim key, any case): the first of its transfers holds them. */
  async attempts(q: Queries, scope: ReferenceScope): Promise<StoredAttempts | undefined> {
    const read = claimKeyRead(scope);
    const [row] = await q.sql(read.text).all(...read.params);
    if (!row) return undefined;
    return {
      intents: Number(row.intents),
      lastPid: row.last_pid === null ? undefined : Number(row.last_pid),
      lastRun: row.last_run === null ? undefined : String(row.last_run),
      lastIntentAt: String(row.last_intent_at),
      answered: Number(row.answered) === 1,
    };
  }

  /**
   * The duplicate guard's one rule: transfers of the same amount to the same account at the same bank,
   * from the same profile and base address, sent less than `windowMs` before `now` (or after it: a
   * clock set back still counts as recent), oldest first. Refused transfers do not count: nothing moved.
   * A transfer whose intent time is not a date has no sent_ms and is never one.
   */
  async duplicates(q: Queries, query: DuplicateQuery, now: number, windowMs: number): Promise<TransferDoc[]> {
    const read = duplicatesRead(query, now, windowMs);
    const rows = await q.sql(read.text).all(...read.params);
    return rows.map(docOf);
  }

  /** The transfers of a profile (any base address) sent in [fromMs, toMs), oldest first. */
  async sentBetween(q: Queries, profile: string, fromMs: number, toMs: number): Promise<TransferDoc[]> {
    const rows = await q
      .sql('SELECT doc, actor FROM transfers WHERE profile = ? AND sent_ms >= ? AND sent_ms < ? ORDER BY first_seq')
      .all(profile, fromMs, toMs);
    return rows.map(docOf);
  }

  /** When the first transfer of this scope was sent; undefined when it has none. */
  async firstSentMs(q: Queries, scope: JournalScope): Promise<number | undefined> {
    const row = await q.sql('SELECT min(sent_ms) AS first FROM transfers WHERE profile = ? AND base_url = ?').get(scope.profile, scope.baseUrl);
    return row?.first === null || row?.first === undefined ? undefined : Number(row.first);
  }

  /** How many transfers there are; with `scope`, of that profile at that base address. */
  async count(q: Queries, scope?: JournalScope): Promise<number> {
    const row = scope
      ? await q.sql('SELECT count(*) AS n FROM transfers WHERE profile = ? AND base_url = ?').get(scope.profile, scope.baseUrl)
      : await q.sql('SELECT count(*) AS n FROM transfers').get();
    return Number(row?.n ?? 0);
  }
}

/** Rows read per statement where a caller wants them all: a long history is read as many pages, never one result. */
const PAGE = 500;

function scopeFilter(scope: JournalScope | undefined): [string, SqlValue[]] {
  return scope ? ['profile = ? AND base_url = ? AND ', [scope.profile, scope.baseUrl]] : ['', []];
}

function stored(row: SqlRow): StoredTransfer {
  return { firstSeq: Number(row.first_seq), ...docOf(row) };
}

function docOf(row: SqlRow): TransferDoc {
  return { doc: String(row.doc), actor: row.actor === null || row.actor === undefined ? undefined : String(row.actor) };
}
