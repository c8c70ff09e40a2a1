// Where the simulator's state lives: a SQLite database (node:sqlite, opened by src/store/sqlite.ts), in a
// file (`simulator serve --state FILE`, and the in-process `local` profile) or in memory (`simulator
// serve` without --state). One row per transaction, client and token; one row for the state's fixed facts
// and the balance. Every change is one database transaction (BEGIN IMMEDIATE ... COMMIT), every read one
// snapshot, so a balance and the rows behind it always agree.
//
// The file is shared by every fsapi process that uses it. WAL mode lets readers go on while one writer
// writes; busy_timeout makes a second writer wait (bounded) instead of failing. SQLite's locks belong to
// the open file, so a killed process leaves nothing behind that blocks a restart, and a commit that
// returned survives the process being killed (synchronous=NORMAL in WAL: only a power cut can take back
// the last commits; this is a sandbox, and an fsync per commit would cost most of its speed).
import { addKobo, integerKobo, NO_KOBO, type Kobo } from '../money/kobo.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFile, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { acquireFileLock } from '../common/file-lock.js';
import { referencePrefix } from '../api/reference.js';
import { CorruptFileError, ExitCode, FsapiError } from '../errors.js';
import { isPermissionError, permissionProblem } from '../common/permission.js';
import { BUSINESS } from './data.js';
import { looksLikeJson, parseLegacyState, type LegacyStateDoc } from './legacy-state.js';
import { SEED_CLIENT_COUNT } from './seed.js';
import {
  inTransaction,
  openDatabase,
  PreparedStatements,
  sqliteCode,
  type SqlDatabase,
  type SqlRow,
  type SqlStatement,
  type SqlValue,
} from '../store/sqlite.js';
import type { Business, ClientFilter, SimulatorState, StoredClient, StoredTransaction } from './types.js';

export interface StateStore {
  /** Runs `look` on one consistent snapshot of the state (created on first use). */
  read<T>(look: (state: SimulatorState) => T): Promise<T>;
  /** Runs `change` in one database transaction; nothing is kept when it throws. */
  update<T>(change: (state: SimulatorState) => T): Promise<T>;
  /** Forgets every transaction, client and token; the next use starts again from the seed. Keeps the business. */
  reset(): Promise<void>;
  /** Closes the database; later calls open it again. */
  close(): void;
  /** The database file, when there is one. */
  readonly file: string | undefined;
}

export interface SeedParameters {
  seed: number;
  seedTransactions: number;
  now: () => number;
  /** The business of a new state; given for an existing state, it replaces the stored one. */
  businessName?: string;
}

const FORMAT = 'fsapi-simulator-state';
const VERSION = 2;
/** How long a writer waits for another process's transaction before giving up (milliseconds). */
const BUSY_TIMEOUT_MS = 5_000;
const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Transfers by the last four digits of the account they went to: the simulator's test accounts whose
 * transfers fail or are reversed are told by those digits (src/simulator/data.ts), and the balance adds
 * back what they returned on every transfer and account answer; without it that is a scan of every row.
 */
const RETURNED_TRANSFERS_INDEX =
  "CREATE INDEX IF NOT EXISTS transfers_by_account_suffix ON transactions (substr(counterparty_account_number, -4), settles_at) WHERE kind = 'transfer'";

const SCHEMA = `
CREATE TABLE state (
  only INTEGER PRIMARY KEY CHECK (only = 1),
  format TEXT NOT NULL,
  version INTEGER NOT NULL,
  id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  seed_transactions INTEGER NOT NULL,
  signing_key TEXT NOT NULL,
  business_name TEXT NOT NULL,
  balance_kobo INTEGER NOT NULL CHECK (balance_kobo >= 0),
  updated_at INTEGER NOT NULL
);
CREATE TABLE transactions (
  id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount_kobo INTEGER NOT NULL,
  charge_kobo INTEGER NOT NULL,
  stamp_duty_kobo INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  settles_at INTEGER,
  counterparty_account_number TEXT NOT NULL,
  counterparty_account_name TEXT NOT NULL,
  counterparty_bank_code TEXT NOT NULL,
  counterparty_bank_name TEXT NOT NULL,
  client_account_number TEXT,
  narration TEXT NOT NULL,
  sender_name TEXT,
  other TEXT -- any further fields of a transaction, as JSON (none today)
);
CREATE INDEX transactions_by_time ON transactions (created_at, id);
CREATE INDEX transactions_by_session ON transactions (session_id);
CREATE INDEX transfers_by_settlement ON transactions (settles_at) WHERE kind = 'transfer';
${RETURNED_TRANSFERS_INDEX};
CREATE TABLE clients (
  id INTEGER PRIMARY KEY,
  account_number TEXT NOT NULL UNIQUE,
  account_type TEXT NOT NULL,
  validity_type TEXT NOT NULL,
  status TEXT NOT NULL,
  body TEXT NOT NULL -- the whole client as JSON
);
CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
CREATE INDEX tokens_by_expiry ON tokens (expires_at);
`;

