// Which store holds this run's records: the data dir's SQLite (the default), or a team store, a shared
// PostgreSQL (src/store/postgres.ts) named by FSAPI_STORE or by the profile (`fsapi store use <url>`).
// Chosen once per run, before the command (src/runtime.ts); src/store/database.ts opens what was chosen.
// Kept small: the runtime loads it for every command.
import path from 'node:path';

export interface TeamChoice {
  /** The data dir of the run: its store is the team store. */
  readonly dataDir: string;
  /** The URL as given (FSAPI_STORE may carry a password; a profile's never does). */
  readonly url: string;
  /** Where it came from, for messages. */
  readonly source: 'FSAPI_STORE' | 'profile';
}

let chosen: TeamChoice | undefined;

export function chooseTeamStore(choice: TeamChoice | undefined): void {
  chosen = choice;
}

/** The team store of `dataDir` in this run, undefined when its records are in the data dir's SQLite. */
export function teamChoice(dataDir?: string): TeamChoice | undefined {
  if (!chosen) return undefined;
  if (dataDir === undefined) return chosen;
  return path.resolve(dataDir) === path.resolve(chosen.dataDir) ? chosen : undefined;
}
