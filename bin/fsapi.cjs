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
    process.stderr.write(`error: fsapi needs Node.js 22.13+ or 24; this is Node ${process.versions.node}\n`);
    process.exit(2);
  }
}
const { enableCompileCache } = require('node:module');
// Node >= 22.1 keeps V8's compiled code of every file it loads from here on in a cache folder of the machine
// (NODE_COMPILE_CACHE, else the temp dir's node-compile-cache), so the next run does not parse and compile
// the bundles again. It checks each entry against the file's content and the Node version, and a cache it
// cannot write only costs the compile. Node 20 has none; docs/decisions.md says why fsapi adds nothing there.
if (enableCompileCache) enableCompileCache();
let cli;
try {
  cli = require('../dist/cli.cjs');
} catch (error) {
  if (error.code !== 'MODULE_NOT_FOUND' || require('node:fs').existsSync(`${__dirname}/../dist/cli.cjs`)) throw error;
  process.stderr.write('error: fsapi is not built (no dist/cli.cjs)\nhint: run npm run build in the fsapi folder\n');
  process.exit(1);
}
cli.run();
