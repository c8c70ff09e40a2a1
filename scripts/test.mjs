// `npm test` after `tsc --noEmit`: the whole suite on Node 22, then the CLI's end-to-end test files on Node
// 24, the two supported LTS lines. A line is the machine's own Node when that is the line; otherwise it is
// installed from the npm registry into a cache folder on first use (scripts/node-lines.mjs). The tests start
// the CLI with process.execPath, so running node:test under Node 24 runs fsapi under Node 24. Nothing is
// rebuilt: dist/ is plain JavaScript, and the packages the tests load are the ones `npm ci` installed.
//
// The registry must be reachable the first time; a failed install is a failed `npm test`, with the reason.
// Outside CI, FSAPI_SKIP_NODE_LINES=1 skips the Node 24 run (say, offline); CI (CI=true) always runs it. The
// Node 22 run is never skipped: it is the suite.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from './node-lines.mjs';

/**
 * Files that run bin/fsapi.cjs as a subprocess, one or more per group of commands, chosen to cover what
 * differs between Node lines (start-up and the compile cache, HTTP, terminals and prompts, the stores on
 * node:sqlite, files and locks, the package) while keeping `.ci/run` well under 10 minutes.
 */
export const cliTestFiles = [
  'test/launcher.test.ts',
  'test/package.test.ts',
  'test/account-banks-enquiry.test.ts',
  'test/transfer.test.ts',
  'test/transfer-faults.test.ts',
  'test/transfer-tty.test.ts',
  'test/tx-list.test.ts',
  'test/clients-list.test.ts',
  'test/simulator-commands.test.ts',
  'test/webhook-listen.test.ts',
  // The simulator's store, and the locks between processes.
  'test/simulator-store.test.ts',
  'test/concurrency.test.ts',
  // The local store (journal, event log, run locks), with real processes. The payees, policy and approvals
  // tables live in the same file and are opened by every transfer of transfer.test.ts (the policy is read
  // before each send), so test/policy.test.ts (about 50 s a line) runs on Node 22 only, to keep .ci/run
  // well under 10 minutes.
  'test/local-store.test.ts',
];

const root = fileURLToPath(new URL('../', import.meta.url));
const machineLine = process.versions.node.split('.')[0];

// Run as a script only (not when another script imports cliTestFiles).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const suite = readdirSync(new URL('../test/', import.meta.url))
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `test/${name}`);
  await runOn('22', `the whole suite (${suite.length} files)`, ['--test-concurrency=3', ...suite]);
  if (process.env.FSAPI_SKIP_NODE_LINES && !process.env.CI) {
    console.log('\nCLI end-to-end tests on Node 24: skipped (FSAPI_SKIP_NODE_LINES is set); CI runs them');
  } else {
    await runOn('24', `the CLI end-to-end tests (${cliTestFiles.length} files)`, ['--test-concurrency=2', ...cliTestFiles]);
  }
}

/**
 * Runs node:test on Node `line` over `args`, its output going straight through (so it ends with node:test's
 * own summary); exits 1 when the line cannot be installed (saying why) or a test failed.
 */
async function runOn(line, what, args) {
  let binary = process.execPath;
  if (machineLine !== line) {
    try {
      binary = await nodeBinary(line);
    } catch (error) {
      console.error(`error: ${error.message}`);
      const skip = line === '24' ? '; outside CI, FSAPI_SKIP_NODE_LINES=1 skips the Node 24 run' : '';
      console.error(`hint: the npm registry must be reachable once to install it (npm config get registry)${skip}`);
      process.exit(1);
    }
  }
  console.log(`\n${what} on Node ${line} (${binary})`);
  const child = spawn(binary, ['--import', 'tsx', '--test', ...args], { cwd: root, stdio: 'inherit' });
  const [code] = await once(child, 'close');
  // node:test's own summary (its `# fail` count) is the last word on a failed run; nothing is added after it.
  if (code !== 0) process.exit(1);
}