/** The business of a name: the reference prefix is its first word, as the client derives it. */
export function businessNamed(name: string): Business {
  return { name, referencePrefix: referencePrefix(name) };
}

export function createMemoryStore(parameters: SeedParameters): StateStore {
  return createStore(undefined, parameters, undefined, () => undefined);
}

/**
 * A store in `file`. When the file holds an older fsapi's JSON state, it is imported once in place (the
 * JSON kept as `<file>.imported`); when `legacyFile` is given and `file` does not exist yet, that JSON
 * state is imported into `file` and renamed `<legacyFile>.imported`.
 */
export function createFileStore(file: string, parameters: SeedParameters, log: (line: string) => void, legacyFile?: string): StateStore {
  return createStore(file, parameters, legacyFile, log);
}

function createStore(file: string | undefined, parameters: SeedParameters, legacyFile: string | undefined, log: (line: string) => void): StateStore {
  let opening: Promise<Connection> | undefined;
  const connection = () => {
    opening ??= openConnection(file, parameters, legacyFile, log).catch((error: unknown) => {
      opening = undefined; // a later request tries again (the file may have been fixed meanwhile)
      throw error;
    });
    return opening;
  };
  return {
    file,
    read: async (look) => (await connection()).transaction('read', look),
    update: async (change) => (await connection()).transaction('write', change),
    reset: async () => {
      const db = await connection();
      db.atomically('write', () => db.clear(parameters));
    },
    close: () => {
      const current = opening;
      opening = undefined;
      void current?.then(
        (db) => db.close(),
        () => undefined,
      );
    },
  };
}

// ---- opening ------------------------------------------------------------------------------------------

async function openConnection(
  file: string | undefined,
  parameters: SeedParameters,
  legacyFile: string | undefined,
  log: (line: string) => void,
): Promise<Connection> {
  if (file === undefined) {
    const db = new Connection(openDatabase(':memory:'), undefined);
    db.initialise(parameters);
    return db;
  }
  try {
    return await openFile(file, parameters, legacyFile, log);
  } catch (error) {
    // A state this user may not read or write: said as such, never an "Internal Server Error" (the local profile).
    if (isPermissionError(error)) throw permissionProblem({ what: 'the simulator state', target: file, access: 'write', cause: error }) ?? error;
    throw error;
  }
}

