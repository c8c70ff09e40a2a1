// Every command of fsapi, in the order of `fsapi --help`: each a spec (src/commands/spec.ts) beside its
// code, or a group of them. A new command: its spec file, its run file, one line here (or in its group's
// list) and its line in src/engine.ts's `commands`.
import type { CommandSpec, GroupSpec } from './spec.js';
import { transferGroup } from './transfer/group.spec.js';

export const commandSpecs: ReadonlyArray<CommandSpec<any> | GroupSpec> = [transferGroup];
