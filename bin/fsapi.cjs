#!/usr/bin/env node
// The launcher. CommonJS on purpose: an ES module entry would make Node set up its ES module loader first,
// about a sixth of its whole start-up (bench/startup.mjs). Everything else is in dist/ (scripts/build.mjs).
require('../dist/boot.cjs').start();