async function openFile(file: string, parameters: SeedParameters, legacyFile: string | undefined, log: (line: string) => void): Promise<Connection> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const kind = await fileKind(file);
  if (kind === 'json') await importLegacy(file, file, parameters, log);
  else if (kind === 'missing' && legacyFile !== undefined && (await fileKind(legacyFile)) === 'json') await importLegacy(legacyFile, file, parameters, log);
  else if (kind === 'missing') await createPrivate(file);
  else if (kind === 'other') throw new CorruptFileError(file, 'neither a SQLite database nor a simulator state file');
  const db = Connection.open(file);
  try {
    db.initialise(parameters);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Makes the missing state file 0600 (SQLite would make it 0644), exclusively: a link planted at its name
 * is not followed. Another simulator starting at the same moment may have made it first: that one is used.
 */
async function createPrivate(file: string): Promise<void> {
  try {
    await (await open(file, 'wx', 0o600)).close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

async function fileKind(file: string): Promise<'missing' | 'empty' | 'sqlite' | 'json' | 'other'> {
  let head: Buffer;
  try {
    const handle = await open(file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  if (head.length === 0) return 'empty';
  if (head.subarray(0, 16).toString('latin1') === SQLITE_HEADER) return 'sqlite';
  return looksLikeJson(head) ? 'json' : 'other';
}

/**
 * Imports the JSON state in `source` into a new database at `target`, under a lock so that two processes
 * starting at once import it once. The database is built aside and renamed into place: a crash half-way
 * leaves the JSON as it was, and the next start imports it again.
 */
async function importLegacy(source: string, target: string, parameters: SeedParameters, log: (line: string) => void): Promise<void> {
  // The one lock mechanism of fsapi (src/common/file-lock.ts), on `<target>.import.lock`.
  const lock = await acquireFileLock(`${target}.import`, { waitMs: 30_000, what: `the import of the simulator state ${target}` });
  const release = () => lock.release();
  try {
    // Another process may have finished the import while this one waited.
    const inPlace = source === target;
    if (inPlace ? (await fileKind(target)) !== 'json' : (await fileKind(target)) !== 'missing') return;
    const doc = parseLegacyState(source, await readFile(source, 'utf8'));
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.importing`;
    try {
      await (await open(temp, 'wx', 0o600)).close();
      const db = Connection.open(temp, 'DELETE');
      try {
        db.atomically('write', () => db.importLegacy(doc, parameters));
      } finally {
        db.close();
      }
      if (inPlace) await copyFile(source, `${source}.imported`);
      await rename(temp, target);
      if (!inPlace) await rename(source, `${source}.imported`);
    } finally {
      await rm(temp, { force: true });
    }
    log(`simulator: imported the JSON state ${source} into ${target}; the JSON file is kept as ${source}.imported`);
  } finally {
    await release().catch(() => undefined);
  }
}

// ---- the connection -----------------------------------------------------------------------------------

interface StateRow {
  id: string;
  created_at: number;
  seed: number;
  seed_transactions: number;
  signing_key: string;
  business_name: string;
  balance_kobo: number;
  updated_at: number;
  format: string;
  version: number;
}

class Connection {
  private readonly statements: PreparedStatements;

  static open(file: string, journalMode: 'WAL' | 'DELETE' = 'WAL'): Connection {
    let db: SqlDatabase;
    try {
      db = openDatabase(file);
    } catch (error) {
      throw storeError(file, error);
    }
    const connection = new Connection(db, file);
    try {
      // busy_timeout first: switching to WAL needs a lock another process may hold.
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.exec(`PRAGMA journal_mode = ${journalMode}`);
      db.exec('PRAGMA synchronous = NORMAL');
    } catch (error) {
      connection.close();
      throw storeError(file, error);
    }
    return connection;
  }

  constructor(
    private readonly db: SqlDatabase,
    readonly file: string | undefined,
  ) {
    this.statements = new PreparedStatements(db);
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }

  /** A prepared statement, prepared once per connection. */
  sql(text: string): SqlStatement {
    return this.statements.get(text);
  }

  /** Runs `work` in one transaction: a snapshot for reads, the write lock for changes. */
  transaction<T>(mode: 'read' | 'write', work: (state: SimulatorState) => T): T {
    return this.atomically(mode, () => work(this.state()));
  }

  /** Runs `work` between BEGIN and COMMIT; rolls back and maps SQLite's errors when it throws. */
  atomically<T>(mode: 'read' | 'write', work: () => T): T {
    return inTransaction(this.db, mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN', work, (error) => storeError(this.file, error));
  }

  /** Creates the tables and the state on first use; checks that an existing database is a simulator state. */
  initialise(parameters: SeedParameters): void {
    this.atomically('write', () => {
      const tables = this.sql("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((row) => row.name);
      if (!tables.includes('state')) {
        if (tables.length > 0) throw new CorruptFileError(this.file ?? ':memory:', 'a SQLite database, but not a simulator state (no table "state")');
        this.db.exec(SCHEMA);
        this.insertState(freshFacts(parameters));
      } else {
        // A state made before the index existed gets it now (IF NOT EXISTS: a no-op afterwards).
        this.db.exec(RETURNED_TRANSFERS_INDEX);
        const row = this.sql('SELECT format, version FROM state WHERE only = 1').get();
        if (!row || row.format !== FORMAT) throw new CorruptFileError(this.file ?? ':memory:', 'a SQLite database, but not a simulator state');
        if (row.version !== VERSION)
          throw new CorruptFileError(this.file ?? ':memory:', `simulator state version ${String(row.version)}, this fsapi reads version ${VERSION}`);
        if (parameters.businessName !== undefined) this.sql('UPDATE state SET business_name = ? WHERE only = 1').run(parameters.businessName);
      }
    });
  }

  /** Back to a fresh state from the seed (same business unless `parameters` names one). */
  clear(parameters: SeedParameters): void {
    const business = (this.sql('SELECT business_name FROM state WHERE only = 1').get()?.business_name as string | undefined) ?? BUSINESS.name;
    for (const table of ['transactions', 'clients', 'tokens', 'state']) this.db.exec(`DELETE FROM ${table}`);
    this.insertState(freshFacts({ ...parameters, businessName: parameters.businessName ?? business }));
  }

  importLegacy(doc: LegacyStateDoc, parameters: SeedParameters): void {
    this.db.exec(SCHEMA);
    this.insertState({
      id: doc.id,
      createdAt: doc.createdAt,
      seed: doc.seed,
      seedTransactions: doc.seedTransactions,
      signingKey: doc.signingKey,
      businessName: parameters.businessName ?? BUSINESS.name,
      balanceKobo: doc.balanceKobo,
      updatedAt: doc.updatedAt,
    });
    const state = this.state();
    for (const tx of doc.transactions) state.addTransaction(tx);
    for (const client of doc.clients) state.addClient(client);
    const now = parameters.now();
    for (const [tokenId, expiresAt] of Object.entries(doc.tokens)) if (expiresAt > now) state.addToken(tokenId, expiresAt, now);
  }

  private insertState(facts: Facts): void {
    this.sql(
      'INSERT INTO state (only, format, version, id, created_at, seed, seed_transactions, signing_key, business_name, balance_kobo, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      FORMAT,
      VERSION,
      facts.id,
      facts.createdAt,
      facts.seed,
      facts.seedTransactions,
      facts.signingKey,
      facts.businessName,
      facts.balanceKobo,
      facts.updatedAt,
    );
  }

  /** The state as world.ts sees it, for the transaction under way. */
  private state(): SimulatorState {
    const row = this.sql('SELECT * FROM state WHERE only = 1').get() as unknown as StateRow | undefined;
    if (!row) throw new CorruptFileError(this.file ?? ':memory:', 'the simulator state row is missing');
    return new SqlState(this, row);
  }
}

interface Facts {
  id: string;
  createdAt: number;
  seed: number;
  seedTransactions: number;
  signingKey: string;
  businessName: string;
  balanceKobo: Kobo;
  updatedAt: number;
}

function freshFacts(parameters: SeedParameters): Facts {
  const createdAt = parameters.now();
  return {
    id: randomUUID(),
    createdAt,
    seed: parameters.seed,
    seedTransactions: parameters.seedTransactions,
    signingKey: randomBytes(32).toString('hex'),
    businessName: parameters.businessName ?? BUSINESS.name,
    balanceKobo: BUSINESS.openingBalanceKobo,
    updatedAt: createdAt,
  };
}

// ---- the state inside one transaction -----------------------------------------------------------------

class SqlState implements SimulatorState {
  readonly id: string;
  readonly createdAt: number;
  readonly seed: number;
  readonly seedTransactions: number;
  readonly signingKey: string;
  readonly business: Business;
  balanceKobo: Kobo;
  updatedAt: number;

  constructor(
    private readonly db: Connection,
    row: StateRow,
  ) {
    this.id = row.id;
    this.createdAt = row.created_at;
    this.seed = row.seed;
    this.seedTransactions = row.seed_transactions;
    this.signingKey = row.signing_key;
    this.business = cachedBusiness(row.business_name);
    this.balanceKobo = integerKobo(row.balance_kobo);
    this.updatedAt = row.updated_at;
  }

  changeBalance(deltaKobo: Kobo, now: number): void {
    if (!Number.isSafeInteger(deltaKobo)) throw new Error(`balance change of ${deltaKobo} kobo is not a whole number`);
    // The CHECK on balance_kobo refuses a negative balance even if a caller forgot to look first.
    this.db.sql('UPDATE state SET balance_kobo = balance_kobo + ?, updated_at = ? WHERE only = 1').run(deltaKobo, now);
    this.balanceKobo = addKobo(this.balanceKobo, deltaKobo);
    this.updatedAt = now;
  }

  nextTransactionId(): number {
    const row = this.db.sql('SELECT MAX(id) AS last FROM transactions').get();
    return Math.max(Number(row?.last ?? 0), this.seedTransactions) + 1;
  }

  addTransaction(tx: StoredTransaction): void {
    const {
      id,
      kind,
      reference,
      sessionId,
      amountKobo,
      chargeKobo,
      stampDutyKobo,
      createdAt,
      settlesAt,
      counterparty,
      clientAccountNumber,
      narration,
      senderName,
      ...other
    } = tx;
    this.db
      .sql(
        `INSERT INTO transactions (id, reference, session_id, kind, amount_kobo, charge_kobo, stamp_duty_kobo, created_at, settles_at,
           counterparty_account_number, counterparty_account_name, counterparty_bank_code, counterparty_bank_name,
           client_account_number, narration, sender_name, other) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        reference,
        sessionId,
        kind,
        amountKobo,
        chargeKobo,
        stampDutyKobo,
        createdAt,
        settlesAt,
        counterparty.accountNumber,
        counterparty.accountName,
        counterparty.bankCode,
        counterparty.bankName,
        clientAccountNumber ?? null,
        narration,
        senderName ?? null,
        Object.keys(other).length > 0 ? JSON.stringify(other) : null,
      );
  }

  transactionByReference(reference: string): StoredTransaction | undefined {
    return transactionOf(this.db.sql('SELECT * FROM transactions WHERE reference = ?').get(reference));
  }

  transactionBySessionId(sessionId: string): StoredTransaction | undefined {
    return transactionOf(this.db.sql('SELECT * FROM transactions WHERE session_id = ? ORDER BY id LIMIT 1').get(sessionId));
  }

  transactionCount(): number {
    return Number(this.db.sql('SELECT COUNT(*) AS count FROM transactions').get()?.count ?? 0);
  }

  newestTransactions(offset: number, limit: number): StoredTransaction[] {
    // The offset is skipped in the index alone (it holds the id), so a deep page reads only its own rows.
    return this.db
      .sql(
        'SELECT * FROM transactions WHERE id IN (SELECT id FROM transactions ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) ORDER BY created_at DESC, id DESC',
      )
      .all(limit, offset)
      .map((row) => transactionOf(row)!);
  }

  oldestTransaction(): StoredTransaction | undefined {
    return transactionOf(this.db.sql('SELECT * FROM transactions ORDER BY created_at, id LIMIT 1').get());
  }

  pendingTransfersKobo(now: number): Kobo {
    const row = this.db
      .sql("SELECT COALESCE(SUM(amount_kobo + charge_kobo), 0) AS held FROM transactions WHERE kind = 'transfer' AND (settles_at IS NULL OR settles_at > ?)")
      .get(now);
    return integerKobo(row?.held ?? 0);
  }

  settledTransfersKoboTo(now: number, suffixes: readonly string[]): Kobo {
    if (suffixes.length === 0) return NO_KOBO;
    // The same expression as RETURNED_TRANSFERS_INDEX, so SQLite reads the index, not every row.
    if (suffixes.some((suffix) => suffix.length !== 4)) throw new Error('account suffixes are four digits');
    const row = this.db
      .sql(
        `SELECT COALESCE(SUM(amount_kobo + charge_kobo), 0) AS settled FROM transactions WHERE kind = 'transfer' ` +
          `AND substr(counterparty_account_number, -4) IN (${suffixes.map(() => '?').join(', ')}) AND settles_at <= ?`,
      )
      .get(...suffixes, now);
    return integerKobo(row?.settled ?? 0);
  }

  nextClientId(): number {
    const row = this.db.sql('SELECT MAX(id) AS last FROM clients').get();
    return Math.max(Number(row?.last ?? 0), SEED_CLIENT_COUNT) + 1;
  }

  addClient(client: StoredClient): void {
    this.db
      .sql('INSERT INTO clients (id, account_number, account_type, validity_type, status, body) VALUES (?, ?, ?, ?, ?, ?)')
      .run(client.id, client.accountNumber, client.accountType, client.validityType, client.status, JSON.stringify(client));
  }

  clientByAccountNumber(accountNumber: string): StoredClient | undefined {
    const row = this.db.sql('SELECT body FROM clients WHERE account_number = ?').get(accountNumber);
    return row ? (JSON.parse(row.body as string) as StoredClient) : undefined;
  }

  newestClients(filter: ClientFilter, offset: number, limit: number): StoredClient[] {
    const [where, params] = clientFilterSql(filter);
    return this.db
      .sql(`SELECT body FROM clients ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...params, limit, offset)
      .map((row) => JSON.parse(row.body as string) as StoredClient);
  }

  clientCount(filter: ClientFilter): number {
    const [where, params] = clientFilterSql(filter);
    return Number(this.db.sql(`SELECT COUNT(*) AS count FROM clients ${where}`).get(...params)?.count ?? 0);
  }

  addToken(tokenId: string, expiresAt: number, now: number): void {
    this.db.sql('DELETE FROM tokens WHERE expires_at <= ?').run(now);
    this.db.sql('INSERT INTO tokens (id, expires_at) VALUES (?, ?)').run(tokenId, expiresAt);
  }

  tokenExpiry(tokenId: string): number | undefined {
    const row = this.db.sql('SELECT expires_at FROM tokens WHERE id = ?').get(tokenId);
    return row ? Number(row.expires_at) : undefined;
  }
}

let lastBusiness: Business | undefined;
function cachedBusiness(name: string): Business {
  if (lastBusiness?.name !== name) lastBusiness = businessNamed(name);
  return lastBusiness;
}

function clientFilterSql(filter: ClientFilter): [string, SqlValue[]] {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  for (const [column, wanted] of [
    ['account_type', filter.accountType],
    ['validity_type', filter.validityType],
    ['status', filter.status],
  ] as const) {
    if (wanted === undefined) continue;
    clauses.push(`lower(${column}) = lower(?)`);
    params.push(wanted);
  }
  return [clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params];
}

function transactionOf(row: SqlRow | undefined): StoredTransaction | undefined {
  if (!row) return undefined;
  const tx: StoredTransaction = {
    id: row.id as number,
    kind: row.kind as StoredTransaction['kind'],
    reference: row.reference as string,
    sessionId: row.session_id as string,
    amountKobo: integerKobo(row.amount_kobo),
    chargeKobo: integerKobo(row.charge_kobo),
    stampDutyKobo: integerKobo(row.stamp_duty_kobo),
    createdAt: row.created_at as number,
    settlesAt: row.settles_at as number | null,
    counterparty: {
      accountNumber: row.counterparty_account_number as string,
      accountName: row.counterparty_account_name as string,
      bankCode: row.counterparty_bank_code as string,
      bankName: row.counterparty_bank_name as string,
    },
    narration: row.narration as string,
  };
  if (row.client_account_number !== null) tx.clientAccountNumber = row.client_account_number as string;
  if (row.sender_name !== null) tx.senderName = row.sender_name as string;
  return row.other === null ? tx : { ...(JSON.parse(row.other as string) as object), ...tx };
}

// ---- errors -------------------------------------------------------------------------------------------

/** SQLite's complaints as fsapi's errors: a damaged file is named, a busy one is "locked"; the rest as they are. */
function storeError(file: string | undefined, error: unknown): unknown {
  if (error instanceof FsapiError) return error;
  const code = sqliteCode(error);
  // SQLITE_CANTOPEN, SQLITE_READONLY: the file (or its -wal, -shm, directory) is not this user's to write.
  if ((code === 14 || code === 8) && file !== undefined) {
    const denied = permissionProblem({ what: 'the simulator state', target: file, access: 'write', cause: error });
    if (denied) return denied;
  }
  if (code === 11 || code === 26) return new CorruptFileError(file ?? ':memory:', `not a usable simulator database (${(error as Error).message})`);
  if (code === 5 || code === 6) {
    return new FsapiError(`simulator state ${file ?? ''} stayed locked by another process for ${BUSY_TIMEOUT_MS / 1000} s`, {
      exitCode: ExitCode.failed,
      hint: 'try again; another fsapi is writing to it',
      cause: error,
    });
  }
  return error;
}

/** Removes a database file with its WAL and shared-memory files. */
export async function removeDatabase(file: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
}
