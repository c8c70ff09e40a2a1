// A profile knows its store: the store that holds its journal, payees, policy and held requests (the
// duplicate guard and the policy live there). When a command opens a store, it must be that one, with at
// least the records the profile saw in it; anything else (no store, an emptied one, another data dir, an
// older copy, one that lost its -wal) is refused before anything is read or sent. A profile that has
// written nothing yet expects nothing, so a new user starts with a new store.
//
// Cheap by design: the store's id and counter are one row read when the store is opened anyway; the
// expectation is one read of profiles.json. Remembering the counter is one write of profiles.json at the
// end of a command that added records. Moving or restoring a store on purpose: `fsapi store adopt`.
import path from 'node:path';
import type { AuthContext } from './types.js';
import type { ExpectedStore, ProfileStore } from './types.js';
import { openProfileStore } from './profile-store.js';
import { findProfile } from './resolve.js';
import { ExitCode, FsapiError } from '../errors.js';
import type { FoundStore } from '../store/identity.js';
import type { TeamChoice } from '../store/team-choice.js';
import { shownStore } from '../store/store-url.js';

/** The store is not the profile's: exit 1, nothing read, sent or changed. */
export class WrongStoreError extends FsapiError {
  constructor(message: string, hint: string) {
    super(`${message}; nothing was sent or changed`, { exitCode: ExitCode.failed, hint, code: 'store_mismatch' });
  }
}

const ADOPT_HINT = 'if you moved or restored it on purpose, run fsapi store adopt at a terminal (docs/store.md)';

/** Why `found` is not the store `profile` expects, or undefined when it is (or nothing is expected). */
export function storeRefusal(profile: string, expected: ExpectedStore | undefined, found: FoundStore): WrongStoreError | undefined {
  if (expected === undefined) return undefined;
  const theirs = `store ${expected.id}, ${records(expected.writes)}`;
  if (found.file !== expected.path) {
    // A team store on either side (an address, not a file): FSAPI_STORE or `store use` is the way.
    const team = /^postgres(ql)?:\/\//i.test(found.file) || /^postgres(ql)?:\/\//i.test(expected.path);
    return new WrongStoreError(
      `profile "${profile}" keeps its records in ${shownStore(expected.path)} (${theirs}), not in ${found.file}`,
      team
        ? 'is FSAPI_STORE (or FSAPI_DATA_DIR) set for another store? Unset it; to move the profile on purpose: fsapi store use, at a terminal (docs/team.md)'
        : `is FSAPI_DATA_DIR set to another directory? Unset it; ${ADOPT_HINT}`,
    );
  }
  if (found.identity === undefined) {
    return new WrongStoreError(
      `the store of profile "${profile}" is missing or emptied: ${found.file} holds no fsapi records, and it held ${theirs}; without them the duplicate guard and the payment policy are gone`,
      `restore it from a backup (fsapi store backup made one); ${ADOPT_HINT}`,
    );
  }
  if (found.identity.id !== expected.id) {
    return new WrongStoreError(
      `${found.file} is another store (${found.identity.id}) than the one profile "${profile}" keeps its records in (${theirs})`,
      `put the profile's store back; ${ADOPT_HINT}`,
    );
  }
  if (found.identity.writes < expected.writes) {
    return new WrongStoreError(
      `the store of profile "${profile}" at ${found.file} lacks records: it has ${records(found.identity.writes)}, and ${expected.writes} were written (an older copy, or its -wal was lost)`,
      `restore the latest copy; ${ADOPT_HINT}`,
    );
  }
  return undefined;
}

function records(count: number): string {
  return count === 1 ? '1 record' : `${count} records`;
}

export interface StoreGuard {
  /** src/store/identity.ts's watcher, first: the profile's expectation taken before the store's count is read. */
  opening(dataDir: string): void;
  /** src/store/identity.ts's watcher: throws a WrongStoreError for a store that is not the profile's. */
  found(found: FoundStore): void;
  /** After the command: remembers the profile's store and how many records it holds now. */
  remember(finished: readonly FoundStore[]): Promise<void>;
}

/**
 * The guard of one run. The profile is resolved as the run resolves it (--profile, FSAPI_PROFILE, the
 * default, else local), synchronously: a store is opened in the middle of synchronous work. A name that
 * does not resolve expects nothing here; the command itself reports it when it needs the profile.
 */
export function storeGuard(ctx: AuthContext): StoreGuard {
  let resolved: { profiles: ProfileStore; name: string } | null | undefined;
  const profile = () => {
    if (resolved !== undefined) return resolved ?? undefined;
    try {
      const profiles = openProfileStore(ctx.paths.configDir);
      resolved = { profiles, name: findProfile(profiles, ctx.globals.profile).name };
    } catch {
      resolved = null;
    }
    return resolved ?? undefined;
  };
  const ours = (found: Pick<FoundStore, 'dataDir'>) => found.dataDir === path.resolve(ctx.paths.dataDir);
  // The expectation as it was when the store began to open, before its count was read: another process
  // (a second `fsapi mcp`, a cron job) may commit records and remember its new count in profiles.json
  // between the two reads, and a count read before that is not records lost.
  const before = new Map<string, ExpectedStore | undefined>();
  return {
    opening(dataDir) {
      const current = ours({ dataDir }) ? profile() : undefined;
      if (current) before.set(path.resolve(dataDir), current.profiles.expectedStore(current.name));
    },
    found(found) {
      const current = ours(found) ? profile() : undefined;
      if (!current) return;
      const key = path.resolve(found.dataDir);
      const expected = before.has(key) ? before.get(key) : current.profiles.expectedStore(current.name);
      before.delete(key);
      const refusal = storeRefusal(current.name, expected, found);
      if (refusal) throw refusal;
    },
    async remember(finished) {
      for (const found of finished) {
        const current = ours(found) ? profile() : undefined;
        if (!current || !found.identity) continue;
        const expected = current.profiles.expectedStore(current.name);
        const now = { id: found.identity.id, path: found.file, writes: found.identity.writes };
        if (expected === undefined ? now.writes === 0 : storeRefusal(current.name, expected, found) !== undefined || now.writes <= expected.writes) continue;
        await current.profiles.rememberStore(current.name, now);
      }
    },
  };
}

/**
 * The team store of this run: FSAPI_STORE when set, else the one the profile keeps its records in (`fsapi
 * store use`), else none (the data dir's SQLite). Resolved synchronously, as the guard resolves the profile.
 */
export function teamStoreOfRun(ctx: AuthContext): TeamChoice | undefined {
  const fromEnv = ctx.env.FSAPI_STORE?.trim();
  if (fromEnv) return { dataDir: ctx.paths.dataDir, url: fromEnv, source: 'FSAPI_STORE' };
  try {
    const profiles = openProfileStore(ctx.paths.configDir);
    const url = profiles.teamStore(findProfile(profiles, ctx.globals.profile).name);
    return url ? { dataDir: ctx.paths.dataDir, url, source: 'profile' } : undefined;
  } catch {
    // A profile that does not resolve: the command says so when it needs it.
    return undefined;
  }
}
