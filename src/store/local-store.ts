// The interface every store of fsapi's records has: the data dir's SQLite (src/store/database.ts) and a
// team's PostgreSQL (src/store/postgres.ts). Synchronous on both: the journal, controls and event log call it
// from anywhere, as they always called SQLite.
import type { StoreIdentity } from './identity.js';
import type { SqlStatement } from './sqlite.js';

export interface LocalStore {
  readonly dataDir: string;
  /** The database file; for a team store, its address without a password. */
  readonly file: string;
  /** A prepared statement, prepared once per connection. */
  sql(text: string): SqlStatement;
  /** Runs `work` on one consistent snapshot. */
  read<T>(work: () => T): T;
  /**
   * Runs `work` in one write transaction, one writer at a time (SQLite: BEGIN IMMEDIATE; PostgreSQL: the
   * store's advisory lock): all of it is kept, or none of it.
   */
  write<T>(work: () => T): T;
  /** The store's id and write counter. */
  identity(): StoreIdentity | undefined;
  /** A consistent copy of the whole store into `target`, which must not exist or be empty (VACUUM INTO; not a team store's). */
  copyInto(target: string): void;
  close(): void;
}
