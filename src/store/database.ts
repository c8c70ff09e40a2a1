// The local store: one SQLite database, `<dataDir>/fsapi.db`, for what fsapi keeps about its own work
// (the transfer journal, the webhook event log, carried-over files; other modules add tables through
// src/store/migrations.ts). One connection per data dir per process, opened on first use.
//
// Why SQLite and how it is used (docs/decisions.md, "The local store"):
// - WAL with synchronous=FULL: a commit that returned is on disk (fsync of the WAL), and a commit cut
//   short by a kill, a power cut or a full disk is rolled back whole. No record is ever half written, so
//   nothing needs repairing by hand; an acknowledged record stays readable.
// - one transaction per decision: a claim (duplicate guard, reference owner, intent) runs between BEGIN
//   IMMEDIATE and COMMIT, so no other process writes in between. busy_timeout makes a second writer wait
//   (a claim takes milliseconds) instead of failing; SQLite's locks belong to the open file and die with
//   the process, so a killed holder never blocks anyone.
// - the data dir is private: created 0700, or narrowed to 0700 when it is open to others; the database
//   and its -wal/-shm files 0600 (SQLite gives those the database's mode). A data dir or database owned by
//   another user is refused: whoever owns it can rename or replace what fsapi relies on.
import { chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { CorruptFileError, ExitCode, FsapiError } from '../errors.js';
import { MIGRATIONS } from './migrations.js';
import { inTransaction, openDatabase, PreparedStatements, sqliteCode, type SqlDatabase, type SqlStatement } from './sqlite.js';

export const STORE_FILE_NAME = 'fsapi.db';
/** How long a writer waits for another one before giving up: claims hold the lock for milliseconds. */
export const STORE_BUSY_TIMEOUT_MS = 30_000;

export function storePath(dataDir: string): string {
  return path.join(dataDir, STORE_FILE_NAME);
}

export interface LocalStore {
  readonly dataDir: string;
  /** The database file. */
  readonly file: string;
  /** A prepared statement, prepared once per connection. */
  sql(text: string): SqlStatement;
  /** Runs `work` on one consistent snapshot. */
  read<T>(work: () => T): T;
  /** Runs `work` in one write transaction (BEGIN IMMEDIATE): all of it is kept, or none of it. */
  write<T>(work: () => T): T;
  close(): void;
}

/** The store is locked by another process for longer than STORE_BUSY_TIMEOUT_MS. Exit 1, nothing done. */
export class StoreBusyError extends FsapiError {
  constructor(readonly file: string, cause: unknown) {
    super(`${file} stayed locked by another fsapi process for ${STORE_BUSY_TIMEOUT_MS / 1000} s; nothing was done`, {
      exitCode: ExitCode.failed,
      hint: 'another fsapi is writing to it (a process stopped with Ctrl+Z holds it until resumed); try again',
      cause,
    });
  }
}

const open = new Map<string, LocalStore>();

/** The store of `dataDir`, opened (created, migrated) on first use in this process. */
export function openLocalStore(dataDir: string): LocalStore {
  const key = path.resolve(dataDir);
  const known = open.get(key);
  if (known) return known;
  ensurePrivateDir(key);
  const file = storePath(key);
  ensurePrivateFile(file);
  let db: SqlDatabase;
  try {
    db = openDatabase(file);
  } catch (error) {
    throw storeError(file, error);
  }
  const store = new Store(key, file, db);
  try {
    // busy_timeout first: switching to WAL needs a lock another process may hold.
    db.exec(`PRAGMA busy_timeout = ${STORE_BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    // SQLite's own default page cache (2 MB), pinned: a larger one is filled by a read of the whole history
    // (transfer log --jsonl), and peak RSS grows by the cache (docs/decisions.md).
    db.exec('PRAGMA cache_size = -2000');
    migrate(store, db);
  } catch (error) {
    db.close();
    throw storeError(file, error);
  }
  open.set(key, store);
  return store;
}

/** Closes every store this process opened (tests; a process that ends needs nothing closed). */
export function closeLocalStores(): void {
  for (const store of open.values()) store.close();
  open.clear();
}

class Store implements LocalStore {
  private readonly statements: PreparedStatements;
  private depth = 0;

  constructor(
    readonly dataDir: string,
    readonly file: string,
    private readonly db: SqlDatabase,
  ) {
    this.statements = new PreparedStatements(db);
  }

  sql(text: string): SqlStatement {
    return this.statements.get(text);
  }

  read<T>(work: () => T): T {
    return this.transaction('BEGIN', work);
  }

  write<T>(work: () => T): T {
    return this.transaction('BEGIN IMMEDIATE', work);
  }

  private transaction<T>(begin: string, work: () => T): T {
    // Nested calls join the outer transaction (a claim appends its intent inside its own).
    if (this.depth > 0) return work();
    return inTransaction(
      this.db,
      begin,
      () => {
        this.depth += 1;
        try {
          return work();
        } finally {
          this.depth -= 1;
        }
      },
      (error) => storeError(this.file, error),
    );
  }

  close(): void {
    this.statements.clear();
    try {
      this.db.close();
    } catch {
      // closing twice
    }
    open.delete(this.dataDir);
  }
}

function migrate(store: Store, db: SqlDatabase): void {
  const version = () => Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (version() >= MIGRATIONS.length) return;
  store.write(() => {
    // Read again under the write lock: another process may have migrated meanwhile.
    const from = version();
    for (const step of MIGRATIONS.slice(from)) {
      db.exec(step.sql);
      step.run?.((text) => store.sql(text));
    }
    if (from < MIGRATIONS.length) db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
  });
}

/** SQLite's complaints as fsapi's: busy is "locked by another process", a damaged file is named. */
export function storeError(file: string, error: unknown): unknown {
  if (error instanceof FsapiError) return error;
  const code = sqliteCode(error);
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
    });
  }
}

/** Creates `dir` 0700, or narrows it to 0700; refuses one owned by another user. */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new NotPrivateError(`the data dir ${dir}`, `cannot create it (${(error as Error).message})`);
  }
  if (!POSIX) return;
  const stat = statSync(dir);
  if (!stat.isDirectory()) throw new NotPrivateError(`the data dir ${dir}`, 'it is not a directory');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new NotPrivateError(`the data dir ${dir}`, `it belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o077) === 0) return;
  try {
    chmodSync(dir, 0o700);
  } catch (error) {
    throw new NotPrivateError(`the data dir ${dir}`, `it is open to other users (mode ${(stat.mode & 0o777).toString(8)}) and cannot be narrowed to 700 (${(error as Error).message})`);
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
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new NotPrivateError(file, `cannot create it (${(error as Error).message})`);
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
