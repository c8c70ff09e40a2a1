// The team store: the local store's tables (src/store/database.ts) in a PostgreSQL that every operator's
// machine shares, behind the same Store interface (src/store/store.ts), so the journal, controls and events
// modules run their statements unchanged on either (docs/decisions.md, "The team store", "An asynchronous
// store").
//
// - The `pg` driver on the main thread, loaded only when a team store is opened: a pool of POOL_SIZE
//   connections, each transaction on one of them from BEGIN to COMMIT. Nothing waits synchronously: while a
//   statement is on its way the process goes on reading its other sockets (the API's answers).
// - Every wait is bounded, on both sides. The server ends what fsapi's sessions hold too long, set with
//   each transaction's BEGIN (set_config(..., true): SET LOCAL, so it works behind a transaction pooler
//   such as PgBouncer): a statement after STATEMENT_TIMEOUT_MS, a wait for a lock (the writer's included)
//   after LOCK_TIMEOUT_MS, a transaction left idle (a member stopped with Ctrl+Z) after
//   IDLE_IN_TRANSACTION_MS. Here: CONNECT_TIMEOUT_MS to connect, ANSWER_TIMEOUT_MS for any answer, the
//   writer's bound for a free connection of the pool. A bound the server's role or database sets tighter is
//   kept (never loosened).
// - One writer at a time, as BEGIN IMMEDIATE is on SQLite: a write transaction starts with
//   pg_advisory_xact_lock on the store's key, held until COMMIT or ROLLBACK (also when the connection
//   dies), sent with BEGIN and the bounds as one simple query: one round trip. In READ COMMITTED each
//   statement after the lock sees every transaction committed before it, so a claim (duplicate guard,
//   reference owner, daily maximum, intent) is decided on everything every machine wrote, and two machines
//   cannot both win it. Reads run in REPEATABLE READ, READ ONLY: one snapshot for the statements of a read.
// - Results are bounded: a result past MAX_RESULT_BYTES (no record of fsapi's comes near it) closes the
//   connection as its size is announced, before it is read into memory (watchResultSize).
// - Every failure of the driver, the network or the server is an fsapi error with a code (teamStoreError):
//   never a stack trace, never an 'error' event without a listener.
// - Statements are the SQLite ones: `?` becomes `$n`, and an insert whose caller needs the new row's number
//   (lastInsertRowid) returns it (RETURNING). Schema: src/store/postgres-schema.ts.
// - Nothing a guarantee rests on lives in a session: the writer's lock and the bounds are the
//   transaction's, so a transaction-mode pooler (PgBouncer) may stand in front. A sending run is known to
//   be alive by its lease, a row of the store renewed on a timer (src/store/run-lease.ts), not by a
//   connection: a connection reset or replaced loses nothing.
import { statSync } from 'node:fs';
import { randomBytes } from '../common/random.js';
import path from 'node:path';
import type { Socket } from 'node:net';
import type { Client as PgClient, Pool as PgPool, PoolClient, QueryResult } from 'pg';
import { ExitCode, FsapiError, UsageError } from '../errors.js';
import { storeFound, storeOpening, type StoreIdentity } from './identity.js';
import { POSTGRES_SCHEMA_VERSION, POSTGRES_STEPS } from './postgres-schema.js';
import { grantTablePrivileges, sqlIdentifier, teamLogin, type TeamLogin, type TeamRight } from './team-rights.js';
import type { StoreAddress } from './store-url.js';
import {
  markHeldWriteRefused,
  mayWrite,
  TransactionEndedError,
  WriteGroups,
  type Fence,
  type PlannedRead,
  type Queries,
  type SqlRow,
  type SqlValue,
  type Statement,
  type Store,
  type WriteOptions,
} from './store.js';

/** How long a connection may take to open. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long one statement may run on the server (statement_timeout). */
export const STATEMENT_TIMEOUT_MS = 30_000;
/** How long a statement may wait for a lock, the writer's included (lock_timeout): below the statement's bound, so a wait is told as one. */
export const LOCK_TIMEOUT_MS = 25_000;
/** How long a transaction may sit idle before the server ends it (idle_in_transaction_session_timeout): fsapi's never wait on anything but the store. */
export const IDLE_IN_TRANSACTION_MS = 10_000;
/** How long any answer may take here, past which the connection is given up: the server's own bounds come first. */
export const ANSWER_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 5_000;
/** How long a transaction waits for a free connection of this process's pool: the writer's bound. */
export const POOL_WAIT_MS = 30_000;
/** Connections per process: transactions of one process (a batch sends 8 rows at a time) share them. */
export const POOL_SIZE = 4;
/** The largest result read: a page of fsapi's records is a few MB at most; a value written from outside is refused, unread. */
export const MAX_RESULT_BYTES = 64 * 1024 * 1024;
/** Written rows (statements) after which a process first analyzes the tables a claim reads (TeamStore.keepStatistics). */
export const FIRST_ANALYZE_AFTER = 500;
/** TCP keepalive probes start after this many seconds of silence on a connection. */
const KEEPALIVE_IDLE_S = 10;

// Advisory lock keys, both taken per transaction (pg_advisory_xact_lock): the store's writer lock and its
// migration lock.
export const WRITER_LOCK = 0x66_73_61_70_69_01n; // "fsapi" 1
const MIGRATION_LOCK = 0x66_73_61_70_69_02n;

// ---- the address -------------------------------------------------------------------------------------

// Read, and refused when it carries a secret, in src/store/store-url.ts.
export { addressOfChoice, isStoreUrl, parseStoreUrl, shownStore, type StoreAddress } from './store-url.js';

// ---- errors ------------------------------------------------------------------------------------------

const NOTHING_KEPT = 'nothing of what it was doing was kept';

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

