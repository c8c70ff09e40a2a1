// How src/program.ts reaches the engine (src/engine.ts, the code every command runs) once an action starts.
// From the build, src/boot.ts hands over its loader, which compiles dist/engine.cjs with its code cache.
// From source (tsx: the tests and scripts that import src/program.ts) it is a plain import; the build
// leaves that import out of dist/cli.cjs (scripts/build.mjs).
export type Engine = typeof import('./engine.js');

let loader: () => Engine | Promise<Engine> = () => import('./engine.js');
let loaded: Promise<Engine> | undefined;

export function useEngineLoader(load: () => Engine): void {
  loader = load;
}

/** The engine, loaded (and with the bundle, compiled) once per run however often it is asked for. */
export function loadEngine(): Promise<Engine> {
  return (loaded ??= Promise.resolve().then(loader));
}
