// Cost independent of a batch file's size: `transfer batch FILE --dry-run` and `transfer batch FILE --yes
// --concurrency 8` of a 3,000-row file and of a 100,000-row file, each run in a fresh home (its journal
// empty) against its own `simulator serve` with no added latency. Reported as ratios, large over small:
//   peak RSS <= 1.3x, CPU (user + system) per row <= 1.25x, for the dry run and for the real run.
// CPU rather than wall time: the real run's wall time is mostly the simulator's, and the machine is shared.
//   node bench/batch-size.mjs [--small 3000] [--large 100000] [--only dry|real] [--rounds 1]
// The real 100,000-row run takes many minutes; `--only dry` measures the dry runs alone. A file fsapi
// refuses (too many rows, too large) is reported as refused, a missed target, not as a crash.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printRows, userEnv } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };
const CPU_TARGET = 1.25;
const RSS_TARGET = 1.3;
const CONCURRENCY = 8;
/** Banks the simulator lists, named as people write them in a file: an alias, a code, a full name. */
const BANKS = ['gtb', '000004', 'Access Bank', 'Zenith Bank', '090267', 'uba'];
/** Narrations of 20 to 40 characters, as a payroll or supplier file has them. */
const NARRATIONS = [
  (tag, i) => `Salary Nov 2026 staff ${tag}-${i}`,
  (tag, i) => `Invoice INV-${tag}${String(i).padStart(6, '0')} settlement`,
  (tag, i) => `Supplier payment PO ${tag}/${i}`,
  (tag, i) => `Transport refund wk ${(i % 52) + 1} ref ${tag}${i}`,
];

function usage(message) {
  console.error(`error: ${message}\nhint: node bench/batch-size.mjs [--small 3000] [--large 100000] [--only dry|real] [--rounds 1]`);
  process.exit(2);
}
function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = process.argv[at + 1];
  if (value === undefined) usage(`--${name} needs a value`);
  return value;
}
function wholeOption(name, fallback) {
  const value = option(name, undefined);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 999_999)
    usage(`--${name} must be a whole number from 1 to 999999, not ${JSON.stringify(value)}`);
  return Number(value);
}
const SMALL = wholeOption('small', 3000);
const LARGE = wholeOption('large', 100_000);
const ROUNDS = wholeOption('rounds', 1);
const ONLY = option('only', undefined);
if (ONLY !== undefined && ONLY !== 'dry' && ONLY !== 'real') usage(`--only must be dry or real, not ${JSON.stringify(ONLY)}`);
const KINDS = [
  { kind: 'dry', label: 'dry run', args: ['--dry-run'] },
  { kind: 'real', label: `--yes --concurrency ${CONCURRENCY}`, args: ['--yes', '--concurrency', String(CONCURRENCY)] },
].filter((k) => ONLY === undefined || k.kind === ONLY);

/**
 * `count` rows whose accounts (tag, row number, then 57: none of the simulator's failing or pending test
 * suffixes) are unique to `tag`: every file is new to its home, never a resume, and no two rows of it pay
 * the same account, bank and amount. Amounts of ₦1 to ₦20: 100,000 rows and their ₦10.75 charges come to
 * about ₦2.1 million, within the ₦5 million a new simulator opens with (src/simulator/data.ts).
 */