/** Another fsapi held the team store's writer lock (or a lock a statement needed) past LOCK_TIMEOUT_MS, or this process's connections were all busy. */
export class TeamStoreBusyError extends FsapiError {
  constructor(display: string, waitedMs: number, cause?: unknown) {
    super(`the team store ${display} stayed locked by another fsapi for ${Math.round(waitedMs / 1000)} s; nothing was done`, {
      exitCode: ExitCode.failed,
      hint: 'another fsapi is writing to it; try again (docs/team.md, "Bounds")',
      cause,
      code: 'store_busy',
    });
  }
}

/** A bound of the server ran out: a statement ran past statement_timeout, or a transaction sat idle past its bound. */
export class StoreTimeoutError extends FsapiError {
  constructor(display: string, what: 'statement' | 'idle', boundMs: number, cause?: unknown) {
    const seconds = Math.round(boundMs / 100) / 10;
    super(
      what === 'statement'
        ? `a statement on the team store ${display} ran past its bound of ${seconds} s and the server stopped it; ${NOTHING_KEPT}`
        : `this run's transaction on the team store ${display} sat idle past its bound of ${seconds} s (was the process stopped?) and the server ended it; ${NOTHING_KEPT}`,
      {
        exitCode: ExitCode.failed,
        hint:
          what === 'statement'
            ? 'the database server is overloaded or a statement is slow there; try again, and tell its administrator if it lasts'
            : 'try again; fsapi transfer log shows what was recorded before',
        cause,
        code: 'store_timeout',
      },
    );
  }
}

/** A result past MAX_RESULT_BYTES: refused as it was announced, never read whole. */
export class StoreResultTooLargeError extends FsapiError {
  constructor(display: string) {
    super(
      `a result from the team store ${display} passed ${MAX_RESULT_BYTES / 1024 / 1024} MB, more than any of fsapi's records holds; it was not read, and ${NOTHING_KEPT}`,
      {
        exitCode: ExitCode.failed,
        hint: 'a value far too large was written into the store from outside fsapi; find it with psql and remove it (docs/team.md)',
        code: 'store_result_too_large',
      },
    );
  }
}

/** Any other failure of the team store or its driver, named as it came (never with a password: the driver has none to show). */
export class StoreFailedError extends FsapiError {
  constructor(display: string, detail: string, cause?: unknown) {
    super(`the team store ${display} failed (${detail}); ${NOTHING_KEPT}`, {
      exitCode: ExitCode.failed,
      hint: 'fsapi store status shows the store; docs/team.md',
      cause,
      code: 'store_failed',
    });
  }
}

/**
 * PostgreSQL refused a statement for the login's lack of a right (SQLSTATE 42501: a privilege, or a row
 * policy): exit 1, nothing of the transaction was kept. Names the right the work needs and who grants it.
 */
export class StorePermissionDeniedError extends FsapiError {
  constructor(
    display: string,
    readonly login: string | undefined,
    readonly needed: { what: string; right: TeamRight | undefined },
    detail: string,
    cause?: unknown,
  ) {
    const who = login ?? 'this login';
    super(
      `the team store ${display} refused ${who}: ${needed.what} needs the ${needed.right ?? 'right to do it'}${needed.right ? ' right' : ''} (${detail}); nothing was sent or changed`,
      {
        exitCode: ExitCode.failed,
        hint: needed.right
          ? `an owner of the store grants it: fsapi store grant ${login ?? '<role>'} ${needed.right} (fsapi store status shows your right)`
          : 'fsapi store status shows your right; an owner grants rights (docs/team.md)',
        cause,
        code: 'store_permission_denied',
      },
    );
  }
}

/** What a refused statement was doing, from the table PostgreSQL names, and the right it needs. */
export function rightNeeded(message: string): { what: string; right: TeamRight | undefined } {
  const table = /(?:for (?:table|relation|sequence)|policy for table) "?([a-z_]+)"?/i.exec(message)?.[1];
  const rowPolicy = /row-level security/i.test(message);
  if (/grant role|revoke role|admin option|to grant|to revoke/i.test(message)) return { what: 'changing the rights of the store', right: 'owner' };
  if (/must be owner/i.test(message)) return { what: "bringing the store's schema up to date", right: 'owner' };
  switch (table) {
    case 'policies':
    case 'policy_changes':
      return { what: 'changing the payment policy', right: 'owner' };
    case 'payees':
      return { what: 'changing the saved payees', right: 'owner' };
    case 'approval_requests':
    case 'approval_decisions':
      return rowPolicy
        ? { what: 'deciding a held request (a sender may only take back its own)', right: 'approver' }
        : { what: 'holding a request for approval', right: 'sender' };
    case 'approval_transfers':
      return { what: 'holding a request for approval', right: 'sender' };
    case 'journal':
    case 'transfers':
    case 'journal_seq_seq':
    case 'run_leases':
    case 'name_refusals':
    case 'name_refusals_id_seq':
      return { what: 'recording a transfer', right: 'sender' };
    case 'events':
    case 'events_open':
    case 'events_undelivered':
    case 'event_claims':
    case 'events_seq_seq':
      return { what: 'recording webhook events', right: 'sender' };
    case 'imports':
    case 'store_identity':
    case 'fsapi_schema':
      return { what: 'reading the store', right: 'viewer' };
    default:
      return { what: 'this', right: undefined };
  }
}

/** The team store has no database of the URL's name (3D000): exit 1. */
export class StoreDatabaseMissingError extends FsapiError {
  constructor(display: string, serverMessage: string, cause?: unknown) {
    super(`the database server of the team store ${display} has no such database (${serverMessage}); nothing was sent or changed`, {
      exitCode: ExitCode.failed,
      hint: 'check the database name in the URL; an administrator makes it once: createdb --owner <role> <name> (docs/team.md)',
      cause,
      code: 'store_database_missing',
    });
  }
}

