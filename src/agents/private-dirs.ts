// `fsapi mcp` serves only from a config dir and a data dir that are its user's alone. The config dir holds
// the token (and any saved secret), the data dir the journal and the policy: a process that can read the
// first pays with curl, one that can write the second resets the policy (docs/policy.md). The point of
// running the server as its own OS user (docs/agents.md) is that the agent's user can do neither; a dir
// that others may read or write, or that another user owns, would undo it quietly, so the server refuses.
import { mkdirSync, statSync } from 'node:fs';
import { ExitCode, FsapiError } from '../errors.js';
import type { Paths } from '../context.js';

/** The dirs are refused: exit 1, nothing served. */
export class SharedDirError extends FsapiError {
  constructor(message: string, hint: string) {
    super(message, { exitCode: ExitCode.failed, hint, code: 'unsafe_dir' });
  }
}

/**
 * Throws unless the config and data dirs are directories owned by this process's user with no access for
 * group or others (mode & 0o077 == 0). A missing one is made private, as fsapi makes them on first use.
 * On a system without POSIX owners (Windows) there is nothing to compare: not checked.
 */
export function checkPrivateDirs(paths: Paths, uid: number | undefined = process.geteuid?.()): void {
  if (uid === undefined) return;
  for (const [what, dir] of [
    ['config dir', paths.configDir],
    ['data dir', paths.dataDir],
  ] as const) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The dir itself, through any symbolic link: what the server would read and write.
    const stats = statSync(dir);
    if (!stats.isDirectory())
      throw new SharedDirError(`the ${what} ${dir} is not a directory; fsapi mcp serves nothing`, 'point FSAPI_CONFIG_DIR or FSAPI_DATA_DIR at a directory');
    if (stats.uid !== uid) {
      throw new SharedDirError(
        `the ${what} ${dir} belongs to user ${stats.uid}, not to the user running fsapi mcp (${uid}); fsapi mcp serves nothing`,
        'run the server as the user that owns its dirs (docs/agents.md)',
      );
    }
    const open = stats.mode & 0o077;
    if (open !== 0) {
      throw new SharedDirError(
        `the ${what} ${dir} is open to ${open & 0o070 ? (open & 0o007 ? 'its group and others' : 'its group') : 'others'} (mode ${(stats.mode & 0o777).toString(8).padStart(3, '0')}); fsapi mcp serves nothing`,
        `the keys and the policy must be this user's alone: chmod 700 ${dir} (docs/agents.md)`,
      );
    }
  }
}
