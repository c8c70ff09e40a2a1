// `fsapi statement` and `fsapi collections` over the whole seeded history, side by side with
// `fsapi tx list --all --json > /dev/null` on the same served simulator, alternating runs; at 20,000 and
// at 2,000 seeded transactions, to show that peak RSS does not grow with the number of rows.
// Targets (issue 13): each within 1.3x of tx list --all --json; peak RSS flat (at most 1.25x) from 2,000
// to 20,000 rows. NODE_EXTRA_CA_CERTS is unset in the children (GUIDE.md: measure what users get).
// Runnable alone: node bench/backoffice.mjs [--rounds N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, ensureBuilt, printRows, runOnce } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };
const TARGET_RATIO = 1.3;
const FLAT_RSS_GROWTH = 1.25;

async function measure(rows, rounds) {
  const home = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-books-'));
  const env = { ...process.env, FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') };
  for (const key of ['FSAPI_PROFILE', 'FSAPI_TOKEN', 'FSAPI_BASE_URL', 'FSAPI_VERBOSE', 'NODE_EXTRA_CA_CERTS']) delete env[key];
  const served = await startServedSimulator(['--seed-transactions', String(rows)], env);
  try {
    await runOnce(process.execPath, [cli, 'auth', 'login', '--profile', 'bench', '--env', 'sandbox', '--base-url', served.url], {
      env: { ...env, ...credentials },
    });
    // The seeded history spans the 90 days before the simulator started: ask for all of it.
    const since = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);
    const base = [cli, '--profile', 'bench', '--json'];
    const label = rows.toLocaleString('en-US');
    return await compare(
      [
        { name: `fsapi tx list --all --json, ${label} rows`, command: process.execPath, args: [...base, 'tx', 'list', '--all'], options: { env } },
        { name: `fsapi statement --json, ${label} rows`, command: process.execPath, args: [...base, 'statement', '--since', since], options: { env } },
        { name: `fsapi collections --json, ${label} rows`, command: process.execPath, args: [...base, 'collections', '--since', since], options: { env } },
      ],
      rounds,
    );
  } finally {
    await served.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchBackoffice({ rounds = 5 } = {}) {
  ensureBuilt();
  const large = await measure(20_000, rounds);
  const small = await measure(2_000, rounds);
  const rows = [];
  const failures = [];
  for (const [results, size] of [
    [large, '20,000'],
    [small, '2,000'],
  ]) {
    const [list, ...subjects] = results;
    rows.push({ ...list });
    for (const subject of subjects) {
      const ratio = subject.ms / list.ms;
      rows.push({ ...subject, ratio, target: size === '20,000' ? TARGET_RATIO : undefined });
      if (size === '20,000' && ratio > TARGET_RATIO) failures.push(`${subject.name}: ${ratio.toFixed(2)}x > ${TARGET_RATIO}x`);
    }
  }
  for (let i = 1; i < 3; i += 1) {
    const growth = large[i].rssMb / small[i].rssMb;
    rows.find((row) => row.name === large[i].name).note = `RSS 20,000 / 2,000 rows: ${growth.toFixed(2)}x`;
    if (!(growth <= FLAT_RSS_GROWTH)) failures.push(`${large[i].name}: RSS grew ${growth.toFixed(2)}x`);
  }
  printRows(`statement and collections vs tx list --all --json > /dev/null (median of ${rounds} alternating runs; peak RSS is the largest run)`, rows);
  console.log(failures.length === 0 ? '  targets met' : `  TARGETS MISSED: ${failures.join('; ')}`);
  return rows.map((row) => ({ ...row, value: row.ms, unit: 'ms' }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const roundsIndex = process.argv.indexOf('--rounds');
  const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : 5;
  await benchBackoffice({ rounds: Number.isInteger(rounds) && rounds > 0 ? rounds : 5 });
}
