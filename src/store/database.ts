// The local store: one SQLite database, `<dataDir>/fsapi.db`, for what fsapi keeps about its own work
// (the transfer journal, the webhook event log, carried-over files; other modules add tables through
// src/store/migrations.ts). One connection per data dir per process, opened on first use.
//
// Why SQLite and how it is used (docs/decisions.md, "The local store"):
// - WAL with synchronous=FULL: a commit that returned is on disk (fsync of the WAL), and a commit cut
//   short by a kill, a power cut or a full disk is rolled back whole. No record is ever half written, so
//   nothing needs repairing by hand; an acknowledged record stays readable.
// - one transaction per decision: a claim (duplicate guard, reference owner, intent) runs between BEGIN
//   IMMEDIATE and COMMIT, so no other process writes in between. A second writer is answered busy at
//   once and asks again after an asynchronous pause (a claim takes milliseconds), for up to 30 s, so the
//   process goes on reading its sockets meanwhile; SQLite's locks belong to the open file and die with the
//   process, so a killed holder never blocks anyone. Within the process, transactions take turns on the
//   one connection (TransactionQueue, src/store/store.ts): two tasks never share one.
// - the data dir is private: created 0700, or narrowed to 0700 when it is open to others; the database
//   and its -wal/-shm files 0600 (SQLite gives those the database's mode). A data dir or database owned by
//   another user is refused: whoever owns it can rename or replace what fsapi relies on.
// - a profile knows its store (src/store/identity.ts): the store's id and write counter are read when it
//   is opened, before it is migrated or used, and whoever watches (the profile's expectation) may refuse it.
// - every command that wrote ends with a checkpoint (finishLocalStores): fsapi.db alone then holds every
//   record, so a copy of it is a whole store; WAL stays for concurrent processes. A command that only read
//   leaves both files as they were.
import { chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { CorruptFileError, ExitCode, FsapiError } from '../errors.js';
import { systemClock } from '../common/clock.js';
import { retrying, STORE_BUSY } from '../common/retry.js';
import { existsOrDenied, isPermissionError, permissionProblem } from '../common/permission.js';
import { onFinishStores, storeFound, storeOpening, type FoundStore, type StoreIdentity } from './identity.js';
import { MIGRATIONS } from './migrations.js';
import { inTransaction, openDatabase, PreparedStatements, sqliteCode, type SqlDatabase } from './sqlite.js';
import { TransactionEndedError, TransactionQueue, WriteGroups, type Fence, type Queries, type Statement, type Store, type WriteOptions } from './store.js';
import { teamChoice } from './team-choice.js';
import { machineActor } from '../common/actor.js';
import { addressOfChoice, closeTeamStores, openTeamStore, openTeamStores } from './postgres.js';

export const STORE_FILE_NAME = 'fsapi.db';
/** How long a writer waits for another one before giving up: claims hold the lock for milliseconds. */
export const STORE_BUSY_TIMEOUT_MS = 30_000;

export function storePath(dataDir: string): string {
  return path.join(dataDir, STORE_FILE_NAME);
}

export type { Store } from './store.js';

/** The store is locked by another process for longer than STORE_BUSY_TIMEOUT_MS. Exit 1, nothing done. */
export class StoreBusyError extends FsapiError {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`${file} stayed locked by another fsapi process for ${STORE_BUSY_TIMEOUT_MS / 1000} s; nothing was done`, {
      exitCode: ExitCode.failed,
      hint: 'another fsapi is writing to it (a process stopped with Ctrl+Z holds it until resumed); try again',
      cause,
      code: 'store_busy',
    });
  }
}

// The process's connections to its store files, one per file, kept by the process rather than a run: a
// command leaves its connection open at its end (finishLocalStores: the -wal keeps its space for the next
// write), and a team store's lease lives as long as the process. A process that runs many commands closes
// them between runs (closeLocalStores) as a process's end would.
const open = new Map<string, Promise<SqliteStore>>();
const opened = new Set<SqliteStore>();

/**
 * The store of `dataDir`, opened (created, migrated) on first use in this process: the team store when
 * the run chose one (src/store/team-choice.ts), else the data dir's own SQLite.
 */
export function openLocalStore(dataDir: string): Promise<Store> {
  const team = teamChoice(dataDir);
  if (team) return openTeamStore(dataDir, addressOfChoice(team));
  return openSqliteStore(dataDir);
}

