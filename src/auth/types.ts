// Profiles live in the config dir (profiles.json, mode 0600, dir 0700), written with conf.
import type { Transport, LocalApi } from '../api/types.js';
import type { ClientInfo, Clock, GlobalOptions, IO, Paths, Prompt, RunState } from '../run-types.js';

export type Environment = 'local' | 'sandbox' | 'production';

export interface Profile {
  name: string;
  env: Environment;
  /** http(s) base address; for `local` without --base-url the in-process simulator is used. */
  baseUrl: string | undefined;
  token?: string | undefined;
  /** Epoch milliseconds. */
  tokenExpiresAt?: number | undefined;
  /** Minutes asked for at login, reused for silent renewal. */
  validityMinutes?: number | undefined;
  /** Saved only with `auth login --save-credentials`. */
  consumerKey?: string | undefined;
  consumerSecret?: string | undefined;
  /**
   * Set when --base-url / FSAPI_BASE_URL sends this run to another address than the profile's own: the
   * address its token and saved credentials belong to ('the local simulator' when none). They are left
   * out of this run's profile, so they cannot reach the other address.
   */
  secretsKeptFor?: string | undefined;
}

/**
 * The store that holds a profile's records, as the profile last saw it: its id, the database file, and its
 * write counter then (src/store/identity.ts). Kept in profiles.json beside the profile, under `stores`.
 */
export interface ExpectedStore {
  id: string;
  path: string;
  writes: number;
}

/**
 * Reads are plain reads of the file. Every write locks the file, reads it again, changes only what it
 * was asked to and writes it back, so concurrent logins, renewals and `profile use` lose nothing.
 */
export interface ProfileStore {
  readonly path: string;
  list(): Profile[];
  get(name: string): Profile | undefined;
  defaultName(): string | undefined;
  /** Saves the profile whole; with `becomeDefaultIfNone`, also makes it the default when none is set. */
  save(profile: Profile, options?: { becomeDefaultIfNone?: boolean }): Promise<{ becameDefault: boolean }>;
  /**
   * Changes one profile as it is at the moment of writing: `change` gets the stored profile (undefined
   * when there is none) and returns the profile to store, or undefined to leave the file as it is.
   */
  update(name: string, change: (current: Profile | undefined) => Profile | undefined): Promise<void>;
  setDefault(name: string): Promise<void>;
  remove(name: string): Promise<boolean>;
  /** The store the profile's records are in (undefined: it has written none yet). */
  expectedStore(name: string): ExpectedStore | undefined;
  /**
   * Remembers the profile's store. Its write counter never goes down for the same store (two processes
   * finishing in any order), unless `exact` (store adopt: the person chose this store as it is).
   */
  rememberStore(name: string, store: ExpectedStore, options?: { exact?: boolean }): Promise<void>;
  /** The team store the profile keeps its records in (`fsapi store use`), undefined for the data dir's. */
  teamStore(name: string): string | undefined;
  /** Sets (or, with undefined, clears) the profile's team store: a URL without a password. */
  useTeamStore(name: string, url: string | undefined): Promise<void>;
}

/**
 * What the rooms up to here are handed of a run (a Context, src/context.ts, adds the API client): its parts
 * (src/run-types.ts), its profiles, and the way to an address (HttpContext, src/api/http.ts).
 */
export interface AuthContext {
  io: IO;
  globals: GlobalOptions;
  env: Readonly<Record<string, string | undefined>>;
  paths: Paths;
  clock: Clock;
  prompt: Prompt;
  /** Profiles and tokens in the config dir. Loaded on first use. */
  profiles(): Promise<ProfileStore>;
  /** The profile this run uses (--profile, FSAPI_PROFILE, the default, else local). */
  profile(): Promise<Profile>;
  /**
   * What requests to a base address go through (src/api/http.ts): node:http (src/api/node-transport.ts),
   * or a test's stubbed answers (test/helpers/http-stubs.ts). The in-process simulator has its own.
   */
  transport: Transport;
  /** Opens the in-process simulator of the data dir, for the `local` profile (src/runtime.ts makes it). */
  openLocalApi(): Promise<LocalApi>;
  /** What this run keeps while it lasts (notes said once, what it opened): ended with the run. */
  run: RunState;
  /**
   * The program this run serves, as it named itself: an MCP client's name and version from `initialize`
   * (src/agents/server.ts). A label kept on the records it leads to (src/transfers/asker.ts), never proof.
   */
  client?: ClientInfo | undefined;
}
