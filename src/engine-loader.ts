// How src/program.ts reaches the engine (src/engine.ts, or src/engine-light.ts for the commands that only
// ask the API: the code a command runs) once an action starts, and only then, so `fsapi --help` loads the
// command tree alone. In dist/cli.cjs these imports become requires of dist/engine.cjs and
// dist/engine-light.cjs (scripts/build.mjs); from source (tsx: the tests, scripts/gen-docs.ts) they are
// plain imports.
import type { CommandModule } from './commands/types.js';
import { isLightCommand } from './engine-choice.js';

export type Engine = typeof import('./engine.js');
type CommandKey = keyof Engine['commands'];

/** The engine a run loaded: how it runs a command, and the module of each of its commands. */
export interface LoadedEngine {
  runCommand: Engine['runCommand'];
  command(key: CommandKey): () => Promise<CommandModule>;
}

let loaded: { light: boolean; engine: Promise<LoadedEngine> } | undefined;

/** Whether a command's action started (and so may have written through process.stdout and stderr). */
export function engineWasLoaded(): boolean {
  return loaded !== undefined;
}

/**
 * The engine that runs `key`, loaded once per run: dist/engine-light.cjs for the commands of
 * src/engine-choice.ts, dist/engine.cjs for every other. Both hold the runtime and the modules those
 * commands share, so a process must never load both (each module would exist twice, with its state): a
 * run has one command. From source (tsx: tests running several commands in one process) the two are
 * modules of one graph, and any mix is fine.
 */
export function loadEngine(key: CommandKey): Promise<LoadedEngine> {
  const light = isLightCommand(key);
  if (loaded?.light && !light && BUNDLED) {
    return Promise.reject(new Error(`${key} cannot run after a command of dist/engine-light.cjs in one process`));
  }
  if (!loaded || (loaded.light && !light)) loaded = { light, engine: (light ? import('./engine-light.js') : import('./engine.js')).then(asLoaded) };
  return loaded.engine;
}

function asLoaded(engine: { runCommand: Engine['runCommand']; commands: Partial<Engine['commands']> }): LoadedEngine {
  return {
    runCommand: engine.runCommand,
    command: (key) => {
      const load = engine.commands[key];
      if (!load) throw new Error(`the engine loaded holds no command ${key}`);
      return load;
    },
  };
}

/** In dist/cli.cjs (its import.meta.url is the bundle's, scripts/build.mjs), not run from source. */
const BUNDLED = import.meta.url.endsWith('.cjs');
