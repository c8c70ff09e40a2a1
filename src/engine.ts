// Entry of dist/engine.cjs, the CommonJS bundle that holds everything every command runs (src/program.ts
// holds only the command tree; the commands of src/engine-light.ts run from a smaller one). src/engine-loader.ts requires it once a command's action starts; the code
// cache (bin/fsapi.cjs) spares the parse and compile on later runs. The imports stay dynamic: in the CJS
// bundle each becomes a lazily initialised module, so a command's top-level code (zod schemas, the
// simulator's app) runs only when that command runs.
import type { CommandModule } from './commands/types.js';
import { commands as lightCommands } from './engine-light.js';

export { runCommand } from './runtime.js';

/** The module of each command, by the key src/program.ts names it with. */
export const commands = {
  ...lightCommands,
  // BEGIN made from the specs by scripts/gen-commands.ts (npm run build): edit the specs, not this
  'store/status': () => import('./commands/store/status.js'),
  'store/backup': () => import('./commands/store/backup.js'),
  'store/adopt': () => import('./commands/store/adopt.js'),
  'store/use': () => import('./commands/store/use.js'),
  'store/migrate': () => import('./commands/store/migrate.js'),
  'store/grant': () => import('./commands/store/grant.js'),
  'store/revoke': () => import('./commands/store/revoke.js'),
  'transfer/send': () => import('./commands/transfer/send.js'),
  'transfer/status': () => import('./commands/transfer/status.js'),
  'transfer/receipt': () => import('./commands/transfer/receipt.js'),
  'transfer/batch': () => import('./commands/transfer/batch.js'),
  'transfer/log': () => import('./commands/transfer/log.js'),
  'payees/add': () => import('./commands/payees/add.js'),
  'payees/list': () => import('./commands/payees/list.js'),
  'payees/remove': () => import('./commands/payees/remove.js'),
  'policy/show': () => import('./commands/policy/show.js'),
  'policy/set': () => import('./commands/policy/set.js'),
  'approvals/list': () => import('./commands/approvals/list.js'),
  'approvals/show': () => import('./commands/approvals/show.js'),
  'approvals/approve': () => import('./commands/approvals/approve.js'),
  'approvals/reject': () => import('./commands/approvals/reject.js'),
  'approvals/withdraw': () => import('./commands/approvals/withdraw.js'),
  'clients/create/individual': () => import('./commands/clients/create-individual.js'),
  'clients/create/corporate': () => import('./commands/clients/create-corporate.js'),
  'tx/watch': () => import('./commands/tx/watch.js'),
  statement: () => import('./commands/statement.js'),
  collections: () => import('./commands/collections.js'),
  reconcile: () => import('./commands/reconcile.js'),
  'webhook/listen': () => import('./commands/webhook/listen.js'),
  'webhook/secret': () => import('./commands/webhook/secret.js'),
  'webhook/events/list': () => import('./commands/webhook/events-list.js'),
  'webhook/events/show': () => import('./commands/webhook/events-show.js'),
  'webhook/events/resend': () => import('./commands/webhook/events-resend.js'),
  'webhook/verify': () => import('./commands/webhook/verify.js'),
  'simulator/serve': () => import('./commands/simulator/serve.js'),
  'simulator/collect': () => import('./commands/simulator/collect.js'),
  'simulator/trigger': () => import('./commands/simulator/trigger.js'),
  'simulator/reset': () => import('./commands/simulator/reset.js'),
  api: () => import('./commands/api.js'),
  mcp: () => import('./agents/command.js'),
  completion: () => import('./commands/completion.js'),
  // END made from the specs
} satisfies Record<string, () => Promise<CommandModule>>;
