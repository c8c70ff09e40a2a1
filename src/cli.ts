// Entry point of the bundle: the command tree, run.
import { program } from './program.js';
import { main } from './main.js';

await main(program);
