// Node 20 has no module.enableCompileCache. This measures the two choices docs/decisions.md weighs there:
// the plain launcher (accept the compile cost) against the same bundles behind the maintained package
// `v8-compile-cache`, a require hook that keeps V8 code caches per machine in the temp dir. The package is
// installed from the npm registry into a temporary copy of bin/ and dist/, never into the project.
// `fsapi --help` and `account --json` against a served simulator with a cached token, as ratios to `node -e 0`.
// Runnable alone: node bench/node20-compile-cache.mjs
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, ensureBuilt, printRows, runOnce, userEnv } from './lib.mjs';
import { startServedSimulator } from './startup.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const credentials = { FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'sim-consumer-secret' };

export async function benchNode20CompileCache({ rounds = 21 } = {}) {
  if (typeof (await import('node:module')).enableCompileCache === 'function') {
    console.log(`\nNode 20 compile cache: not measured, Node ${process.versions.node} has its own (module.enableCompileCache)`);
    return [];
  }
  ensureBuilt();
  const work = mkdtempSync(path.join(tmpdir(), 'fsapi-bench-v8cc-'));
  const plain = path.join(root, 'bin', 'fsapi.cjs');
  const hooked = path.join(work, 'bin', 'fsapi.cjs');
  mkdirSync(path.dirname(hooked));
  cpSync(path.join(root, 'dist'), path.join(work, 'dist'), { recursive: true });
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', work, 'v8-compile-cache@2'], { stdio: 'inherit', timeout: 120_000 });
  writeFileSync(hooked, "'use strict';\nrequire('v8-compile-cache');\nrequire('../dist/cli.cjs').run();\n");

  // The package's cache goes into the temporary folder too (its default is one blob per launcher path in the
  // temp dir), so it starts cold here, is warmed by compare()'s first run, and is removed with the rest.
  const env = { ...userEnv(), FSAPI_CONFIG_DIR: path.join(work, 'config'), FSAPI_DATA_DIR: path.join(work, 'data'), V8_COMPILE_CACHE_CACHE_DIR: path.join(work, 'v8-compile-cache') };
  delete env.FSAPI_PROFILE;
  const served = await startServedSimulator([], env);
  try {
    await runOnce(process.execPath, [plain, 'auth', 'login', '--profile', 'served', '--env', 'sandbox', '--base-url', served.url], { env: { ...env, ...credentials } });
    const subject = (name, args) => ({ name, command: process.execPath, args, options: { env } });
    const results = await compare(
      [
        subject('node -e 0 (baseline)', ['-e', '0']),
        subject('fsapi --help, plain launcher', [plain, '--help']),
        subject('fsapi --help, v8-compile-cache', [hooked, '--help']),
        subject('fsapi account --json (served), plain launcher', [plain, '--profile', 'served', 'account', '--json']),
        subject('fsapi account --json (served), v8-compile-cache', [hooked, '--profile', 'served', 'account', '--json']),
      ],
      rounds,
    );
    const rows = results.map((row, i) => ({ ...row, ratio: i === 0 ? undefined : row.ms / results[0].ms }));
    printRows(`Node 20 compile cache on Node ${process.versions.node} (median of ${rounds} alternating runs, NODE_EXTRA_CA_CERTS unset)`, rows);
    return rows;
  } finally {
    await served.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await benchNode20CompileCache();
