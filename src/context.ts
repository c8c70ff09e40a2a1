// The context every command's logic receives: what `gh` calls the factory. Commands and core code reach
// the terminal, the environment, the clock, prompts and the API only through it, so tests can hand them
// fakes and nothing reaches for `process` directly.
import type { Api } from './api/types.js';
import type { AuthContext } from './auth/types.js';
export type { ClientInfo, Clock, GlobalOptions, IO, Paths, Prompt } from './run-types.js';

/**
 * What a command's logic receives: the context of the rooms below (AuthContext: the run's parts, its
 * profiles and the way to the API's address), and the API client of the active profile.
 */
export interface Context extends AuthContext {
  /** The API client for the active profile, authenticated on first request. */
  api(): Promise<Api>;
}
