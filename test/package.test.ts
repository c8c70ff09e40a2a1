// The npm package as a user gets it: `npm pack` on a tree with no dist/ (a fresh clone) builds first and
// ships bin/ and dist/; the tarball installs globally into a temporary prefix with nothing to download
// (the bundles hold all of fsapi's JavaScript), stays small, and `fsapi account` runs from there.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { makeHome, repoRoot } from './helpers/cli.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Installed size limit (issue 15). */
const MAX_INSTALLED_BYTES = 12 * 1024 * 1024;

/** The project's files as a fresh clone has them: tracked and new ones, never dist/ or node_modules/. */
function projectFiles(): string[] | undefined {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' });
    return listed.split('\0').filter((file) => file !== '' && existsSync(path.join(repoRoot, file)));
  } catch {
    return undefined;
  }
}

function bytesIn(dir: string, skip: (name: string) => boolean = () => false): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesIn(full, skip);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

describe('the npm package', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'fsapi-pack-'));
  const home = makeHome();
  after(() => {
    rmSync(work, { recursive: true, force: true });
    home.cleanup();
  });

  const files = projectFiles();
  it('packs a fresh tree (building it first), installs into a temporary prefix, and runs fsapi account', {
    skip: files ? false : 'not a git checkout',
    timeout: 300_000,
  }, async () => {
    const source = path.join(work, 'source');
    for (const file of files ?? []) {
      mkdirSync(path.dirname(path.join(source, file)), { recursive: true });
      cpSync(path.join(repoRoot, file), path.join(source, file));
    }
    // The build's tools, as `npm ci` left them.
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(source, 'node_modules'), 'dir');
    assert.equal(existsSync(path.join(source, 'dist')), false);

    const packed = path.join(work, 'packed');
    mkdirSync(packed);
    await run(npm, ['pack', '--pack-destination', packed, '--loglevel=error'], { cwd: source, timeout: 180_000 });
    const tarballs = readdirSync(packed).filter((name) => name.endsWith('.tgz'));
    assert.equal(tarballs.length, 1, tarballs.join(', '));
    const tarball = path.join(packed, tarballs[0]!);
    const contents = (await run('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean);
    for (const file of ['package/package.json', 'package/bin/fsapi.cjs', 'package/dist/cli.cjs', 'package/dist/engine.cjs']) {
      assert.ok(contents.includes(file), `${file} is not in the package: ${contents.join(', ')}`);
    }
    assert.deepEqual(
      contents.filter((file) => /^package\/(src|test|scripts|bench)\//.test(file)),
      [],
    );

    const prefix = path.join(work, 'prefix');
    // The package has no dependencies and no install script: nothing is fetched or built.
    await run(npm, ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: work,
      timeout: 240_000,
    });
    const installed = path.join(prefix, 'lib', 'node_modules', 'fsapi');
    const size = bytesIn(installed);
    assert.equal(existsSync(path.join(installed, 'node_modules')), false, 'the installed package has dependencies');
    assert.ok(size < MAX_INSTALLED_BYTES, `installed size ${(size / 1024 / 1024).toFixed(1)} MB`);

    // The installed command, run by name from the prefix's bin folder (its #! line finds this test's node
    // first on PATH), in a folder of its own, with temporary config and data dirs.
    const env: NodeJS.ProcessEnv = { ...home.env, PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath), process.env.PATH].join(path.delimiter) };
    for (const key of ['HOME', 'TMPDIR', 'LANG']) if (process.env[key] !== undefined) env[key] = process.env[key];
    // The first command a new user runs: the built-in simulator, in process.
    const result = await run('fsapi', ['account'], { cwd: work, env, timeout: 60_000 });
    assert.match(result.stdout, /^Account name\tAccount number\t/);
    assert.match(result.stdout.split('\n')[1] ?? '', /^ACME TRADING LIMITED\t\d{10}\t/);
    assert.match(result.stderr, /local simulator: no real money moves/);
  });
});
