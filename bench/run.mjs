// npm run bench: every benchmark, each measured against its own baseline in the same run, as a user gets it
// (NODE_EXTRA_CA_CERTS unset), on the supported LTS lines 22 and 24 (the machine's Node where it is one of
// them, else installed into a cache folder on first use, scripts/node-lines.mjs); then one table with a
// column per Node line.
//   npm run bench                      every script below, on the lines each names
//   npm run bench -- startup tx-list   only these scripts
// To add a benchmark: a script in bench/ that runs when run directly and prints its rows with printRows
// (bench/lib.mjs), and a line in `scripts` below.
// On a busy machine the baseline itself swells and every ratio shrinks: `node -e 0` should take about
// 30 ms. As root, `chrt -f 10 npm run bench` runs the benchmark ahead of the other work.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinary, supportedNodeLines } from '../scripts/node-lines.mjs';
import { ensureBuilt, userEnv } from './lib.mjs';

/** Each script, and whether it runs on every supported Node line or on the first (Node 22) only. */
const scripts = [
  { name: 'startup', everyLine: true },
  { name: 'tx-list', everyLine: false },
  { name: 'batch', everyLine: false },
  { name: 'simulator', everyLine: false },
  { name: 'backoffice', everyLine: false },
  { name: 'claim', everyLine: false },
  { name: 'history', everyLine: false },
  { name: 'batch-size', everyLine: false },
  { name: 'documents', everyLine: false },
  { name: 'team-store', everyLine: false },
  { name: 'listener', everyLine: false },
];

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !scripts.some((script) => script.name === name));
if (unknown.length > 0) {
  console.error(`error: no benchmark named ${unknown.join(', ')}\nhint: one of ${scripts.map((script) => script.name).join(', ')}`);
  process.exit(2);
}
const selected = chosen.length > 0 ? scripts.filter((script) => chosen.includes(script.name)) : scripts;

ensureBuilt();
const machineLine = process.versions.node.split('.')[0];
const nodes = [];
for (const line of selected.some((script) => script.everyLine) ? supportedNodeLines : supportedNodeLines.slice(0, 1)) {
  if (line === machineLine) {
    nodes.push({ line: `${line} (this machine)`, binary: process.execPath });
    continue;
  }
  try {
    nodes.push({ line, binary: await nodeBinary(line) });
  } catch (error) {
    console.error(`warning: ${error.message}; Node ${line} is left out`);
  }
}
if (nodes.length === 0) {
  console.error(
    'error: no supported Node line (22 or 24) to run the benchmarks on\nhint: the npm registry must be reachable once to install one (npm config get registry)',
  );
  process.exit(1);
}

const workDir = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-results-'));
const resultsFile = path.join(workDir, 'results.jsonl');
let failed = false;
try {
  for (const script of selected) {
    for (const node of script.everyLine ? nodes : nodes.slice(0, 1)) {
      const file = fileURLToPath(new URL(`./${script.name}.mjs`, import.meta.url));
      const run = spawnSync(node.binary, [file], { stdio: 'inherit', env: { ...userEnv(), FSAPI_BENCH_RESULTS: resultsFile } });
      if (run.status !== 0) {
        failed = true;
        console.error(`warning: bench/${script.name}.mjs on Node ${node.line} exited ${run.status ?? run.signal}`);
      }
    }
  }
  printSideBySide(readResults(resultsFile));
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

function readResults(file) {
  try {
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** One row per measurement, one column per Node version: the ratio (and ms) each run printed. */
function printSideBySide(results) {
  const versions = [...new Set(results.map((result) => result.node))];
  if (versions.length < 2) return;
  // A title names its Node version; the rest of it names the measurement.
  const measurements = new Map();
  for (const result of results) {
    const title = result.title.replace(` on Node ${result.node}`, '');
    for (const row of result.rows) {
      const key = `${title}\u0000${row.name}`;
      if (!measurements.has(key)) measurements.set(key, { title, name: row.name, target: row.target, byVersion: {} });
      measurements.get(key).byVersion[result.node] = row;
    }
  }
  const cell = (row) => {
    if (!row || !Number.isFinite(row.ms)) return '-'.padStart(20);
    const ratio = row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}x `;
    return `${ratio}(${row.ms.toFixed(0)} ms)`.padStart(20);
  };
  console.log(`\nSide by side (ratio to node -e 0 of the same Node, median ms)`);
  console.log(`  ${'measurement'.padEnd(56)}${versions.map((version) => `Node ${version}`.padStart(20)).join('')}`);
  let title;
  for (const measurement of measurements.values()) {
    if (measurement.title !== title) {
      title = measurement.title;
      console.log(`  ${title.slice(0, 100)}`);
    }
    const targets = versions.map((version) => measurement.byVersion[version]?.target).filter(Boolean);
    const note = targets.length > 0 ? `  target <= ${[...new Set(targets)].join('x / ')}x` : '';
    console.log(`    ${measurement.name.slice(0, 54).padEnd(54)}${versions.map((version) => cell(measurement.byVersion[version])).join('')}${note}`);
  }
}