/** The data dir's own SQLite store, whatever the run chose (`store migrate` reads it). */
export function openSqliteStore(dataDir: string): Promise<Store> {
  const key = path.resolve(dataDir);
  let store = open.get(key);
  if (!store) {
    store = openSqlite(key);
    open.set(key, store);
    // A store that could not be opened is asked for again next time (the disk freed, the other process done).
    store.catch(() => {
      if (open.get(key) === store) open.delete(key);
    });
  }
  return store;
}

async function openSqlite(key: string): Promise<SqliteStore> {
  storeOpening(key);
  ensurePrivateDir(key);
  const file = storePath(key);
  const found = (identity: StoreIdentity | undefined): FoundStore => ({ dataDir: key, file: storePath(realDir(key)), identity });
  // A store that is not there is refused before it is made, so a refusal leaves nothing behind. One this
  // user may not look at is no missing store: that is said as it is (restoring a backup over it would lose it).
  const existed = existsOrDenied({ what: 'the store', target: file, access: 'write', kept: RECORDS_KEPT });
  if (!existed) storeFound(found(undefined));
  ensurePrivateFile(file);
  // Several processes making or opening the store at once: one may be answered busy while another switches
  // the journal to WAL or migrates; an open that fails wrote nothing, so it is made again after a pause
  // (whileBusy). What an existing store holds is told once, whichever attempt reads it.
  let told = !existed;
  const tell = (identity: StoreIdentity | undefined) => {
    if (told) return;
    told = true;
    storeFound(found(identity));
  };
  try {
    const store = await whileBusy(Date.now() + STORE_BUSY_TIMEOUT_MS, () => openOnce(key, file, tell));
    opened.add(store);
    return store;
  } catch (error) {
    throw storeError(file, error);
  }
}

/** One attempt at opening the store; `tell` hears what it holds before anything is written. */
async function openOnce(key: string, file: string, tell: (identity: StoreIdentity | undefined) => void): Promise<SqliteStore> {
  const db = openDatabase(file);
  const store = new SqliteStore(key, file, db);
  try {
    // No waiting inside SQLite: a busy database is answered at once and asked again after an asynchronous
    // pause (whileBusy), so the process keeps reading its sockets while another process writes.
    db.exec('PRAGMA busy_timeout = 0');
    // Before anything is written to it (journal_mode writes a header): a store refused stays as found.
    tell(readIdentity(db));
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    // SQLite's own default page cache (2 MB), pinned: a larger one is filled by a read of the whole history
    // (transfer log --jsonl), and peak RSS grows by the cache (docs/decisions.md).
    db.exec('PRAGMA cache_size = -2000');
    await migrate(store, db);
  } catch (error) {
    db.close();
    throw error;
  }
  return store;
}

/** SQLite's "busy" (SQLITE_BUSY, SQLITE_LOCKED): another connection holds what this one asked for. */
function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code === 5 || code === 6;
}

/**
 * Runs `attempt` again while SQLite answers it busy, 5-50 ms apart (STORE_BUSY, jittered so processes that
 * collide do not collide again), until `deadline`. The pauses are timers: the process goes on with
 * everything else. Only for attempts that did nothing when refused (a BEGIN, an open).
 */
function whileBusy<T>(deadline: number, attempt: () => T | Promise<T>): Promise<T> {
  return retrying(() => attempt(), { schedule: STORE_BUSY, clock: systemClock, deadline, retryable: isBusy });
}

/** Closes every store this process opened (tests; a process that ends needs nothing closed). */
export async function closeLocalStores(): Promise<void> {
  const stores = [...open.values()];
  open.clear();
  for (const store of stores) await store.then((s) => s.close()).catch(() => undefined);
  await closeTeamStores();
}

/**
 * At the end of a command: each open store this process wrote to checkpointed, and what each holds now.
 * PASSIVE never waits for another process (one still reading keeps its part of the WAL until the next
 * writer's checkpoint). The
 * connection is left open, so the -wal file stays with its space: the next write reuses it rather than
 * growing a new file, which a full disk could refuse.
 */
export async function finishLocalStores(): Promise<FoundStore[]> {
  const finished: FoundStore[] = [];
  for (const store of opened) {
    try {
      finished.push({ dataDir: store.dataDir, file: storePath(realDir(store.dataDir)), identity: await store.identity() });
      await store.checkpoint();
    } catch {
      // A store that cannot be read now was reported by the command that used it.
    }
  }
  for (const store of openTeamStores()) {
    if (store.dataDir === '') continue; // opened for no run's profile (`store migrate`)
    try {
      finished.push({ dataDir: store.dataDir, file: store.file, identity: await store.identity() });
    } catch {
      // Unreachable now: reported by the command that used it.
    }
  }
  return finished;
}
onFinishStores(finishLocalStores);

