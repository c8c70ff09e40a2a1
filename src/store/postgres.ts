// The team store: the local store's tables (src/store/database.ts) in a PostgreSQL that every operator's
// machine shares, behind the same LocalStore interface, so the journal, controls and events modules run
// their statements unchanged on either (docs/decisions.md, "The team store").
//
// - Synchronous like node:sqlite: the connection lives in a worker thread (src/store/postgres-worker.ts);
//   the main thread posts each statement and waits with Atomics.wait for the answer. Every wait is bounded
//   (connect timeout, statement_timeout and lock_timeout on the server, the wait's own timeout here), and
//   a refused, lost or silent connection is StoreUnreachableError: exit 1, nothing sent.
// - One writer at a time, as BEGIN IMMEDIATE is on SQLite: a write transaction starts with
//   pg_advisory_xact_lock on the store's key, held until COMMIT or ROLLBACK (also when the connection
//   dies). In READ COMMITTED each statement after the lock sees every transaction committed before it, so
//   a claim (duplicate guard, reference owner, daily maximum, intent) is decided on everything every
//   machine wrote, and two machines cannot both win it.
// - Statements are the SQLite ones: `?` becomes `$n`, and an insert whose caller needs the new row's
//   number (lastInsertRowid) returns it (RETURNING). Schema: src/store/postgres-schema.ts.
// - A sending run is alive while it holds a session-level advisory lock on this connection: the server
//   drops it the moment the connection ends (process killed, machine gone: TCP keepalive), so a run on
//   another machine is known dead without pids or clocks (src/store/process-lock.ts).
import { randomBytes } from '../common/random.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';
import { ExitCode, FsapiError, UsageError } from '../errors.js';
import type { LocalStore } from './local-store.js';
import { storeFound, type StoreIdentity } from './identity.js';
import { POSTGRES_SCHEMA_VERSION, POSTGRES_STEPS } from './postgres-schema.js';
import type { WorkerAnswer, WorkerRequest, WorkerSetup } from './postgres-worker.js';
import type { SqlRow, SqlStatement, SqlValue } from './sqlite.js';

/** How long a connection may take to open. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long one statement (a writer waiting for another's lock included) may take: as SQLite's busy_timeout. */
export const STATEMENT_TIMEOUT_MS = 30_000;
/** The server ends a silent client's session after about 10 + 5 x 3 s. */
const KEEPALIVE = { idle: 10, interval: 5, count: 3 };

// Advisory lock keys. The store's writer lock and its migration lock are one-bigint keys; run locks are
// two-int4 keys (src/store/process-lock.ts), a space of their own on the server.
export const WRITER_LOCK = 0x66_73_61_70_69_01n; // "fsapi" 1
const MIGRATION_LOCK = 0x66_73_61_70_69_02n;

// ---- the address -------------------------------------------------------------------------------------

export interface StoreAddress {
  /** What the driver connects to: the URL as given (with its password, if any: never shown). */
  url: string;
  /** postgres://user@host:port/db?params, never a password: for messages, status and profiles.json. */
  display: string;
  hasPassword: boolean;
}

/** Whether `text` names a team store (rather than a path or nothing). */
export function isStoreUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text.trim());
}

/** Reads a `postgres://` URL; bad input is exit 2 with the URL's password left out of the message. */
export function parseStoreUrl(text: string, where = 'the store URL'): StoreAddress {
  const trimmed = text.trim();
  let url: URL;
  try {
    if (!isStoreUrl(trimmed)) throw new Error('not postgres://');
    url = new URL(trimmed);
  } catch {
    throw new UsageError(`${where} must be a postgres:// or postgresql:// URL`, 'for example postgres://fsapi@db.example.com:5432/fsapi?sslmode=require');
  }
  if (!url.hostname) throw new UsageError(`${where} names no host`, 'for example postgres://fsapi@db.example.com:5432/fsapi');
  const hasPassword = url.password !== '';
  const shown = new URL(url.href);
  shown.password = '';
  return { url: trimmed, display: shown.href, hasPassword };
}

/** The same address without its password (kept in profiles.json; the password comes from PGPASSWORD or ~/.pgpass). */
export function withoutPassword(address: StoreAddress): StoreAddress {
  return { url: address.display, display: address.display, hasPassword: false };
}

