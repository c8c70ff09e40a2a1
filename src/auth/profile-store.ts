// Profiles and their tokens, in <configDir>/profiles.json, written with conf (atomic writes, file mode
// 0600) in a directory kept at 0700: the file holds bearer tokens and, with --save-credentials, the
// consumer secret. It is read on every API command, so reading is one stat, one chmod at most and one
// small JSON read, checked by hand (checkStoredFile): this is fsapi's own file, not an API shape, and not
// loading zod before the request is sent lets zod start while the API answers (src/auth/api-client.ts). conf
// (with node:assert, node:crypto and its helpers) is imported only when something is written: loading it
// cost every command about 10 ms (bench/startup.mjs).
//
// Writes lock the file (`profiles.json.lock`, src/common/file-lock.ts), read it again and change only their own
// part, so two fsapi processes writing at once (logins, a renewal in a long batch, `profile use`) both
// keep what they wrote. Reads take no lock: conf replaces the file by rename, so a read sees the old file
// or the new one, never half of each.
//
// Beside the profiles, `stores` remembers the store each profile keeps its records in (src/auth/store-check.ts):
// read when a command opens the store, written at the end of a command that added records.
//
// A file that cannot be read is never reset: conf's clearInvalidConfig stays false and every read error
// becomes a CorruptFileError naming the file, which fsapi leaves as it found it.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import { CorruptFileError, type FsapiError } from '../errors.js';
import { withFileLock } from '../common/file-lock.js';
import { isPermissionError, permissionProblem } from '../common/permission.js';
import { isRecord } from '../common/is-record.js';
import type { Environment, ExpectedStore, Profile, ProfileStore } from './types.js';

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** A profile as stored. Fields fsapi does not know are kept as they are when the file is written again. */
interface StoredProfile {
  env: Environment;
  baseUrl?: string;
  token?: string;
  tokenExpiresAt?: number;
  validityMinutes?: number;
  consumerKey?: string;
  consumerSecret?: string;
  [other: string]: unknown;
}

interface StoredFile {
  default?: string;
  profiles?: Record<string, StoredProfile>;
  /**
   * Per profile name, the store its records are in. Beside the profiles, not in them: the built-in
   * `local` profile has records without being saved, and a profile removed and logged in again under
   * the same name still finds its records (the store keys them by name) and so must expect that store.
   */
  stores?: Record<string, ExpectedStore>;
  /** Per profile name, the team store (`postgres://…`, never with a password) set by `fsapi store use`. */
  teamStores?: Record<string, string>;
  [other: string]: unknown;
}

const ENVIRONMENTS: readonly string[] = ['local', 'sandbox', 'production'];
const TEXT_FIELDS = ['baseUrl', 'token', 'consumerKey', 'consumerSecret'] as const;
const NUMBER_FIELDS = ['tokenExpiresAt', 'validityMinutes'] as const;

