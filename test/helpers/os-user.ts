// A second OS user for the tests that must act as someone else on the machine (a planter of files, the
// MCP server's own user). Made with useradd when missing, kept afterwards (it owns nothing outside the
// tests' temporary dirs).
import { execFileSync, spawnSync } from 'node:child_process';

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