/** Whether `dataDir` has a store; a missing one is told to the watcher first, which may refuse it. */
export function localStoreExists(dataDir: string): boolean {
  // A team store is there for every machine of the team, made on first use.
  if (teamChoice(dataDir)) return true;
  const key = path.resolve(dataDir);
  if (open.has(key) || existsOrDenied({ what: 'the store', target: storePath(key), access: 'read', kept: RECORDS_KEPT })) return true;
  storeFound({ dataDir: key, file: storePath(key), identity: undefined });
  return false;
}

/** The data dir with symbolic links followed, so two spellings of one directory are one store. */
function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function readIdentity(db: SqlDatabase): StoreIdentity | undefined {
  const table = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'store_identity'").get();
  if (!table) return undefined;
  const row = db.prepare('SELECT id, writes FROM store_identity WHERE only = 1').get();
  return row ? { id: String(row.id), writes: Number(row.writes) } : undefined;
}

/** What a store file holds, for `store status` and `store adopt`. */
export interface StoreReport {
  file: string;
  exists: boolean;
  /** fsapi.db and its -wal, in bytes. */
  bytes: number;
  walBytes: number;
  identity: StoreIdentity | undefined;
  createdAt: string | undefined;
  counts: StoreCounts;
}

export interface StoreCounts {
  journalRecords: number;
  transfers: number;
  events: number;
  payees: number;
  policies: number;
  approvalRequests: number;
}

const COUNTED: ReadonlyArray<[keyof StoreCounts, string]> = [
  ['journalRecords', 'journal'],
  ['transfers', 'transfers'],
  ['events', 'events'],
  ['payees', 'payees'],
  ['policies', 'policies'],
  ['approvalRequests', 'approval_requests'],
];

/**
 * Reads what the store of `dataDir` holds on a connection of its own, creating and migrating nothing: a
 * file without fsapi's tables is reported as such, not made into a store.
 */
export async function inspectLocalStore(dataDir: string): Promise<StoreReport> {
  const file = storePath(realDir(path.resolve(dataDir)));
  const size = (name: string) => {
    try {
      return statSync(name).size;
    } catch {
      return 0;
    }
  };
  const counts: StoreCounts = { journalRecords: 0, transfers: 0, events: 0, payees: 0, policies: 0, approvalRequests: 0 };
  if (!existsOrDenied({ what: 'the store', target: file, access: 'read', kept: RECORDS_KEPT }))
    return { file, exists: false, bytes: 0, walBytes: 0, identity: undefined, createdAt: undefined, counts };
  let db: SqlDatabase;
  try {
    db = openDatabase(file);
  } catch (error) {
    throw storeError(file, error);
  }
  try {
    db.exec('PRAGMA busy_timeout = 0');
    // One snapshot for every count, begun again (after a pause) while another process holds the file.
    const report = await whileBusy(Date.now() + STORE_BUSY_TIMEOUT_MS, () =>
      inTransaction(db, 'BEGIN', () => {
        db.exec(SNAPSHOT);
        const tables = new Set(
          db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .all()
            .map((row) => String(row.name)),
        );
        for (const [key, table] of COUNTED) {
          if (tables.has(table)) counts[key] = Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0);
        }
        const identity = readIdentity(db);
        const createdAt = identity ? String(db.prepare('SELECT created_at FROM store_identity').get()?.created_at ?? '') : undefined;
        return { identity, createdAt };
      }),
    );
    return { file, exists: true, bytes: size(file), walBytes: size(`${file}-wal`), ...report, counts };
  } catch (error) {
    throw storeError(file, error);
  } finally {
    db.close();
  }
}

/** Read by a read transaction's BEGIN: it takes the snapshot there, where a busy answer is asked again. */
const SNAPSHOT = 'PRAGMA schema_version';

class SqliteStore implements Store {
  readonly backend = 'sqlite';
  private readonly statements: PreparedStatements;
  /** One transaction at a time on the one connection: the others of this process wait their turn here. */
  private readonly queue = new TransactionQueue();
  private closed = false;
  /** Whether this process began a write transaction on it (a migration is one). */
  private wrote = false;

  constructor(
    readonly dataDir: string,
    readonly file: string,
    private readonly db: SqlDatabase,
  ) {
    this.statements = new PreparedStatements(db);
  }

