// Profiles and their tokens, in <configDir>/profiles.json, written with conf (atomic writes, file mode
// 0600) in a directory kept at 0700: the file holds bearer tokens and, with --save-credentials, the
// consumer secret. It is read on every API command, so reading is one stat, one chmod at most and one
// small JSON read checked with zod. conf (with node:assert, node:crypto and its helpers) is imported only
// when something is written: loading it cost every command about 10 ms (bench/startup.mjs).
//
// Writes lock the file (`profiles.json.lock`, src/core/lock.ts), read it again and change only their own
// part, so two fsapi processes writing at once (logins, a renewal in a long batch, `profile use`) both
// keep what they wrote. Reads take no lock: conf replaces the file by rename, so a read sees the old file
// or the new one, never half of each.
//
// A file that cannot be read is never reset: conf's clearInvalidConfig stays false and every read error
// becomes a CorruptFileError naming the file, which fsapi leaves as it found it.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import * as z from 'zod/mini';
import { CorruptFileError } from '../errors.js';
import { withFileLock } from '../core/lock.js';
import type { Environment, Profile, ProfileStore } from './types.js';

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

const storedProfile = z.looseObject({
  env: z.enum(['local', 'sandbox', 'production']),
  baseUrl: z.optional(z.string()),
  token: z.optional(z.string()),
  tokenExpiresAt: z.optional(z.number()),
  validityMinutes: z.optional(z.number()),
  consumerKey: z.optional(z.string()),
  consumerSecret: z.optional(z.string()),
});
type StoredProfile = z.infer<typeof storedProfile>;

const storedFile = z.looseObject({
  default: z.optional(z.string()),
  profiles: z.optional(z.record(z.string(), storedProfile)),
});
type StoredFile = z.infer<typeof storedFile>;

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
      throw corrupt(filePath, error);
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
    const parsed = storedFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      throw new CorruptFileError(filePath, `not a profiles file (${where}${issue?.message ?? 'invalid'})`);
    }
    return parsed.data;
  };
  /**
   * The only way anything is written: under the file's lock (src/core/lock.ts), the file read again and
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

function toProfile(name: string, stored: StoredProfile): Profile {
  return {
    name,
    env: stored.env as Environment,
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
    throw new CorruptFileError(dir, `cannot use the config directory (${describe(error)})`);
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

function corrupt(filePath: string, error: unknown): CorruptFileError {
  if (error instanceof SyntaxError) return new CorruptFileError(filePath, `not valid JSON (${error.message})`);
  return new CorruptFileError(filePath, describe(error));
}

function describe(error: unknown): string {
  if (error instanceof Error) return 'code' in error && typeof error.code === 'string' ? `${error.code}: ${error.message}` : error.message;
  return String(error);
}
