// Start-up cost: `fsapi --help`, `fsapi account --json` (in-process local simulator, and against `simulator
// serve` with a cached token) and `fsapi transfer log` (a read of the data dir's SQLite) as ratios to
// `node -e 0` of the same Node, measured side by side in one run, with `gh --help` beside them when gh is
// installed. Runs on the Node that runs it (bench/run.mjs
// runs it on each supported line), without NODE_EXTRA_CA_CERTS, as on a user's machine.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, printRows, runOnce, userEnv } from './lib.mjs';

const cli = fileURLToPath(new URL('../bin/fsapi.cjs', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };

export async function startServedSimulator(args = [], env = process.env) {
  const child = spawn(process.execPath, [cli, 'simulator', 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /http:\/\/[^\s]+/.exec(out);
      if (match) resolve(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`simulator serve exited ${code}: ${err}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

// Targets on the supported LTS lines, 22 and 24: --help within 1.4x of `node -e 0`, a served `account --json`
// within 2.3x.
const targets = { help: 1.4, served: 2.3 };

/** The path of an executable on PATH, or undefined. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

export async function benchStartup({ rounds = 15 } = {}) {
  const home = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-'));
  const env = { ...userEnv(), FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') };
  delete env.FSAPI_PROFILE;
  const served = await startServedSimulator([], env);
  try {
    // Log in once so the token is cached, and prime the local simulator's state and token.
    await runOnce(process.execPath, [cli, 'auth', 'login', '--profile', 'served', '--env', 'sandbox', '--base-url', served.url], {
      env: { ...env, ...credentials },
    });
    await runOnce(process.execPath, [cli, 'account', '--json'], { env });
    // One transfer in the data dir's store, for transfer log to read.
    await runOnce(
      process.execPath,
      [cli, '--profile', 'served', 'transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '100', '--narration', 'Bench', '-y'],
      {
        env,
      },
    );
    const gh = onPath('gh');
    const subjects = [
      { name: 'node -e 0 (baseline)', command: process.execPath, args: ['-e', '0'], options: { env } },
      { name: 'fsapi --help', command: process.execPath, args: [cli, '--help'], options: { env }, target: targets.help },
      // stdout above is /dev/null; into a pipe (`fsapi --help | less`) no stream needs making (src/write-now.ts).
      { name: 'fsapi --help, stdout a pipe', command: process.execPath, args: [cli, '--help'], options: { env, stdout: 'pipe' } },
      { name: 'fsapi account --json (local, in-process simulator)', command: process.execPath, args: [cli, 'account', '--json'], options: { env } },
      {
        name: 'fsapi account --json (simulator serve, cached token)',
        command: process.execPath,
        args: [cli, '--profile', 'served', 'account', '--json'],
        options: { env },
        target: targets.served,
      },
      { name: 'fsapi transfer log (SQLite, one record)', command: process.execPath, args: [cli, '--profile', 'served', 'transfer', 'log'], options: { env } },
      ...(gh ? [{ name: 'gh --help', command: gh, args: ['--help'], options: { env } }] : []),
    ];
    const results = await compare(subjects, rounds);
    const baseline = results[0].ms;
    const rows = results.map((row, i) => ({ ...row, ratio: i === 0 ? undefined : row.ms / baseline, target: subjects[i].target }));
    if (!gh) rows.push({ name: 'gh --help', ms: NaN, note: 'gh is not installed' });
    printRows(`Start-up on Node ${process.versions.node} (median of ${rounds} alternating runs, NODE_EXTRA_CA_CERTS unset)`, rows);
    return rows;
  } finally {
    await served.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchStartup();
