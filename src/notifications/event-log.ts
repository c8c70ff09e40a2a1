// webhook listen's record of every notification it accepted, and of what became of it: the `events`
// table of the local store (src/store/database.ts), one row per record, two kinds:
//   {"kind":"received","id":…,"receivedAt":…,"reference":…,"sha256":…,"body":"<the body exactly as posted>"}
//       committed (fsync-ed) BEFORE the 200 answer, so an acknowledged event is never lost;
//   {"kind":"outcome","id":…,"at":…,"reference":…,"state":…,"field":…,"detail":…,"forwarded":…}
//       written once the event is verified (and forwarded), or found to be a resend; a verified event
//       carries the `forwardBody` (the verified facts: what `webhook events resend` sends) and the fields
//       of it left unchecked; one the app has not taken yet also `"undelivered":true`; one the app refused
//       until --retry-for ran out (or 410 Gone) ends with a `"state":"failed"` outcome, its `attempts` and
//       `lastAnswer`.
// A received record without an outcome is an event whose processing was cut short (crash, shutdown
// timeout); the next `webhook listen` picks it up. Records are only ever added. Each is one SQLite
// transaction: a full disk or a kill rolls back the one being written (its event is then not answered
// 200) and never touches those before it. An events.jsonl of fsapi before the store is imported once.
// The queries are src/store/event-log.ts's; this module decides what the rows mean.
import { randomBytes } from '../common/random.js';
import { hostname } from 'node:os';
import path from 'node:path';
import { CorruptFileError, ExitCode, FsapiError } from '../errors.js';
import { openLocalStore } from '../store/database.js';
import { teamChoice } from '../store/team-choice.js';
import { EventClaims, EventStore, type StoredEvent } from '../store/event-log.js';
import { leavesOpen, parseEventRecord } from '../store/events.js';
import { forEachLine } from '../store/lines.js';
import { holdProcessLock } from '../store/process-lock.js';
import type { EventRecord, EventState, OutcomeRecord, ReceivedRecord } from '../store/events.js';
export type { EventRecord, EventState, OutcomeRecord, ReceivedRecord } from '../store/events.js';

/** The JSON Lines event log of fsapi before the store: imported once, kept as it was. */
export const EVENT_LOG_FILE = 'events.jsonl';

export function eventLogPath(dataDir: string): string {
  return path.join(dataDir, EVENT_LOG_FILE);
}

/**
 * How long a listener's claim on a reference holds unless renewed (a live listener renews its claims every
 * third of it): a listener that dies, freezes or loses the store leaves its events to the others once its
 * claims have run out. FSAPI_LISTEN_CLAIM_MS replaces it (docs/notifications.md).
 */
export const DEFAULT_CLAIM_MS = 60_000;

/** Who a listener is in its claims: the host, the process and a part of its own (two runs never share one). */
export function newListenerId(): string {
  return `${hostname()} pid ${process.pid} ${randomBytes(4).toString('hex')}`;
}

