// What a command loads, and what a command that only reads leaves as it was: the rules that keep fsapi's
// start-up short (docs/startup.md), checked by what the process itself reports at its exit (the bundles it
// required, the built-in modules Node loaded), never by a time. Runs the built CLI (npm run build first).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { childEnv, cliPath, repoRoot } from './helpers/cli.js';
import { sendArgs, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';

interface Loaded {
  code: number | null;
  stderr: string;
  /** The files of dist/ the run required, as `engine.cjs`, `vendor/conf.cjs`. */
  bundles: string[];
  /** Node's built-in modules the run loaded, as `worker_threads`, `internal/crypto/hash`. */
  builtins: string[];
}

const dist = path.join(repoRoot, 'dist');

describe('what a command loads', () => {
  let setup: TransferSetup;
  let report: string;
  before(async () => {
    setup = await setUpTransfers();
    // Written by the run at its exit: the bundles in require.cache, the built-ins in process.moduleLoadList.
    report = path.join(setup.home.root, 'report-loaded.cjs');
    writeFileSync(
      report,
      `process.on('exit', () => require('node:fs').writeSync(2, '\\nloaded: ' + JSON.stringify({
        files: Object.keys(require.cache),
        builtins: process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).map((name) => name.slice(13)),
      }) + '\\n'));\n`,
    );
    const sent = await setup.run(sendArgs('2500', '--json'));
    assert.equal(sent.code, 0, sent.stderr);
  });
  after(() => setup?.close());

  /** Runs the built CLI with `args`, reporting what it loaded. */
  function load(args: string[]): Promise<Loaded> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--require', report, cliPath, ...args], {
        cwd: repoRoot,
        env: childEnv(setup.env),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.once('error', reject);
      child.once('close', (code) => {
        const line = /\nloaded: (.*)\n$/.exec(stderr);
        if (!line) return reject(new Error(`no report of what was loaded: ${stderr}`));
        const { files, builtins } = JSON.parse(line[1]!) as { files: string[]; builtins: string[] };
        const bundles = files.filter((file) => file.startsWith(`${dist}${path.sep}`)).map((file) => path.relative(dist, file).replaceAll(path.sep, '/'));
        resolve({ code, stderr: stderr.slice(0, line.index), bundles: bundles.sort(), builtins });
      });
    });
  }

  it('--help: the command tree alone', async () => {
    const run = await load(['--help']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.bundles, ['cli.cjs']);
  });

  it('account against the API: the tree and the light engine; no store, no thread, no node:crypto', async () => {
    const run = await load(['account', '--json']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.bundles, ['cli.cjs', 'engine-light.cjs']);
    for (const builtin of ['worker_threads', 'crypto', 'sqlite']) assert.ok(!run.builtins.includes(builtin), `account loaded node:${builtin}`);
  });

  for (const args of [
    ['transfer', 'log'],
    ['transfer', 'log', '--json'],
    ['payees', 'list'],
  ]) {
    it(`${args.join(' ')} on the data dir's SQLite: nothing of the team store, no thread, no node:crypto, no node:http`, async () => {
      const run = await load(args);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.builtins.includes('sqlite'), 'it read the store');
      assert.deepEqual(
        run.bundles.filter((bundle) => bundle.startsWith('engine')),
        ['engine.cjs'],
      );
      // The team store's code (its connection thread, the PostgreSQL driver) is in bundles of its own.
      assert.deepEqual(
        run.bundles.filter((bundle) => /postgres|(^|\/)pg\.cjs$/.test(bundle)),
        [],
      );
      for (const builtin of ['worker_threads', 'crypto', 'http']) assert.ok(!run.builtins.includes(builtin), `${args.join(' ')} loaded node:${builtin}`);
    });
  }

  it('a command that only reads leaves fsapi.db and its -wal as they were; one that writes checkpoints', async () => {
    const store = path.join(setup.home.dataDir, 'fsapi.db');
    const state = () => [store, `${store}-wal`].map((file) => `${path.basename(file)} ${statSync(file).size} ${statSync(file).mtimeMs}`);
    const before = state();
    for (const args of [
      ['transfer', 'log'],
      ['transfer', 'log', '--json'],
      ['payees', 'list'],
      ['policy', 'show'],
    ]) {
      const run = await setup.run(args);
      assert.equal(run.code, 0, run.stderr);
    }
    assert.deepEqual(state(), before, 'a read changed the store files');
    // The control: a write lands in the WAL and is checkpointed into fsapi.db.
    const sent = await setup.run(sendArgs('2600', '--json'));
    assert.equal(sent.code, 0, sent.stderr);
    assert.notDeepEqual(state()[0], before[0], 'fsapi.db unchanged after a write');
  });
});

describe('the bundles', () => {
  // One character outside ASCII and Node decodes a whole bundle as UTF-16 at every load (scripts/build.mjs
  // refuses to build one).
  it('are ASCII', () => {
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.cjs'));
    assert.ok(files.includes('engine.cjs'), 'npm run build first');
    for (const name of files) {
      const outside = /[^\x00-\x7f]/.exec(readFileSync(path.join(dist, name), 'latin1'));
      assert.equal(outside, null, `dist/${name} holds a character outside ASCII`);
    }
  });
});