/** Profile names people type: letters, digits, dot, dash, underscore; no leading punctuation. */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function openProfileStore(configDir: string): ProfileStore {
  ensurePrivateDir(configDir);
  const filePath = path.join(configDir, 'profiles.json');
  tightenFileMode(filePath);

  let conf: Conf<StoredFile> | undefined;
  const openConf = async (): Promise<Conf<StoredFile>> => {
    if (conf) return conf;
    const { default: ConfClass } = await import('conf');
    try {
      conf = new ConfClass<StoredFile>({
        cwd: configDir,
        configName: 'profiles',
        configFileMode: PRIVATE_FILE_MODE,
        clearInvalidConfig: false,
        // Profile names may contain dots; keys are never paths.
        accessPropertiesByDotNotation: false,
      });
    } catch (error) {
      throw corrupt(filePath, error, 'write');
    }
    return conf;
  };

  const read = (): StoredFile => {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(filePath, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw corrupt(filePath, error);
    }
    const problem = checkStoredFile(raw);
    if (problem !== undefined) throw new CorruptFileError(filePath, `not a profiles file (${problem})`);
    return raw as StoredFile;
  };
  /**
   * The only way anything is written: under the file's lock (src/common/file-lock.ts), the file read again and
   * `change` applied to what it holds now, so a concurrent writer's change is kept, not overwritten.
   */
  const modify = <T>(change: (data: StoredFile) => { next: StoredFile | undefined; result: T }): Promise<T> =>
    withFileLock(
      filePath,
      async (lock) => {
        const { next, result } = change(read());
        if (next !== undefined) {
          ensurePrivateDir(configDir);
          const conf = await openConf();
          lock.assertHeld();
          conf.store = next;
        }
        return result;
      },
      { what: `the profiles file ${filePath}` },
    );

  return {
    path: filePath,
    list: () => Object.entries(read().profiles ?? {}).map(([name, stored]) => toProfile(name, stored)),
    get: (name) => {
      const profiles = read().profiles ?? {};
      return Object.hasOwn(profiles, name) ? toProfile(name, profiles[name]!) : undefined;
    },
    defaultName: () => read().default,
    save: (profile, options = {}) =>
      modify((data) => {
        const becameDefault = options.becomeDefaultIfNone === true && data.default === undefined;
        const next: StoredFile = { ...data, profiles: { ...data.profiles, [profile.name]: fromProfile(profile) } };
        if (becameDefault) next.default = profile.name;
        return { next, result: { becameDefault } };
      }),
    update: (name, change) =>
      modify((data) => {
        const profiles = data.profiles ?? {};
        const current = Object.hasOwn(profiles, name) ? toProfile(name, profiles[name]!) : undefined;
        const changed = change(current);
        if (changed === undefined) return { next: undefined, result: undefined };
        return { next: { ...data, profiles: { ...profiles, [name]: fromProfile(changed) } }, result: undefined };
      }),
    setDefault: (name) => modify((data) => ({ next: { ...data, default: name }, result: undefined })),
    expectedStore: (name) => {
      const stores = read().stores ?? {};
      return Object.hasOwn(stores, name) ? { ...stores[name]! } : undefined;
    },
    rememberStore: (name, store, options = {}) =>
      modify((data) => {
        const stores = data.stores ?? {};
        const known = Object.hasOwn(stores, name) ? stores[name] : undefined;
        const same = known !== undefined && known.id === store.id && known.path === store.path;
        if (!options.exact && same && known.writes >= store.writes) return { next: undefined, result: undefined };
        const writes = !options.exact && same ? Math.max(known.writes, store.writes) : store.writes;
        return { next: { ...data, stores: { ...stores, [name]: { id: store.id, path: store.path, writes } } }, result: undefined };
      }),
    teamStore: (name) => {
      const teamStores = read().teamStores ?? {};
      return Object.hasOwn(teamStores, name) ? teamStores[name] : undefined;
    },
    useTeamStore: (name, url) =>
      modify((data) => {
        const { [name]: _old, ...rest } = data.teamStores ?? {};
        return { next: { ...data, teamStores: url === undefined ? rest : { ...rest, [name]: url } }, result: undefined };
      }),
    remove: (name) =>
      modify((data) => {
        if (!data.profiles || !Object.hasOwn(data.profiles, name)) return { next: undefined, result: false };
        const { [name]: _removed, ...rest } = data.profiles;
        const next: StoredFile = { ...data, profiles: rest };
        if (next.default === name) delete next.default;
        return { next, result: true };
      }),
  };
}

