// Every file fsapi writes beside a user's target (a PDF, a batch report, a cache): under a temporary name
// nobody can guess, in the target's folder, created exclusively and without following links (O_EXCL with
// O_NOFOLLOW: an existing name, a planted symbolic link included, is an error, never a way to write
// elsewhere), mode 0600, written, fsync-ed, then renamed onto the target. A failed or interrupted write
// leaves the target as it was, and a reader never sees half a file.
import { randomBytes } from './random.js';
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
export const PRIVATE_FILE_MODE = 0o600;

/** `.<name>.<16 random hex digits>.tmp` beside `target`. */
export function temporaryBeside(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(8).toString('hex')}.tmp`);
}

/** A new temporary file beside `target`, opened for writing: its descriptor and its name. */
export function openBesideSync(target: string, mode = PRIVATE_FILE_MODE): { fd: number; temporary: string } {
  const temporary = temporaryBeside(target);
  return { fd: openSync(temporary, EXCLUSIVE, mode), temporary };
}

/** Syncs and closes `fd`, then renames `temporary` onto `target`; on failure the temporary is removed. */
export async function commitBeside(fd: number, temporary: string, target: string): Promise<void> {
  try {
    fsyncSync(fd);
    closeSync(fd);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await rename(temporary, target).catch(async (error: unknown) => {
    await rm(temporary, { force: true });
    throw error;
  });
}

/** Writes `chunks` to `target` atomically (see above). */
export async function writeFileAtomic(target: string, chunks: Iterable<string> | string, mode = PRIVATE_FILE_MODE): Promise<void> {
  const temporary = temporaryBeside(target);
  const handle = await open(temporary, EXCLUSIVE, mode);
  try {
    try {
      for (const chunk of typeof chunks === 'string' ? [chunks] : chunks) await handle.writeFile(chunk); // the whole chunk, at the current position
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** The same, synchronously: for the moment a second Ctrl-C ends the process at once. */
export function writeFileAtomicSync(target: string, chunks: Iterable<string> | string, mode = PRIVATE_FILE_MODE): void {
  const { fd, temporary } = openBesideSync(target, mode);
  try {
    try {
      for (const chunk of typeof chunks === 'string' ? [chunks] : chunks) writeFileSync(fd, chunk);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
