// fsapi store backup FILE: a consistent copy of the whole store (SQLite's VACUUM INTO, one read transaction,
// so other fsapi processes go on writing meanwhile; docs/decisions.md says why not the online backup API).
// Written beside FILE under a temporary name, 0600, synced, then linked into place: FILE is never
// overwritten, and a copy cut short never carries FILE's name.
import { closeSync, constants, existsSync, fsyncSync, linkSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { run } from '../run.js';
import { backupSpec } from './backup.spec.js';
import { FsapiError, ExitCode, UsageError } from '../../errors.js';
import { openLocalStore, storePath } from '../../store/database.js';
import { printJson } from '../../ui/output.js';

export default run(backupSpec, async (ctx, _opts, args) => {
  const given = args[0] ?? '';
  if (given.trim() === '') throw new UsageError('give the file to write the backup to', 'fsapi store backup ~/fsapi-backup.db');
  const target = path.resolve(given);
  if (existsSync(target)) throw new UsageError(`${target} exists; a backup never overwrites a file`, 'choose a new name, or remove the old file first');
  const dir = path.dirname(target);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a directory`, 'create it first, or choose another place');
  if (target === path.resolve(storePath(ctx.paths.dataDir))) throw new UsageError('that is the store itself; choose another file');
  // Opened as every command opens it: a store the profile does not expect is refused, none is made new.
  const store = await openLocalStore(ctx.paths.dataDir);
  const identity = (await store.identity())!;
  const partial = path.join(dir, `.${path.basename(target)}.${process.pid}.partial`);
  try {
    // Made empty and private first: VACUUM INTO fills an empty file and keeps its mode.
    closeSync(openSync(partial, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600));
  } catch (error) {
    throw new FsapiError(`cannot write in ${dir} (${(error as Error).message}); nothing was written`, { exitCode: ExitCode.failed });
  }
  try {
    await store.copyInto(partial);
    const fd = openSync(partial, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    placeWithoutOverwrite(partial, target);
  } finally {
    try {
      unlinkSync(partial);
    } catch {
      // linked into place and removed already, or renamed
    }
  }
  const bytes = statSync(target).size;
  ctx.io.note(`backed up store ${identity.id} (${identity.writes} records written, ${bytes} bytes) to ${target}`);
  if (ctx.globals.json) printJson(ctx, { file: target, id: identity.id, writes: identity.writes, bytes });
});

/** link() fails when `target` exists (another process made it meanwhile); rename() only where links are not. */
function placeWithoutOverwrite(partial: string, target: string): void {
  try {
    linkSync(partial, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`${target} exists; a backup never overwrites a file`, 'choose a new name, or remove the old file first');
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
  }
  if (existsSync(target)) throw new UsageError(`${target} exists; a backup never overwrites a file`, 'choose a new name, or remove the old file first');
  renameSync(partial, target);
}
