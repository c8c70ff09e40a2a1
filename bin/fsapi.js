#!/usr/bin/env node
// Launcher: everything lives in the bundle so start-up reads one file, not node_modules.
import '../dist/cli.js';