  read<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN', work, undefined);
  }

  /** One machine: the OS user and host (or the one behind sudo), a name and not a proof (src/common/actor.ts). */
  async actor(): Promise<string> {
    return machineActor();
  }

  write<T>(work: (q: Queries) => Promise<T>, options?: WriteOptions): Promise<T> {
    if (options?.group) return this.groups.submit(work, options);
    this.wrote = true;
    return this.transaction('BEGIN IMMEDIATE', work, options?.fence);
  }

  /** Grouped writes (a batch's claims and outcomes): one BEGIN IMMEDIATE and one fsync-ed COMMIT for those asked for together. */
  private readonly groups = new WriteGroups((work, options) => this.write(work, { fence: options?.fence }));

  private async transaction<T>(begin: string, work: (q: Queries) => Promise<T>, fence: Fence | undefined): Promise<T> {
    const deadline = Date.now() + STORE_BUSY_TIMEOUT_MS;
    const release = await this.turn(deadline);
    try {
      try {
        // Answered busy (another process writes; a read while the WAL is recovered): nothing was begun, so
        // it is asked again after a pause, within the writer's bound.
        await whileBusy(deadline, () => {
          this.db.exec(begin);
          if (begin === 'BEGIN') {
            try {
              this.db.exec(SNAPSHOT);
            } catch (error) {
              this.db.exec('ROLLBACK');
              throw error;
            }
          }
        });
      } catch (error) {
        throw storeError(this.file, error);
      }
      const handle = new SqliteQueries(this.statements);
      try {
        if (fence && !fence.holds(await handle.sql(fence.sql).all())) throw fence.lost();
        const result = await work(handle);
        handle.end();
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        handle.end();
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // Already rolled back by SQLite itself (a full disk does).
        }
        throw storeError(this.file, error);
      }
    } finally {
      release();
    }
  }

  /** This task's turn on the connection, waited for without blocking, within the writer's bound. */
  private turn(deadline: number): Promise<() => void> {
    if (this.closed) return Promise.reject(new Error(`${this.file} is closed`));
    return this.queue.acquire(Math.max(0, deadline - Date.now()), () => new StoreBusyError(this.file, 'its transactions waited in this process'));
  }

  identity(): Promise<StoreIdentity | undefined> {
    return this.read(async () => readIdentity(this.db));
  }

  async copyInto(target: string): Promise<void> {
    const deadline = Date.now() + STORE_BUSY_TIMEOUT_MS;
    const release = await this.turn(deadline);
    try {
      await whileBusy(deadline, () => this.db.prepare('VACUUM INTO ?').run(target));
    } catch (error) {
      throw storeError(this.file, error);
    } finally {
      release();
    }
  }

  /**
   * Copies what the WAL holds into the database file, as far as no other process still reads it: after
   * this process wrote (in a transaction, or a statement of its own: SQLite's total_changes()), never
   * after it only read, which leaves fsapi.db and its -wal untouched.
   */
  async checkpoint(): Promise<void> {
    const release = await this.turn(Date.now() + STORE_BUSY_TIMEOUT_MS);
    try {
      if (!this.wrote && Number(this.db.prepare('SELECT total_changes() AS changes').get()?.changes ?? 0) === 0) return;
      this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const release = await this.turn(Date.now() + STORE_BUSY_TIMEOUT_MS).catch(() => undefined);
    this.closed = true;
    this.statements.clear();
    try {
      this.db.close();
    } catch {
      // closing twice
    }
    release?.();
    opened.delete(this);
    const key = this.dataDir;
    const opening = open.get(key);
    void opening?.then((store) => {
      if (store === this && open.get(key) === opening) open.delete(key);
    });
  }
}

/** The handle of one SQLite transaction: node:sqlite's statements, synchronous (microseconds), as promises. */
class SqliteQueries implements Queries {
  private open = true;

  constructor(private readonly statements: PreparedStatements) {}

  end(): void {
    this.open = false;
  }

  sql(text: string): Statement {
    const prepared = () => {
      if (!this.open) throw new TransactionEndedError(text);
      return this.statements.get(text);
    };
    return {
      run: async (...params) => {
        const result = prepared().run(...params);
        return { changes: Number(result.changes), lastInsertRowid: Number(result.lastInsertRowid) };
      },
      get: async (...params) => prepared().get(...params),
      all: async (...params) => prepared().all(...params),
      write: async (...params) => {
        prepared().run(...params);
      },
    };
  }
}

