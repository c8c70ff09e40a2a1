// Cost independent of history: the same commands in a home whose journal is empty and in one holding
// 200,000 journalled transfers (seeded through the store, bench/seed-journal.ts), side by side in one
// run, each home with its own `simulator serve`. Reported as ratios, history over empty:
//   a new 2,000-row `transfer batch --yes`: CPU (user + system) per row <= 1.25x, peak RSS <= 1.3x
//   `transfer send`, `transfer log --limit 50`, a one-day `reconcile`: CPU <= 1.25x, peak RSS <= 1.3x
// and, in the home with the history, `transfer log --jsonl` (every record) against `transfer log --limit
// 50`: peak RSS <= 1.3x.
// CPU rather than wall time: the batch's wall time is the simulator's, and the machine is shared.
//   node bench/history.mjs [--rows 2000] [--history 200000] [--rounds 5]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printRows, userEnv } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const seeder = fileURLToPath(new URL('./seed-journal.ts', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };
const CPU_TARGET = 1.25;
const RSS_TARGET = 1.3;

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROWS = option('rows', 2000);
const HISTORY = option('history', 200_000);
const ROUNDS = option('rounds', 5);

/**
 * Runs fsapi once under /usr/bin/time; returns CPU seconds (user + system), wall ms and peak RSS MB, and
 * the lines it wrote when `countLines` (stdout then goes through a pipe, read as it comes, as `| wc -l`).
 */
function measure(args, env, { okCodes = [0], countLines = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%U %S %M', process.execPath, cli, ...args], {
      env,
      stdio: ['ignore', countLines ? 'pipe' : 'ignore', 'pipe'],
    });
    let stderr = '';
    let lines = 0;
    child.stdout?.on('data', (chunk) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const [user, system, rssKb] = stderr.trim().split('\n').at(-1).split(' ').map(Number);
      // /usr/bin/time exits with the command's code.
      if (!okCodes.includes(code)) return reject(new Error(`fsapi ${args.join(' ')} exited ${code}: ${stderr.slice(-600)}`));
      resolve({ cpu: user + system, ms: Number(process.hrtime.bigint() - started) / 1e6, rssMb: rssKb / 1024, lines });
    });
  });
}

/** `count` rows with accounts and amounts unique to `tag`: each batch is a new file, never a resume. */
function batchCsv(count, tag) {
  const lines = ['account_number,bank,amount,narration'];
  for (let i = 0; i < count; i += 1)
    lines.push(
      `${String(tag).padStart(3, '0')}${String(i).padStart(5, '0')}57,gtb,${10 + (i % 90)}.${String(tag % 100).padStart(2, '0')},History ${tag} row ${i}`,
    );
  return `${lines.join('\n')}\n`;
}

