// Bundles the CLI with esbuild into three CommonJS files (src/boot.ts says why CommonJS and how they load):
// - dist/boot.cjs: what bin/fsapi.cjs runs; loads the other two;
// - dist/cli.cjs: the command tree, src/program.ts, and what runs it. All that `fsapi --help` loads;
// - dist/engine.cjs: the code of every command, src/engine.ts, loaded once a command runs.
// Training runs of the staged CLI then record cli.cache and engine.cache, the V8 code caches boot.ts
// compiles the bundles with. Everything is written to a fresh folder and swapped in by rename, so a CLI
// that runs while a build happens never sees a half-written dist/, nor a cache of another bundle.
import { build } from 'esbuild';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = new URL('../', import.meta.url);
const staging = new URL(`dist.build-${process.pid}/`, root);
const retired = new URL(`dist.old-${process.pid}/`, root);
const dist = new URL('dist/', root);

// conf imports ajv, ajv-formats and semver at load time but uses them only for schemas and migrations,
// which fsapi does not use: resolve them to small stubs (see scripts/stubs/conf-optional.mjs).
const confOptionalDependencies = {
  name: 'conf-optional-dependencies',
  setup(build) {
    const stubs = {
      'ajv/dist/2020.js': 'scripts/stubs/conf-optional.mjs',
      'ajv-formats': 'scripts/stubs/conf-optional.mjs',
      semver: 'scripts/stubs/semver.mjs',
    };
    build.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) => {
      if (!args.importer.includes(`${'node_modules'}/conf/`)) return undefined;
      return { path: new URL(stubs[args.path], root).pathname };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  // No comments or indentation: smaller files to read on every start, and no non-ASCII text from the
  // comments of packages (see the ASCII check below). Names stay, and the source maps give the lines.
  minifyWhitespace: true,
  logLevel: 'warning',
  plugins: [confOptionalDependencies],
};

// The engine is loaded by src/boot.ts, never by the import src/engine-loader.ts uses from source.
const engineLeftOut = {
  name: 'engine-left-out',
  setup(build) {
    build.onResolve({ filter: /^\.\/engine\.js$/ }, (args) => (args.importer.endsWith('engine-loader.ts') ? { path: args.path, external: true } : undefined));
  },
};

const bundles = [
  { entry: 'src/boot.ts', name: 'boot' },
  { entry: 'src/cli.ts', name: 'cli', plugins: [engineLeftOut] },
  { entry: 'src/engine.ts', name: 'engine' },
];

try {
  for (const bundle of bundles) {
    await build({
      ...common,
      plugins: [...common.plugins, ...(bundle.plugins ?? [])],
      entryPoints: [bundle.entry],
      outfile: new URL(`${bundle.name}.cjs`, staging).pathname,
      format: 'cjs',
      // vm.Script, which runs cli.cjs and engine.cjs, cannot run an import(): esbuild turns each into a
      // require of a lazily initialised module, so a command's top-level code still runs only when needed.
      supported: { 'dynamic-import': false },
      // A bundled module's import.meta.url is its bundle's URL (CJS output has no import.meta).
      define: { 'import.meta.url': '__fsapiImportMetaUrl' },
      banner: { js: "const __fsapiImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    });
    const source = await readFile(new URL(`${bundle.name}.cjs`, staging), 'latin1');
    if (source.includes('import(')) throw new Error(`dist/${bundle.name}.cjs contains import(), which vm.Script cannot run`);
    // boot.ts reads the bundles as latin1, a plain copy of the bytes: right only for ASCII.
    const nonAscii = /[^\x00-\x7f]/.exec(source);
    if (nonAscii) throw new Error(`dist/${bundle.name}.cjs has a non-ASCII character at offset ${nonAscii.index}; escape it in the source`);
  }
  try {
    await recordCodeCaches();
  } catch (error) {
    for (const name of ['cli', 'engine']) await rm(new URL(`${name}.cache`, staging), { force: true });
    console.warn(`warning: built without code caches, so commands start slower: ${error.message.split('\n')[0]}`);
  }
  await rename(dist, retired).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, dist);
} finally {
  await rm(staging, { recursive: true, force: true });
  await rm(retired, { recursive: true, force: true });
}

/**
 * The training runs. The staged CLI answers `--help`, which records cli.cache; then `account --json`
 * against a served simulator, the path of a typical command (profile, token, HTTP, output), which starts
 * from that cli.cache and records both caches again, now holding both runs' functions.
 */
async function recordCodeCaches() {
  const boot = new URL('boot.cjs', staging).pathname;
  const home = await mkdtemp(path.join(tmpdir(), 'fsapi-build-'));
  // No NODE_OPTIONS: V8 refuses a cache made under other flags, so train under the flags users run with.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('FSAPI_') && key !== 'NODE_OPTIONS'));
  Object.assign(env, { FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') });
  const training = { FSAPI_WRITE_CODE_CACHE: staging.pathname };
  const runCli = (args, extraEnv) => promisify(execFile)(process.execPath, [boot, ...args], { env: { ...env, ...extraEnv }, timeout: 20_000 });
  await runCli(['--help'], training);
  const server = spawn(process.execPath, [boot, 'simulator', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => server.once('exit', resolve).once('error', resolve));
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error('simulator serve printed no URL within 10 s')), 10_000);
      server.stderr.on('data', (chunk) => (err += chunk));
      server.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /http:\/\/[^\s]+/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      });
      exited.then((code) => reject(new Error(`simulator serve exited ${code}: ${err}`)));
    });
    await runCli(['auth', 'login', '--profile', 'train', '--env', 'sandbox', '--base-url', url], {
      FSAPI_CONSUMER_KEY: 'sim-consumer-key',
      FSAPI_CONSUMER_SECRET: 'sim-consumer-secret',
    });
    await runCli(['--profile', 'train', 'account', '--json'], training);
    for (const name of ['cli', 'engine']) {
      if ((await stat(new URL(`${name}.cache`, staging))).size === 0) throw new Error(`the training runs wrote an empty ${name}.cache`);
    }
  } finally {
    server.kill('SIGTERM');
    const killer = setTimeout(() => server.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
    await rm(home, { recursive: true, force: true });
  }
}
