// Profiles live in the config dir (profiles.json, mode 0600, dir 0700), written with conf.
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
}

export interface ProfileStore {
  readonly path: string;
  list(): Profile[];
  get(name: string): Profile | undefined;
  defaultName(): string | undefined;
  save(profile: Profile): Promise<void>;
  setDefault(name: string): Promise<void>;
  remove(name: string): Promise<boolean>;
}
