// Batch payouts: `fsapi transfer batch --yes --concurrency 8` against `simulator serve --latency-ms 50`,
// wall time as a ratio to the ideal schedule (rows x requests per row x latency / concurrency, the
// requests per row counted from the simulator's request log) and peak RSS at 100 and 1,000 rows.
// Target: at most 1.3x the ideal at 1,000 rows; memory flat from 100 to 1,000 rows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printRows, runOnce } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };
const LATENCY_MS = 50;
const CONCURRENCY = 8;
const TARGET_RATIO = 1.3;
/** The same reading of "flat" as bench/tx-list.mjs: what is left is V8's own heap sizing. */
const FLAT_RSS_GROWTH = 1.25;

/** `count` rows with accounts and amounts unique to `tag`, so no run resumes another. */
function batchCsv(count, tag) {
  const lines = ['account_number,bank,amount,narration'];
  for (let i = 0; i < count; i += 1) {
    lines.push(
      `${String(tag).padStart(2, '0')}${String(i).padStart(6, '0')}57,${['gtb', '000004', 'Access Bank'][i % 3]},${1000 + i}.${String(tag).padStart(2, '0')},Bench ${tag} row ${i}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function simulatorRequests(url) {
  const response = await fetch(`${url}/__simulator/requests`);
  return (await response.json()).data;
}

export async function benchBatch({ sizes = [100, 1000] } = {}) {
  const root = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-batch-'));
  const baseEnv = { ...process.env };
  for (const key of Object.keys(baseEnv)) if (key.startsWith('FSAPI_')) delete baseEnv[key];
  const served = await startServedSimulator(['--latency-ms', String(LATENCY_MS)], { ...baseEnv, FSAPI_DATA_DIR: path.join(root, 'sim') });
  const rows = [];
  try {
    for (const [index, size] of sizes.entries()) {
      // A fresh home per run: its journal starts empty, as for a new file.
      const home = path.join(root, `home-${index}`);
      const env = { ...baseEnv, FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') };
      await runOnce(process.execPath, [cli, 'auth', 'login', '--profile', 'bench', '--env', 'sandbox', '--base-url', served.url], {
        env: { ...env, ...credentials },
      });
      const file = path.join(home, `batch-${size}.csv`);
      writeFileSync(file, batchCsv(size, index + 10));
      await fetch(`${served.url}/__simulator/requests`, { method: 'DELETE' });
      const result = await runOnce(process.execPath, [cli, 'transfer', 'batch', file, '--yes', '--concurrency', String(CONCURRENCY)], { env });
      const log = await simulatorRequests(served.url);
      const perRow = log.filter((r) => r.path === '/v1/transfer/name-enquiry' || (r.method === 'POST' && r.path === '/v1/transfer')).length / size;
      const posts = log.filter((r) => r.method === 'POST' && r.path === '/v1/transfer').length;
      if (posts !== size) throw new Error(`expected ${size} POST /v1/transfer, the simulator saw ${posts}`);
      const idealMs = (size * perRow * LATENCY_MS) / CONCURRENCY;
      rows.push({
        name: `transfer batch, ${size} rows (ideal ${(idealMs / 1000).toFixed(2)} s)`,
        ms: result.ms,
        ratio: result.ms / idealMs,
        target: size >= 1000 ? TARGET_RATIO : undefined,
        rssMb: result.rssMb,
        note: `${perRow} requests/row + ${log.length - perRow * size} per run`,
      });
    }
  } finally {
    await served.stop();
    rmSync(root, { recursive: true, force: true });
  }
  printRows(`Batch payouts (latency ${LATENCY_MS} ms, --concurrency ${CONCURRENCY}; ratio to the ideal schedule)`, rows);
  const [small, large] = [rows[0], rows.at(-1)];
  const growth = large.rssMb / small.rssMb;
  console.log(`  peak RSS ${sizes.at(-1)} / ${sizes[0]} rows: ${growth.toFixed(2)}x (flat: at most ${FLAT_RSS_GROWTH}x)`);
  const failures = [];
  if (large.ratio > TARGET_RATIO) failures.push(`time ratio ${large.ratio.toFixed(2)}x > ${TARGET_RATIO}x`);
  if (growth > FLAT_RSS_GROWTH) failures.push(`RSS grew ${growth.toFixed(2)}x`);
  console.log(failures.length === 0 ? '  targets met' : `  TARGETS MISSED: ${failures.join('; ')}`);
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchBatch();
