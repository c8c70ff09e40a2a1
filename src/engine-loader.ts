// Loads src/engine.ts, the code every command runs. In the bundle that is dist/engine.cjs, compiled through
// vm.Script with the V8 code cache the build's training run left in dist/engine.cache, so a command starts
// without parsing and compiling that code again (the technique of the v8-compile-cache package: Node 20 has
// no module.enableCompileCache). On the start-up path of every command, `--help` included: keep it small.
import type vm from 'node:vm';

// Built-ins come from process.getBuiltinModule, not import: each built-in an ES module imports costs
// `fsapi --help` a module facade. node:vm and node:crypto, which node has not loaded yet, load when used.
const { readFileSync, writeFileSync } = process.getBuiltinModule('node:fs');
const Module = process.getBuiltinModule('node:module');
const path = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');

export type Engine = typeof import('./engine.js');

// scripts/build.mjs defines this as the engine bundle's file name, next to the entry bundle. Under tsx
// (tests, scripts/gen-docs.ts) nothing defines it and src/engine.ts loads like any other module.
declare const FSAPI_ENGINE_FILE: string | undefined;

type ModuleWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

export async function loadEngine(): Promise<Engine> {
  if (typeof FSAPI_ENGINE_FILE === 'undefined') return import('./engine.js');
  const file = fileURLToPath(new URL(FSAPI_ENGINE_FILE, import.meta.url));
  const script = compileEngine(file);
  // The build's training run: written at exit, the cache holds every function the command compiled.
  const cacheOut = process.env.FSAPI_WRITE_ENGINE_CACHE;
  if (cacheOut) {
    process.on('exit', () => {
      const cache = script.createCachedData();
      writeFileSync(cacheOut, Buffer.concat([digest(cache), cache]));
    });
  }
  // Run it the way Node's CommonJS loader runs a file.
  const module = { exports: {} };
  (script.runInThisContext() as ModuleWrapper)(module.exports, Module.createRequire(file), module, file, path.dirname(file));
  return module.exports as Engine;
}

/**
 * The engine bundle as a script, with its code cache when that is sound. A cache V8 rejects
 * (script.cachedDataRejected: made by another Node version) costs only the normal compile; the run never
 * writes one back, so dist/ stays as the build left it.
 */
export function compileEngine(file: string): vm.Script {
  const { Script } = process.getBuiltinModule('node:vm');
  return new Script(Module.wrap(readFileSync(file, 'utf8')), {
    // The name stack traces show. Not the file's path: from a code cache V8 takes the name the cache was
    // made with (nodejs/node#38134), the build's staging folder, so one name serves every install.
    filename: 'fsapi/dist/engine.cjs',
    cachedData: readCache(file.replace(/\.cjs$/, '.cache')),
  });
}

// V8 checks the header of a cache (its version, the length of the source) but, in release builds, not the
// rest, and a damaged rest crashes the process: the file starts with a digest of the cache.
const DIGEST_BYTES = 32;

function readCache(file: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined; // no cache: the build's training run failed, or someone removed it
  }
  const cache = data.subarray(DIGEST_BYTES);
  return digest(cache).equals(data.subarray(0, DIGEST_BYTES)) ? cache : undefined;
}

function digest(cache: Buffer): Buffer {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(cache).digest();
}