/** The server refused the login (28P01, 28000), or asked for a password and fsapi found none: exit 1. */
export class StoreLoginError extends FsapiError {
  constructor(display: string, why: string, hint: string, cause?: unknown) {
    super(`the team store ${display} refused the login: ${why}; nothing was sent or changed`, {
      exitCode: ExitCode.failed,
      hint,
      cause,
      code: 'store_login_failed',
    });
  }
}

/** The login lacks a right it needs (42501): to connect to the database, or on a table of the store. Exit 1. */
export class StorePermissionError extends FsapiError {
  constructor(display: string, serverMessage: string, hint: string, options: { atConnect?: boolean; cause?: unknown } = {}) {
    super(`the team store ${display} refused: ${serverMessage}; ${options.atConnect ? 'nothing was sent or changed' : NOTHING_KEPT}`, {
      exitCode: ExitCode.failed,
      hint,
      cause: options.cause,
      code: 'store_permission_denied',
    });
  }
}

/** TLS with the server failed: it offers none, or its certificate is not one this machine trusts. Exit 1. */
export class StoreTlsError extends FsapiError {
  constructor(display: string, detail: string, hint: string, cause?: unknown) {
    super(`the TLS connection to the team store ${display} failed (${detail}); nothing was sent or changed`, {
      exitCode: ExitCode.failed,
      hint,
      cause,
      code: 'store_tls_failed',
    });
  }
}

// Node's and the driver's words for "no usable connection".
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ECONNABORTED',
]);
const UNREACHABLE_WORDS = /Connection terminated|not queryable|Query read timeout|connection timeout/i;
// Node's (OpenSSL's) words for a certificate it does not trust, or a handshake that failed.
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'HOSTNAME_MISMATCH',
  'EPROTO',
]);
const TLS_WORDS = /\bssl\b|\btls\b|certificate|self[- ]signed|handshake/i;
const CERTIFICATE_HINT =
  "this machine does not trust the server's certificate: name the CA that signed it with sslrootcert=/path/to/ca.crt in the URL (docs/team.md)";

/** Who logs in where, from the address as shown (it holds no secret): for the login's messages. */
function loginOf(display: string): { role: string; line: string } {
  try {
    const url = new URL(display);
    const role = decodeURIComponent(url.username) || process.env.PGUSER || process.env.USER || process.env.USERNAME || 'this OS user';
    const database = decodeURIComponent(url.pathname.slice(1)) || role;
    return { role, line: `${url.hostname}:${url.port || '5432'}:${database}:${role}:the-password` };
  } catch {
    return { role: 'this login', line: 'host:port:database:user:password' };
  }
}

/** What the driver, the network or the server said, as an fsapi error (FsapiErrors pass as they are). */
export function teamStoreError(display: string, error: unknown, bounds: Bounds = DEFAULT_BOUNDS, login?: string): FsapiError | unknown {
  if (error instanceof FsapiError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  const sqlState = /^[0-9A-Z]{5}$/.test(code);
  if (code === '57014' && /statement timeout/i.test(message)) return new StoreTimeoutError(display, 'statement', bounds.statementMs, error);
  if (code === '25P03') return new StoreTimeoutError(display, 'idle', bounds.idleMs, error);
  if (code === '55P03' || code === '40P01') return new TeamStoreBusyError(display, bounds.lockMs, error);
  if (code === '3D000') return new StoreDatabaseMissingError(display, message, error);
  if (code === '28P01' || code === '28000' || /password must be a string/i.test(message)) return loginFailed(display, code, message, error);
  if (code === '42501') {
    const detail = String((error as { detail?: unknown }).detail ?? '');
    // A right on a table or a row: the right the work needs, and who grants it (src/store/team-rights.ts).
    if (!/CONNECT privilege/i.test(detail)) return new StorePermissionDeniedError(display, login, rightNeeded(message), message, error);
    const { role } = loginOf(display);
    return new StorePermissionError(
      display,
      `${message} (${detail.replace(/\.$/, '')})`,
      `the database's owner lets role "${role}" in: GRANT CONNECT ON DATABASE <name> TO "${role}" (docs/team.md)`,
      { atConnect: true, cause: error },
    );
  }
  if (/timeout exceeded when trying to connect/.test(message)) return new TeamStoreBusyError(display, POOL_WAIT_MS, error);
  if (/does not support SSL/i.test(message)) {
    return new StoreTlsError(
      display,
      'the server offers no TLS',
      'turn TLS on at the server; on a network where nobody can listen, the URL may leave sslmode out (docs/team.md)',
      error,
    );
  }
  if (TLS_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return new StoreTlsError(display, message, CERTIFICATE_HINT, error);
  if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') {
    return new StoreUnreachableError(display, message, error);
  }
  if (!sqlState && TLS_WORDS.test(message)) return new StoreTlsError(display, message, CERTIFICATE_HINT, error);
  // A TLS file the URL names (sslrootcert, sslcert, sslkey) that the driver could not read.
  const file = (error as { path?: unknown }).path;
  if (typeof file === 'string' && ['ENOENT', 'EACCES', 'EISDIR', 'EPERM'].includes(code)) {
    return new UsageError(
      `the file ${file}, named in the team store URL, cannot be read (${code}); nothing was connected to`,
      'correct sslrootcert, sslcert or sslkey in the URL',
    );
  }
  if (error instanceof RangeError || code === 'ERR_STRING_TOO_LONG' || code === 'ERR_OUT_OF_MEMORY' || code === 'ENOMEM') {
    return new StoreFailedError(display, `a value too large to handle: ${message}`, error);
  }
  if (!sqlState && UNREACHABLE_WORDS.test(message)) return new StoreUnreachableError(display, message, error);
  return new StoreFailedError(display, message, error);
}

/** Why the password file was not read although it is there (as the driver and libpq judge it), or undefined. */
function passwordFileIgnored(): string | undefined {
  if (process.env.PGPASSWORD !== undefined || process.platform === 'win32') return undefined;
  const file = process.env.PGPASSFILE || path.join(process.env.HOME || '.', '.pgpass');
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return `${file} is not a plain file, so it was not read`;
    if (stat.mode & 0o077) return `${file} can be read by others than its owner, so it was not read`;
  } catch {
    // No file: nothing was ignored.
  }
  return undefined;
}

