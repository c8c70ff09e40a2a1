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

// Held here for one run: runModule (src/runtime.ts) sets it before the command and clears it after, so no
// caller resets it. It is read where a store is opened by its data dir (database.ts, the journal, the event
// log), below the room that knows the run's Context (CONTRIBUTING.md: the house), and a process runs one
// command at a time (`fsapi mcp` takes tool calls in turn, the tests' in-process runs too).
let choose: (() => TeamChoice | undefined) | undefined;
let chosen: { choice: TeamChoice | undefined } | undefined;

/**
 * Sets how this run finds its team store: asked once, when a store is first wanted (reading the profile
 * has its cost and its effects: a command that opens no store never pays them).
 */
export function chooseTeamStore(find: (() => TeamChoice | undefined) | undefined): void {
  choose = find;
  chosen = undefined;
}

/** The team store of `dataDir` in this run, undefined when its records are in the data dir's SQLite. */
export function teamChoice(dataDir?: string): TeamChoice | undefined {
  if (!choose) return undefined;
  chosen ??= { choice: choose() };
  const choice = chosen.choice;
  if (!choice || dataDir === undefined) return choice;
  return path.resolve(dataDir) === path.resolve(choice.dataDir) ? choice : undefined;
}