async function migrate(store: SqliteStore, db: SqlDatabase): Promise<void> {
  const version = () => Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (version() >= MIGRATIONS.length) return;
  await store.write(async (q) => {
    // Read again under the write lock: another process may have migrated meanwhile.
    const from = version();
    for (const step of MIGRATIONS.slice(from)) {
      db.exec(step.sql);
      await step.run?.(q);
    }
    if (from < MIGRATIONS.length) db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
  });
}

/** Said with every permission problem of the store: the way to it is the permissions, never a backup. */
const RECORDS_KEPT = 'the records are still there: do not restore a backup over them';

/**
 * SQLite's complaints as fsapi's: busy is "locked by another process", a damaged file is named, a file
 * that cannot be opened or written for its permissions says so.
 */
export function storeError(file: string, error: unknown): unknown {
  if (error instanceof FsapiError) return error;
  const code = sqliteCode(error);
  // SQLITE_CANTOPEN, SQLITE_READONLY: a file (or its -wal, -shm, or directory) this user may not write.
  if (code === 14 || code === 8) {
    const denied = permissionProblem({ what: 'the store', target: file, access: 'write', kept: RECORDS_KEPT, cause: error });
    if (denied) return denied;
  }
  if (code === 5 || code === 6) return new StoreBusyError(file, error);
  if (code === 11 || code === 26) return new CorruptFileError(file, `not a usable fsapi database (${(error as Error).message})`);
  if (code === 13) {
    return new FsapiError(`cannot write ${file}: the disk is full; nothing was written`, {
      exitCode: ExitCode.failed,
      hint: 'free some space; what was written before is intact',
      cause: error,
    });
  }
  return error;
}

// ---- private files ----------------------------------------------------------------------------------

const POSIX = process.platform !== 'win32';

/** A data dir (or file) owned by someone else, or one that cannot be made private: refused, exit 1. */
export class NotPrivateError extends FsapiError {
  constructor(what: string, detail: string) {
    super(`refusing to use ${what}: ${detail}`, {
      exitCode: ExitCode.failed,
      hint: 'fsapi keeps its journal of payments there; use a directory only you can write to (FSAPI_DATA_DIR chooses it)',
      code: 'not_private',
    });
  }
}

/** Creates `dir` 0700, or narrows it to 0700; refuses one owned by another user. */
export function ensurePrivateDir(dir: string): void {
  const denied = (cause: unknown) => permissionProblem({ what: 'the data dir', target: dir, access: 'write', kept: RECORDS_KEPT, cause });
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw (
      (isPermissionError(error) ? denied(error) : undefined) ?? new NotPrivateError(`the data dir ${dir}`, `cannot create it (${(error as Error).message})`)
    );
  }
  if (!POSIX) return;
  const stat = statSync(dir);
  if (!stat.isDirectory()) throw new NotPrivateError(`the data dir ${dir}`, 'it is not a directory');
  const uid = process.getuid?.();
  // Another user's, and closed to this one: a permission problem, named as one. Open to this one: not private.
  if (uid !== undefined && stat.uid !== uid)
    throw denied(undefined) ?? new NotPrivateError(`the data dir ${dir}`, `it belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o077) === 0) return;
  try {
    chmodSync(dir, 0o700);
  } catch (error) {
    throw new NotPrivateError(
      `the data dir ${dir}`,
      `it is open to other users (mode ${(stat.mode & 0o777).toString(8)}) and cannot be narrowed to 700 (${(error as Error).message})`,
    );
  }
  if ((statSync(dir).mode & 0o077) !== 0) throw new NotPrivateError(`the data dir ${dir}`, 'it stays open to other users after chmod 700');
}

/**
 * Creates `file` 0600 when missing (never through a symlink), narrows it when wider, and refuses one that
 * is a symlink or belongs to another user.
 */
export function ensurePrivateFile(file: string): void {
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    stat = undefined;
  }
  if (!stat) {
    try {
      closeSync(openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_RDWR | (constants.O_NOFOLLOW ?? 0), 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw (
          (isPermissionError(error) ? permissionProblem({ what: 'the file', target: file, access: 'write', cause: error }) : undefined) ??
          new NotPrivateError(file, `cannot create it (${(error as Error).message})`)
        );
    }
    stat = lstatSync(file);
  }
  if (!POSIX) return;
  if (stat.isSymbolicLink()) throw new NotPrivateError(file, 'it is a symbolic link');
  if (!stat.isFile()) throw new NotPrivateError(file, 'it is not a regular file');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new NotPrivateError(file, `it belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o077) !== 0) chmodSync(file, 0o600);
}