/** A refused login, said as what it most likely is: wrong password or role, no password found, no TLS, no entry for this host. */
function loginFailed(display: string, code: string, message: string, cause: unknown): StoreLoginError {
  const { role, line } = loginOf(display);
  const passwordHint = `fsapi takes the password from ~/.pgpass (or the file PGPASSFILE names; mode 0600, a line ${line}) or PGPASSWORD (docs/team.md)`;
  if (code === '') {
    const ignored = passwordFileIgnored();
    return new StoreLoginError(
      display,
      `the server asks role "${role}" for a password, and none was found${ignored ? ` (${ignored})` : ''}`,
      ignored ? `chmod 600 the password file; ${passwordHint}` : passwordHint,
      cause,
    );
  }
  if (code === '28P01') {
    // The server says the same for a role it does not have, so that nobody can probe for names.
    return new StoreLoginError(display, `wrong password for role "${role}", or no such role (the server does not say which)`, passwordHint, cause);
  }
  if (/does not exist/i.test(message))
    return new StoreLoginError(
      display,
      `the server has no role "${role}" (${message})`,
      'check the user in the URL; an administrator makes the role: createuser --pwprompt <role> (docs/team.md)',
      cause,
    );
  if (/no encryption/i.test(message))
    return new StoreLoginError(display, `${message}: the server takes this login only over TLS`, 'add sslmode=require to the URL (docs/team.md)', cause);
  return new StoreLoginError(display, message, "the database server's administrator decides who may log in from where (pg_hba.conf); docs/team.md", cause);
}

// ---- the driver --------------------------------------------------------------------------------------

type Pg = typeof import('pg');
let driver: Promise<Pg> | undefined;

/** `pg`, loaded once, when the first team store is opened: a run on the data dir's SQLite never loads it. */
function loadDriver(): Promise<Pg> {
  driver ??= import('pg').then((module) => {
    const pg = (module as unknown as { default?: Pg }).default ?? module;
    // int8 (counts, ms times, kobo) as numbers: fsapi's integers stay far below 2^53, and one that does not
    // is an error rather than a rounded number, as node:sqlite does.
    pg.types.setTypeParser(20, (text: string) => {
      const value = Number(text);
      if (!Number.isSafeInteger(value)) throw new Error(`integer ${text} is past 2^53`);
      return value;
    });
    quietDriverWarnings();
    return pg;
  });
  return driver;
}

/**
 * Two warnings of the driver's are dropped, exactly these two, and every other warning goes through:
 * fsapi's stderr is the user's (under --json, its error object alone), and neither says anything the
 * user should act on.
 * - sslmode=require (and prefer, verify-ca): the driver verifies the server's certificate and name, as
 *   verify-full does (docs/team.md says so), and warns that a later version will not. The stricter check
 *   is the one fsapi wants.
 * - The password from ~/.pgpass (or PGPASSFILE): the driver reads it, then warns (a DeprecationWarning,
 *   once a process) that a later version will not. ~/.pgpass is where PostgreSQL's own tools, and
 *   docs/team.md, keep it.
 */
