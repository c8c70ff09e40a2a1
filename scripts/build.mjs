// Bundles the CLI with esbuild into two parts:
// - dist/cli.js (ESM): the command tree, src/program.ts, and what runs it. All that `fsapi --help` loads.
// - dist/engine.cjs (CommonJS): the code of every command, src/engine.ts. src/engine-loader.ts compiles it
//   with dist/engine.cache, the V8 code cache a training run below records, so a command does not parse
//   and compile its code again on each start.
// The bundle is written to a fresh folder and swapped in by rename, so a CLI that is running while a
// build happens never sees a half-written dist/.
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
  logLevel: 'warning',
  plugins: [confOptionalDependencies],
};

try {
  await build({
    ...common,
    entryPoints: { cli: 'src/cli.ts' },
    outdir: staging.pathname,
    // The completion callback, the one import() left here, stays a chunk of its own: inlined, the built-ins
    // it imports would be imported by cli.js, which costs `fsapi --help` more than reading a second file.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    // Tells src/engine-loader.ts it runs from the bundle, and where the engine is (next to cli.js).
    define: { FSAPI_ENGINE_FILE: JSON.stringify('./engine.cjs') },
    // commander calls require(); give the ESM bundle a real one.
    banner: { js: "import { createRequire as __fsapiCreateRequire } from 'node:module'; const require = __fsapiCreateRequire(import.meta.url);" },
  });
  await build({
    ...common,
    entryPoints: ['src/engine.ts'],
    outfile: new URL('engine.cjs', staging).pathname,
    format: 'cjs',
    // The engine runs in a vm.Script, which cannot run import(): make every import() a lazily initialised
    // module of the bundle instead.
    supported: { 'dynamic-import': false },
    // A bundled module's import.meta.url is the bundle's URL, as in dist/cli.js (CJS output has no import.meta).
    define: { 'import.meta.url': '__fsapiImportMetaUrl' },
    banner: { js: "const __fsapiImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  const engineSource = await readFile(new URL('engine.cjs', staging), 'utf8');
  if (engineSource.includes('import(')) throw new Error('dist/engine.cjs contains import(), which vm.Script cannot run');
  try {
    await recordEngineCache();
  } catch (error) {
    await rm(new URL('engine.cache', staging), { force: true });
    console.warn(`warning: built without dist/engine.cache, so commands start slower: ${error.message.split('\n')[0]}`);
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
 * The training run: the staged CLI runs `account --json` against a served simulator, the path of a typical
 * command (profile, token, HTTP, output), and src/engine-loader.ts writes the code cache of everything it
 * compiled on the way to staging/engine.cache.
 */
async function recordEngineCache() {
  const cli = new URL('cli.js', staging).pathname;
  const cacheFile = new URL('engine.cache', staging).pathname;
  const home = await mkdtemp(path.join(tmpdir(), 'fsapi-build-'));
  // None of the caller's FSAPI_* settings: the run must not see a real profile or write a cache early.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('FSAPI_')));
  Object.assign(env, { FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data') });
  const runCli = (args, extraEnv) => promisify(execFile)(process.execPath, [cli, ...args], { env: { ...env, ...extraEnv }, timeout: 20_000 });
  const server = spawn(process.execPath, [cli, 'simulator', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    await runCli(['--profile', 'train', 'account', '--json'], { FSAPI_WRITE_ENGINE_CACHE: cacheFile });
    if ((await stat(cacheFile)).size === 0) throw new Error('the training run wrote an empty engine.cache');
  } finally {
    server.kill('SIGTERM');
    const killer = setTimeout(() => server.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
    await rm(home, { recursive: true, force: true });
  }
}
