// Shared helpers for the benchmarks: run commands side by side, alternating, and report medians, so a
// noisy shared machine slows the baseline and the subject alike and the ratio stays meaningful.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const timeBinary = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Runs a command once; returns wall milliseconds and, where /usr/bin/time exists, peak RSS in MB. */
export function runOnce(command, args, { env = process.env, stdout = 'ignore', input } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const [file, argv] = timeBinary ? [timeBinary, ['-f', '%M', command, ...args]] : [command, args];
    const child = spawn(file, argv, { env, stdio: [input === undefined ? 'ignore' : 'pipe', stdout, 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout?.resume(); // stdout: 'pipe' is read and dropped, as a pager or a script would read it
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      const lines = stderr.trim().split('\n');
      const rssKb = timeBinary ? Number(lines.at(-1)) : NaN;
      resolve({ ms, rssMb: rssKb / 1024 });
    });
  });
}

/** Alternates the subjects `rounds` times after one warm-up each; returns the median time and peak RSS of each. */
export async function compare(subjects, rounds = 15) {
  for (const subject of subjects) await runOnce(subject.command, subject.args, subject.options);
  const samples = subjects.map(() => ({ ms: [], rss: [] }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [i, subject] of subjects.entries()) {
      const result = await runOnce(subject.command, subject.args, subject.options);
      samples[i].ms.push(result.ms);
      samples[i].rss.push(result.rssMb);
    }
  }
  return subjects.map((subject, i) => ({ name: subject.name, ms: median(samples[i].ms), rssMb: Math.max(...samples[i].rss) }));
}

/**
 * The environment of a user's shell: without NODE_EXTRA_CA_CERTS, which this machine sets and which makes
 * Node 20 read a large certificate file at every start (`node -e 0` about 3x slower than for a user).
 */
export function userEnv(env = process.env) {
  const copy = { ...env };
  delete copy.NODE_EXTRA_CA_CERTS;
  return copy;
}

export function printRows(title, rows) {
  // bench/run.mjs collects every script's rows here to print them side by side, one column per Node line.
  if (process.env.FSAPI_BENCH_RESULTS) appendFileSync(process.env.FSAPI_BENCH_RESULTS, `${JSON.stringify({ node: process.versions.node, title, rows })}\n`);
  console.log(`\n${title}`);
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '' : `  ${row.ratio.toFixed(2)}x${row.target ? ` (target <= ${row.target}x)` : ''}`;
    const rss = Number.isFinite(row.rssMb) ? `  peak RSS ${row.rssMb.toFixed(1)} MB` : '';
    const ms = Number.isFinite(row.ms) ? `${row.ms.toFixed(1).padStart(8)} ms` : `${'-'.padStart(8)}   `;
    console.log(`  ${row.name.padEnd(58)} ${ms}${ratio}${rss}${row.note ? `  ${row.note}` : ''}`);
  }
}

export function hasBuild() {
  return existsSync(new URL('../dist/cli.cjs', import.meta.url)) && existsSync(new URL('../dist/engine.cjs', import.meta.url));
}

export function ensureBuilt() {
  if (!hasBuild()) spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
}
