// webhook listen's record of every notification it accepted, and of what became of it: the `events`
// table of the local store (src/store/database.ts), one row per record, two kinds:
//   {"kind":"received","id":…,"receivedAt":…,"reference":…,"sha256":…,"body":"<the body exactly as posted>"}
//       committed (fsync-ed) BEFORE the 200 answer, so an acknowledged event is never lost;
//   {"kind":"outcome","id":…,"at":…,"reference":…,"state":…,"field":…,"detail":…,"forwarded":…}
//       written once the event is verified (and forwarded), or found to be a resend; a verified event the
//       app has not taken yet also carries `"undelivered":true` and the `forwardBody` to deliver later.
// A received record without an outcome is an event whose processing was cut short (crash, shutdown
// timeout); the next `webhook listen` picks it up. Records are only ever added. Each is one SQLite
// transaction: a full disk or a kill rolls back the one being written (its event is then not answered
// 200) and never touches those before it. An events.jsonl of fsapi before the store is imported once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CorruptFileError, ExitCode, FsapiError } from '../errors.js';
import { openLocalStore, type LocalStore } from '../store/database.js';
import { holdProcessLock } from '../store/process-lock.js';

/** The JSON Lines event log of fsapi before the store: imported once, kept as it was. */
export const EVENT_LOG_FILE = 'events.jsonl';

/**
 * What a listener shows for an event. `stale`: genuine but too old to forward; `unknown-kind`: an event
 * other than a collection, never verified; `unverified`: --no-verify; `duplicate`: a resend, not shown again.
 */
export type EventState = 'verified' | 'mismatch' | 'not-found' | 'pending' | 'stale' | 'unverifiable' | 'unknown-kind' | 'unverified' | 'duplicate';

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
   * True when a verified event's forward was tried and failed: the app has not heard of it yet, and later
   * tries (in this run or the next) deliver it. A later outcome of the same id with `forwarded: true`
   * records the delivery.
   */
  undelivered?: boolean;
  /**
   * With `undelivered`: the body to forward (the verified facts, JSON text), so a later run delivers what
   * was verified without trusting the received bytes.
   */
  forwardBody?: string;
}

export type EventRecord = ReceivedRecord | OutcomeRecord;

export function eventLogPath(dataDir: string): string {
  return path.join(dataDir, EVENT_LOG_FILE);
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
  const store = eventStore(dataDir);
  let after = 0;
  for (;;) {
    const rows = store.read(() => store.sql('SELECT seq, record FROM events WHERE seq > ? ORDER BY seq LIMIT ?').all(after, PAGE));
    for (const row of rows) {
      const record = toRecord(String(row.record));
      if (record) yield record;
      else onBadLine(Number(row.seq));
    }
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]!.seq);
  }
}

function toRecord(line: string): EventRecord | undefined {
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
    return record as unknown as ReceivedRecord;
  }
  if (record.kind === 'outcome' && typeof record.state === 'string') return record as unknown as OutcomeRecord;
  return undefined;
}

/** The store, with events.jsonl carried over the first time (its readable lines; the file is kept). */
function eventStore(dataDir: string): LocalStore {
  const store = openLocalStore(dataDir);
  const done = () => store.sql('SELECT 1 AS done FROM imports WHERE name = ?').get(EVENT_LOG_FILE) !== undefined;
  if (store.read(done)) return store;
  const file = eventLogPath(dataDir);
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new CorruptFileError(file, (error as Error).message);
  }
  // A line cut short by a crash (or glued to the next by one) is not a record: left behind in the file.
  const records = text.split('\n').map(toRecord).filter((record): record is EventRecord => record !== undefined);
  store.write(() => {
    if (done()) return;
    for (const record of records) insertEvent(store, record);
    store.sql('INSERT INTO imports (name, at, records, bytes) VALUES (?, ?, ?, ?)').run(EVENT_LOG_FILE, new Date().toISOString(), records.length, Buffer.byteLength(text));
  });
  return store;
}

function insertEvent(store: LocalStore, record: EventRecord): void {
  store.sql('INSERT INTO events (kind, id, reference, record) VALUES (?, ?, ?, ?)').run(record.kind, record.id, record.reference, JSON.stringify(record));
}

/** Adds records, each committed before `append` returns. */
export class EventLogWriter {
  private store: LocalStore | undefined;

  private constructor(readonly file: string, store: LocalStore) {
    this.store = store;
  }

  /** Opens the data dir's store (0700 dir, 0600 file: events name payers and accounts). */
  static open(dataDir: string): EventLogWriter {
    const store = eventStore(dataDir);
    return new EventLogWriter(store.file, store);
  }

  /** Commits one record. Throws when the disk refuses (the caller must not acknowledge then). */
  append(record: EventRecord): void {
    const store = this.store;
    if (!store) throw new Error(`${this.file} is closed`);
    store.write(() => insertEvent(store, record));
  }

  close(): void {
    this.store = undefined;
  }
}
