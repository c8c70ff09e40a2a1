// `simulator serve` under load, the way a developer's test suite leans on it: 16 concurrent clients over
// loopback keep-alive connections, each sending the next request when the last answer arrived. Bounded
// by request counts (and a time cap per phase), 127.0.0.1 only.
//   1. baseline: the in-memory simulator (no --state), transfers/s;
//   2. --state FILE: transfers/s from a fresh file, failed requests (target >= 400/s, 0 failed);
//   3. the same file filled to 20,000 transactions: transfers/s (target >= 0.7x of 2.) and listing
//      GET /v1/transactions?page=P&limit=30 (target >= 400 requests/s);
//   4. the local profile: `fsapi tx list --limit 30 --json` with that 20,000-transaction state against a
//      fresh state (target <= 1.2x), medians of alternating runs;
//   5. the cost of loading node:sqlite on each supported Node found (this one, ~/.cache/fsapi-node/*).
// Runnable alone: node bench/simulator.mjs [--fill N]
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, ensureBuilt, printRows } from './lib.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
const CLIENTS = 16;
const MEASURED_TRANSFERS = 2_000;
const LISTINGS = 2_000;
const FILLED = 20_000;
/** No phase runs longer than this, whatever its count. */
const PHASE_CAP_MS = 120_000;

/** Children run without NODE_EXTRA_CA_CERTS (this machine sets it; Node then reads a large file at start). */
function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  for (const key of Object.keys(env)) if (key.startsWith('FSAPI_') && !(key in extra)) delete env[key];
  return env;
}

