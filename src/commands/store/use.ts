// fsapi store use <url>: the profile keeps its records in a team store (a PostgreSQL shared by every
// operator's machine, docs/team.md), or, with `local`, in the data dir again. Like `store adopt`, it moves
// where the duplicate guard and the payment policy live, so a person at a terminal proves the consumer
// secret first. The URL is kept without a password: one typed into it is refused, never echoed.
import { run } from '../run.js';
import { useSpec } from './use.spec.js';
import { proveConsumerSecret, requireTerminal } from '../../auth/proof.js';
import { inspectLocalStore, openSqliteStore } from '../../store/database.js';
import { openTeamStore, parseStoreUrl, TeamStore } from '../../store/postgres.js';
import { rightWords } from '../../controls/rights.js';
import { printJson } from '../../ui/output.js';

export const inspectsStore = true;

export default run(useSpec, async (ctx, _opts, args) => {
  const given = (args[0] ?? '').trim();
  const local = given.toLowerCase() === 'local';
  // A URL with a password (in any form) is refused here, before anything connects or is kept.
  const address = local ? undefined : parseStoreUrl(given, 'the team store URL');
  requireTerminal(ctx, 'moving the records of a profile');
  const profile = await ctx.profile();
  const profiles = await ctx.profiles();
  const current = profiles.teamStore(profile.name);
  if (local ? current === undefined : current === address!.display) {
    ctx.io.note(`profile "${profile.name}" already keeps its records in ${local ? 'the data dir' : address!.display}; nothing to change`);
    return;
  }
  if (ctx.env.FSAPI_STORE?.trim()) ctx.io.note('note: FSAPI_STORE is set: it overrides the profile for every run while it is');
  await proveConsumerSecret(ctx, local ? 'moves its records to the data dir' : 'moves its records to the team store');

  // Opened (made and migrated when new) only after the proof; unreachable is exit 1, nothing changed.
  const store = local ? await openSqliteStore(ctx.paths.dataDir) : await openTeamStore(ctx.paths.dataDir, address!);
  const identity = (await store.identity())!;
  // The data dir's store by its resolved path, as every run reports it (symbolic links followed).
  const where = local ? (await inspectLocalStore(ctx.paths.dataDir)).file : store.file;
  await profiles.useTeamStore(profile.name, address?.display);
  await profiles.rememberStore(profile.name, { id: identity.id, path: where, writes: identity.writes }, { exact: true });
  ctx.io.note(`profile "${profile.name}" now keeps its records in ${where} (store ${identity.id}, ${identity.writes} records written)`);
  if (store instanceof TeamStore && store.login) {
    const { login } = store;
    ctx.io.note(
      `you act there as ${login.login}, with ${rightWords(login)}${login.right === 'owner' && login.rightsSetUp ? ': grant the others theirs with fsapi store grant <role> <right>' : ''}`,
    );
  }
  if (ctx.globals.json)
    printJson(ctx, { profile: profile.name, store: where, backend: local ? 'sqlite' : 'postgresql', id: identity.id, writes: identity.writes });
});