// ---- errors ------------------------------------------------------------------------------------------

/** The team store cannot be reached (refused, lost, silent): exit 1, nothing was sent or changed. */
export class StoreUnreachableError extends FsapiError {
  constructor(
    display: string,
    /** What failed, in the driver's words (never a password: the driver has none to show). */
    readonly detail: string,
    cause?: unknown,
  ) {
    super(`the team store ${display} is unreachable (${detail}); nothing was sent or changed`, {
      exitCode: ExitCode.failed,
      hint: 'check the network and the database server; fsapi store status shows the store (docs/team.md)',
      cause,
      code: 'store_unreachable',
    });
  }
}

// SQLSTATE classes and driver codes that mean "no usable connection".
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'connection_lost',
]);

function storeFailure(display: string, answer: Extract<WorkerAnswer, { ok: false }>): FsapiError | Error {
  const code = answer.code ?? '';
  if (
    answer.lost ||
    UNREACHABLE_CODES.has(code) ||
    code.startsWith('08') ||
    code.startsWith('57P') ||
    /Connection terminated|timeout expired|connect/i.test(answer.message)
  ) {
    return new StoreUnreachableError(display, answer.message);
  }
  if (code === '28P01' || code === '28000') {
    return new FsapiError(`the team store ${display} refused the login (${answer.message}); nothing was sent or changed`, {
      exitCode: ExitCode.failed,
      hint: 'fsapi takes the password from PGPASSWORD or ~/.pgpass (docs/team.md)',
      code: 'store_login_failed',
    });
  }
  if (code === '57014' || code === '55P03') {
    return new FsapiError(`the team store ${display} stayed busy for ${STATEMENT_TIMEOUT_MS / 1000} s; nothing was done`, {
      exitCode: ExitCode.failed,
      hint: 'another fsapi is writing to it; try again',
      code: 'store_busy',
    });
  }
  return Object.assign(new Error(`team store: ${answer.message}`), { code });
}

// ---- the statements ----------------------------------------------------------------------------------

// Inserts whose callers read lastInsertRowid, and the column that holds it.
const RETURNED_KEY: Record<string, string> = { journal: 'seq', events: 'seq' };
const translated = new Map<string, string>();

/** A statement written for SQLite, as PostgreSQL takes it: `$n` placeholders, RETURNING where a key is read. */
export function toPostgres(text: string): string {
  const known = translated.get(text);
  if (known !== undefined) return known;
  let n = 0;
  let out = '';
  let quoted = false;
  for (const char of text) {
    if (char === "'") quoted = !quoted;
    out += char === '?' && !quoted ? `$${++n}` : char;
  }
  const insert = /^\s*INSERT\s+INTO\s+(\w+)/i.exec(out);
  const key = insert ? RETURNED_KEY[insert[1]!.toLowerCase()] : undefined;
  if (key && !/\bRETURNING\b/i.test(out)) out = `${out} RETURNING ${key}`;
  translated.set(text, out);
  return out;
}

// ---- the connection ----------------------------------------------------------------------------------

function workerFile(): string {
  // Bundled: dist/postgres-worker.cjs beside dist/engine.cjs. From source (the tests, through tsx): the .ts.
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), here.endsWith('.cjs') ? 'postgres-worker.cjs' : 'postgres-worker.ts');
}

/**
 * node:worker_threads, loaded with the first connection: a run on the data dir's SQLite, which loads this
 * module with the store's, never needs it (about 2 ms, docs/startup.md).
 */
const threads = () => process.getBuiltinModule('node:worker_threads');

class Connection {
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private dead: FsapiError | Error | undefined;

  constructor(
    address: StoreAddress,
    private readonly display: string,
  ) {
    const channel = new (threads().MessageChannel)();
    this.port = channel.port1;
    const setup: WorkerSetup = {
      signal: this.flag.buffer as SharedArrayBuffer,
      port: channel.port2,
      url: address.url,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      keepalive: KEEPALIVE,
    };
    this.worker = new (threads().Worker)(workerFile(), { workerData: setup, transferList: [channel.port2], stdout: false, stderr: false });
    // Neither keeps the process alive: a command that is done exits, and its connection with it.
    this.worker.unref();
    this.port.unref();
    try {
      this.call({ op: 'connect' }, CONNECT_TIMEOUT_MS);
    } catch (error) {
      // No connection: no thread left behind either (a long-running process would keep collecting them).
      void this.worker.terminate();
      throw error;
    }
  }