function quietDriverWarnings(): void {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : ((rest[0] as { type?: string } | undefined)?.type ?? (warning as Error).name);
    if (/SSL modes .* are treated as aliases for 'verify-full'/.test(text)) return;
    if (type === 'DeprecationWarning' && /^pgpass support is deprecated/.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
}

/** What the driver's connection exposes that the result bound reads: its socket (TLS once upgraded). */
interface DriverConnection {
  stream: Socket;
  ssl: unknown;
  once(event: 'sslconnect', listener: () => void): void;
}

/** A client of fsapi's: its socket watched for oversized results, its failures kept (never an unheard 'error'). */
type TeamClient = PgClient & { lost?: Error };
/** One of them lent by the pool to a transaction. */
type PooledClient = PoolClient & { lost?: Error };

/** The driver's Client with fsapi's connect bound, result bound and error listener. */
function clientClass(pg: Pg, display: string): new (config: object) => TeamClient {
  return class FsapiClient extends pg.Client {
    lost?: Error;

    constructor(config: object) {
      // The pool's own timeout is its wait for a free connection; opening one has its own, shorter, bound.
      super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      // A connection that fails while idle in the pool, or between two statements, is kept as lost: the
      // pool or the next statement hears of it. Without a listener an 'error' event would end the process.
      this.on('error', (error: Error) => {
        this.lost ??= error;
      });
      watchResultSize((this as unknown as { connection: DriverConnection }).connection, display);
    }
  };
}

/**
 * Closes the connection as soon as a result grows past MAX_RESULT_BYTES, from the sizes the server
 * announces in each message's header (PostgreSQL's wire protocol: a type byte, then a 4-byte length), so
 * neither the value nor the result is ever held. On TLS the decrypted stream is watched, once upgraded.
 */
function watchResultSize(connection: DriverConnection, display: string): void {
  const attach = (stream: Socket) => {
    const header = Buffer.alloc(5);
    let have = 0;
    let bodyLeft = 0;
    let resultBytes = 0;
    stream.on('data', (chunk: Buffer) => {
      let at = 0;
      while (at < chunk.length) {
        if (bodyLeft > 0) {
          const skip = Math.min(bodyLeft, chunk.length - at);
          bodyLeft -= skip;
          at += skip;
          continue;
        }
        const take = Math.min(5 - have, chunk.length - at);
        chunk.copy(header, have, at, at + take);
        have += take;
        at += take;
        if (have < 5) return;
        have = 0;
        const type = header[0];
        const length = header.readUInt32BE(1);
        bodyLeft = length - 4;
        // DataRow ('D') adds to the result; CommandComplete, ReadyForQuery and ErrorResponse end it.
        if (type === 0x44) resultBytes += length;
        else if (type === 0x43 || type === 0x5a || type === 0x45) resultBytes = 0;
        if (resultBytes > MAX_RESULT_BYTES || length > MAX_RESULT_BYTES) {
          stream.destroy(new StoreResultTooLargeError(display));
          return;
        }
      }
    });
  };
  if (connection.ssl) connection.once('sslconnect', () => attach(connection.stream));
  else attach(connection.stream);
}

// ---- the bounds of each transaction ------------------------------------------------------------------

/** The bounds a transaction runs under, in ms, as the server set them (tighter ones of its own kept). */
export interface Bounds {
  statementMs: number;
  lockMs: number;
  idleMs: number;
}

const DEFAULT_BOUNDS: Bounds = { statementMs: STATEMENT_TIMEOUT_MS, lockMs: LOCK_TIMEOUT_MS, idleMs: IDLE_IN_TRANSACTION_MS };

/** fsapi's bound for `setting`, or the one the server already has when it is tighter (0: none). */
const tighter = (setting: string, ms: number) =>
  `least(coalesce(nullif((extract(epoch FROM current_setting('${setting}')::interval) * 1000)::bigint, 0), ${ms}), ${ms})`;

/**
 * The transaction's bounds, local to it (set_config's third argument: SET LOCAL), and what they came to.
 * A statement without parameters, so it rides in BEGIN's simple query.
 */
const SET_BOUNDS = `SELECT set_config('statement_timeout', b.s::text, true) AS s0, set_config('lock_timeout', b.l::text, true) AS l0,
  set_config('idle_in_transaction_session_timeout', b.i::text, true) AS i0, b.s AS statement_ms, b.l AS lock_ms, b.i AS idle_ms
  FROM (SELECT ${tighter('statement_timeout', STATEMENT_TIMEOUT_MS)} AS s, ${tighter('lock_timeout', LOCK_TIMEOUT_MS)} AS l,
    ${tighter('idle_in_transaction_session_timeout', IDLE_IN_TRANSACTION_MS)} AS i) b`;

const READ_BEGIN = `BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; ${SET_BOUNDS}`;
const WRITE_BEGIN = `BEGIN; ${SET_BOUNDS}; SELECT pg_advisory_xact_lock(${WRITER_LOCK})`;
const MIGRATE_BEGIN = `BEGIN; ${SET_BOUNDS}; SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;

function boundsOf(results: QueryResult[]): Bounds {
  const row = results.find((result) => result.rows[0]?.statement_ms !== undefined)?.rows[0] as Record<string, unknown> | undefined;
  if (!row) return DEFAULT_BOUNDS;
  return { statementMs: Number(row.statement_ms), lockMs: Number(row.lock_ms), idleMs: Number(row.idle_ms) };
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

// ---- the store ---------------------------------------------------------------------------------------

export class TeamStore implements Store {
  readonly backend = 'postgresql';
  private closed = false;
  /** Rows this process wrote (statements), the count at which it analyzes next, and the ANALYZE under way (keepStatistics). */
  private written = 0;
  private analyzeAt = FIRST_ANALYZE_AFTER;
  private analyzing: Promise<void> | undefined;
  /** The login of this store's sessions and its right, read when it was opened. */
  login: TeamLogin | undefined;

  constructor(
    readonly dataDir: string,
    readonly address: StoreAddress,
    private readonly pool: PgPool,
  ) {}

  /** The address without a password: what messages, status and the profile's expectation show. */
  get file(): string {
    return this.address.display;
  }

  read<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    return this.transaction(READ_BEGIN, work, undefined);
  }

  write<T>(work: (q: Queries) => Promise<T>, options?: WriteOptions): Promise<T> {
    if (options?.group) return this.groups.submit(work, options);
    return this.transaction(WRITE_BEGIN, work, options?.fence, options?.reads);
  }

  /**
   * Grouped writes (a batch's claims and outcomes): the writer's lock taken once and one COMMIT for those
   * asked for while the previous group was written, rather than a lock and a commit each.
   */
  private readonly groups = new WriteGroups((work, options) => this.write(work, { fence: options?.fence, reads: options?.reads }));

  /** A write transaction under the schema's own lock (migrate). */
  migration<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    return this.transaction(MIGRATE_BEGIN, work, undefined);
  }

  /**
   * `work` in one transaction on one connection of the pool: `begin` (BEGIN, the bounds, the writer's lock,
   * the fence) in one round trip, then `work`, then COMMIT. Anything that fails rolls back (the server does
   * so itself for a connection that died) and is said as an fsapi error.
   */
  private async transaction<T>(begin: string, work: (q: Queries) => Promise<T>, fence: Fence | undefined, reads: readonly PlannedRead[] = []): Promise<T> {
    if (this.closed) throw new Error(`${this.file} is closed`);
    let client: PooledClient;
    try {
      client = (await this.pool.connect()) as PooledClient;
    } catch (error) {
      throw teamStoreError(this.file, error);
    }
    const handle = new TeamQueries(client, this.file, this.login?.login);
    let bounds = DEFAULT_BOUNDS;
    let released = false;
    let committing = false;
    try {
      const asked = handle.askable(reads);
      const answers = await client.query([begin, ...(fence ? [fence.sql] : []), ...asked.map((read) => read.text)].join(';\n'));
      const everyResult = (Array.isArray(answers) ? answers : [answers]) as QueryResult[];
      // BEGIN's and the bounds', the fence's, then the reads'.
      const results = everyResult.slice(0, everyResult.length - asked.length);
      handle.remember(asked, everyResult.slice(everyResult.length - asked.length));
      bounds = boundsOf(results);
      handle.bounds = bounds;
      if (fence && !fence.holds(results[results.length - 1]!.rows as SqlRow[])) throw fence.lost();
      const result = await work(handle);
      // The writes still held go with COMMIT: one round trip.
      committing = true;
      const committed = (await client.query(handle.withHeld('COMMIT'))) as QueryResult | QueryResult[];
      // PostgreSQL answers COMMIT of a transaction a failed statement aborted with ROLLBACK, not an error:
      // a work that went on past a store error it caught has kept nothing, and must not be told otherwise.
      if ((Array.isArray(committed) ? committed[committed.length - 1]! : committed).command !== 'COMMIT') throw new RolledBackError();
      this.keepStatistics(handle.writes);
      handle.end();
      return result;
    } catch (error) {
      handle.end();
      // A decision of the work's own (a claim refused) as it is; anything else as the store's failure.
      const failure = teamStoreError(this.file, error instanceof FsapiError ? error : (client.lost ?? error), bounds, this.login?.login);
      // The server's answer to COMMIT (with the writes held for it) was a refusal: rolled back, for sure.
      if (committing && client.lost === undefined && isServerRefusal(error)) markHeldWriteRefused(failure as object);
      released = true;
      // A connection that failed, or whose answer did not come, is closed rather than reused.
      const usable = client.lost === undefined && !(failure instanceof StoreUnreachableError) && !(failure instanceof StoreResultTooLargeError);
      if (usable) {
        try {
          await client.query('ROLLBACK');
        } catch (rollback) {
          client.lost ??= rollback as Error;
        }
      }
      client.release(client.lost ?? (usable ? undefined : true));
      throw failure;
    } finally {
      if (!released) client.release();
    }
  }

  /**
   * ANALYZE of the tables a claim reads, as this process's writes grow: after its first
   * FIRST_ANALYZE_AFTER written rows, then each time they have doubled. Until a table has statistics
   * PostgreSQL may read a claim's lookups through the wrong index (postgres-schema.ts, step 12): a new
   * store's first batch would grow quadratic. Outside the writer's lock, on a connection of the pool,
   * bounded; a login that may not analyze is told so by a WARNING the driver keeps to itself, and nothing
   * else changes. Not awaited: close() waits for it.
   */
  private keepStatistics(written: number): void {
    this.written += written;
    if (this.written < this.analyzeAt || this.analyzing || this.closed) return;
    this.analyzeAt *= 2;
    this.analyzing = this.pool
      .query(`BEGIN; SELECT set_config('statement_timeout', '${STATEMENT_TIMEOUT_MS}', true); ANALYZE transfers, journal; COMMIT`)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => (this.analyzing = undefined));
  }

  identity(): Promise<StoreIdentity | undefined> {
    return this.read((q) => readIdentity(q));
  }

  /** The login of the sessions (session_user): the one name the server stamps on what they write. */
  async actor(): Promise<string> {
    this.login ??= await this.read((q) => teamLogin(q));
    return this.login.login;
  }

  async copyInto(): Promise<void> {
    throw new UsageError(
      `a team store is not copied by fsapi store backup: ${this.file} is backed up by its database's own tools`,
      'for example pg_dump (docs/team.md)',
    );
  }

  /** The schema version the store is at, 0 when it has none. */
  schemaVersion(): Promise<number> {
    return this.read((q) => schemaVersionOf(q));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    opened.delete(this);
    const key = this.address.display;
    const opening = open.get(key);
    void opening?.then((store) => {
      if (store === this && open.get(key) === opening) open.delete(key);
    });
    await this.analyzing;
    await this.pool.end().catch(() => undefined);
  }
}

