// The interface every store of fsapi's records has: the data dir's SQLite (src/store/database.ts) and a
// team's PostgreSQL (src/store/postgres.ts). Asynchronous on both: a wait for the store (another process
// writing, the network) never stops the process, so an HTTP answer that arrives meanwhile is read as it
// arrives (docs/decisions.md, "An asynchronous store").
//
// Statements run only inside a transaction, through its handle (`Queries`): `read` and `write` give one to
// their work, and a call made from within that work joins the transaction by being given the handle. Two
// tasks of one process (the rows of a batch sent 8 at a time, the listener's events) each get their own
// transaction, one after the other on SQLite's one connection and on a connection each from the team
// store's pool: their statements never mix. A handle whose transaction ended refuses every statement.
import type { StoreIdentity } from './identity.js';
import type { SqlRow, SqlValue } from './sqlite.js';

export type { SqlRow, SqlValue } from './sqlite.js';

export interface RunResult {
  changes: number;
  /** The new row's key, for the inserts whose caller reads it (journal, events). */
  lastInsertRowid: number;
}

/** One statement of a transaction, by its SQLite text (`?` placeholders). */
export interface Statement {
  run(...params: SqlValue[]): Promise<RunResult>;
  get(...params: SqlValue[]): Promise<SqlRow | undefined>;
  all(...params: SqlValue[]): Promise<SqlRow[]>;
}

/** A transaction's handle: statements run in it, and only while it is open. */
export interface Queries {
  sql(text: string): Statement;
}

/**
 * A condition a write transaction must meet before its work runs, checked in its first round trip: a
 * statement without parameters whose rows say whether it holds (a team store's run lock still held by
 * this run, src/store/process-lock.ts). When it does not, the transaction is rolled back and `lost()`
 * thrown: nothing of it was written.
 */
export interface Fence {
  readonly sql: string;
  holds(rows: readonly SqlRow[]): boolean;
  lost(): Error;
}

export interface WriteOptions {
  fence?: Fence | undefined;
}

export interface Store {
  readonly dataDir: string;
  /** The database file; for a team store, its address without a password. */
  readonly file: string;
  readonly backend: 'sqlite' | 'postgresql';
  /** Runs `work` on one consistent snapshot. */
  read<T>(work: (q: Queries) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one write transaction, one writer at a time across every process and machine sharing
   * the store (SQLite: BEGIN IMMEDIATE; PostgreSQL: the store's advisory lock): all of it is kept, or none.
   * `work` must never wait for the network (the API): the writer lock is held until it returns.
   */
  write<T>(work: (q: Queries) => Promise<T>, options?: WriteOptions): Promise<T>;
  /** The store's id and write counter. */
  identity(): Promise<StoreIdentity | undefined>;
  /**
   * Who acts through this store (src/common/actor.ts): a team store's PostgreSQL login (session_user, which
   * the server also stamps on every row it writes), else the OS user and host. What "who" compares.
   */
  actor(): Promise<string>;
  /** A consistent copy of the whole store into `target`, which must not exist or be empty (VACUUM INTO; not a team store's). */
  copyInto(target: string): Promise<void>;
  close(): Promise<void>;
}

/** A statement made on a handle whose transaction has ended: a bug of fsapi's, never a user's. */
export class TransactionEndedError extends Error {
  constructor(text: string) {
    super(`a statement outside its transaction (${text.slice(0, 60)}): the transaction it was made in has ended`);
  }
}

/**
 * Transactions of one connection, one at a time, in the order asked: an asynchronous lock whose wait is
 * bounded. The SQLite store's one connection holds one transaction at a time; a second task of the process
 * waits here (without blocking the process) rather than joining a transaction that is not its own.
 */
export class TransactionQueue {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  /** Resolves when the queue is this caller's, with the function that hands it on; rejects with `tooLong()` after `boundMs`. */
  acquire(boundMs: number, tooLong: () => Error): Promise<() => void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(grant);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(tooLong());
      }, boundMs);
      this.waiting.push(grant);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.held = false;
    };
  }
}
