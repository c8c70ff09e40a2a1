// The SQLite driver seam. fsapi runs on Node 20, 22 and 24 from one `npm ci` (CI installs once under Node
// 20 and runs the CLI on all three), and a native addon built for one Node ABI cannot load under another.
// So: Node's built-in `node:sqlite` wherever it exists without a flag (22.13+, 23.4+, 24), and the
// `better-sqlite3` addon (an optional dependency) on Node 20. Both are synchronous and share the small
// surface below; docs/decisions.md has the measurements behind the choice.
import { createRequire } from 'node:module';
import { FsapiError, ExitCode } from '../errors.js';

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
 * Runs `work` between `begin` (BEGIN, BEGIN IMMEDIATE) and COMMIT. When it throws, or the commit fails, the
 * transaction is rolled back (SQLite may have done so itself: a full disk does) and the error rethrown
 * through `mapError`: all of `work` is kept, or none of it.
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

export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

interface NodeSqliteModule {
  DatabaseSync: new (file: string) => SqlDatabase;
}
type BetterSqliteConstructor = new (file: string) => SqlDatabase;

let loaded: { name: SqliteDriverName; open: (file: string) => SqlDatabase } | undefined;

/** Which driver this Node uses: `node:sqlite` when it loads without a flag, else better-sqlite3. */
export function sqliteDriver(): SqliteDriverName {
  return loadDriver().name;
}

/** Opens (creating when missing) a database file, or an in-memory one for ':memory:'. */
export function openDatabase(file: string): SqlDatabase {
  return loadDriver().open(file);
}

function loadDriver(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const builtIn = loadNodeSqlite();
  if (builtIn) {
    loaded = { name: 'node:sqlite', open: (file) => new builtIn.DatabaseSync(file) };
    return loaded;
  }
  let BetterSqlite: BetterSqliteConstructor;
  try {
    // Resolved from the installed package at run time: a native addon cannot be bundled.
    BetterSqlite = createRequire(import.meta.url)('better-sqlite3') as BetterSqliteConstructor;
  } catch (error) {
    throw new FsapiError(`fsapi needs SQLite: Node ${process.versions.node} has no node:sqlite and better-sqlite3 did not load (${firstLine(error)})`, {
      exitCode: ExitCode.failed,
      hint: 'use Node 22.13 or later, or let npm ci install better-sqlite3 (building it needs a C++ compiler where no prebuilt binary fits)',
    });
  }
  loaded = { name: 'better-sqlite3', open: (file) => new BetterSqlite(file) };
  return loaded;
}

/**
 * `node:sqlite`, or undefined where it is missing or still behind --experimental-sqlite (Node 20, 22.5 to
 * 22.12). Loading it prints an ExperimentalWarning on every run; users asked for none of that, so exactly
 * that warning is dropped while the module loads, and every other warning goes through.
 */
function loadNodeSqlite(): NodeSqliteModule | undefined {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === 'ExperimentalWarning' || (warning as Error).name === 'ExperimentalWarning') && /SQLite/i.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return (process.getBuiltinModule('node:sqlite') as unknown as NodeSqliteModule | undefined) ?? undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!;
}

/** The primary SQLite result code of a driver error (better-sqlite3: code 'SQLITE_CORRUPT'; node:sqlite: errcode 11). */
export function sqliteCode(error: unknown): number | undefined {
  const e = error as { code?: unknown; errcode?: unknown } | null;
  if (typeof e?.errcode === 'number') return e.errcode & 0xff;
  if (typeof e?.code === 'string') {
    const named: Record<string, number> = { SQLITE_BUSY: 5, SQLITE_LOCKED: 6, SQLITE_CORRUPT: 11, SQLITE_NOTADB: 26 };
    const base = /^SQLITE_[A-Z]+/.exec(e.code)?.[0];
    return base ? named[base] : undefined;
  }
  return undefined;
}