/** The handle of one transaction on one connection. */
class TeamQueries implements Queries {
  private open = true;
  bounds: Bounds = DEFAULT_BOUNDS;
  /** Writes whose result nobody reads (Statement.write), as text with their values: sent with the next statement or the COMMIT. */
  private held: string[] = [];
  /** The statements of this transaction that may have written. */
  writes = 0;
  /** Reads asked in advance (prefetch) and what came back, by readKey: forgotten at the first write. */
  private readonly answered = new Map<string, QueryResult>();

  constructor(
    private readonly client: TeamClient,
    private readonly display: string,
    private readonly login: string | undefined,
  ) {}

  end(): void {
    this.open = false;
  }

  /** The held writes, taken to be sent before `last` in one simple query (the COMMIT's). */
  withHeld(last: string): string {
    const text = [...this.held, last].join(';\n');
    this.held = [];
    return text;
  }

  private async flush(): Promise<void> {
    if (this.held.length > 0) await this.query(this.withHeld('SELECT 1'), undefined);
  }

  async prefetch(reads: readonly PlannedRead[]): Promise<void> {
    const asked = this.askable(reads);
    if (asked.length === 0) return;
    const results = await this.query(this.withHeld(asked.map((read) => read.text).join(';\n')), undefined);
    // The held writes' results come first: the reads' are the last ones.
    this.remember(asked, results.slice(results.length - asked.length));
  }

  /** Of `reads`, those not answered yet and that can be asked with their values in their text, once each. */
  askable(reads: readonly PlannedRead[]): Array<{ key: string; text: string }> {
    const asked = new Map<string, string>();
    for (const read of reads) {
      const key = readKey(read.text, read.params);
      if (!this.answered.has(key) && inlinable(read.params)) asked.set(key, withValues(toPostgres(read.text), read.params));
    }
    return [...asked].map(([key, text]) => ({ key, text }));
  }

  /** What came back for reads asked ahead: answers until the next write. */
  remember(asked: ReadonlyArray<{ key: string }>, results: readonly QueryResult[]): void {
    asked.forEach((read, at) => this.answered.set(read.key, results[at]!));
  }

  /** Every result of `text` (several statements: one each), or the last one's. */
  private async query(text: string, values: SqlValue[] | undefined): Promise<QueryResult[]> {
    if (!this.open) throw new TransactionEndedError(text);
    try {
      const answer: QueryResult | QueryResult[] = await this.client.query(values ? { text, values } : text);
      return Array.isArray(answer) ? answer : [answer];
    } catch (error) {
      throw teamStoreError(this.display, this.client.lost ?? error, this.bounds, this.login);
    }
  }

