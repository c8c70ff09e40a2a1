// `fsapi tx list --all --json > /dev/null` against `simulator serve` seeded with 20,000 transactions,
// side by side with bench/minimal-pager.mjs (plain fetch, same endpoint, same JSON written), alternating
// runs in one go; then the same at 2,000 rows to show that peak RSS does not grow with the row count.
// Targets (issue 3): at most 1.5x the minimal script; peak RSS under 120 MB and flat from 2,000 to 20,000.
// Peak RSS comes from /usr/bin/time -f %M, or where that is missing from each process's own
// process.resourceUsage().maxRSS at exit. Runnable alone: node bench/tx-list.mjs [--rounds N]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, ensureBuilt, printRows, runOnce } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const minimal = fileURLToPath(new URL('./minimal-pager.mjs', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };

const TARGET_RATIO = 1.5;
const TARGET_RSS_MB = 120;

/** Runs a command to completion and returns its stdout (for the token and the row-count check). */
function capture(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    let stderr = '';
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-400)}`)),
    );
  });
}

const RSS_REPORTER = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write('\\nfsapi-bench-maxrss ' + process.resourceUsage().maxRSS + '\\n'))",
)}`;

/** Peak RSS in MB of a node script, reported by the script's own process as it exits (largest of 3 runs). */
async function peakRssOfNode(args, env) {
  let peak = 0;
  for (let run = 0; run < 3; run += 1) {
    const stderr = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', RSS_REPORTER, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let text = '';
      child.stderr.on('data', (chunk) => (text += chunk));
      child.on('error', reject);
      child.on('close', () => resolve(text));
    });
    const match = /fsapi-bench-maxrss (\d+)/.exec(stderr);
    if (match) peak = Math.max(peak, Number(match[1]) / 1024);
  }
  return peak || NaN;
}

/** One seeded simulator, one logged-in profile, the two subjects measured alternately. */
async function measure(rows, rounds) {
  const home = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-tx-'));
  const env = { ...process.env, FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') };
  for (const key of ['FSAPI_PROFILE', 'FSAPI_TOKEN', 'FSAPI_BASE_URL', 'FSAPI_VERBOSE']) delete env[key];
  const served = await startServedSimulator(['--seed-transactions', String(rows)], env);
  try {
    await runOnce(process.execPath, [cli, 'auth', 'login', '--profile', 'bench', '--env', 'sandbox', '--base-url', served.url], {
      env: { ...env, ...credentials },
    });
    // The token goes to the minimal script through the environment, never argv.
    const token = (await capture(process.execPath, [cli, '--profile', 'bench', 'auth', 'token'], env)).trim();
    const fsapiArgs = [cli, '--profile', 'bench', '--json', 'tx', 'list', '--all'];
    const minimalEnv = { ...env, BENCH_TOKEN: token };

    // Both must export every row, or the timing means nothing.
    const fsapiCount = JSON.parse(await capture(process.execPath, fsapiArgs, env)).length;
    const minimalCount = JSON.parse(await capture(process.execPath, [minimal, served.url], minimalEnv)).length;
    if (fsapiCount !== rows || minimalCount !== rows) {
      throw new Error(`row counts differ: seeded ${rows}, fsapi ${fsapiCount}, minimal ${minimalCount}`);
    }

    const [baseline, subject] = await compare(
      [
        {
          name: `minimal fetch script, ${rows.toLocaleString('en-US')} rows`,
          command: process.execPath,
          args: [minimal, served.url],
          options: { env: minimalEnv },
        },
        { name: `fsapi tx list --all --json, ${rows.toLocaleString('en-US')} rows`, command: process.execPath, args: fsapiArgs, options: { env } },
      ],
      rounds,
    );
    if (!existsSync('/usr/bin/time')) {
      // No GNU time here: read each subject's own peak RSS (process.resourceUsage) at its exit instead.
      baseline.rssMb = await peakRssOfNode([minimal, served.url], minimalEnv);
      subject.rssMb = await peakRssOfNode(fsapiArgs, env);
    }
    return { baseline, subject };
  } finally {
    await served.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchTxList({ rounds = 5 } = {}) {
  ensureBuilt();
  const large = await measure(20_000, rounds);
  const small = await measure(2_000, rounds);
  const growth = large.subject.rssMb / small.subject.rssMb;
  const rows = [
    { ...large.baseline },
    {
      ...large.subject,
      ratio: large.subject.ms / large.baseline.ms,
      target: TARGET_RATIO,
      note: `RSS target < ${TARGET_RSS_MB} MB`,
    },
    { ...small.baseline },
    {
      ...small.subject,
      ratio: small.subject.ms / small.baseline.ms,
      note: `RSS 20,000 / 2,000 rows: ${growth.toFixed(2)}x`,
    },
  ].map((row) => ({ ...row, value: row.ms, unit: 'ms' }));
  printRows(`tx list --all --json > /dev/null (median of ${rounds} alternating runs; peak RSS is the largest run)`, rows);
  const failures = [];
  if (rows[1].ratio > TARGET_RATIO) failures.push(`time ratio ${rows[1].ratio.toFixed(2)}x > ${TARGET_RATIO}x`);
  if (!(large.subject.rssMb < TARGET_RSS_MB)) failures.push(`peak RSS ${large.subject.rssMb.toFixed(1)} MB >= ${TARGET_RSS_MB} MB`);
  if (growth > 1.25) failures.push(`RSS grew ${growth.toFixed(2)}x from 2,000 to 20,000 rows`);
  console.log(failures.length === 0 ? '  targets met' : `  TARGETS MISSED: ${failures.join('; ')}`);
  // For bench/run.mjs: the timings above, and the memory figures as rows of their own.
  const memory = [
    { name: 'peak RSS, minimal fetch script, 20,000 rows', value: large.baseline.rssMb, unit: 'MB' },
    { name: 'peak RSS, fsapi tx list --all --json, 20,000 rows', value: large.subject.rssMb, unit: 'MB', note: `target < ${TARGET_RSS_MB} MB` },
    { name: 'peak RSS, fsapi tx list --all --json, 2,000 rows', value: small.subject.rssMb, unit: 'MB' },
    { name: 'peak RSS growth, fsapi, 2,000 -> 20,000 rows', value: growth, unit: 'x', note: 'flat: at most 1.25x' },
  ];
  return [...rows, ...memory];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const roundsIndex = process.argv.indexOf('--rounds');
  const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 5;
  await benchTxList({ rounds: Number.isInteger(rounds) && rounds > 0 ? rounds : 5 });
}