/** What is wrong with a parsed profiles file (`profiles.live.env: ...`), or undefined when nothing is. */
export function checkStoredFile(raw: unknown): string | undefined {
  if (!isRecord(raw)) return 'expected an object';
  if (raw.default !== undefined && typeof raw.default !== 'string') return 'default: expected text';
  if (raw.stores !== undefined) {
    if (!isRecord(raw.stores)) return 'stores: expected an object';
    for (const [name, store] of Object.entries(raw.stores)) {
      if (!isRecord(store) || typeof store.id !== 'string' || typeof store.path !== 'string') return `stores.${name}: expected an id and a path`;
      if (typeof store.writes !== 'number' || !Number.isSafeInteger(store.writes) || store.writes < 0) return `stores.${name}.writes: expected a count`;
    }
  }
  if (raw.teamStores !== undefined) {
    if (!isRecord(raw.teamStores)) return 'teamStores: expected an object';
    for (const [name, url] of Object.entries(raw.teamStores)) if (typeof url !== 'string') return `teamStores.${name}: expected text`;
  }
  if (raw.profiles === undefined) return undefined;
  if (!isRecord(raw.profiles)) return 'profiles: expected an object';
  for (const [name, stored] of Object.entries(raw.profiles)) {
    const where = `profiles.${name}`;
    if (!isRecord(stored)) return `${where}: expected an object`;
    if (typeof stored.env !== 'string' || !ENVIRONMENTS.includes(stored.env)) return `${where}.env: expected one of ${ENVIRONMENTS.join(', ')}`;
    for (const field of TEXT_FIELDS) {
      if (stored[field] !== undefined && typeof stored[field] !== 'string') return `${where}.${field}: expected text`;
    }
    for (const field of NUMBER_FIELDS) {
      if (stored[field] !== undefined && (typeof stored[field] !== 'number' || !Number.isFinite(stored[field]))) return `${where}.${field}: expected a number`;
    }
  }
  return undefined;
}

function toProfile(name: string, stored: StoredProfile): Profile {
  return {
    name,
    env: stored.env,
    baseUrl: stored.baseUrl,
    token: stored.token,
    tokenExpiresAt: stored.tokenExpiresAt,
    validityMinutes: stored.validityMinutes,
    consumerKey: stored.consumerKey,
    consumerSecret: stored.consumerSecret,
  };
}

/** Only defined fields are written, so a profile without a token has no `token` key at all. */
function fromProfile(profile: Profile): StoredProfile {
  const stored: StoredProfile = { env: profile.env };
  if (profile.baseUrl !== undefined) stored.baseUrl = profile.baseUrl;
  if (profile.token !== undefined) stored.token = profile.token;
  if (profile.tokenExpiresAt !== undefined) stored.tokenExpiresAt = profile.tokenExpiresAt;
  if (profile.validityMinutes !== undefined) stored.validityMinutes = profile.validityMinutes;
  if (profile.consumerKey !== undefined) stored.consumerKey = profile.consumerKey;
  if (profile.consumerSecret !== undefined) stored.consumerSecret = profile.consumerSecret;
  return stored;
}

/** Creates the config dir 0700, or narrows an existing one that is open to group or others. */
function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const mode = statSync(dir).mode & 0o777;
    if ((mode & 0o077) !== 0) chmodSync(dir, mode & PRIVATE_DIR_MODE);
  } catch (error) {
    const denied = isPermissionError(error)
      ? permissionProblem({ what: 'the config dir', target: dir, access: 'write', kept: PROFILES_KEPT, cause: error })
      : undefined;
    throw denied ?? new CorruptFileError(dir, `cannot use the config directory (${describe(error)})`);
  }
}

/** A profiles file left readable by others (by hand, or by another tool) is narrowed to 0600. */
function tightenFileMode(file: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return; // not written yet
  }
  if ((mode & 0o077) !== 0) chmodSync(file, mode & PRIVATE_FILE_MODE);
}

/** Said with a permission problem of the config dir: nothing there is to be recreated. */
const PROFILES_KEPT = 'the profiles are still there';

function corrupt(filePath: string, error: unknown, access: 'read' | 'write' = 'read'): CorruptFileError | FsapiError {
  if (isPermissionError(error)) {
    const denied = permissionProblem({ what: 'the profiles file', target: filePath, access, kept: PROFILES_KEPT, cause: error });
    if (denied) return denied;
  }
  if (error instanceof SyntaxError) return new CorruptFileError(filePath, `not valid JSON (${error.message})`);
  return new CorruptFileError(filePath, describe(error));
}

function describe(error: unknown): string {
  if (error instanceof Error) return 'code' in error && typeof error.code === 'string' ? `${error.code}: ${error.message}` : error.message;
  return String(error);
}
