// The SQLite seam: Node's built-in `node:sqlite`, which Node 22.13+ and 24 load without a flag (bin/fsapi.cjs
// refuses an older Node). Everything that opens a database (the local store, the simulator's store, the
// batch workspace, the process locks) comes through here, for the two things Node does not do for us: keep
// its ExperimentalWarning off stderr, and type rows as what fsapi's tables hold. docs/decisions.md has the
// measurements behind SQLite and the reasons for one built-in driver.
import { FsapiError, ExitCode } from '../errors.js';

// What fsapi reads and binds: text, integers and null. It stores no blobs and never turns on readBigInts (an
// integer past 2^53 is an error in node:sqlite rather than a silently rounded number), so node:sqlite's
// wider value types (bigint, Uint8Array) never occur.
export type SqlValue = string | number | null;
export type SqlRow = Record<string, SqlValue>;

export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
}

export interface SqlDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

/**
 * Runs `work` between `begin` (BEGIN, BEGIN IMMEDIATE) and COMMIT, synchronously: for databases no other
 * process shares (a batch's workspace, the simulator's state) and for a snapshot read on a connection of
 * its own. When `work` throws, or the commit fails, the transaction is rolled back (SQLite may have done so
 * itself: a full disk does) and the error rethrown through `mapError`: all of `work` is kept, or none of
 * it. fsapi's own store (src/store/database.ts) has asynchronous transactions.
 */
export function inTransaction<T>(db: SqlDatabase, begin: string, work: () => T, mapError: (error: unknown) => unknown = (error) => error): T {
  try {
    db.exec(begin);
  } catch (error) {
    throw mapError(error);
  }
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // Already rolled back by SQLite itself.
    }
    throw mapError(error);
  }
}

/** Statements prepared once per connection and kept for its life: the same SQL runs thousands of times. */
export class PreparedStatements {
  private readonly cache = new Map<string, SqlStatement>();

  constructor(private readonly db: SqlDatabase) {}

  get(text: string): SqlStatement {
    let statement = this.cache.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.cache.set(text, statement);
    }
    return statement;
  }

  clear(): void {
    this.cache.clear();
  }
}

let nodeSqlite: typeof import('node:sqlite') | undefined;

/** Opens (creating when missing) a database file, or an in-memory one for ':memory:' (or '', a temporary file). */
export function openDatabase(file: string): SqlDatabase {
  nodeSqlite ??= loadNodeSqlite();
  return new nodeSqlite.DatabaseSync(file) as unknown as SqlDatabase;
}

/**
 * Loads `node:sqlite`. Node 22 prints an ExperimentalWarning for it on every run; users asked for none of
 * that, so exactly that warning is dropped while the module loads, and every other warning goes through.
 */
function loadNodeSqlite(): typeof import('node:sqlite') {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === 'ExperimentalWarning' || (warning as Error).name === 'ExperimentalWarning') && /SQLite/i.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  let loaded: typeof import('node:sqlite') | undefined;
  try {
    loaded = process.getBuiltinModule('node:sqlite');
  } catch {
    // Still behind --experimental-sqlite (Node 23.0 to 23.3, past the launcher's check): said below.
  } finally {
    process.emitWarning = emitWarning;
  }
  if (!loaded)
    throw new FsapiError(`fsapi needs SQLite, built into Node 22.13+ and 24; Node ${process.versions.node} has none without a flag`, {
      exitCode: ExitCode.failed,
    });
  return loaded;
}

/** The primary SQLite result code of a node:sqlite error (its errcode, extended codes folded: 11 is SQLITE_CORRUPT). */
export function sqliteCode(error: unknown): number | undefined {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' ? errcode & 0xff : undefined;
}
