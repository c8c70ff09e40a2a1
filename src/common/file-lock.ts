// The lock fsapi uses where two processes can meet on a file outside the local store: the profiles file,
// importing an old simulator state. (The journal's claims, which runs are alive, a batch file's run and
// `webhook listen` use the store's SQLite locks instead: src/store/process-lock.ts.)
//
// It is proper-lockfile's: a `<file>.lock` directory made with mkdir (atomic on every file system,
// network ones included), whose mtime the holder refreshes every few seconds. A lock nobody has
// refreshed for LOCK_STALE_MS belongs to a process that died without releasing it (SIGKILL, power cut)
// and is taken over; a normal exit, Ctrl-C included, removes it (proper-lockfile listens for the exit).
//
// Two ways to use it:
//   withFileLock(file, fn)     for short critical sections (read, decide, write). Waits its turn: within
//                              this process callers queue, across processes it retries until
//                              DEFAULT_WAIT_MS have passed (longer than a dead holder's lock stays).
//   acquireFileLock(file)      for a lock held as long as a command runs (a batch, a listener). By
//                              default it does not wait: a second run is told at once who is in the way.
//
// When the lock is compromised (the holder stalled longer than the stale time, so another process may
// have taken it over), nothing throws from a timer: `lost` settles and `assertHeld()` throws, so the
// holder can stop before it writes anything that relied on being alone.
// node:fs's promises, not node:fs/promises: that module costs about 2 ms to load, and every command that
// reads the profiles loads this file without taking a lock.
import { promises as fsPromises } from 'node:fs';
import path from 'node:path';
import { ExitCode, FsapiError } from '../errors.js';
import { systemClock } from './clock.js';
import { Backoff, FILE_LOCK_WAIT } from './retry.js';

/** A lock not refreshed for this long is stale (its holder died). Refreshed every LOCK_STALE_MS / 4. */
export const LOCK_STALE_MS = 10_000;
/** How long withFileLock waits for another holder: a dead holder's lock is stale by then. */
export const DEFAULT_WAIT_MS = 30_000;

export interface HeldLock {
  /** The file the lock protects. */
  readonly file: string;
  /** Settles (with the reason) if the lock was compromised while held. */
  readonly lost: Promise<Error>;
  /** Throws LockLostError when the lock was compromised: stop before writing anything. */
  assertHeld(): void;
  /** Releases the lock; never throws (a compromised lock is already gone). */
  release(): Promise<void>;
}

/** The lock could not be had in time: another process holds it. Exit 1, nothing done. */
export class LockBusyError extends FsapiError {
  constructor(
    readonly file: string,
    message: string,
    hint: string,
  ) {
    super(message, { exitCode: ExitCode.failed, hint, code: 'busy' });
  }
}

/** The lock was taken over while held (this process stalled past the stale time). */
export class LockLostError extends FsapiError {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`lost the lock on ${file} (${reason}); stopped before writing anything that relied on it`, {
      exitCode: ExitCode.failed,
      hint: 'another fsapi process may have taken over; run the command again',
      code: 'lock_lost',
    });
  }
}

export interface AcquireOptions {
  /** How long to keep trying while another process holds the lock, in ms; 0 (default) tries once. */
  waitMs?: number;
  /** What the caller is protecting, for the refusal: e.g. "the journal". */
  what?: string;
  /** Called once when the lock is held by another process and waiting begins. */
  onWait?: () => void;
}

/** Takes the lock on `file` (which need not exist), waiting up to `waitMs` for another holder. */
export async function acquireFileLock(file: string, options: AcquireOptions = {}): Promise<HeldLock> {
  const waitMs = options.waitMs ?? 0;
  await fsPromises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  let lostReason: Error | undefined;
  let onLost: (error: Error) => void = () => undefined;
  const lost = new Promise<Error>((resolve) => (onLost = resolve));
  const lockOptions = {
    realpath: false,
    stale: LOCK_STALE_MS,
    update: LOCK_STALE_MS / 4,
    retries: 0,
    // The default throws from a timer, which would kill the process in the middle of whatever it does.
    onCompromised: (error: Error) => {
      lostReason ??= error;
      onLost(error);
    },
  };
  // Loaded on first use: reading the profiles or the journal needs no lock, and proper-lockfile (with
  // graceful-fs) costs several ms of every command's start-up.
  const { default: lockfile } = await import('proper-lockfile');
  // Short, growing, jittered pauses (FILE_LOCK_WAIT): holders keep the lock for milliseconds, and jitter
  // keeps a crowd of waiters from retrying in step.
  const pauses = new Backoff(FILE_LOCK_WAIT, { clock: systemClock, deadline: Date.now() + waitMs });
  for (;;) {
    try {
      const release = await lockfile.lock(file, lockOptions);
      return {
        file,
        lost,
        assertHeld() {
          if (lostReason) throw new LockLostError(file, lostReason.message);
        },
        release: () => release().catch(() => undefined),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new FsapiError(`cannot lock ${file}: ${(error as Error).message}`, {
          exitCode: ExitCode.failed,
          hint: 'the directory must be writable (FSAPI_DATA_DIR / FSAPI_CONFIG_DIR choose others)',
          cause: error,
        });
      }
      const pause = pauses.next();
      if (pause === undefined) throw busy(file, waitMs, options.what);
      if (pauses.waited === 1) options.onWait?.();
      await pauses.sleep(pause);
    }
  }
}

function busy(file: string, waitMs: number, what: string | undefined): LockBusyError {
  const subject = what ?? file;
  const waited = waitMs > 0 ? ` for ${Math.round(waitMs / 1000)} s` : '';
  return new LockBusyError(
    file,
    `${subject} is locked by another fsapi process (${file}.lock)${waitMs > 0 ? `; waited${waited}` : ''}`,
    `let the other one finish; a lock left by a process that died is taken over after ${LOCK_STALE_MS / 1000} s`,
  );
}

// Callers in this process take turns before asking the file system: proper-lockfile would otherwise
// refuse this process's second caller as if it were another process.
const turns = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` while holding the lock on `file`, then releases it, whatever `fn` does. Waits up to `waitMs`
 * (default DEFAULT_WAIT_MS) for other holders. `fn` should call `lock.assertHeld()` before each write
 * that relies on being alone.
 */
export async function withFileLock<T>(file: string, fn: (lock: HeldLock) => Promise<T>, options: AcquireOptions = {}): Promise<T> {
  const key = path.resolve(file);
  const previous = turns.get(key) ?? Promise.resolve();
  const mine = previous
    .catch(() => undefined)
    .then(async () => {
      const lock = await acquireFileLock(file, { waitMs: DEFAULT_WAIT_MS, ...options });
      try {
        return await fn(lock);
      } finally {
        await lock.release();
      }
    });
  turns.set(key, mine);
  void mine
    .finally(() => {
      if (turns.get(key) === mine) turns.delete(key);
    })
    .catch(() => undefined);
  return mine;
}
