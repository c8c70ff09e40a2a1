#!/usr/bin/env node
// The launcher: turn on Node's compile cache, then run dist/cli.cjs, the command tree (scripts/build.mjs).
// CommonJS on purpose: an ES module entry would make Node set up its ES module loader first, about a sixth
// of its whole start-up (bench/startup.mjs).
'use strict';
// Node 22.13+ or 24 (package.json's engines): an older Node has no node:sqlite without a flag. Said in one
// line before anything loads, and in this file's plain syntax so that even an old Node parses it.
{
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 13)) {
    const message = `fsapi needs Node.js 22.13+ or 24; this is Node ${process.versions.node}`;
    // Under --json, the error object of docs/scripting.md, as every other error.
    const args = process.argv.slice(2);
    const end = args.indexOf('--');
    const json = (end === -1 ? args : args.slice(0, end)).indexOf('--json') !== -1;
    process.stderr.write(json ? `${JSON.stringify({ error: { code: 'usage', message, hint: null, exitCode: 2 } })}\n` : `error: ${message}\n`);
    process.exit(2);
  }
}
const { enableCompileCache } = require('node:module');
// Node >= 22.1 keeps V8's compiled code of every file it loads from here on in a cache folder, so the next
// run does not parse and compile the bundles again. It checks each entry against the file's content and
// the Node version, and a cache it cannot write only costs the compile. Not Node's default folder (the
// temp dir's node-compile-cache, which another user of the machine can make first and fill with code
// that would run as you): a folder of the user's own, or none (privateCacheDir below). NODE_COMPILE_CACHE,
// set by the user, Node applies before this line. Node 20 has none; docs/startup.md says what it gains.
if (enableCompileCache && !process.env.NODE_COMPILE_CACHE) {
  const dir = privateCacheDir();
  if (dir) enableCompileCache(dir);
}
let cli;
try {
  cli = require('../dist/cli.cjs');
} catch (error) {
  if (error.code !== 'MODULE_NOT_FOUND' || require('node:fs').existsSync(`${__dirname}/../dist/cli.cjs`)) throw error;
  process.stderr.write('error: fsapi is not built (no dist/cli.cjs)\nhint: run npm run build in the fsapi folder\n');
  process.exit(1);
}
cli.run();

/**
 * $XDG_CACHE_HOME/fsapi/compile-cache (else ~/.cache/...), made 0700, when it and every folder above it
 * (real path) belong to this user (the effective uid) or root and no other user can write there (a
 * sticky folder such as /tmp excepted for the ones above): otherwise undefined, and no cache is used.
 * About a dozen system calls.
 */
function privateCacheDir() {
  const fs = require('node:fs');
  const path = require('node:path');
  const uid = process.geteuid?.();
  if (uid === undefined) return undefined; // Windows: no owners to compare; run without the cache
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(require('node:os').homedir(), '.cache');
  const dir = path.join(base, 'fsapi', 'compile-cache');
  try {
    let own = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!own) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      own = fs.lstatSync(dir);
    }
    if (!own.isDirectory() || own.uid !== uid || (own.mode & 0o022) !== 0) return undefined;
    for (let folder = path.dirname(fs.realpathSync.native(dir)); ; folder = path.dirname(folder)) {
      const stats = fs.statSync(folder);
      if (stats.uid !== uid && stats.uid !== 0) return undefined;
      if ((stats.mode & 0o022) !== 0 && (stats.mode & 0o1000) === 0) return undefined;
      if (folder === path.dirname(folder)) return dir;
    }
  } catch {
    return undefined;
  }
}