/** Holds while the listener runs; the end of the process lets go of it, however it ends. */
export interface EventLogLock {
  /** Never settles: this lock cannot be taken over while its holder lives. Kept for the listener's race. */
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

/**
 * Makes this process the only listener of a data dir. Two listeners would each forward what they receive
 * and each take up the other's unfinished events, so a second one is refused (exit 1). The lock is held
 * for the life of the process (src/store/process-lock.ts): nothing goes stale, a dead listener frees it.
 */
export async function lockEventLog(dataDir: string): Promise<EventLogLock> {
  const lock = holdProcessLock(path.join(dataDir, 'listen.lock'));
  if (!lock) {
    throw new FsapiError(`another webhook listen is already using the data dir ${dataDir}`, {
      exitCode: ExitCode.failed,
      hint: 'stop it first, or give this one its own data dir (FSAPI_DATA_DIR)',
    });
  }
  return { lost: new Promise<Error>(() => undefined), release: async () => lock.release() };
}

const PAGE = 500;

/**
 * Every record in the order written, a page at a time. A record that cannot be read (written by hand, or
 * by a newer fsapi) is skipped and reported through `onBadLine` with its row number.
 */
export async function* readEventLog(dataDir: string, onBadLine: (lineNumber: number) => void): AsyncGenerator<EventRecord> {
  const events = await eventStore(dataDir);
  let after = 0;
  for (;;) {
    const rows = await events.store.read((q) => events.rowsAfter(q, after, PAGE));
    for (const row of rows) {
      const record = parseEventRecord(row.text);
      if (record) yield record;
      else onBadLine(row.seq);
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.seq;
  }
}

/**
 * The store, with events.jsonl carried over the first time (its readable lines, read a chunk at a time,
 * in one transaction; the file is kept).
 */
async function eventStore(dataDir: string): Promise<EventStore> {
  const events = new EventStore(await openLocalStore(dataDir));
  // A team store takes a machine's events by `fsapi store migrate`, never by a run that happens by.
  if (teamChoice(dataDir) || (await events.store.read((q) => events.imported(q, EVENT_LOG_FILE)))) return events;
  const file = eventLogPath(dataDir);
  await events.store.write(async (q) => {
    if (await events.imported(q, EVENT_LOG_FILE)) return; // another process imported it meanwhile
    let records = 0;
    let bytes: number | undefined;
    let visiting = false;
    try {
      bytes = await forEachLine(file, async (line) => {
        visiting = true;
        // A line cut short by a crash (or glued to the next by one) is not a record: left behind in the file.
        const record = parseEventRecord(line);
        if (record) {
          await events.insert(q, record);
          records += 1;
        }
        visiting = false;
      });
    } catch (error) {
      if (visiting) throw error;
      throw new CorruptFileError(file, (error as Error).message);
    }
    await events.noteImport(q, EVENT_LOG_FILE, new Date().toISOString(), records, bytes ?? 0);
  });
  return events;
}

/** An earlier outcome of a reference, with the SHA-256 of the body it was about (when its record is kept). */
export interface PastOutcome {
  /** The event it finished. */
  id: string;
  state: EventState;
  sha256: string | undefined;
  /** A payout's forwarded status. */
  eventStatus?: string | undefined;
  /** The app took the event (HTTP 2xx), by the listener or by `webhook events resend`. */
  forwarded: boolean;
  /** Written by `webhook events resend`. */
  resent?: boolean | undefined;
}

/**
 * The notifications of a reference that were verified against the API's record (forwarded or not), newest
 * first, each with the status it was verified with and its body as posted: by index, however long the log.
 * What a transfer's outcome shows of them is src/notifications/failure-reason.ts's to decide.
 */
export async function verifiedNotificationsOf(
  dataDir: string,
  reference: string,
): Promise<Array<{ receivedAt: string; status: string | undefined; body: string }>> {
  const found: Array<{ receivedAt: string; status: string | undefined; body: string }> = [];
  const events = await eventStore(dataDir);
  for (const row of await events.store.read((q) => events.outcomesOf(q, reference))) {
    const outcome = parseEventRecord(row.outcome);
    // `failed` is a verified event the app would not take: verified all the same.
    if (outcome?.kind !== 'outcome' || (outcome.state !== 'verified' && outcome.state !== 'failed')) continue;
    const received = row.received === null ? undefined : parseEventRecord(row.received);
    if (received?.kind !== 'received') continue;
    found.push({ receivedAt: received.receivedAt, status: outcome.eventStatus, body: received.body });
  }
  return found.reverse();
}

/** The listener a writer takes events for: its account ('' when it verifies none) and its claims. */
export interface ListenerIdentity {
  account?: string | undefined;
  /** Defaults to a new one (newListenerId). */
  listener?: string;
  claimMs?: number;
}

/** An event taken to process: its received record, or the row's number when the row is not one. */
export type Taken = { record: ReceivedRecord } | { badRow: number };

/**
 * Adds records, each committed before `append` returns; and, for a listener, takes the open events of its
 * account a few at a time, each reference under a claim in the store (src/store/event-log.ts), so
 * listeners of one account sharing the store never process one event twice.
 */
export class EventLogWriter {
  private events: EventStore | undefined;
  readonly claims: EventClaims;

  private constructor(
    readonly file: string,
    events: EventStore,
    identity: ListenerIdentity,
  ) {
    this.events = events;
    this.claims = new EventClaims(events.store, {
      account: identity.account ?? '',
      listener: identity.listener ?? newListenerId(),
      claimMs: identity.claimMs ?? DEFAULT_CLAIM_MS,
    });
  }

  /** Opens the data dir's store (0700 dir, 0600 file: events name payers and accounts). */
  static async open(dataDir: string, identity: ListenerIdentity = {}): Promise<EventLogWriter> {
    const events = await eventStore(dataDir);
    return new EventLogWriter(events.store.file, events, identity);
  }

  /** The account this writer's listener takes events for ('' for none). */
  get account(): string {
    return this.claims.who.account;
  }

  /** This writer's listener, as its claims name it. */
  get listener(): string {
    return this.claims.who.listener;
  }

  /**
   * Takes up to `limit` open events to process (oldest first), none of them in `excluding` (the rows this
   * listener has taken already) and none of a reference another listener holds a live claim on; claims
   * the references of those taken, and lets go of the claims in `releasing` first, in the same
   * transaction. A stored row that is not a received record is dropped from the open events (it stays
   * in the log as it is) and handed back as such, for a warning.
   */
  async take(limit: number, excluding: readonly number[], releasing: readonly string[]): Promise<Array<Taken & { seq: number }>> {
    const events = this.open();
    const rows = await events.store.write(async (q) => {
      for (const reference of releasing) await this.claims.release(q, reference);
      if (limit <= 0) return [];
      const taken = await this.claims.take(q, limit, excluding);
      for (const row of taken) if (parseEventRecord(row.text)?.kind !== 'received') await this.claims.dropOpen(q, row.seq);
      return taken;
    });
    return rows.map((row) => {
      const record = parseEventRecord(row.text);
      return record?.kind === 'received' ? { seq: row.seq, record } : { seq: row.seq, badRow: row.seq };
    });
  }

  /** Claims `reference` (or extends this listener's claim) unless another listener holds a live one. */
  async claim(reference: string): Promise<boolean> {
    return this.open().store.write((q) => this.claims.claim(q, reference));
  }

  /** Extends this listener's claim on `reference`: false when it ran out and another listener took it. */
  async extendClaim(reference: string): Promise<boolean> {
    return this.open().store.write((q) => this.claims.extend(q, reference));
  }

  /** Extends every claim of this listener (its heartbeat). */
  async renewClaims(): Promise<number> {
    return this.open().store.write((q) => this.claims.renewAll(q));
  }

  /** Lets go of every claim of this listener (a clean stop: the others need not wait for them to run out). */
  async releaseClaims(): Promise<void> {
    await this.open().store.write((q) => this.claims.release(q));
  }

  /** Open events of this listener's account (or of none) in the log: what is left to process, here or by others. */
  async openCount(): Promise<number> {
    return this.open().store.read((q) => this.claims.openCount(q));
  }

  /** Commits one record. Throws when the disk refuses (the caller must not acknowledge then). */
  async append(record: EventRecord): Promise<void> {
    const events = this.open();
    await events.store.write((q) => events.insert(q, record));
  }

  /** Commits many records in one transaction: all of them, or none (a seeded or imported log). */
  async appendMany(records: Iterable<EventRecord>): Promise<void> {
    const events = this.open();
    await events.store.write(async (q) => {
      for (const record of records) await events.insert(q, record);
    });
  }

  /**
   * The finished outcomes of a reference (those that leave their event open are not), oldest first, each
   * with the body hash of the delivery it finished: by index, however long the log.
   */
  async outcomesOf(reference: string): Promise<PastOutcome[]> {
    const events = this.open();
    const outcomes: PastOutcome[] = [];
    for (const row of await events.store.read((q) => events.outcomesOf(q, reference))) {
      const outcome = parseEventRecord(row.outcome);
      if (outcome?.kind !== 'outcome' || leavesOpen(outcome)) continue;
      const received = row.received === null ? undefined : parseEventRecord(row.received);
      outcomes.push({
        id: outcome.id,
        state: outcome.state,
        sha256: received?.kind === 'received' ? received.sha256 : undefined,
        eventStatus: outcome.eventStatus,
        forwarded: outcome.forwarded === true,
        resent: outcome.resent === true,
      });
    }
    return outcomes;
  }

  /**
   * Verified events of this listener's account (or of none) the app has not taken, in the order they were
   * first left undelivered, with the body to forward; those in `known` are left out (a listener asks again
   * now and then for those another listener left).
   */
  async undelivered(onBadRow: (row: number) => void, known: (id: string) => boolean = () => false): Promise<OutcomeRecord[]> {
    const events = this.open();
    const rows = await events.store.read(async (q) => {
      const ids = (await this.claims.undeliveredIds(q)).filter((id) => !known(id));
      return ids.length === 0 ? [] : this.claims.undeliveredRowsOf(q, ids);
    });
    return this.recordsOf(rows, (record): record is OutcomeRecord => record?.kind === 'outcome' && record.forwardBody !== undefined, onBadRow);
  }

  /** The records of `rows` that `wanted` accepts; any other row goes to `onBadRow`. */
  private recordsOf<R extends EventRecord>(
    rows: StoredEvent[],
    wanted: (record: EventRecord | undefined) => record is R,
    onBadRow: (row: number) => void,
  ): R[] {
    const records: R[] = [];
    for (const row of rows) {
      const record = parseEventRecord(row.text);
      if (wanted(record)) records.push(record);
      else onBadRow(row.seq);
    }
    return records;
  }

  private open(): EventStore {
    if (!this.events) throw new Error(`${this.file} is closed`);
    return this.events;
  }

  close(): void {
    this.events = undefined;
  }
}

/** One received event with everything recorded about it since: what `webhook events` lists and shows. */
export interface EventHistory {
  received: ReceivedRecord;
  /** Its outcomes, oldest first. */
  outcomes: OutcomeRecord[];
}

/**
 * Every received event with its outcomes, newest first (read a page at a time; the folding keeps one entry
 * per event). A record that cannot be read is skipped.
 */
export async function eventHistories(dataDir: string): Promise<EventHistory[]> {
  const byId = new Map<string, EventHistory>();
  for await (const record of readEventLog(dataDir, () => undefined)) {
    if (record.kind === 'received') {
      byId.set(record.id, { received: record, outcomes: byId.get(record.id)?.outcomes ?? [] });
    } else {
      const entry = byId.get(record.id);
      if (entry) entry.outcomes.push(record);
    }
  }
  return [...byId.values()].reverse();
}

/**
 * The state an event is in now: its last outcome's, `undelivered` for a verified event the app has not
 * taken yet (tried again by the listener), `held` for a reversal waiting for its payout's `reversed` event
 * to reach the app first, `open` for one whose processing never finished.
 */
export function currentState(history: EventHistory): EventState | 'undelivered' | 'held' | 'open' {
  const last = history.outcomes.at(-1);
  if (!last) return 'open';
  if (last.state === 'verified' && last.undelivered && !last.forwarded) return last.heldFor ? 'held' : 'undelivered';
  return last.state;
}
