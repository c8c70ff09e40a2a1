// fsapi runs from three CommonJS bundles, two of them compiled with the V8 code caches the build's training
// runs record (src/boot.ts, scripts/build.mjs). A cache only saves compile time: the build must leave caches
// this Node accepts, and the CLI must work the same when one is missing, garbage, cut short or made by
// another Node, and never write next to the bundles. Runs the built dist/, or a copy of it.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { compileBundle } from '../src/boot.js';
import { makeHome, repoRoot, runCli } from './helpers/cli.js';

const dist = path.join(repoRoot, 'dist');
const cached = ['cli', 'engine'] as const;

/** Name, size and modification time of every file of a bundle folder. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stats = statSync(path.join(dir, name));
      return `${name} ${stats.size} ${stats.mtimeMs}`;
    });
}

describe('the bundles and their code caches', () => {
  it('are ASCII with no import() (vm.Script cannot run one, and boot.ts reads them as latin1)', () => {
    for (const name of ['boot', ...cached]) {
      const source = readFileSync(path.join(dist, `${name}.cjs`), 'latin1');
      assert.doesNotMatch(source, /import\(/, name);
      assert.doesNotMatch(source, /[^\x00-\x7f]/, name);
    }
  });

  it('come with caches that this Node accepts', () => {
    // A cache that is missing or refused would only be slow, so nothing else would notice.
    for (const name of cached) {
      assert.ok(statSync(path.join(dist, `${name}.cache`)).size > 0, `${name}.cache is empty`);
      assert.equal(compileBundle(path.join(dist, `${name}.cjs`)).cachedDataRejected, false, `${name}.cache refused`);
    }
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
    // The bundles hold every package but one: better-sqlite3, the simulator's SQLite driver on Node 20, is
    // a native addon loaded from node_modules at run time, which a copy away from the repository lacks.
    const env = { ...home.env, NODE_PATH: path.join(repoRoot, 'node_modules') };
    const result = await runCli(['account', '--json'], { cli: path.join(copy, 'boot.cjs'), env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(JSON.parse(result.stdout).accountNumber, /^\d{10}$/);
  }

  it('runs a command with the caches and writes nothing next to the bundles', async () => {
    const copy = copyDist();
    const before = snapshot(copy);
    await runAccount(copy);
    assert.deepEqual(snapshot(copy), before);
  });

  it('answers --help without the engine', async () => {
    const copy = copyDist();
    unlinkSync(path.join(copy, 'engine.cjs'));
    const result = await runCli(['--help'], { cli: path.join(copy, 'boot.cjs'), env: home.env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Usage: fsapi /);
  });

  // A cache's header starts with a magic number and then a hash of V8's version.
  const inverted = (data: Buffer, offsets: number[]) => {
    const copy = Buffer.from(data);
    for (const at of offsets) copy[at] = copy[at]! ^ 0xff;
    return copy;
  };
  const variants: Array<[string, ((file: Buffer) => Buffer) | undefined]> = [
    ['missing', undefined],
    ['garbage', () => Buffer.from('not a V8 code cache\n')],
    ['truncated', (file) => file.subarray(0, file.length >> 1)],
    // What a cache made by another Node version looks like: V8 refuses it.
    ['foreign', (file) => inverted(file, [4])],
  ];
  for (const name of cached) {
    for (const [what, corrupt] of variants) {
      it(`runs a command with a ${what} ${name}.cache, and leaves the folder as it is`, async () => {
        const copy = copyDist();
        const cacheFile = path.join(copy, `${name}.cache`);
        if (corrupt) writeFileSync(cacheFile, corrupt(readFileSync(cacheFile)));
        else unlinkSync(cacheFile);
        const before = snapshot(copy);
        await runAccount(copy);
        assert.deepEqual(snapshot(copy), before);
      });
    }
  }
});
