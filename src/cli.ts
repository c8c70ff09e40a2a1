// Entry of dist/cli.cjs: the command tree, run. src/boot.ts loads it and hands over how to load the engine.
import { useEngineLoader, type Engine } from './engine-loader.js';
import { main } from './main.js';
import { program } from './program.js';

export function run(loadEngine: () => Engine): Promise<void> {
  useEngineLoader(loadEngine);
  return main(program);
}
