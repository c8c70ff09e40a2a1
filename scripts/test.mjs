// The second half of `npm test` (the first is the whole suite on the machine's Node): the CLI end-to-end
// test files on each other supported LTS line, Node 22 and 24, installed from the npm registry into a cache
// folder on first use (scripts/node-lines.mjs). The tests start the CLI with process.execPath, so running
// node:test under Node 22 runs fsapi under Node 22. Nothing is rebuilt: dist/ is plain JavaScript, and the
// packages the tests load are the ones `npm ci` installed.
//
// The registry must be reachable the first time; a failed install is a failed `npm test`, with the reason.
// Outside CI, FSAPI_SKIP_NODE_LINES=1 skips these runs (say, offline); CI (CI=true) always runs them.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { nodeBinary, otherNodeLines } from './node-lines.mjs';

/**
 * Files that run bin/fsapi.cjs as a subprocess, one or more per group of commands, chosen to cover what
 * differs between Node lines (start-up and the compile cache, HTTP, terminals and prompts, the simulator's
 * store, files and locks, the package) while keeping `.ci/run` well under 10 minutes.
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
  // The simulator's store runs on node:sqlite here (better-sqlite3 on Node 20), and the locks between processes.
  'test/simulator-store.test.ts',
  'test/concurrency.test.ts',
  // The local store (journal, event log, run locks) on node:sqlite, with real processes. The payees, policy
  // and approvals tables live in the same file and are opened by every transfer of transfer.test.ts (the
  // policy is read before each send), so test/policy.test.ts (about 50 s a line) runs on Node 20 only, to
  // keep .ci/run well under 10 minutes.
  'test/local-store.test.ts',
];

const root = fileURLToPath(new URL('../', import.meta.url));
const machineLine = process.versions.node.split('.')[0];

if (process.env.FSAPI_SKIP_NODE_LINES && !process.env.CI) {
  console.log(`Node ${otherNodeLines.join(' and ')}: skipped (FSAPI_SKIP_NODE_LINES is set); CI runs them`);
  process.exit(0);
}

// Both lines are installed first, then run at the same time: these files spend most of their time waiting on
// child processes and timers (about 1.2 cores busy on a 2-core machine), so two runs side by side take
// little longer than one. Each run's output is kept and printed whole when it ends, not interleaved.
const binaries = [];
for (const line of otherNodeLines) {
  if (line === machineLine) continue; // the whole suite just ran on it
  try {
    binaries.push(await nodeBinary(line));
  } catch (error) {
    console.error(`error: ${error.message}`);
    console.error('hint: the npm registry must be reachable once to install it (npm config get registry); outside CI, FSAPI_SKIP_NODE_LINES=1 skips these runs');
    process.exit(1);
  }
}

const runs = await Promise.all(binaries.map((binary) => runCliTests(binary)));
const failed = runs.filter((run) => run.code !== 0).map((run) => `Node ${run.version} (exit ${run.code ?? run.signal})`);
if (failed.length > 0) {
  console.error(`error: the CLI end-to-end tests failed on ${failed.join(', ')}`);
  process.exit(1);
}

/** Runs the CLI test files under `binary`; prints the run's whole output once it has ended. */
async function runCliTests(binary) {
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const child = spawn(binary, ['--import', 'tsx', '--test', '--test-concurrency=2', ...cliTestFiles], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const [code, signal] = await once(child, 'close');
  console.log(`\nCLI end-to-end tests on Node ${version} (${cliTestFiles.length} files)`);
  process.stdout.write(output);
  return { version, code, signal };
}
