// A second OS user for the tests that must act as someone else on the machine (a planter of files, the
// MCP server's own user), made with useradd when missing and kept afterwards (it owns nothing outside the
// tests' temporary dirs); and fsapi installed where that user can run it (installFor).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, linkSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './cli.js';

/** The user's ids, made when missing; or, as text, why there can be none here (the test skips, saying so). */
export function testUserIds(name: string): { uid: number; gid: number } | string {
  if (process.platform === 'win32') return 'no POSIX users on Windows';
  if (process.geteuid?.() !== 0) return 'not root: cannot act as a second user of the machine';
  if (spawnSync('id', ['-u', name]).status !== 0) {
    const made = spawnSync('useradd', ['--system', '--no-create-home', name], { encoding: 'utf8' });
    if (made.status !== 0) return `cannot make the user ${name}: ${made.stderr.trim()}`;
  }
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** fsapi installed where one other OS user can run it: see installFor. */
export interface UserInstall {
  /** The dir that holds it, readable by that user's group and root only. */
  root: string;
  /** A copy (or a hard link) of the Node that runs the tests. */
  node: string;
  /** bin/fsapi.cjs of the copy. */
  cli: string;
  remove(): void;
}

/**
 * The built package as npm would install it (package.json and what its `files` lists: bin/, dist/) and the
 * Node that runs the tests, copied into a temporary dir that the user of `ids` can read and no other user
 * but root can: the checkout may sit where that user cannot go (a clone in a mode-700 dir), and so may
 * this Node (in a private ~/.cache). Never the checkout itself. Run `npm run build` first.
 */
export function installFor(ids: { uid: number; gid: number }): UserInstall {
  const root = mkdtempSync(path.join(tmpdir(), 'fsapi-user-install-'));
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };
    for (const entry of ['package.json', ...manifest.files]) {
      cpSync(path.join(repoRoot, entry), path.join(root, entry), { recursive: true, preserveTimestamps: true });
    }
    const node = path.join(root, 'node');
    try {
      linkSync(process.execPath, node);
    } catch {
      copyFileSync(process.execPath, node);
    }
    // The copies keep their modes (readable by all, the launcher and Node executable); the dir above them is
    // the user's group's alone.
    chmodSync(node, 0o755);
    chownSync(root, 0, ids.gid);
    chmodSync(root, 0o750);
    return { root, node, cli: path.join(root, 'bin', 'fsapi.cjs'), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
