// bin/fsapi.cjs refuses a Node older than 22.13, compiles the bundles with the code cache it keeps in the
// user's cache folder and requires dist/cli.cjs; the command tree requires dist/engine.cjs only once a
// command runs. The cache is only ever an optimisation: a damaged one must change nothing, and nothing may
// be written next to the installed files.
// Runs copies of bin/ and dist/ as an installed package would lay them out.
import assert from 'node:assert/strict';
import { closeSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { cliPath, homePool, repoRoot, runCli } from './helpers/cli.js';

/** Name, size and modification time of every file of a folder. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stats = statSync(path.join(dir, name));
      return `${name} ${stats.size} ${stats.mtimeMs}`;
    });
}

/** Every file below a folder (the code cache keeps one file per bundle). */
function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(path.join(dir, name)).isFile());
  } catch {
    return [];
  }
}

describe('the launcher', () => {
  const homes = homePool();
  const copies: string[] = [];
  after(() => {
    homes.cleanup();
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  });

  /** A copy of bin/ and dist/ (what the package ships); returns the copy's launcher. */
  function copyPackage({ withDist = true } = {}): { root: string; launcher: string } {
    const outer = mkdtempSync(path.join(tmpdir(), 'fsapi-package-'));
    copies.push(outer);
    const root = path.join(outer, 'fsapi');
    mkdirSync(root);
    cpSync(path.join(repoRoot, 'bin'), path.join(root, 'bin'), { recursive: true });
    if (withDist) cpSync(path.join(repoRoot, 'dist'), path.join(root, 'dist'), { recursive: true });
    return { root, launcher: path.join(root, 'bin', 'fsapi.cjs') };
  }

  async function runAccount(launcher: string, env: Record<string, string>): Promise<void> {
    const result = await runCli(['account', '--json'], { cli: launcher, env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(JSON.parse(result.stdout).accountNumber, /^\d{10}$/);
  }

  it('answers --help without the engine bundle, so --help loads no command code', async () => {
    const { root, launcher } = copyPackage();
    unlinkSync(path.join(root, 'dist', 'engine.cjs'));
    const result = await runCli(['--help'], { cli: launcher, env: homes.home().env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Usage: fsapi /);
  });

  it('runs a command and writes nothing next to the installed files', async () => {
    const { root, launcher } = copyPackage();
    const before = snapshot(root);
    const home = homes.home();
    await runAccount(launcher, { ...home.env, XDG_CACHE_HOME: path.join(home.root, 'cache') });
    assert.ok(filesIn(path.join(home.root, 'cache')).length >= 2, 'the cache was written, in the cache folder');
    assert.deepEqual(snapshot(root), before);
  });

  /** `account --json` with the code cache's account of itself (NODE_DEBUG=fsapi-code-cache) as its stderr. */
  async function accountTellingCache(launcher: string, env: Record<string, string>): Promise<string> {
    const result = await runCli(['account', '--json'], { cli: launcher, env: { ...env, NODE_DEBUG: 'fsapi-code-cache' } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(JSON.parse(result.stdout).accountNumber, /^\d{10}$/);
    return result.stderr;
  }

  it("keeps each bundle's code in the user's cache folder, 0600 in a 0700 folder, used by the next runs", async () => {
    const { launcher } = copyPackage();
    const home = homes.home();
    const env = { ...home.env, XDG_CACHE_HOME: path.join(home.root, 'cache') };
    const cacheDir = path.join(home.root, 'cache', 'fsapi', 'compile-cache');
    const first = await accountTellingCache(launcher, env);
    assert.match(first, /\[fsapi code cache\] cli\.cjs: none\n/);
    assert.match(first, /\[fsapi code cache\] engine-light\.cjs: written \(1 runs\)\n/);
    assert.equal(statSync(cacheDir).mode & 0o777, 0o700);
    const entries = filesIn(cacheDir);
    assert.ok(entries.some((name) => name.startsWith('cli.cjs.')) && entries.some((name) => name.startsWith('engine-light.cjs.')), entries.join(', '));
    for (const name of entries) assert.equal(statSync(path.join(cacheDir, name)).mode & 0o777, 0o600, name);
    // Each of the next runs adds what it compiled, up to eight runs; then the entry is left as it is.
    let later = '';
    for (let run = 2; run <= 9; run += 1) later = await accountTellingCache(launcher, env);
    assert.match(later, /\[fsapi code cache\] engine-light\.cjs: used \(written by 8 runs\)\n/);
    assert.doesNotMatch(later, /written \(/);
    // The same bundles installed elsewhere have entries of their own; this install's stay.
    const other = copyPackage();
    assert.match(await accountTellingCache(other.launcher, env), /engine-light\.cjs: none/);
    assert.match(await accountTellingCache(launcher, env), /engine-light\.cjs: used \(written by 8 runs\)/);
  });

  it('writes the entries of a run that sets V8 flags (a long run) before it does, so that the next runs can use them', async () => {
    const { launcher } = copyPackage();
    const home = homes.home();
    const env = { ...home.env, XDG_CACHE_HOME: path.join(home.root, 'cache'), NODE_DEBUG: 'fsapi-code-cache' };
    // transfer log is a long run (src/runtime.ts keeps its heap small through node:v8's flags).
    const log = () => runCli(['transfer', 'log'], { cli: launcher, env });
    const first = await log();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /engine\.cjs: none\n[\s\S]*engine\.cjs: written \(1 runs\)/);
    const second = await log();
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /refused/);
    assert.match(second.stderr, /engine\.cjs: used \(written by 1 runs\)/);
  });

  it('runs the same with a damaged code cache, writes it again, and runs with one it cannot write', async () => {
    const { launcher } = copyPackage();
    const home = homes.home();
    const env = { ...home.env, XDG_CACHE_HOME: path.join(home.root, 'cache') };
    const cacheDir = path.join(home.root, 'cache', 'fsapi', 'compile-cache');
    await accountTellingCache(launcher, env);
    const damages: Array<(bytes: Buffer) => Buffer> = [
      () => Buffer.from('not a code cache\n'),
      (bytes) => bytes.subarray(0, 40),
      // One byte of V8's data flipped, in the first copy or the second: V8 itself would not notice.
      (bytes) => Buffer.from(bytes.map((byte, at) => (at === 100 ? byte ^ 0xff : byte))),
      (bytes) => Buffer.from(bytes.map((byte, at) => (at === bytes.length - 100 ? byte ^ 0xff : byte))),
    ];
    for (const damage of damages) {
      for (const name of filesIn(cacheDir)) writeFileSync(path.join(cacheDir, name), damage(readFileSync(path.join(cacheDir, name))));
      const damaged = await accountTellingCache(launcher, env);
      assert.match(damaged, /cli\.cjs: none\n[\s\S]*cli\.cjs: written \(1 runs\)/);
      assert.match(await accountTellingCache(launcher, env), /cli\.cjs: used \(written by 1 runs\)/);
    }
    // A cache folder that cannot be made (a file stands where it should be) only costs the compile.
    const blocked = path.join(home.root, 'blocked');
    writeFileSync(blocked, '');
    assert.doesNotMatch(await accountTellingCache(launcher, { ...home.env, XDG_CACHE_HOME: blocked }), /fsapi code cache/);
  });

  it("leaves the bundles to Node's compile cache when the user sets NODE_COMPILE_CACHE", async () => {
    const { launcher } = copyPackage();
    const home = homes.home();
    const nodeCache = path.join(home.root, 'node-cache');
    const told = await accountTellingCache(launcher, { ...home.env, XDG_CACHE_HOME: path.join(home.root, 'cache'), NODE_COMPILE_CACHE: nodeCache });
    assert.doesNotMatch(told, /fsapi code cache/);
    assert.ok(filesIn(nodeCache).length >= 2, `Node's cache entries: ${filesIn(nodeCache).join(', ')}`);
    assert.deepEqual(filesIn(path.join(home.root, 'cache')), []);
  });

  it('writes help into a pipe without making a stream, and takes a reader that leaves early quietly', () => {
    const home = homes.home();
    const preload = path.join(home.root, 'report-streams.cjs');
    // At exit, whether Node loaded its stream modules (making process.stdout does; src/write-now.ts avoids it).
    writeFileSync(
      preload,
      "process.on('exit', () => require('node:fs').writeSync(2, 'stream loaded: ' + process.moduleLoadList.includes('NativeModule stream') + '\\n'));\n",
    );
    for (const args of [['--help'], ['transfer', '--help'], ['--version'], ['tx', 'lsit']]) {
      const result = spawnSync(process.execPath, ['--require', preload, cliPath, ...args], {
        env: home.env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      assert.equal(result.status, args[1] === 'lsit' ? 2 : 0, result.stderr);
      assert.match(result.stderr, /stream loaded: false\n$/, args.join(' '));
      if (args[0] === '--help') assert.match(result.stdout, /^Usage: fsapi [\s\S]*\$ fsapi auth login --profile sandbox\n\n$/);
    }
    // Nor into /dev/null, a character device that is no terminal: told without node:tty, which loads them.
    const devNull = openSync('/dev/null', 'w');
    try {
      const discarded = spawnSync(process.execPath, ['--require', preload, cliPath, '--help'], {
        env: home.env,
        encoding: 'utf8',
        stdio: ['ignore', devNull, 'pipe'],
      });
      assert.equal(discarded.status, 0, discarded.stderr);
      assert.match(discarded.stderr, /stream loaded: false\n$/);
    } finally {
      closeSync(devNull);
    }
    // `| true` leaves without reading: whether the help was written before or after it left, no error.
    const shellEnv: Record<string, string> = { ...home.env };
    delete shellEnv.BASH_ENV; // no start-up file of this machine's shell
    const early = spawnSync('bash', ['--noprofile', '--norc', '-c', `"${process.execPath}" "${cliPath}" --help | true; echo "exit \${PIPESTATUS[0]}"`], {
      env: shellEnv,
      encoding: 'utf8',
    });
    assert.equal(early.stdout, 'exit 0\n');
    assert.equal(early.stderr, '');
  });

  it('refuses a Node older than 22.13 in one line, exit 2, before it loads anything', () => {
    const home = homes.home();
    // This Node, reporting another version to the launcher: every boundary, whatever Node runs the test.
    const preload = path.join(home.root, 'node-version.cjs');
    writeFileSync(preload, "Object.defineProperty(process.versions, 'node', { value: process.env.FAKE_NODE_VERSION });\n");
    // Refused from a copy without dist/: a launcher that went on to load the command tree would say it is
    // not built (exit 1) instead.
    const { launcher: unbuilt } = copyPackage({ withDist: false });
    const run = (launcher: string, version: string) =>
      spawnSync(process.execPath, ['--require', preload, launcher, '--version'], { env: { ...home.env, FAKE_NODE_VERSION: version }, encoding: 'utf8' });
    for (const version of ['18.20.8', '20.19.5', '22.12.0']) {
      const result = run(unbuilt, version);
      assert.equal(result.status, 2, `${version}: ${result.stderr}`);
      assert.equal(result.stdout, '');
      assert.equal(result.stderr, `error: fsapi needs Node.js 22.13+ or 24; this is Node ${version}\n`);
    }
    // Under --json, the error object (docs/scripting.md), still one line.
    const json = spawnSync(process.execPath, ['--require', preload, unbuilt, 'account', '--json'], {
      env: { ...home.env, FAKE_NODE_VERSION: '20.19.5' },
      encoding: 'utf8',
    });
    assert.equal(json.status, 2, json.stderr);
    assert.equal(json.stdout, '');
    assert.deepEqual(JSON.parse(json.stderr), {
      error: { code: 'usage', message: 'fsapi needs Node.js 22.13+ or 24; this is Node 20.19.5', hint: null, exitCode: 2 },
    });
    for (const version of ['22.13.0', '24.0.0']) {
      const result = run(cliPath, version);
      assert.equal(result.status, 0, `${version}: ${result.stderr}`);
      assert.match(result.stdout, /^\d+\.\d+\.\d+\n$/);
    }
  });

  // The machine's own `node` on PATH, when it is an unsupported one (this machine's Node 20): the real thing.
  const pathNode = spawnSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const [pathMajor = 0, pathMinor = 0] = pathNode.split('.').map(Number);
  const pathNodeIsOld = pathNode !== '' && (pathMajor < 22 || (pathMajor === 22 && pathMinor < 13));
  it("refuses the machine's old Node the same way", { skip: pathNodeIsOld ? false : `node on PATH is ${pathNode || 'missing'}, not older than 22.13` }, () => {
    const result = spawnSync('node', [cliPath, 'account'], { env: homes.home().env, encoding: 'utf8' });
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, `error: fsapi needs Node.js 22.13+ or 24; this is Node ${pathNode}\n`);
  });

  it('says in one line how to build when dist/ is missing, with no stack trace', async () => {
    const { root, launcher } = copyPackage({ withDist: false });
    mkdirSync(path.join(root, 'dist'));
    const result = await runCli(['account'], { cli: launcher, env: homes.home().env });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'error: fsapi is not built (no dist/cli.cjs)\nhint: run npm run build in the fsapi folder\n');
  });

  it('builds bundles that hold no import(), which would load the ES module loader', () => {
    const vendored = readdirSync(path.join(repoRoot, 'dist', 'vendor')).filter((name) => name.endsWith('.cjs'));
    assert.ok(vendored.length >= 5, `vendor bundles: ${vendored.join(', ')}`);
    for (const name of ['cli.cjs', 'engine.cjs', ...vendored.map((file) => `vendor/${file}`)]) {
      assert.doesNotMatch(readFileSync(path.join(repoRoot, 'dist', name), 'utf8'), /import\(/, name);
    }
  });

  it('leaves the libraries only some commands use out of the engine bundle, loaded when first needed', () => {
    const engine = readFileSync(path.join(repoRoot, 'dist', 'engine.cjs'), 'utf8');
    for (const library of ['@inquirer/prompts', 'ora', 'cli-table3', 'conf', 'csv-parse', 'csv-stringify', 'hono', 'proper-lockfile']) {
      const file = `vendor/${library.replace('@inquirer/prompts', 'inquirer-prompts')}.cjs`;
      assert.ok(engine.includes(`require("./${file}")`), `engine.cjs requires ./${file}`);
      assert.ok(!engine.includes(`node_modules/${library}/`), `engine.cjs holds no copy of ${library}`);
    }
  });
});
