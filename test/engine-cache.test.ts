// Every command runs from dist/engine.cjs, compiled with the V8 code cache (dist/engine.cache) that the
// build's training run records (src/engine-loader.ts, scripts/build.mjs). The cache only saves compile
// time: the build must leave one this Node accepts, and the CLI must work the same when it is missing,
// damaged or made by another Node, and never write next to the bundle. Runs the built dist/, or a copy.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { compileEngine } from '../src/engine-loader.js';
import { makeHome, repoRoot, runCli } from './helpers/cli.js';

const dist = path.join(repoRoot, 'dist');

/** Name, size and modification time of every file of a bundle folder. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stats = statSync(path.join(dir, name));
      return `${name} ${stats.size} ${stats.mtimeMs}`;
    });
}

describe('the engine bundle and its code cache', () => {
  it('are built next to cli.js, with no import() in the bundle (vm.Script cannot run one)', () => {
    assert.doesNotMatch(readFileSync(path.join(dist, 'engine.cjs'), 'utf8'), /import\(/);
    assert.ok(statSync(path.join(dist, 'engine.cache')).size > 0, 'engine.cache is empty');
  });

  it('holds a cache that this Node accepts', () => {
    // A cache that is missing or rejected would only be slow, so nothing else would notice.
    assert.equal(compileEngine(path.join(dist, 'engine.cjs')).cachedDataRejected, false);
  });
});

describe('a copy of dist/', () => {
  const copies: string[] = [];
  const home = makeHome();
  after(() => {
    home.cleanup();
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  });

  function copyDist(): string {
    const copy = mkdtempSync(path.join(tmpdir(), 'fsapi-dist-'));
    copies.push(copy);
    cpSync(dist, copy, { recursive: true });
    return copy;
  }

  async function runAccount(copy: string): Promise<void> {
    const result = await runCli(['account', '--json'], { cli: path.join(copy, 'cli.js'), env: home.env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(JSON.parse(result.stdout).accountNumber, /^\d{10}$/);
  }

  it('runs a command with the cache and writes nothing next to the bundle', async () => {
    const copy = copyDist();
    const before = snapshot(copy);
    await runAccount(copy);
    assert.deepEqual(snapshot(copy), before);
  });

  it('answers --help without the engine', async () => {
    const copy = copyDist();
    unlinkSync(path.join(copy, 'engine.cjs'));
    const result = await runCli(['--help'], { cli: path.join(copy, 'cli.js'), env: home.env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Usage: fsapi /);
  });

  it('runs a command without engine.cache, and does not create one', async () => {
    const copy = copyDist();
    unlinkSync(path.join(copy, 'engine.cache'));
    const before = snapshot(copy);
    await runAccount(copy);
    assert.deepEqual(snapshot(copy), before);
  });

  // engine.cache is a sha256 digest of V8's cache, then that cache, whose header starts with a magic number
  // and then a hash of V8's version.
  const withDigest = (cache: Buffer) => Buffer.concat([createHash('sha256').update(cache).digest(), cache]);
  const inverted = (data: Buffer, offsets: number[]) => {
    const copy = Buffer.from(data);
    for (const at of offsets) copy[at] = copy[at]! ^ 0xff;
    return copy;
  };
  const variants: Array<[string, (file: Buffer) => Buffer]> = [
    ['garbage', () => Buffer.from('not a V8 code cache\n')],
    ['truncated', (file) => file.subarray(0, file.length >> 1)],
    // A hundred bytes inside the cache: V8 does not notice, and would crash.
    ['damaged', (file) => inverted(file, Array.from({ length: 100 }, (_, i) => 1000 + i * 997))],
    // What a cache made by another Node version looks like: V8 rejects it.
    ['foreign', (file) => withDigest(inverted(file.subarray(32), [4]))],
  ];
  for (const [what, corrupt] of variants) {
    it(`runs a command with a ${what} engine.cache, and leaves it as it is`, async () => {
      const copy = copyDist();
      const cacheFile = path.join(copy, 'engine.cache');
      writeFileSync(cacheFile, corrupt(readFileSync(cacheFile)));
      const before = snapshot(copy);
      await runAccount(copy);
      assert.deepEqual(snapshot(copy), before);
    });
  }
});
