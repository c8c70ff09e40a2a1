// The PDF documents. Two measurements:
// 1. `fsapi statement --pdf` end to end on a served simulator seeded with 100,000 transactions (a sandbox
//    profile: every page marked), beside `fsapi statement --json` over the same period (the same two
//    readings of the list are not made by --json: the ratio shows what the PDF costs on top of reading),
//    and the PDF's time a transaction. Target: 0.3 ms a row or less.
// 2. Peak RSS of the statement's PDF writer at 10,000 and at 1,000,000 transactions, driven from a
//    generated stream of rows (bench/statement-pdf-driver.ts, through tsx): the simulator cannot seed a
//    million rows quickly, and the writer is what must stay flat. Target: 1M rows within 1.3x of 10k.
//    The million takes minutes (pdfkit lays out each line of text): 13 minutes on the shared two-core
//    machine under load. `--rows 10000,100000` for a quicker look.
// NODE_EXTRA_CA_CERTS is unset in the children (GUIDE.md: measure what users get).
// Runnable alone: node bench/documents.mjs [--cli-rows 100000] [--rows 10000,1000000] [--rounds N]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, ensureBuilt, printRows, runOnce, userEnv } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const driver = fileURLToPath(new URL('./statement-pdf-driver.ts', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };
const FLAT_RSS_GROWTH = 1.3;
const MS_A_ROW = 0.3;

async function endToEnd(rows, rounds, dir) {
  const env = { ...userEnv(), FSAPI_CONFIG_DIR: path.join(dir, 'config'), FSAPI_DATA_DIR: path.join(dir, 'data') };
  for (const key of ['FSAPI_PROFILE', 'FSAPI_TOKEN', 'FSAPI_BASE_URL', 'FSAPI_VERBOSE']) delete env[key];
  const served = await startServedSimulator(['--seed-transactions', String(rows)], env);
  try {
    await runOnce(process.execPath, [cli, 'auth', 'login', '--profile', 'bench', '--env', 'sandbox', '--base-url', served.url], {
      env: { ...env, ...credentials },
    });
    // Far enough back to hold every seeded transaction: the rows a row is timed by.
    const since = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
    const base = [cli, '--profile', 'bench'];
    const label = rows.toLocaleString('en-US');
    const pdf = path.join(dir, 'statement.pdf');
    const results = await compare(
      [
        {
          name: `fsapi statement --json, ${label} rows`,
          command: process.execPath,
          args: [...base, '--json', 'statement', '--since', since],
          options: { env },
        },
        {
          name: `fsapi statement --pdf, ${label} rows`,
          command: process.execPath,
          args: [...base, 'statement', '--since', since, '--pdf', pdf],
          options: { env },
        },
      ],
      rounds,
    );
    results[1].ratio = results[1].ms / results[0].ms;
    results[1].msARow = results[1].ms / rows;
    // The target is a long statement's: in a short one the start and the first reading weigh on each row.
    results[1].msTarget = rows >= 100_000 ? MS_A_ROW : undefined;
    results[1].note = `${results[1].msARow.toFixed(3)} ms a row${results[1].msTarget ? ` (target <= ${MS_A_ROW})` : ''}; ${(statSync(pdf).size / 1e6).toFixed(1)} MB PDF`;
    return results;
  } finally {
    await served.stop();
  }
}

async function writerAlone(rows, dir) {
  const file = path.join(dir, `writer-${rows}.pdf`);
  const result = await runOnce(process.execPath, ['--import', 'tsx', driver, String(rows), file], { env: userEnv() });
  const size = statSync(file).size;
  rmSync(file, { force: true });
  return {
    name: `statement PDF writer alone, ${rows.toLocaleString('en-US')} rows`,
    ms: result.ms,
    rssMb: result.rssMb,
    note: `${(size / 1e6).toFixed(1)} MB PDF`,
  };
}

export async function benchDocuments({ cliRows: cliCount = 100_000, rows = [10_000, 1_000_000], rounds = 3 } = {}) {
  ensureBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-documents-'));
  try {
    const cliRows = await endToEnd(cliCount, rounds, dir);
    const writer = [];
    for (const count of rows) writer.push(await writerAlone(count, dir));
    const [small, large] = [writer[0], writer.at(-1)];
    const growth = large.rssMb / small.rssMb;
    large.note += `; RSS ${large.name.split(', ')[1]} / ${small.name.split(', ')[1]}: ${growth.toFixed(2)}x`;
    printRows(`statement --pdf (median of ${rounds} alternating runs) and the PDF writer alone (one run each; peak RSS)`, [...cliRows, ...writer]);
    const missed = [
      ...(writer.length >= 2 && growth > FLAT_RSS_GROWTH ? [`writer RSS grew ${growth.toFixed(2)}x > ${FLAT_RSS_GROWTH}x`] : []),
      ...(cliRows[1].msTarget && cliRows[1].msARow > MS_A_ROW ? [`statement --pdf took ${cliRows[1].msARow.toFixed(3)} ms a row > ${MS_A_ROW}`] : []),
    ];
    console.log(missed.length === 0 ? '  targets met' : `  TARGETS MISSED: ${missed.join('; ')}`);
    return [...cliRows, ...writer].map((row) => ({ ...row, value: row.ms, unit: 'ms' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const option = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const rows = (option('--rows') ?? '10000,1000000')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const rounds = Number(option('--rounds') ?? 3);
  const cliRows = Number(option('--cli-rows') ?? 100_000);
  await benchDocuments({
    cliRows: Number.isInteger(cliRows) && cliRows > 0 ? cliRows : 100_000,
    rows,
    rounds: Number.isInteger(rounds) && rounds > 0 ? rounds : 3,
  });
}