  sql(text: string): Statement {
    const translatedText = toPostgres(text);
    const writes = mayWrite(text);
    const send = async (params: SqlValue[]): Promise<QueryResult> => {
      if (writes) {
        this.writes += 1;
        this.answered.clear();
      } else {
        const known = this.answered.get(readKey(text, params));
        if (known) return known;
      }
      // With writes held, they go first in the same round trip: the statement's values written into its text.
      let results: QueryResult[];
      if (this.held.length > 0 && inlinable(params)) results = await this.query(this.withHeld(withValues(translatedText, params)), undefined);
      else {
        await this.flush();
        results = await this.query(translatedText, params);
      }
      // Several statements in one text (held writes, a step of the schema): the last one's result.
      return results[results.length - 1]!;
    };
    return {
      run: async (...params) => {
        if (!writes) this.writes += 1;
        this.answered.clear();
        const answer = await send(params);
        const first = answer.rows[0] as SqlRow | undefined;
        const key = first ? Object.values(first)[0] : undefined;
        return { changes: answer.rowCount ?? 0, lastInsertRowid: typeof key === 'number' ? key : Number(key ?? 0) };
      },
      get: async (...params) => (await send(params)).rows[0] as SqlRow | undefined,
      all: async (...params) => (await send(params)).rows as SqlRow[],
      write: async (...params) => {
        if (!this.open) throw new TransactionEndedError(text);
        this.answered.clear();
        this.writes += 1;
        if (inlinable(params)) this.held.push(withValues(translatedText, params));
        else await send(params);
      },
    };
  }
}

/** What a read is known by among the prefetched: its text and its values. */
function readKey(text: string, params: readonly SqlValue[]): string {
  return `${text}\u0000${JSON.stringify(params)}`;
}

/** COMMIT answered ROLLBACK: the transaction had failed before it, and nothing of it was kept. */
class RolledBackError extends Error {
  readonly code = '25P02'; // in_failed_sql_transaction: the server's word for it, said as store_failed
  constructor() {
    super('the transaction had failed, and the server rolled it back at COMMIT');
  }
}

/** An error the server answered with (an SQLSTATE), as opposed to a connection that failed. */
function isServerRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // Not a connection ended by the server (class 08, 57P: shut down, terminated), after which a COMMIT may have taken.
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57P)/.test(code);
}

/** Values that can be written into a statement's text as literals: a NUL is refused by PostgreSQL either way, as a parameter. */
function inlinable(params: readonly SqlValue[]): boolean {
  return params.every((value) => typeof value !== 'string' || !value.includes('\0'));
}

/**
 * `text` with its $n placeholders replaced by `params` as string constants (E'…', backslashes and quotes
 * doubled, whatever standard_conforming_strings says): a constant of unknown type, which PostgreSQL types
 * from where it stands exactly as it types an untyped parameter. Numbers too, quoted, for the same reason.
 */
export function withValues(text: string, params: readonly SqlValue[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    if (value === null || value === undefined) return 'NULL';
    return `E'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  });
}

async function readIdentity(q: Queries): Promise<StoreIdentity | undefined> {
  if (!(await tableExists(q, 'store_identity'))) return undefined;
  const row = await q.sql('SELECT id, writes FROM store_identity WHERE "only" = 1').get();
  return row ? { id: String(row.id), writes: Number(row.writes) } : undefined;
}

async function tableExists(q: Queries, table: string): Promise<boolean> {
  return (await q.sql('SELECT (to_regclass(?) IS NOT NULL)::int AS found').get(table))?.found === 1;
}

async function schemaVersionOf(q: Queries): Promise<number> {
  if (!(await tableExists(q, 'fsapi_schema'))) return 0;
  return Number((await q.sql('SELECT version FROM fsapi_schema').get())?.version ?? 0);
}

/** Brings the store's schema up to date; true when it changed anything. */
async function migrate(store: TeamStore): Promise<boolean> {
  if ((await store.schemaVersion()) >= POSTGRES_SCHEMA_VERSION) return false;
  // Two machines opening a new store at once: the second waits for the schema's lock, then finds it made.
  return store.migration(async (q) => {
    await q.sql('CREATE TABLE IF NOT EXISTS fsapi_schema (version INTEGER NOT NULL)').run();
    const from = Number((await q.sql('SELECT version FROM fsapi_schema').get())?.version ?? 0);
    if (from >= POSTGRES_SCHEMA_VERSION) return false;
    // A store with rights: its tables belong to the owner group, so an owner brings it up to date as
    // that group (what it makes belongs to the group too); any other login is refused by PostgreSQL.
    const before = await teamLogin(q);
    if (before.rightsSetUp) {
      if (before.right !== 'owner') {
        throw new StorePermissionDeniedError(
          store.file,
          before.login,
          { what: `bringing the store's schema from version ${from} to ${POSTGRES_SCHEMA_VERSION}`, right: 'owner' },
          'an older fsapi made it; any command of an owner with this version brings it up to date',
        );
      }
      await q.sql(`SET LOCAL ROLE ${sqlIdentifier(before.roles.owner)}`).run();
    }
    for (const step of POSTGRES_STEPS.filter((s) => s.version > from)) {
      await q.sql(step.sql).run();
      await step.run?.(q);
    }
    const after = await teamLogin(q);
    if (after.rightsSetUp) await grantTablePrivileges(q, after.roles);
    if (from === 0) {
      await q.sql('INSERT INTO fsapi_schema (version) VALUES (?)').run(POSTGRES_SCHEMA_VERSION);
      await q
        .sql(`INSERT INTO store_identity ("only", id, created_at, writes) VALUES (1, ?, ?, 0) ON CONFLICT DO NOTHING`)
        .run(newTeamStoreId(), new Date().toISOString());
    } else await q.sql('UPDATE fsapi_schema SET version = ?').run(POSTGRES_SCHEMA_VERSION);
    return true;
  });
}

