// Locks that live exactly as long as the process holding them: a process is "still running" only if it
// holds its lock, and the operating system drops the lock the moment the process ends, however it ends
// (exit, crash, SIGKILL, power cut). Nothing to refresh, no stale time, no pid arithmetic: a reused pid
// (fsapi as pid 1 in a container, then another program) holds nothing, and a process that is stopped
// (SIGSTOP, Ctrl+Z) for an hour still holds its lock and is still, rightly, "running".
//
// The lock is SQLite's own exclusive lock on a small file of its own (fcntl locks on Linux and macOS,
// LockFileEx on Windows), taken with BEGIN EXCLUSIVE and never committed. Another process asks by trying
// the same with no wait: SQLITE_BUSY means the holder is alive.
//
// With a team store (src/store/postgres.ts) the run lock is the same idea on the database server: a
// session-level advisory lock held on a connection of its own for the life of the process (outside the
// pool of its transactions), which the server drops when the connection ends (the process exits or is
// killed, or its machine stops answering TCP keepalives). Any machine asks pg_locks whether it is held;
// each intent's transaction checks that this run still holds it (its fence), so a run whose connection
// was lost writes no more intents.
//
// Used for:
// - each fsapi run that writes intents (`runs/<run id>.lock` in the data dir): an intent without an
//   outcome is in flight only while its run's lock is held (src/transfers/claim.ts);
// - the one `webhook listen` of a data dir (`listen.lock`).
import { randomBytes } from '../common/random.js';
import { existsSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateFile, openLocalStore } from './database.js';
import { openDatabase, sqliteCode, type SqlDatabase } from './sqlite.js';
import { holdTeamRunLock, releaseTeamRunLocks, teamRunIsLive, TeamStore } from './postgres.js';
import type { Fence, Queries } from './store.js';
import { teamChoice } from './team-choice.js';

let thisRun: string | undefined;

/**
 * This process run: written into each intent beside the pid. Made when first asked for, so a run that
 * writes no intent (`transfer log`) does not load node:crypto (src/common/random.ts).
 */
export function runId(): string {
  return (thisRun ??= randomBytes(8).toString('hex'));
}

export interface ProcessLock {
  readonly file: string;
  /** Lets go (and removes the file); the end of the process does the same. */
  release(): void;
}

// Held connections, kept referenced so that nothing closes them before the process ends.
const held = new Map<string, SqlDatabase>();

/** Takes the lock on `file` for the life of this process, or returns undefined when a live process holds it. */
export function holdProcessLock(file: string): ProcessLock | undefined {
  const key = path.resolve(file);
  if (held.has(key)) return { file: key, release: () => release(key) };
  mkdirSync(path.dirname(key), { recursive: true, mode: 0o700 });
  ensurePrivateFile(key);
  const db = openDatabase(key);
  if (!tryExclusive(db)) {
    db.close();
    return undefined;
  }
  held.set(key, db);
  return { file: key, release: () => release(key) };
}

/** Whether a live process (this one included) holds the lock on `file`. */
export function isProcessLockHeld(file: string): boolean {
  const key = path.resolve(file);
  if (held.has(key)) return true;
  if (!existsSync(key)) return false;
  let db: SqlDatabase;
  try {
    db = openDatabase(key);
  } catch {
    return false; // gone meanwhile
  }
  try {
    if (!tryExclusive(db)) return true;
    db.exec('ROLLBACK');
    return false;
  } finally {
    db.close();
  }
}

function tryExclusive(db: SqlDatabase): boolean {
  db.exec('PRAGMA busy_timeout = 0');
  try {
    db.exec('BEGIN EXCLUSIVE');
    return true;
  } catch (error) {
    if (sqliteCode(error) === 5 || sqliteCode(error) === 6) return false;
    throw error;
  }
}

function release(key: string): void {
  const db = held.get(key);
  if (!db) return;
  held.delete(key);
  try {
    unlinkSync(key);
  } catch {
    // already gone
  }
  db.close();
}

// A normal exit removes this process's lock files; a killed process leaves them, unlocked, for the next
// reader to find dead and remove (runIsLive).
process.once('exit', releaseProcessLocks);

/** Lets go of every lock this process holds, as its end does (tests that run many commands in one process). */
export function releaseProcessLocks(): void {
  for (const key of [...held.keys()]) release(key);
  releaseTeamRunLocks();
}

// ---- the run lock ----------------------------------------------------------------------------------------

export function runLockFile(dataDir: string, run: string): string {
  return path.join(dataDir, 'runs', `${run}.lock`);
}

/**
 * Makes this run findable as alive by other processes: call before writing an intent. On a team store it
 * also returns the fence the intent's transaction checks (the run's lock still held on the server), so a
 * run whose lock went with its connection writes no more intents.
 */
export async function holdRunLock(dataDir: string): Promise<Fence | undefined> {
  const team = await teamStoreOf(dataDir);
  if (team) return holdTeamRunLock(team, runId());
  // A run id is random: nobody else holds this file.
  if (!holdProcessLock(runLockFile(dataDir, runId()))) throw new Error(`the run lock ${runLockFile(dataDir, runId())} is held by another process`);
  return undefined;
}

/**
 * Whether the run that wrote an intent is still running (holds its run lock). `q`: the caller's
 * transaction on the store, where a team store's locks are asked about.
 */
export async function runIsLive(dataDir: string, run: string | undefined, q?: Queries): Promise<boolean> {
  if (run === undefined) return false;
  if (run === runId()) return true;
  if (!/^[0-9a-f]{16}$/.test(run)) return false;
  const team = await teamStoreOf(dataDir);
  if (team) return teamRunIsLive(team, run, q);
  const file = runLockFile(dataDir, run);
  if (isProcessLockHeld(file)) return true;
  try {
    unlinkSync(file);
  } catch {
    // never made, or removed by its run at exit
  }
  return false;
}

async function teamStoreOf(dataDir: string): Promise<TeamStore | undefined> {
  if (!teamChoice(dataDir)) return undefined;
  const store = await openLocalStore(dataDir);
  return store instanceof TeamStore ? store : undefined;
}
