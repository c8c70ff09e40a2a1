// The cost of the journal's claim (src/transfers/claim.ts): the duplicate guard and the intent written as one
// IMMEDIATE transaction of the local store, against a plain append (which would let N identical sends
// started together all pay). Each intent is committed (fsync-ed) either way.
//   alone:       one process writes 400 intents
//   contention:  4 processes write 100 intents each into one journal at the same time
// Prints ms per intent for each, and checks that every intent arrived exactly once.
// Run: node bench/claim.mjs (uses tsx, a dev dependency).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const worker = fileURLToPath(new URL('./claim-worker.ts', import.meta.url));
const TOTAL = 400;
const PROCESSES = 4;
const ROUNDS = 3;

function runWorker(file, mode, count, tag) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, file, mode, String(count), String(tag)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`worker exited ${code}`))));
  });
}

async function measure(mode, processes) {
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-claim-'));
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: processes }, (_, i) => runWorker(dir, mode, TOTAL / processes, i + 1)));
    const wall = performance.now() - started;
    const { intents, references } = await runWorker(dir, 'count', 0, 0);
    if (intents !== TOTAL || references !== TOTAL) throw new Error(`${mode}: ${intents} intents, ${references} references`);
    return wall;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
for (const processes of [1, PROCESSES]) {
  const times = { append: [], claim: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    // Interleaved, so a busy moment of the machine hits both alike.
    times.append.push(await measure('append', processes));
    times.claim.push(await measure('claim', processes));
  }
  const append = median(times.append) / TOTAL;
  const claim = median(times.claim) / TOTAL;
  rows.push({ processes, append: append.toFixed(2), claim: claim.toFixed(2), ratio: (claim / append).toFixed(2) });
}
console.log(`journal intents, ${TOTAL} in all, median of ${ROUNDS} interleaved rounds (wall ms per intent, process start-up included)`);
console.log('processes\tappend\tclaim\tclaim/append');
for (const row of rows) console.log(`${row.processes}\t${row.append}\t${row.claim}\t${row.ratio}`);
