// Which store a run found, told to whoever watches (src/runtime.ts: the profile's expected store). Kept
// free of imports: the runtime loads it for every command, and the store itself (src/store/database.ts,
// SQLite and the schema) only loads when a command uses it.
//
// A store's identity is a random id made when its schema is first created, and `writes`, a counter its
// triggers raise with every record written (journal, events, payees, policy changes, approvals). A copy
// keeps the id; an older copy, or one that lost its -wal, has fewer writes; an emptied or new one has
// another id or none.

export interface StoreIdentity {
  readonly id: string;
  /** Records written to the store since it was made: only ever grows. */
  readonly writes: number;
}

export interface FoundStore {
  readonly dataDir: string;
  /** The database file, resolved (symbolic links followed for the data dir). */
  readonly file: string;
  /** Undefined: no file, or a file that holds no fsapi records (emptied, or its -wal lost). */
  readonly identity: StoreIdentity | undefined;
}

/**
 * Told when a store is opened, before anything is read from or written to it; throws to refuse it.
 * `opening` is told first, before the store's identity is read: what the watcher expects is taken then, so
 * another process that writes and remembers its count in between is never taken for records lost.
 */
export interface StoreWatcher {
  opening(dataDir: string): void;
  found(found: FoundStore): void;
}

// watcher: set for one run by runModule (src/runtime.ts) and cleared by it, as src/store/team-choice.ts's
// choice is, for the same reasons. finisher: set once, when src/store/database.ts loads.
let watcher: StoreWatcher | undefined;
let finisher: (() => Promise<FoundStore[]>) | undefined;

export function watchStores(watch: StoreWatcher | undefined): void {
  watcher = watch;
}

/** A store of `dataDir` is about to be opened: its identity is read next. */
export function storeOpening(dataDir: string): void {
  watcher?.opening(dataDir);
}

export function storeFound(found: FoundStore): void {
  watcher?.found(found);
}

/** Set by src/store/database.ts once it is loaded: what closing every open store does. */
export function onFinishStores(finish: () => Promise<FoundStore[]>): void {
  finisher = finish;
}

/**
 * Checkpoints and closes every store this process opened (none when the store module never loaded), and
 * returns what each holds now.
 */
export async function finishStores(): Promise<FoundStore[]> {
  return (await finisher?.()) ?? [];
}
