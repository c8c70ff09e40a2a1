// A second OS user for the tests that must act as someone else on the machine (a planter of files, the
// MCP server's own user). Made with useradd when missing, kept afterwards (it owns nothing outside the
// tests' temporary dirs).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, linkSync, mkdirSync, readdirSync, statSync } from 'node:fs';
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

/**
 * What another OS user needs to run the built fsapi: a copy of the package as npm installs it (bin/, dist/,
 * package.json) and of this Node, in `dir`, readable and runnable by everyone. Never the checkout itself,
 * which may sit where only its owner can go (a clone in a mode-700 directory); nor this Node's own path
 * (under /root, say). Build first (`npm run build`).
 */
export function packageForAnotherUser(dir: string): { node: string; cli: string } {
  const target = path.join(dir, 'fsapi');
  mkdirSync(target, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json']) cpSync(path.join(repoRoot, part), path.join(target, part), { recursive: true });
  const node = path.join(dir, 'node');
  try {
    linkSync(process.execPath, node); // the same file, reached through a directory the other user can enter
  } catch {
    copyFileSync(process.execPath, node);
  }
  for (const made of [dir, node, ...walk(target)]) chmodSync(made, statSync(made).isDirectory() || made === node ? 0o755 : 0o644);
  chmodSync(path.join(target, 'bin', 'fsapi.cjs'), 0o755);
  return { node, cli: path.join(target, 'bin', 'fsapi.cjs') };
}

function walk(dir: string): string[] {
  return [
    dir,
    ...readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)])),
  ];
}
