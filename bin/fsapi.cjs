#!/usr/bin/env node
// The launcher. CommonJS on purpose: an ES module entry would make Node set up its ES module loader first,
// about a sixth of its whole start-up (bench/startup.mjs). Everything else is in dist/ (scripts/build.mjs).
let boot;
try {
  boot = require('../dist/boot.cjs');
} catch (error) {
  if (error.code !== 'MODULE_NOT_FOUND') throw error;
  process.stderr.write('error: fsapi is not built (no dist/boot.cjs)\nhint: run npm run build in the fsapi folder\n');
  process.exit(1);
}
boot.start();
