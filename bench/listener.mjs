// A burst of notifications at `webhook listen`: the listener's peak memory after 1,000 and after 10,000
// collection notifications posted as fast as 32 senders can (each retrying a 503 as the API's sender
// does), its lookups answered by `simulator serve --latency-ms 20`, so verifying is slower than
// accepting and a backlog builds. The backlog waits in the store (recorded before each 200, taken a window
// at a time), not in memory: the peak RSS at 10,000 over the peak at 1,000 is the figure (flat: at most
// 1.25x, what is left being V8's own heap sizing). The accept rate is shown beside it.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printRows, runOnce } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };
const SENDERS = 32;
const FLAT_RSS_GROWTH = 1.25;
/** A 503 is retried; a sender gives up after this many (the bench then fails rather than loop for ever). */
const MAX_TRIES = 200;

/** Peak resident memory of a live process, MB (Linux: VmHWM). */
function peakRssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1]) / 1024;
}

function startListen(env) {
  const child = spawn(process.execPath, [cli, '--profile', 'bench', '--json', 'webhook', 'listen', '--port', '0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = new Promise((resolve, reject) => {
    child.stderr.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`webhook listen exited ${code}: ${stderr.slice(-500)}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { child, url, exited, stderr: () => stderr };
}

/** Posts `count` distinct collection notifications from SENDERS senders; returns wall ms and the 503s met. */
async function burst(url, count) {
  let next = 0;
  let busy = 0;
  const started = process.hrtime.bigint();
  async function sender() {
    for (;;) {
      const index = next++;
      if (index >= count) return;
      const body = JSON.stringify({
        event: 'collection',
        reference: `BENCH-${randomUUID()}`,
        virtualAccount: '9900000011',
        amountReceived: `${100 + (index % 900)}.00`,
      });
      for (let tries = 1; ; tries += 1) {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        if (response.status === 200) break;
        if (response.status !== 503 || tries >= MAX_TRIES) throw new Error(`the listener answered ${response.status}`);
        busy += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, busy };
}

export async function benchListener({ sizes = [1000, 10000] } = {}) {
  const root = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-listen-'));
  const baseEnv = { ...process.env };
  for (const key of Object.keys(baseEnv)) if (key.startsWith('FSAPI_')) delete baseEnv[key];
  const served = await startServedSimulator(['--latency-ms', '20'], { ...baseEnv, FSAPI_DATA_DIR: path.join(root, 'sim') });
  const rows = [];
  try {
    for (const [index, size] of sizes.entries()) {
      const home = path.join(root, `home-${index}`);
      const env = { ...baseEnv, ...credentials, FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') };
      await runOnce(process.execPath, [cli, 'auth', 'login', '--profile', 'bench', '--env', 'sandbox', '--base-url', served.url], { env });
      const listener = startListen(env);
      const url = await listener.url;
      const result = await burst(url, size);
      const rssMb = peakRssMb(listener.child.pid);
      listener.child.kill('SIGINT');
      await listener.exited;
      rows.push({
        name: `webhook listen, ${size.toLocaleString('en')} notifications`,
        ms: result.ms,
        rssMb,
        note: `${Math.round((size * 1000) / result.ms)}/s accepted, ${result.busy} answered 503 and retried`,
      });
    }
  } finally {
    await served.stop();
    rmSync(root, { recursive: true, force: true });
  }
  printRows(`A burst at webhook listen (${SENDERS} senders, lookups at 20 ms latency): peak RSS while the backlog waits`, rows);
  const growth = rows.at(-1).rssMb / rows[0].rssMb;
  console.log(`  peak RSS ${sizes.at(-1)} / ${sizes[0]} notifications: ${growth.toFixed(2)}x (flat: at most ${FLAT_RSS_GROWTH}x)`);
  console.log(growth <= FLAT_RSS_GROWTH ? '  targets met' : `  TARGETS MISSED: RSS grew ${growth.toFixed(2)}x`);
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchListener();