  call(request: WorkerRequest, timeoutMs = STATEMENT_TIMEOUT_MS): Extract<WorkerAnswer, { ok: true }> {
    if (this.dead) throw this.dead;
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(request);
    // The worker answers within its own bounds; this one is for a worker that cannot (a hung socket).
    const waited = Atomics.wait(this.flag, 0, 0, timeoutMs + 5_000);
    const reply = threads().receiveMessageOnPort(this.port)?.message as WorkerAnswer | undefined;
    if (!reply) {
      this.dead = new StoreUnreachableError(
        this.display,
        waited === 'timed-out' ? `no answer in ${Math.round(timeoutMs / 1000) + 5} s` : 'the connection thread stopped',
      );
      void this.worker.terminate();
      throw this.dead;
    }
    if (reply.ok) return reply;
    const error = storeFailure(this.display, reply);
    if (error instanceof StoreUnreachableError) this.dead = error;
    throw error;
  }

  close(): void {
    if (this.dead) return;
    try {
      this.call({ op: 'close' }, 2_000);
    } catch {
      // gone already
    }
    void this.worker.terminate();
    this.dead = new Error('closed');
  }
}

// ---- the store ---------------------------------------------------------------------------------------

class Statement implements SqlStatement {
  constructor(
    private readonly store: TeamStore,
    private readonly text: string,
  ) {}

  run(...params: SqlValue[]): { changes: number; lastInsertRowid: number } {
    const answer = this.store.send(this.text, params);
    const first = answer.rows[0];
    const key = first ? Object.values(first)[0] : undefined;
    return { changes: answer.rowCount, lastInsertRowid: typeof key === 'number' ? key : Number(key ?? 0) };
  }

  get(...params: SqlValue[]): SqlRow | undefined {
    return this.store.send(this.text, params).rows[0];
  }

  all(...params: SqlValue[]): SqlRow[] {
    return this.store.send(this.text, params).rows;
  }
}

export class TeamStore implements LocalStore {
  private depth = 0;
  private readonly statements = new Map<string, Statement>();
  /**
   * A read transaction's BEGIN and COMMIT ride with the statements next to them, in the same message to
   * the connection thread: BEGIN with the read's first statement, COMMIT (of a transaction that wrote
   * nothing) with whatever is sent next. A read of one statement then costs one wait, not three.
   */
  private readBegin: string | undefined;
  private readOpen = false;
  private flushScheduled = false;

  constructor(
    readonly dataDir: string,
    readonly address: StoreAddress,
    private readonly connection: Connection,
  ) {}

  /** The address without a password: what messages, status and the profile's expectation show. */
  get file(): string {
    return this.address.display;
  }

  sql(text: string): SqlStatement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = new Statement(this, toPostgres(text));
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Raw PostgreSQL (no translation), for this module and `store migrate`. */
  query(text: string, ...params: SqlValue[]): SqlRow[] {
    return this.send(text, params).rows;
  }

  /** One statement, with a read transaction's pending COMMIT or BEGIN before it. */
  send(text: string, params: SqlValue[]): ReturnType<Connection['call']> {
    const before: string[] = [];
    if (this.readOpen && this.readBegin === undefined) {
      before.push('COMMIT');
      this.readOpen = false;
    }
    if (this.readBegin !== undefined) {
      before.push(this.readBegin);
      this.readBegin = undefined;
      this.readOpen = true;
    }
    return this.connection.call({ op: 'query', text, params, before });
  }