export async function benchHistory() {
  const work = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-history-'));
  const baseEnv = userEnv();
  for (const key of Object.keys(baseEnv)) if (key.startsWith('FSAPI_')) delete baseEnv[key];
  const homes = [];
  try {
    for (const name of ['empty', 'history']) {
      const home = path.join(work, name);
      const env = { ...baseEnv, FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data'), FSAPI_SIM_SETTLE_SECONDS: '0' };
      const served = await startServedSimulator([], { ...baseEnv, FSAPI_DATA_DIR: path.join(home, 'sim') });
      homes.push({ name, env, served, home });
      const login = spawnSync(process.execPath, [cli, 'auth', 'login', '--profile', 'bench', '--env', 'sandbox', '--base-url', served.url], {
        env: { ...env, ...credentials },
      });
      if (login.status !== 0) throw new Error(`login failed: ${login.stderr}`);
    }
    // The base address as fsapi records it: what the first send journals.
    const [empty, full] = homes;
    const started = Date.now();
    const seeded = spawnSync(
      process.execPath,
      ['--import', 'tsx', seeder, full.env.FSAPI_DATA_DIR, String(HISTORY), 'bench', full.served.url.replace(/\/$/, '')],
      { cwd: root, env: baseEnv, encoding: 'utf8' },
    );
    if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
    console.error(`${seeded.stdout.trim()} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    let tag = 100;
    let amount = 1;
    const since = () => new Date(Date.now() - 86_400_000).toISOString();
    const commands = [
      {
        name: 'transfer send',
        rounds: ROUNDS,
        args: () => ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', `${(amount += 1)}.07`, '--narration', 'history bench', '--yes'],
      },
      { name: 'transfer log --limit 50', rounds: ROUNDS, args: () => ['transfer', 'log', '--limit', '50'] },
      { name: 'reconcile (one day)', rounds: ROUNDS, args: () => ['reconcile', '--since', since()], okCodes: [0, 1] },
      {
        name: `transfer batch, ${ROWS.toLocaleString('en')} new rows`,
        // Three rounds: the median of three 2,000-row runs per home holds still on a busy machine.
        rounds: 3,
        perRow: ROWS,
        args: (home) => {
          const file = path.join(home.home, `batch-${(tag += 1)}.csv`);
          writeFileSync(file, batchCsv(ROWS, tag));
          return ['transfer', 'batch', file, '--yes', '--concurrency', '8'];
        },
      },
    ];
    const rows = [];
    const failures = [];
    for (const command of commands) {
      const samples = homes.map(() => ({ cpu: [], rss: [] }));
      for (let round = 0; round < command.rounds; round += 1) {
        for (const [i, home] of homes.entries()) {
          const result = await measure(command.args(home), { ...home.env, FSAPI_PROFILE: 'bench' }, { okCodes: command.okCodes });
          samples[i].cpu.push(result.cpu);
          samples[i].rss.push(result.rssMb);
        }
      }
      const [e, h] = samples.map((s) => ({ cpu: median(s.cpu) / (command.perRow ?? 1), rss: Math.max(...s.rss) }));
      const cpuRatio = h.cpu / e.cpu;
      const rssRatio = h.rss / e.rss;
      const unit = command.perRow ? 'ms CPU/row' : 'ms CPU';
      rows.push({
        name: `${command.name}: ${HISTORY.toLocaleString('en')} journalled / empty`,
        ms: NaN,
        ratio: cpuRatio,
        target: CPU_TARGET,
        rssMb: h.rss,
        note: `CPU ${(h.cpu * 1000).toFixed(command.perRow ? 2 : 0)} vs ${(e.cpu * 1000).toFixed(command.perRow ? 2 : 0)} ${unit}; RSS ${h.rss.toFixed(1)} vs ${e.rss.toFixed(1)} MB = ${rssRatio.toFixed(2)}x (target <= ${RSS_TARGET}x)`,
      });
      if (cpuRatio > CPU_TARGET) failures.push(`${command.name} CPU ${cpuRatio.toFixed(2)}x`);
      if (rssRatio > RSS_TARGET) failures.push(`${command.name} RSS ${rssRatio.toFixed(2)}x`);
    }
    // The whole history exported (`transfer log --jsonl | wc -l`) against a page of it, both in the home with
    // the history: the export reads and writes a page at a time, so its memory is a page's, not the history's.
    const exportRss = [];
    const pageRss = [];
    let exported = 0;
    for (let round = 0; round < Math.min(ROUNDS, 3); round += 1) {
      const env = { ...full.env, FSAPI_PROFILE: 'bench' };
      const whole = await measure(['transfer', 'log', '--jsonl'], env, { countLines: true });
      exportRss.push(whole.rssMb);
      exported = whole.lines;
      pageRss.push((await measure(['transfer', 'log', '--limit', '50'], env, { countLines: true })).rssMb);
    }
    const exportRatio = Math.max(...exportRss) / Math.max(...pageRss);
    rows.push({
      name: `transfer log --jsonl / --limit 50: ${HISTORY.toLocaleString('en')} journalled`,
      ms: NaN,
      ratio: exportRatio,
      target: RSS_TARGET,
      rssMb: Math.max(...exportRss),
      note: `${exported.toLocaleString('en')} records; peak RSS ${Math.max(...exportRss).toFixed(1)} vs ${Math.max(...pageRss).toFixed(1)} MB (target <= ${RSS_TARGET}x)`,
    });
    if (exportRatio > RSS_TARGET) failures.push(`transfer log --jsonl RSS ${exportRatio.toFixed(2)}x`);
    printRows(`History: the same commands with ${HISTORY.toLocaleString('en')} transfers journalled and with none (ratios: CPU, then peak RSS)`, rows);
    console.log(failures.length === 0 ? '  targets met' : `  TARGETS MISSED: ${failures.join('; ')}`);
    void empty;
    return rows;
  } finally {
    for (const home of homes) await home.served.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchHistory();
