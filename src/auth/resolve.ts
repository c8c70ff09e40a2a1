// Which profile a run uses: --profile / FSAPI_PROFILE, else the saved default, else `local` (the built-in
// simulator, which always exists even when nothing is saved). --base-url / FSAPI_BASE_URL overrides the
// profile's base address for this run only.
//
// Secrets stay with their host: a profile's stored token and saved credentials belong to the base address
// it was logged in to. When --base-url / FSAPI_BASE_URL names another one, they are left out of the
// profile this run uses, so no request can carry them there. What such a run may use instead: FSAPI_TOKEN,
// or FSAPI_CONSUMER_KEY/SECRET from the environment (the person running it chose those for this run), or
// for a `local` profile the simulator's public credentials.
import type { AuthContext } from './types.js';
import { UsageError } from '../errors.js';
import type { Profile, ProfileStore } from './types.js';

export const LOCAL_PROFILE = 'local';

/** The `local` profile as it is before anything is saved: the in-process simulator. */
export function implicitLocalProfile(): Profile {
  return { name: LOCAL_PROFILE, env: 'local', baseUrl: undefined };
}

export async function resolveProfile(ctx: AuthContext): Promise<Profile> {
  const store = await ctx.profiles();
  const profile = findProfile(store, ctx.globals.profile);
  if (ctx.globals.baseUrl === undefined) return profile;
  if (sameAddress(ctx.globals.baseUrl, profile.baseUrl)) return { ...profile, baseUrl: ctx.globals.baseUrl };
  return {
    name: profile.name,
    env: profile.env,
    baseUrl: ctx.globals.baseUrl,
    validityMinutes: profile.validityMinutes,
    secretsKeptFor: profile.baseUrl ?? 'the local simulator',
  };
}

/** Two base addresses are the same when they are once normalised (case of the host, a trailing slash). */
export function sameAddress(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const normal = (text: string) => {
    try {
      return new URL(text).href.replace(/\/+$/, '');
    } catch {
      return text;
    }
  };
  return normal(a) === normal(b);
}

/** The saved profile by name (`local` exists implicitly); without a name, the default, else `local`. */
export function findProfile(store: ProfileStore, requested: string | undefined): Profile {
  if (requested !== undefined) return getProfileOrThrow(store, requested);
  const defaultName = store.defaultName();
  if (defaultName === undefined) return store.get(LOCAL_PROFILE) ?? implicitLocalProfile();
  const profile = store.get(defaultName) ?? (defaultName === LOCAL_PROFILE ? implicitLocalProfile() : undefined);
  if (!profile) {
    throw new UsageError(
      `the default profile "${defaultName}" does not exist in ${store.path}`,
      `choose another: fsapi profile use <name> (saved: ${savedNames(store)})`,
    );
  }
  return profile;
}

export function getProfileOrThrow(store: ProfileStore, name: string): Profile {
  const profile = store.get(name) ?? (name === LOCAL_PROFILE ? implicitLocalProfile() : undefined);
  if (!profile) {
    throw new UsageError(`no profile named "${name}"`, `saved profiles: ${savedNames(store)}; create one with fsapi auth login --profile ${name}`);
  }
  return profile;
}

/** Saved names plus `local`, for hints. */
export function savedNames(store: ProfileStore): string {
  const names = new Set(store.list().map((profile) => profile.name));
  names.add(LOCAL_PROFILE);
  return [...names].sort().join(', ');
}