  read<T>(work: () => T): T {
    if (this.depth > 0) return work();
    // One snapshot for every statement of `work`, begun with its first statement (none: nothing begun).
    this.readBegin = 'BEGIN ISOLATION LEVEL REPEATABLE READ';
    this.depth += 1;
    try {
      return work();
    } finally {
      this.depth -= 1;
      // Nothing was sent: nothing to end. Else the COMMIT goes with the next message, or on its own once
      // the run waits for something else (an answer of the API): no snapshot stays open while it waits.
      this.readBegin = undefined;
      if (this.readOpen && !this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.endRead()).unref();
      }
    }
  }

  private endRead(): void {
    this.flushScheduled = false;
    if (!this.readOpen || this.depth > 0) return;
    this.readOpen = false;
    try {
      this.connection.call({ op: 'query', text: 'COMMIT', params: [] });
    } catch {
      // A connection lost now is reported by the next statement that needs it.
    }
  }

  write<T>(work: () => T): T {
    // READ COMMITTED: each statement after the lock sees what every writer before it committed.
    return this.transaction('BEGIN', WRITER_LOCK, work);
  }

  private transaction<T>(begin: string, lock: bigint | undefined, work: () => T): T {
    if (this.depth > 0) return work();
    try {
      // One round trip: BEGIN and the lock as one simple query (a constant key, no parameters). A lock
      // that times out leaves the transaction begun: rolled back below.
      this.send(lock === undefined ? begin : `${begin}; SELECT pg_advisory_xact_lock(${lock})`, []);
      this.depth += 1;
      let result: T;
      try {
        result = work();
      } finally {
        this.depth -= 1;
      }
      this.send('COMMIT', []);
      return result;
    } catch (error) {
      try {
        this.send('ROLLBACK', []);
      } catch {
        // The connection is gone: the server rolled the transaction back.
      }
      throw error;
    }
  }

  identity(): StoreIdentity | undefined {
    return readIdentity(this);
  }

  copyInto(): void {
    throw new UsageError(
      `a team store is not copied by fsapi store backup: ${this.file} is backed up by its database's own tools`,
      'for example pg_dump (docs/team.md)',
    );
  }

  /** The schema version the store is at, 0 when it has none. */
  schemaVersion(): number {
    return schemaVersionOf(this);
  }

  close(): void {
    this.connection.close();
    for (const [key, store] of open) if (store === this) open.delete(key);
  }
}

function readIdentity(store: TeamStore): StoreIdentity | undefined {
  if (!tableExists(store, 'store_identity')) return undefined;
  const row = store.query('SELECT id, writes FROM store_identity WHERE "only" = 1')[0];
  return row ? { id: String(row.id), writes: Number(row.writes) } : undefined;
}

function tableExists(store: TeamStore, table: string): boolean {
  return store.query('SELECT (to_regclass($1) IS NOT NULL)::int AS found', table)[0]?.found === 1;
}

function schemaVersionOf(store: TeamStore): number {
  if (!tableExists(store, 'fsapi_schema')) return 0;
  return Number(store.query('SELECT version FROM fsapi_schema')[0]?.version ?? 0);
}

function migrate(store: TeamStore): void {
  if (schemaVersionOf(store) >= POSTGRES_SCHEMA_VERSION) return;
  store.query('BEGIN');
  try {
    // Two machines opening a new store at once: the second waits here, then finds it made.
    store.query('SELECT pg_advisory_xact_lock($1::bigint)', MIGRATION_LOCK.toString());
    store.query('CREATE TABLE IF NOT EXISTS fsapi_schema (version INTEGER NOT NULL)');
    const from = Number(store.query('SELECT version FROM fsapi_schema')[0]?.version ?? 0);
    for (const step of POSTGRES_STEPS.filter((s) => s.version > from)) store.query(step.sql);
    if (from === 0) {
      store.query('INSERT INTO fsapi_schema (version) VALUES ($1)', POSTGRES_SCHEMA_VERSION);
      store.query(
        `INSERT INTO store_identity ("only", id, created_at, writes) VALUES (1, $1, $2, 0) ON CONFLICT DO NOTHING`,
        newTeamStoreId(),
        new Date().toISOString(),
      );
    } else if (from < POSTGRES_SCHEMA_VERSION) store.query('UPDATE fsapi_schema SET version = $1', POSTGRES_SCHEMA_VERSION);
    store.query('COMMIT');
  } catch (error) {
    try {
      store.query('ROLLBACK');
    } catch {
      // gone
    }
    throw error;
  }
}