function startServe(args, env) {
  const child = spawn(process.execPath, [cli, 'simulator', 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (match) resolve(match[0]);
    });
    exited.then(({ code }) => reject(new Error(`simulator serve exited ${code}: ${stderr.slice(-400)}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      const ended = await exited;
      if (ended.code !== 0) throw new Error(`simulator serve did not stop cleanly (${JSON.stringify(ended)}): ${stderr.slice(-400)}`);
    },
  };
}

/** One HTTP request over the shared keep-alive agent; resolves to the status (0 when the request failed). */
function request(agent, url, method, pathname, headers, body) {
  return new Promise((resolve) => {
    const req = http.request(
      `${url}${pathname}`,
      { method, agent, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve({ status: 0, text: '' }));
      },
    );
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.setTimeout(30_000, () => req.destroy());
    req.end(body);
  });
}

async function tokenFor(agent, url) {
  const answer = await request(agent, url, 'POST', '/v1/generate-token', {
    consumerKey: 'sim-consumer-key',
    consumerSecret: 'sim-consumer-secret',
    validityTime: '60',
  });
  if (answer.status !== 200) throw new Error(`no token: ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text).token;
}

/**
 * `count` requests made by CLIENTS concurrent clients (or fewer if the time cap comes first). Returns
 * requests per second, failures (anything but 200, including dropped connections) and the slowest answer.
 */
async function load(url, count, makeRequest) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const token = await tokenFor(agent, url);
  let next = 0;
  let done = 0;
  let failed = 0;
  let firstFailure = '';
  const latencies = [];
  const started = performance.now();
  const client = async () => {
    while (next < count && performance.now() - started < PHASE_CAP_MS) {
      const n = next++;
      const { method, pathname, body } = makeRequest(n);
      const sent = performance.now();
      const answer = await request(agent, url, method, pathname, { authorization: `Bearer ${token}` }, body);
      latencies.push(performance.now() - sent);
      done += 1;
      if (answer.status !== 200) {
        failed += 1;
        firstFailure ||= `${answer.status} ${answer.text.slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { perSecond: done / seconds, done, failed, firstFailure, p99: latencies[Math.floor(latencies.length * 0.99)] ?? NaN };
}

/**
 * `count` requests to each server, in chunks taken in turn (A, B, A, B, ...), so that a shared machine's
 * load weighs on every server alike and the ratios between them stay meaningful.
 */
async function alternate(urls, count, makeRequest, chunk = 250) {
  const totals = urls.map(() => ({ seconds: 0, done: 0, failed: 0, firstFailure: '', p99s: [] }));
  for (let sent = 0; sent < count; sent += chunk) {
    for (const [i, url] of urls.entries()) {
      const part = await load(url, Math.min(chunk, count - sent), makeRequest);
      const total = totals[i];
      total.seconds += part.done / part.perSecond;
      total.done += part.done;
      total.failed += part.failed;
      total.firstFailure ||= part.firstFailure;
      total.p99s.push(part.p99);
    }
  }
  return totals.map((total) => ({ ...total, perSecond: total.done / total.seconds, p99: Math.max(...total.p99s) }));
}

let transferSerial = 0;
const transfer = () => ({
  method: 'POST',
  pathname: '/v1/transfer',
  body: JSON.stringify({
    beneficiaryBankCode: '000013',
    beneficiaryAccountNumber: '0123456789',
    amount: 1,
    narration: 'bench',
    reference: `ACME-BENCH-${process.pid}-${++transferSerial}`,
  }),
});
const listing = (n) => ({ method: 'GET', pathname: `/v1/transactions?page=${1 + (n % 50)}&limit=30` });

function line(name, value, unit, target, pass) {
  const mark = target === undefined ? '' : `  (target ${target}: ${pass ? 'met' : 'NOT met'})`;
  console.log(`  ${name.padEnd(58)} ${value.padStart(10)} ${unit}${mark}`);
}

/** Start-up cost of node:sqlite: node -e 0 against loading it and running one query. */
async function driverCosts(rounds) {
  const machineLine = process.versions.node.split('.')[0];
  const nodes = [];
  for (const version of ['22', '24']) {
    if (version === machineLine) {
      nodes.push(['this Node', process.execPath]);
      continue;
    }
    const binary = path.join(homedir(), '.cache', 'fsapi-node', version, 'node_modules', '.bin', 'node');
    if (existsSync(binary)) nodes.push([`Node ${version} (~/.cache/fsapi-node)`, binary]);
  }
  const env = childEnv();
  const load = [
    "const e=process.emitWarning;process.emitWarning=()=>{};const s=process.getBuiltinModule('node:sqlite');process.emitWarning=e;",
    "const d=new s.DatabaseSync(':memory:');d.prepare('select 1').get();process.stdout.write('node:sqlite')",
  ].join('');
  for (const [label, node] of nodes) {
    const version = await new Promise((resolve) => {
      const child = spawn(node, ['-p', 'process.version'], { env });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('close', () => resolve(out.trim()));
    });
    const driver = await new Promise((resolve) => {
      const child = spawn(node, ['-e', load], { env, cwd: repo });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('close', (code) => resolve(code === 0 ? out.trim() : undefined));
    });
    if (!driver) {
      console.log(`  ${label} ${version}: no SQLite driver loads`);
      continue;
    }
    const results = await compare(
      [
        { name: `${version} node -e 0`, command: node, args: ['-e', '0'], options: { env } },
        { name: `${version} load ${driver}, open, one query`, command: node, args: ['-e', load], options: { env } },
      ],
      rounds,
    );
    printRows(`SQLite driver start-up, ${label}`, [results[0], { ...results[1], note: `+${(results[1].ms - results[0].ms).toFixed(1)} ms` }]);
  }
}

export async function benchSimulator({ fill = FILLED, rounds = 11 } = {}) {
  ensureBuilt();
  const home = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-sim-'));
  const env = childEnv({ FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') });
  try {
    console.log(`\nsimulator serve under load (${CLIENTS} concurrent clients, 127.0.0.1, Node ${process.version})`);

    const memory = startServe([], env);
    const memoryUrl = await memory.url;
    const stateFile = path.join(home, 'state.db');
    const served = startServe(['--state', stateFile], env);
    const url = await served.url;
    const [baseline, fresh] = await alternate([memoryUrl, url], MEASURED_TRANSFERS, transfer);
    await memory.stop();
    line(
      'in memory (baseline, taken in turn with the next): transfers/s',
      baseline.perSecond.toFixed(0),
      `/s  p99 ${baseline.p99.toFixed(0)} ms, ${baseline.failed} failed`,
    );
    line(
      '--state FILE, fresh: transfers/s',
      fresh.perSecond.toFixed(0),
      `/s  p99 ${fresh.p99.toFixed(0)} ms, ${(fresh.perSecond / baseline.perSecond).toFixed(2)}x of in memory`,
      '>= 400',
      fresh.perSecond >= 400,
    );
    line(`--state FILE, fresh: failed requests of ${fresh.done}`, String(fresh.failed), '', '0', fresh.failed === 0);
    if (fresh.firstFailure) console.log(`    first failure: ${fresh.firstFailure}`);

    const filling = await load(url, Math.max(0, fill - MEASURED_TRANSFERS), transfer);
    const total = MEASURED_TRANSFERS + filling.done;
    // Against a second, fresh file in turn: the 0.7x compares like with like on a busy machine.
    const second = startServe(['--state', path.join(home, 'second.db')], env);
    const [later, freshAgain] = await alternate([url, await second.url], MEASURED_TRANSFERS, transfer);
    await second.stop();
    const ratio = later.perSecond / freshAgain.perSecond;
    line(
      `--state FILE, at ${total.toLocaleString('en')} transactions: transfers/s`,
      later.perSecond.toFixed(0),
      `/s  p99 ${later.p99.toFixed(0)} ms, ${ratio.toFixed(2)}x of a fresh file (${freshAgain.perSecond.toFixed(0)}/s)`,
      '>= 0.7x',
      ratio >= 0.7,
    );
    const listed = await load(url, LISTINGS, listing);
    line(
      `--state FILE, at ${(total + later.done).toLocaleString('en')}: listing (limit 30) requests/s`,
      listed.perSecond.toFixed(0),
      `/s  p99 ${listed.p99.toFixed(0)} ms`,
      '>= 400',
      listed.perSecond >= 400,
    );
    const failedInAll = fresh.failed + filling.failed + later.failed + listed.failed + freshAgain.failed;
    line(
      `--state FILE: failed requests of ${fresh.done + filling.done + later.done + listed.done + freshAgain.done} in all`,
      String(failedInAll),
      '',
      '0',
      failedInAll === 0,
    );
    await served.stop();

    // The local profile on that state (copied in as its state.db) against a fresh one.
    const bigData = path.join(home, 'big-data');
    mkdirSync(path.join(bigData, 'simulator'), { recursive: true, mode: 0o700 });
    copyFileSync(stateFile, path.join(bigData, 'simulator', 'state.db'));
    const freshData = path.join(home, 'fresh-data');
    const command = [cli, 'tx', 'list', '--limit', '30', '--json'];
    const [small, big] = await compare(
      [
        {
          name: 'fsapi tx list --limit 30 --json, local, fresh state',
          command: process.execPath,
          args: command,
          options: { env: { ...env, FSAPI_DATA_DIR: freshData } },
        },
        {
          name: `fsapi tx list --limit 30 --json, local, ${(total + later.done).toLocaleString('en')} transactions`,
          command: process.execPath,
          args: command,
          options: { env: { ...env, FSAPI_DATA_DIR: bigData } },
        },
      ],
      rounds,
    );
    printRows('local profile (in-process simulator), medians of alternating runs', [small, { ...big, ratio: big.ms / small.ms, target: 1.2 }]);

    await driverCosts(rounds);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fillAt = process.argv.indexOf('--fill');
  await benchSimulator(fillAt > 0 ? { fill: Number(process.argv[fillAt + 1]) } : {});
}