/** 16 hex digits as the local store's ids, marked as a team store's: `st-…` there, `ts-…` here. */
function newTeamStoreId(): string {
  return `ts-${randomBytes(8)
    .toString('hex')
    .replace(/(.{4})(?=.)/g, '$1-')}`;
}

/** How a pool differs from a store's own (the run lease's: one connection, kept, with shorter bounds). */
export interface PoolOptions {
  size?: number;
  /** How long an idle connection is kept; 0: for as long as the process lives. */
  idleMs?: number;
  /** How long a connection may take to open, or a caller may wait for a free one. */
  waitMs?: number;
  /** How long any answer may take before the connection is given up. */
  answerMs?: number;
  /** An idle connection failed (reset, terminated by the server) and was dropped. */
  onIdleFailure?: (error: Error) => void;
}

/** The pool of one team store: bounded in size and in every wait; an idle connection's failure is heard and dropped. */
export async function teamPool(address: StoreAddress, options: PoolOptions = {}): Promise<PgPool> {
  const pg = await loadDriver();
  const pool = new pg.Pool({
    connectionString: address.url,
    Client: clientClass(pg, address.display) as unknown as new () => PgClient,
    max: options.size ?? POOL_SIZE,
    connectionTimeoutMillis: options.waitMs ?? POOL_WAIT_MS,
    idleTimeoutMillis: options.idleMs ?? 10_000,
    // A command that is done exits, its idle connections with it.
    allowExitOnIdle: true,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_S * 1000,
    query_timeout: options.answerMs ?? ANSWER_TIMEOUT_MS,
    application_name: 'fsapi',
  });
  // An idle connection that fails is removed by the pool, which then says so here: the next transaction
  // opens another. Without a listener the process would end.
  pool.on('error', (error: Error) => options.onIdleFailure?.(error));
  return pool;
}

const open = new Map<string, Promise<TeamStore>>();
const opened = new Set<TeamStore>();

/**
 * The team store at `address`, connected and migrated on first use in this process. `dataDir` is the data
 * dir of the run whose profile uses it: whoever watches stores (src/store/identity.ts) is told of it
 * before anything is read or written, and may refuse it.
 */
export function openTeamStore(dataDir: string | undefined, address: StoreAddress): Promise<TeamStore> {
  const key = address.display;
  let store = open.get(key);
  if (!store) {
    store = openTeam(dataDir, address);
    open.set(key, store);
    const opening = store;
    opening.catch(() => {
      if (open.get(key) === opening) open.delete(key);
    });
  }
  return store;
}

async function openTeam(dataDir: string | undefined, address: StoreAddress): Promise<TeamStore> {
  const pool = await teamPool(address);
  // Without a data dir (`store migrate`): no run's store, so no profile's expectation is checked or kept.
  const store = new TeamStore(dataDir === undefined ? '' : path.resolve(dataDir), address, pool);
  try {
    // Who this session is, first: it reads only the server's catalogue, so a login refused later is named.
    store.login = await store.read((q) => teamLogin(q));
    if (dataDir !== undefined) {
      storeOpening(store.dataDir);
      storeFound({ dataDir: store.dataDir, file: store.file, identity: await store.identity() });
    }
    if (await migrate(store)) store.login = await store.read((q) => teamLogin(q));
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  opened.add(store);
  return store;
}

/** Closes every team store this process opened (tests, `store migrate`). */
export async function closeTeamStores(): Promise<void> {
  const stores = [...open.values()];
  open.clear();
  for (const store of stores) await store.then((s) => s.close()).catch(() => undefined);
  opened.clear();
}

/** The team stores open now (for the end of a command: what each holds). */
export function openTeamStores(): TeamStore[] {
  return [...opened];
}

// ---- status ------------------------------------------------------------------------------------------

export interface TeamStoreReport {
  display: string;
  reachable: boolean;
  /** Why not, when unreachable (no password in it). */
  problem: string | undefined;
  /** The error behind `problem`, with its code (store_unreachable, store_login_failed, ...). */
  failure: FsapiError | undefined;
  serverVersion: string | undefined;
  schemaVersion: number;
  identity: StoreIdentity | undefined;
  counts: Record<string, number>;
  /** The login of the session, its right, and whether the store has rights set up. */
  login: TeamLogin | undefined;
}

const COUNTED = ['journal', 'transfers', 'events', 'payees', 'policies', 'approval_requests'];

/** What the team store holds, on a pool of its own; creates nothing. Unreachable is reported, not thrown. */
export async function inspectTeamStore(address: StoreAddress): Promise<TeamStoreReport> {
  const report: TeamStoreReport = {
    display: address.display,
    reachable: false,
    problem: undefined,
    failure: undefined,
    serverVersion: undefined,
    schemaVersion: 0,
    identity: undefined,
    counts: {},
    login: undefined,
  };
  const pool = await teamPool(address);
  const store = new TeamStore('', address, pool);
  try {
    report.serverVersion = await store.read(async (q) => String((await q.sql('SHOW server_version').get())?.server_version ?? ''));
    report.reachable = true;
    report.login = await store.read((q) => teamLogin(q));
    report.schemaVersion = await store.schemaVersion();
    report.identity = await store.identity();
    await store.read(async (q) => {
      for (const table of COUNTED)
        if (await tableExists(q, table)) report.counts[table] = Number((await q.sql(`SELECT count(*) AS n FROM ${table}`).get())?.n ?? 0);
    });
  } catch (error) {
    report.problem = error instanceof StoreUnreachableError ? error.detail : (error as Error).message;
    if (error instanceof FsapiError) report.failure = error;
  } finally {
    await store.close();
  }
  return report;
}