function batchCsv(count, tag) {
  const lines = ['account_number,bank,amount,narration'];
  const kobo = String(tag % 100).padStart(2, '0');
  for (let i = 0; i < count; i += 1) {
    lines.push(
      `${String(tag).padStart(2, '0')}${String(i).padStart(6, '0')}57,${BANKS[i % BANKS.length]},${1 + (i % 20)}.${kobo},${NARRATIONS[i % NARRATIONS.length](tag, i)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Runs fsapi once under /usr/bin/time: CPU seconds (user + system), wall ms and peak RSS MB; or, when
 * fsapi exits 2 (a usage error: nothing sent, here a file over its limits), the first line of its error.
 */
function measure(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%U %S %M', process.execPath, cli, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stderr.trim().split('\n');
      const [user, system, rssKb] = lines.at(-1).split(' ').map(Number);
      const error = lines.find((line) => line.startsWith('error:')) ?? lines.find((line) => line.trim() !== '') ?? '';
      // /usr/bin/time exits with the command's code.
      if (code === 2) return resolve({ refused: error.replace(/^error:\s*/, '') });
      if (code !== 0) return reject(new Error(`fsapi ${args.slice(0, 2).join(' ')} exited ${code}: ${error}`));
      resolve({ cpu: user + system, ms: Number(process.hrtime.bigint() - started) / 1e6, rssMb: rssKb / 1024 });
    });
  });
}

/** The first rows of a report that are neither pending nor successful, with their messages. */
function reportTrouble(report) {
  if (!existsSync(report)) return '';
  const rows = parse(readFileSync(report), { columns: true }).filter((row) => row.status !== 'pending' && row.status !== 'successful');
  return rows.length === 0
    ? ''
    : ` (${rows.length} rows; ${rows
        .slice(0, 3)
        .map((row) => `line ${row.line}: ${row.status}: ${row.message}`)
        .join(' | ')})`;
}

/** One run in a fresh home, against a simulator of its own: nothing from an earlier run is looked up. */
async function runInFreshHome(work, baseEnv, rows, tag, kind) {
  const home = path.join(work, `home-${tag}`);
  mkdirSync(home, { recursive: true });
  const env = { ...baseEnv, FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') };
  const served = await startServedSimulator([], { ...baseEnv, FSAPI_DATA_DIR: path.join(home, 'sim') });
  try {
    const login = spawnSync(process.execPath, [cli, 'auth', 'login', '--profile', 'bench', '--env', 'sandbox', '--base-url', served.url], {
      env: { ...env, ...credentials },
    });
    if (login.status !== 0) throw new Error(`login failed: ${login.stderr}`);
    const file = path.join(home, `batch-${rows}.csv`);
    writeFileSync(file, batchCsv(rows, tag));
    let result;
    try {
      result = await measure(['transfer', 'batch', file, ...kind.args], { ...env, FSAPI_PROFILE: 'bench' });
    } catch (error) {
      // A run that ended badly: say which rows and why, from its report, before the home is removed.
      throw new Error(`${error.message.split('\n')[0]}${reportTrouble(`${file}.report.csv`)}`);
    }
    return result.refused === undefined ? result : { refused: result.refused.replaceAll(file, path.basename(file)) };
  } finally {
    await served.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchBatchSize() {
  const work = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-batch-size-'));
  const baseEnv = userEnv();
  // No FSAPI_ setting of the caller's (a profile, a latency, a rate limit) reaches fsapi or the simulator.
  for (const key of Object.keys(baseEnv)) if (key.startsWith('FSAPI_')) delete baseEnv[key];
  const rows = [];
  const failures = [];
  let tag = 10;
  try {
    for (const kind of KINDS) {
      const results = [];
      for (const size of [SMALL, LARGE]) {
        const samples = { cpu: [], ms: [], rss: [] };
        let stopped;
        for (let round = 0; round < ROUNDS && stopped === undefined; round += 1) {
          const started = Date.now();
          // Tags 10 to 99: two digits of every account number, and the kobo of every amount.
          tag = tag >= 99 ? 10 : tag + 1;
          let result;
          try {
            result = await runInFreshHome(work, baseEnv, size, tag, kind);
          } catch (error) {
            // Any other failure is the benchmark's: the rows measured so far are still printed, then exit 1.
            process.exitCode = 1;
            result = { failed: String(error.message).split('\n')[0] };
          }
          const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
          if (result.refused !== undefined) stopped = `refused: ${result.refused}`;
          else if (result.failed !== undefined) stopped = `failed: ${result.failed}`;
          else {
            samples.cpu.push(result.cpu);
            samples.ms.push(result.ms);
            samples.rss.push(result.rssMb);
          }
          console.error(
            `  ${kind.label}, ${size.toLocaleString('en')} rows (${took}): ${stopped ?? `${result.cpu.toFixed(2)} s CPU, peak RSS ${result.rssMb.toFixed(1)} MB`}`,
          );
        }
        const name = `transfer batch ${kind.label}, ${size.toLocaleString('en')} rows`;
        if (stopped !== undefined) {
          rows.push({ name, ms: NaN, note: stopped });
          failures.push(`${kind.label} ${size.toLocaleString('en')} rows ${stopped.split(':')[0]}`);
          results.push(undefined);
          continue;
        }
        const measured = { cpuPerRowMs: (median(samples.cpu) * 1000) / size, ms: median(samples.ms), rssMb: Math.max(...samples.rss) };
        results.push(measured);
        rows.push({
          name,
          ms: measured.ms,
          rssMb: measured.rssMb,
          note: `CPU ${median(samples.cpu).toFixed(2)} s = ${measured.cpuPerRowMs.toFixed(3)} ms/row`,
        });
      }
      const [small, large] = results;
      if (small && large) {
        const cpuRatio = large.cpuPerRowMs / small.cpuPerRowMs;
        const rssRatio = large.rssMb / small.rssMb;
        rows.push({
          name: `  ${kind.label}: ${LARGE.toLocaleString('en')} / ${SMALL.toLocaleString('en')} rows, CPU per row`,
          ms: NaN,
          ratio: cpuRatio,
          target: CPU_TARGET,
          note: `peak RSS ${large.rssMb.toFixed(1)} / ${small.rssMb.toFixed(1)} MB = ${rssRatio.toFixed(2)}x (target <= ${RSS_TARGET}x)`,
        });
        if (cpuRatio > CPU_TARGET) failures.push(`${kind.label} CPU per row ${cpuRatio.toFixed(2)}x`);
        if (rssRatio > RSS_TARGET) failures.push(`${kind.label} RSS ${rssRatio.toFixed(2)}x`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  printRows(
    `Batch size: ${LARGE.toLocaleString('en')} rows against ${SMALL.toLocaleString('en')}, each in a fresh home (ratios: CPU per row, then peak RSS)`,
    rows,
  );
  console.log(failures.length === 0 ? '  targets met' : `  TARGETS MISSED: ${failures.join('; ')}`);
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchBatchSize();
