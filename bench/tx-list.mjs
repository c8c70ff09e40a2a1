// `fsapi tx list --all --json > /dev/null` against `simulator serve` seeded with 20,000 transactions,
// side by side with bench/minimal-pager.mjs (plain fetch, same endpoint, same JSON written), alternating
// runs in one go; then the same at 2,000 rows to show that peak RSS does not grow with the row count.
// Targets (issue 3): at most 1.5x the minimal script; peak RSS under 120 MB and flat from 2,000 to 20,000.
// Runnable alone: node bench/tx-list.mjs [--rounds N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, ensureBuilt, printRows, runOnce } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.js', import.meta.url));
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
        { name: `minimal fetch script, ${rows.toLocaleString('en-US')} rows`, command: process.execPath, args: [minimal, served.url], options: { env: minimalEnv } },
        { name: `fsapi tx list --all --json, ${rows.toLocaleString('en-US')} rows`, command: process.execPath, args: fsapiArgs, options: { env } },
      ],
      rounds,
    );
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
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const roundsIndex = process.argv.indexOf('--rounds');
  const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 5;
  await benchTxList({ rounds: Number.isInteger(rounds) && rounds > 0 ? rounds : 5 });
}
