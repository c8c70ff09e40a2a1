// Entry of dist/boot.cjs, which bin/fsapi.cjs runs. It loads the two bundles the build made:
//   dist/cli.cjs     the command tree (commander, src/program.ts, src/main.ts): every run, --help included;
//   dist/engine.cjs  everything a command runs (src/engine.ts): only once a command's action starts.
// Each is compiled through vm.Script with the V8 code cache the build's training runs left beside it
// (cli.cache, engine.cache), so a run does not parse and compile that code again. This is the technique of
// the v8-compile-cache package: Node 20 has no module.enableCompileCache. Measured in bench/startup.mjs.
//
// A cache is only ever an optimisation. V8 checks its header (V8 version, flags, source length, payload
// length) and compiles normally when any of them differs, e.g. under another Node version or with node
// flags. Nothing is written at run time. The build writes the caches with the bundles and swaps the whole
// dist/ in at once, so a cache always belongs to the bundle beside it. (A cache damaged on disk after that
// is not detected: checking a digest would load node:crypto, a few ms on every --help, and a damaged
// cache is as likely as a damaged bundle.)
import type { Script } from 'node:vm';
import type { Engine } from './engine-loader.js';

// Built-ins by process.getBuiltinModule: nothing else in this file should cost start-up time.
const { readFileSync, writeFileSync } = process.getBuiltinModule('node:fs');
const Module = process.getBuiltinModule('node:module');
const path = process.getBuiltinModule('node:path');

interface CliBundle {
  run(loadEngine: () => Engine): Promise<void>;
}

type ModuleWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** The build's training runs set this to a folder; each bundle's cache is written there at exit. */
const TRAINING_ENV = 'FSAPI_WRITE_CODE_CACHE';

export function start(): void {
  const cli = loadBundle('cli') as CliBundle;
  void cli.run(() => loadBundle('engine') as Engine);
}

/** Runs dist/<name>.cjs the way Node's CommonJS loader runs a file, compiled with dist/<name>.cache. */
export function loadBundle(name: 'cli' | 'engine'): unknown {
  const file = path.join(__dirname, `${name}.cjs`);
  const script = compileBundle(file);
  const trainingFolder = process.env[TRAINING_ENV];
  if (trainingFolder) {
    // At exit, the cache holds every function this run compiled, and every one the old cache had.
    process.on('exit', () => writeFileSync(path.join(trainingFolder, `${name}.cache`), script.createCachedData()));
  }
  const module = { exports: {} };
  (script.runInThisContext() as ModuleWrapper)(module.exports, Module.createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

/** A bundle as a script, with its code cache when there is one. Exported for the tests. */
export function compileBundle(file: string): Script {
  const { Script } = process.getBuiltinModule('node:vm');
  // latin1 is a plain copy of the bytes; the build checks that the bundles are ASCII, so it reads them right.
  return new Script(Module.wrap(readFileSync(file, 'latin1')), {
    // The name stack traces show. Not the file's path: with a code cache, V8 keeps the name the cache was
    // made with (nodejs/node#38134), and the build made it in a staging folder.
    filename: `fsapi/dist/${path.basename(file)}`,
    cachedData: readCache(file.replace(/\.cjs$/, '.cache')),
  });
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined; // no cache: the build's training run failed, or someone removed it
  }
}

// Run directly, as the build's training runs do. bin/fsapi.cjs requires it and calls start() itself.
if (typeof require !== 'undefined' && require.main === module) start();
