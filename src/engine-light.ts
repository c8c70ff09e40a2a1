// Entry of dist/engine-light.cjs: the engine of the commands that only ask the API or read the profiles
// (src/engine-choice.ts lists them): the overview, logins and profiles, a balance, banks, a name enquiry,
// a TSQ, client accounts and transactions. It leaves out the code of the commands that send,
// keep records, listen or make documents, half of dist/engine.cjs, which each of these would otherwise
// read and load from the code cache at every run (docs/startup.md). src/engine.ts holds every command,
// these included; a run loads one engine or the other (src/engine-loader.ts), never both, so no module of
// fsapi exists twice in a process.
import type { CommandModule } from './commands/types.js';
import type { LightCommand } from './engine-choice.js';

export { runCommand } from './runtime.js';

/** The module of each command of this engine, by the key src/program.ts names it with. */
export const commands = {
  // BEGIN made from the specs by scripts/gen-commands.ts (npm run build): edit the specs, not this
  overview: () => import('./commands/overview.js'),
  'auth/login': () => import('./commands/auth/login.js'),
  'auth/status': () => import('./commands/auth/status.js'),
  'auth/logout': () => import('./commands/auth/logout.js'),
  'auth/token': () => import('./commands/auth/token.js'),
  'profile/list': () => import('./commands/profile/list.js'),
  'profile/use': () => import('./commands/profile/use.js'),
  'profile/remove': () => import('./commands/profile/remove.js'),
  account: () => import('./commands/account.js'),
  banks: () => import('./commands/banks.js'),
  enquiry: () => import('./commands/enquiry.js'),
  tsq: () => import('./commands/tsq.js'),
  'clients/list': () => import('./commands/clients/list.js'),
  'clients/get': () => import('./commands/clients/get.js'),
  'tx/list': () => import('./commands/tx/list.js'),
  'tx/get': () => import('./commands/tx/get.js'),
  // END made from the specs
} satisfies Record<LightCommand, () => Promise<CommandModule>>;
