// Where the simulator's state lives: in memory (`simulator serve` without --state) or in a JSON file
// (--state, and the in-process `local` profile). The file is shared by every fsapi process that uses it,
// so each change is a locked read-modify-write and every write is atomic (temp file, fsync, rename):
// a reader never sees half a file, and two writers never lose each other's changes.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { CorruptFileError, ExitCode, FsapiError } from '../errors.js';
import { BUSINESS } from './data.js';
import { SEED_CLIENT_COUNT } from './seed.js';
import type { StateDoc } from './types.js';

export interface StateStore {
  /** The current state, created on first use. The caller must not change it. */
  read(): Promise<StateDoc>;
  /** Runs `change` on the current state and saves it; nothing is saved when `change` throws. */
  update<T>(change: (doc: StateDoc) => T): Promise<T>;
  /** Forgets the state; the next use starts again from the seed. */
  reset(): Promise<void>;
  /** The state file, when there is one. */
  readonly file: string | undefined;
}

export interface SeedParameters {
  seed: number;
  seedTransactions: number;
  now: () => number;
}

export function createState(parameters: SeedParameters): StateDoc {
  const createdAt = parameters.now();
  return {
    format: 'fsapi-simulator-state',
    version: 1,
    id: randomUUID(),
    createdAt,
    seed: parameters.seed,
    seedTransactions: parameters.seedTransactions,
    signingKey: randomBytes(32).toString('hex'),
    revision: 0,
    balanceKobo: BUSINESS.openingBalanceKobo,
    updatedAt: createdAt,
    nextTransactionId: parameters.seedTransactions + 1,
    nextClientId: SEED_CLIENT_COUNT + 1,
    tokens: {},
    transactions: [],
    clients: [],
  };
}

/** Drops expired tokens so the file does not grow with every login. */
function pruneTokens(doc: StateDoc, now: number): void {
  for (const [id, expiresAt] of Object.entries(doc.tokens)) if (expiresAt <= now) delete doc.tokens[id];
}

export function createMemoryStore(parameters: SeedParameters): StateStore {
  let doc: StateDoc | undefined;
  const current = () => (doc ??= createState(parameters));
  return {
    file: undefined,
    read: async () => current(),
    update: async (change) => {
      const state = current();
      // Handlers check everything before they change anything, so a throw leaves the state as it was.
      const result = change(state);
      state.revision += 1;
      pruneTokens(state, parameters.now());
      return result;
    },
    reset: async () => {
      doc = undefined;
    },
  };
}

const LOCK_OPTIONS = {
  realpath: false,
  stale: 10_000,
  // Bounded: about 60 tries over roughly 5 seconds, then the request fails instead of hanging.
  retries: { retries: 60, factor: 1.2, minTimeout: 5, maxTimeout: 150, randomize: true },
} as const;

export function createFileStore(file: string, parameters: SeedParameters, log: (line: string) => void): StateStore {
  const lockOptions = {
    ...LOCK_OPTIONS,
    lockfilePath: `${file}.lock`,
    onCompromised: (error: Error) => log(`simulator: lock on ${file} was lost: ${error.message}`),
  };
  // Parsed state, reused while the file is unchanged (same inode, size and mtime: every write renames a
  // new file into place, so any change gives a new inode).
  let cached: { key: string; doc: StateDoc } | undefined;

  async function load(useCache: boolean): Promise<StateDoc | undefined> {
    let key: string;
    try {
      const info = await stat(file, { bigint: true });
      key = `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (useCache && cached?.key === key) return cached.doc;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const doc = parseState(file, text);
    cached = { key, doc };
    return doc;
  }

  async function withLock<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(file, lockOptions);
    } catch (error) {
      throw new FsapiError(`simulator state ${file} stayed locked by another process`, {
        exitCode: ExitCode.failed,
        hint: 'try again; if no other fsapi is running, remove the .lock directory next to it',
        cause: error,
      });
    }
    try {
      return await work();
    } finally {
      await release().catch(() => undefined);
    }
  }

  return {
    file,
    read: async () => (await load(true)) ?? (await withLock(async () => (await load(false)) ?? (await save(createState(parameters))))),
    update: (change) =>
      withLock(async () => {
        // Always from the file under the lock (never the cache): this is what keeps concurrent writers whole.
        const loaded = await load(false);
        // A copy: the cached object must stay as the file says if `change` throws half-way.
        const doc = loaded ? structuredClone(loaded) : createState(parameters);
        const result = change(doc);
        doc.revision += 1;
        pruneTokens(doc, parameters.now());
        await save(doc);
        return result;
      }),
    reset: () =>
      withLock(async () => {
        cached = undefined;
        await rm(file, { force: true });
      }),
  };

  async function save(doc: StateDoc): Promise<StateDoc> {
    await writeAtomically(file, JSON.stringify(doc));
    cached = undefined;
    return doc;
  }
}

/** Writes to a temporary file in the same directory, flushes it to disk, then renames it into place. */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Parses and checks a state file; anything unexpected is a CorruptFileError naming the file. */
export function parseState(file: string, text: string): StateDoc {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CorruptFileError(file, `not valid JSON (${(error as Error).message})`);
  }
  const problem = stateProblem(value);
  if (problem) throw new CorruptFileError(file, `not a simulator state file (${problem})`);
  return value as StateDoc;
}

function stateProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const doc = value as Record<string, unknown>;
  if (doc.format !== 'fsapi-simulator-state') return 'format is missing';
  if (doc.version !== 1) return `unknown version ${JSON.stringify(doc.version)}`;
  for (const field of ['createdAt', 'seed', 'seedTransactions', 'revision', 'balanceKobo', 'updatedAt', 'nextTransactionId', 'nextClientId'] as const) {
    if (!Number.isSafeInteger(doc[field])) return `${field} is not an integer`;
  }
  for (const field of ['id', 'signingKey'] as const) if (typeof doc[field] !== 'string') return `${field} is not a string`;
  if (typeof doc.tokens !== 'object' || doc.tokens === null || Array.isArray(doc.tokens)) return 'tokens is not an object';
  if (!Array.isArray(doc.transactions)) return 'transactions is not a list';
  if (!Array.isArray(doc.clients)) return 'clients is not a list';
  for (const tx of doc.transactions as unknown[]) {
    const t = tx as Record<string, unknown> | null;
    if (!t || typeof t.reference !== 'string' || !Number.isSafeInteger(t.amountKobo) || typeof t.counterparty !== 'object') {
      return 'a transaction is malformed';
    }
  }
  for (const client of doc.clients as unknown[]) {
    const c = client as Record<string, unknown> | null;
    if (!c || typeof c.accountNumber !== 'string' || !Number.isSafeInteger(c.id)) return 'a client is malformed';
  }
  return undefined;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