/** 16 hex digits as the local store's ids, marked as a team store's: `st-…` there, `ts-…` here. */
function newTeamStoreId(): string {
  return `ts-${randomBytes(8)
    .toString('hex')
    .replace(/(.{4})(?=.)/g, '$1-')}`;
}

const open = new Map<string, TeamStore>();

/**
 * The team store at `address`, connected and migrated on first use in this process. `dataDir` is the data
 * dir of the run whose profile uses it: whoever watches stores (src/store/identity.ts) is told of it
 * before anything is read or written, and may refuse it.
 */
export function openTeamStore(dataDir: string | undefined, address: StoreAddress): TeamStore {
  const key = address.display;
  const known = open.get(key);
  if (known) return known;
  const connection = new Connection(address, address.display);
  // Without a data dir (`store migrate`): no run's store, so no profile's expectation is checked or kept.
  const store = new TeamStore(dataDir === undefined ? '' : path.resolve(dataDir), address, connection);
  try {
    if (dataDir !== undefined) storeFound({ dataDir: store.dataDir, file: store.file, identity: readIdentity(store) });
    migrate(store);
  } catch (error) {
    connection.close();
    throw error;
  }
  open.set(key, store);
  return store;
}

/** Closes every team store this process opened (tests, `store migrate`). */
export function closeTeamStores(): void {
  for (const store of [...open.values()]) store.close();
}

export function openTeamStores(): TeamStore[] {
  return [...open.values()];
}

// ---- status ------------------------------------------------------------------------------------------

export interface TeamStoreReport {
  display: string;
  reachable: boolean;
  /** Why not, when unreachable (no password in it). */
  problem: string | undefined;
  serverVersion: string | undefined;
  schemaVersion: number;
  identity: StoreIdentity | undefined;
  counts: Record<string, number>;
}

const COUNTED = ['journal', 'transfers', 'events', 'payees', 'policies', 'approval_requests'];

/** What the team store holds, on a connection of its own; creates nothing. Unreachable is reported, not thrown. */
export function inspectTeamStore(address: StoreAddress): TeamStoreReport {
  const report: TeamStoreReport = {
    display: address.display,
    reachable: false,
    problem: undefined,
    serverVersion: undefined,
    schemaVersion: 0,
    identity: undefined,
    counts: {},
  };
  let connection: Connection;
  try {
    connection = new Connection(address, address.display);
  } catch (error) {
    report.problem = error instanceof StoreUnreachableError ? error.detail : (error as Error).message;
    return report;
  }
  try {
    const store = new TeamStore('', address, connection);
    report.reachable = true;
    report.serverVersion = String(store.query('SHOW server_version')[0]?.server_version ?? '');
    report.schemaVersion = schemaVersionOf(store);
    report.identity = readIdentity(store);
    for (const table of COUNTED) if (tableExists(store, table)) report.counts[table] = Number(store.query(`SELECT count(*) AS n FROM ${table}`)[0]?.n ?? 0);
  } catch (error) {
    report.problem = (error as Error).message;
  } finally {
    connection.close();
  }
  return report;
}

// ---- run locks ---------------------------------------------------------------------------------------

/** A run id (16 hex digits) as the two int4 halves of its advisory lock key. */
function runKey(run: string): [number, number] {
  return [Number.parseInt(run.slice(0, 8), 16) | 0, Number.parseInt(run.slice(8, 16), 16) | 0];
}

/** Takes the run's lock on the store's connection, for as long as the connection lives. */
export function holdTeamRunLock(store: TeamStore, run: string): void {
  const [high, low] = runKey(run);
  const row = store.query('SELECT pg_try_advisory_lock($1::int4, $2::int4)::int AS held', high, low)[0];
  if (row?.held !== 1) throw new Error(`the run lock of ${run} is held by another connection`);
}

/** Whether some connection to the store (any machine) holds the run's lock: the run is alive. */
export function teamRunIsLive(store: TeamStore, run: string): boolean {
  // pg_locks shows the two halves unsigned (oid).
  const [signedHigh, signedLow] = runKey(run);
  const [high, low] = [signedHigh >>> 0, signedLow >>> 0];
  const row = store.query(
    `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND classid = $1::bigint::oid AND objid = $2::bigint::oid`,
    high,
    low,
  )[0];
  return Number(row?.n ?? 0) > 0;
}
