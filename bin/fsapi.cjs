#!/usr/bin/env node
// The launcher: keep the bundles' compiled code between runs, then run dist/cli.cjs, the command tree
// (scripts/build.mjs).
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
// Compiled code kept between runs (useCodeCache below), in a folder of the user's own or none: never
// Node's default (the temp dir's node-compile-cache, which another user of the machine can make first and
// fill with code that would run as you). NODE_COMPILE_CACHE, set by the user, Node applies before this
// line: then its compile cache is the one used. docs/startup.md says what each gains.
if (!process.env.NODE_COMPILE_CACHE) {
  const dir = privateCacheDir();
  if (dir) useCodeCache(dir, `${__dirname}/../dist`);
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
 * Compiles each bundle of dist/ with V8's code cache of it in `dir`, made at the end of a run (so with
 * every function that run compiled), and writes it back at the end of the runs that found none, found one
 * V8 refused, or found one written by fewer than GENERATIONS runs (each adds the functions its
 * command compiled to what it loaded). Node's own compile cache keeps only what V8 compiles when a file
 * loads, not the functions it compiles as they are first called, which are most of a command's start
 * (docs/startup.md).
 *
 * An entry is named by the bundle, the Node version and the file's inode, size and times, so a rebuilt or
 * reinstalled bundle never meets the code of another. V8 checks its version, flags and the source's length,
 * not the contents: a damaged entry could crash it. node:zlib's crc32 or a hash in JavaScript would cost
 * 1 to 3 ms of every run, so an entry holds V8's data twice and is used only when both copies are equal
 * (one native compare); anything else about it is only a compile as if there were none.
 */
function useCodeCache(dir, distDir) {
  /** How many runs add what they compiled to a bundle's entry before it is left as it is. */
  const GENERATIONS = 8;
  const MAGIC = 'fsapi-code-cache-1\n';
  const fs = require('node:fs');
  const path = require('node:path');
  // The loader's own class: requiring node:module would load the public module API, about 0.3 ms.
  const Module = module.constructor;
  const debug = /(^|,)\s*fsapi-code-cache\s*(,|$)/i.test(process.env.NODE_DEBUG ?? '')
    ? (line) => process.stderr.write(`[fsapi code cache] ${line}\n`)
    : () => undefined;
  const bundles = `${path.resolve(distDir)}${path.sep}`;
  const launcher = require.main;
  const toWrite = [];
  // Node loads a .cjs file through its '.js' loader: this one takes over for the bundles of dist/.
  const loadJs = Module._extensions['.js'];
  Module._extensions['.js'] = function loadWithCodeCache(module, filename) {
    const read = filename.startsWith(bundles) && filename.endsWith('.cjs') ? readBundle(filename) : undefined;
    if (!read) return Reflect.apply(loadJs, this, [module, filename]);
    const bundle = filename.slice(bundles.length).replaceAll(path.sep, '+');
    const entry = `${entryPrefix(bundle)}${read.key}`;
    const found = readEntry(path.join(dir, entry));
    const script = new (require('node:vm').Script)(Module.wrap(read.text), { filename, cachedData: found?.data });
    const used = found !== undefined && !script.cachedDataRejected;
    debug(`${bundle}: ${used ? `used (written by ${found.generation} runs)` : found ? 'refused by V8' : 'none'}`);
    if (!used || found.generation < GENERATIONS) toWrite.push({ script, bundle, entry, generation: used ? found.generation + 1 : 1 });
    const requireHere = (id) => module.require(id);
    requireHere.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    requireHere.main = launcher;
    requireHere.cache = Module._cache;
    const wrapper = script.runInThisContext({ displayErrors: true });
    Reflect.apply(wrapper, module.exports, [module.exports, requireHere, module, filename, path.dirname(filename)]);
  };
  const writeAll = () => {
    for (const { script, bundle, entry, generation } of toWrite.splice(0)) writeEntry(bundle, entry, generation, script);
  };
  // V8 stamps an entry with its flags, and refuses one made under others. A long run sets some
  // (src/runtime.ts, keepYoungGenerationSmall), saying so first: what it compiled until then is written
  // then. Otherwise a run that loaded node:v8 may have set some: nothing of it is written.
  process.once('fsapi:v8-flags', () => {
    writeAll();
    flagsChanged = true;
  });
  let flagsChanged = false;
  process.once('exit', () => {
    if (toWrite.length === 0) return;
    if (flagsChanged || process.moduleLoadList.includes('NativeModule v8')) return debug('nothing written after V8 flags may have changed');
    writeAll();
  });

  /**
   * The bundle's text and, from the same open file, the key of its entry (inode, size and times): a build
   * that replaces the file meanwhile never pairs the text of one with the code of the other. Undefined
   * when it cannot be read: Node's own loader then says why.
   */
  function readBundle(filename) {
    let fd;
    try {
      fd = fs.openSync(filename, 'r');
      const stats = fs.fstatSync(fd, { bigint: true });
      const text = fs.readFileSync(fd, 'utf8');
      return { text, key: [stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs].map((n) => n.toString(36)).join('-') };
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /** What every entry of this bundle, installed here, for this Node shares: two installs never meet. */
  function entryPrefix(bundle) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < bundles.length; i += 1) hash = Math.imul(hash ^ bundles.charCodeAt(i), 0x01000193) >>> 0;
    return `${bundle}.${hash.toString(36)}.${process.version}-${process.arch}.`;
  }

  /** The entry's V8 data and how many runs wrote it, or undefined (none, or not whole). */
  function readEntry(file) {
    let bytes;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      return undefined;
    }
    const head = MAGIC.length + 1;
    const half = (bytes.length - head) / 2;
    if (!Number.isInteger(half) || half === 0 || bytes.toString('latin1', 0, head - 1) !== MAGIC) return undefined;
    const data = bytes.subarray(head, head + half);
    if (!data.equals(bytes.subarray(head + half))) return undefined;
    return { generation: bytes[head - 1], data };
  }

  /** Writes the entry whole or not at all (a temporary file renamed), and removes the bundle's older ones. */
  function writeEntry(bundle, entry, generation, script) {
    const temporary = path.join(dir, `.${entry}.${process.pid}.tmp`);
    try {
      const data = script.createCachedData();
      const head = Buffer.from(`${MAGIC}\0`, 'latin1');
      head[head.length - 1] = generation;
      fs.writeFileSync(temporary, Buffer.concat([head, data, data]), { flag: 'wx', mode: 0o600 });
      fs.renameSync(temporary, path.join(dir, entry));
      debug(`${bundle}: written (${generation} runs)`);
    } catch {
      try {
        fs.unlinkSync(temporary);
      } catch {
        // never made
      }
      return;
    }
    if (generation > 1) return;
    // A new entry: one of an earlier build of this bundle, installed here, for this Node, is never used again.
    const stale = entryPrefix(bundle);
    try {
      for (const name of fs.readdirSync(dir)) if (name.startsWith(stale) && name !== entry) fs.unlinkSync(path.join(dir, name));
    } catch {
      // removed by another run meanwhile, or unreadable: only space
    }
  }
}

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
  // os.homedir() is $HOME when set; node:os only when it is not.
  const home = process.env.HOME && path.isAbsolute(process.env.HOME) ? process.env.HOME : require('node:os').homedir();
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache');
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
