// How src/program.ts reaches the engine (src/engine.ts: the code every command runs) once an action starts,
// and only then, so `fsapi --help` loads the command tree alone. In dist/cli.cjs this import becomes a
// require of dist/engine.cjs (scripts/build.mjs); from source (tsx: the tests, scripts/gen-docs.ts) it is
// a plain import.
export type Engine = typeof import('./engine.js');

let loaded: Promise<Engine> | undefined;

/** Whether a command's action started (and so may have written through process.stdout and stderr). */
export function engineWasLoaded(): boolean {
  return loaded !== undefined;
}

/** The engine, loaded once per run however often it is asked for. */
export function loadEngine(): Promise<Engine> {
  return (loaded ??= import('./engine.js'));
}
