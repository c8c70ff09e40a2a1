// Entry of dist/cli.cjs, which bin/fsapi.cjs requires on every run, `--help` included: the command tree
// (src/program.ts) and what runs it (src/main.ts). A command's code is in dist/engine.cjs, which the tree
// loads only once an action starts (src/engine-loader.ts).
import { main } from './main.js';
import { program } from './program.js';

export function run(): Promise<void> {
  return main(program);
}
