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
 * differs between Node lines (start-up and the code cache, HTTP, terminals and prompts, the stores on
 * node:sqlite, files and locks, the package) while keeping `.ci/run` well under 10 minutes.
 */
export const cliTestFiles = [
  'test/launcher.test.ts',
  'test/package.test.ts',
  'test/account-banks-enquiry.test.ts',
  // Mostly in process; its happy path is a spawned send.
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
  // `fsapi mcp` driven by the SDK's client, the server a process of the line under test (about 10 s).
  'test/mcp.test.ts',
];

/** The suite's longest files, longest first (their durations in a `.ci/run`, 2 cores: 88 s to 14 s). */
const slowestFiles = [
  'test/batch.test.ts',
  'test/help-examples.test.ts',
  'test/team-store.test.ts',
  'test/completion.test.ts',
  'test/json-interface.test.ts',
  'test/rate-limit.test.ts',
  'test/local-store.test.ts',
  'test/session-renewal.test.ts',
  'test/concurrency.test.ts',
];

const root = fileURLToPath(new URL('../', import.meta.url));
const machineLine = process.versions.node.split('.')[0];

// Run as a script only (not when another script imports cliTestFiles).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = readdirSync(new URL('../test/', import.meta.url))
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `test/${name}`);
  // The longest files start first: node:test runs the files in the order given, as slots free up, and a
  // long file started last would run on alone at the end while the other slots sit idle.
  const suite = [...slowestFiles.filter((file) => files.includes(file)), ...files.filter((file) => !slowestFiles.includes(file))];
  // The end-to-end files on Node 24 run beside the suite on Node 22: they spend most of their time waiting on
  // the processes they start, so side by side the two take little longer than the suite alone. The Node 24
  // run's output is kept and printed whole after the suite's, so neither is interleaved and the last lines
  // are a test runner's own summary.
  const skip24 = process.env.FSAPI_SKIP_NODE_LINES && !process.env.CI;
  // One end-to-end file at a time beside the suite's three: on 2 cores more processes at once only add
  // switching, and the Node 24 run still ends well before the suite.
  const e2e = skip24
    ? undefined
    : runOn('24', `the CLI end-to-end tests (${cliTestFiles.length} files)`, ['--test-concurrency=1', ...cliTestFiles], { buffered: true });
  const { ok: suiteOk } = await runOn('22', `the whole suite (${suite.length} files)`, ['--test-concurrency=3', ...suite]);
  let e2eOk = true;
  if (e2e !== undefined) {
    const run = await e2e;
    process.stdout.write(run.output);
    e2eOk = run.ok;
  }
  if (skip24) console.log('\nCLI end-to-end tests on Node 24: skipped (FSAPI_SKIP_NODE_LINES is set); CI runs them');
  if (!suiteOk || !e2eOk) process.exit(1);
}

/**
 * Runs node:test on Node `line` over `args`; `ok` when every test passed. Its output goes straight through
 * (so it ends with node:test's own summary), or, `buffered`, is kept and handed back whole for the caller to
 * print. Exits 1 when the line cannot be installed (saying why).
 */
async function runOn(line, what, args, { buffered = false } = {}) {
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
  const heading = `\n${what} on Node ${line} (${binary})`;
  if (!buffered) console.log(heading);
  const child = spawn(binary, ['--import', 'tsx', '--test', ...args], { cwd: root, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  if (buffered) {
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  }
  const [code] = await once(child, 'close');
  return { ok: code === 0, output: buffered ? `${heading}\n${output}` : '' };
}
