import { run } from '../run.js';
import { adoptSpec } from './adopt.spec.js';
import { proveConsumerSecret, requireTerminal } from '../../auth/proof.js';
import { storeRefusal } from '../../auth/store-check.js';
import { holdsRecords } from './status.js';
import { inspectLocalStore, openLocalStore, type StoreReport } from '../../store/database.js';
import { colors, printJson } from '../../ui/output.js';
import { teamChoice } from '../../store/team-choice.js';
import { shownStore } from '../../store/store-url.js';
import { UsageError } from '../../errors.js';

export const inspectsStore = true;

export default run(adoptSpec, async (ctx) => {
  if (teamChoice(ctx.paths.dataDir)) {
    throw new UsageError(
      'store adopt is for the store of a data dir; this profile uses a team store',
      'fsapi store use <url> moves a profile to a team store (docs/team.md)',
    );
  }
  requireTerminal(ctx, 'adopting a store');
  const profile = await ctx.profile();
  const profiles = await ctx.profiles();
  const expected = profiles.expectedStore(profile.name);
  const found = await inspectLocalStore(ctx.paths.dataDir);
  const refusal = storeRefusal(profile.name, expected, { dataDir: ctx.paths.dataDir, file: found.file, identity: found.identity });
  if (expected !== undefined && refusal === undefined) {
    ctx.io.note(`profile "${profile.name}" already keeps its records in ${found.file} (store ${expected.id}); nothing to change`);
    return;
  }

  const c = colors(ctx, 'stderr');
  ctx.io.note(c.bold(`Store of profile "${profile.name}"`));
  ctx.io.note(`  ${c.dim('expected')}  ${expected ? `${expected.id}, ${expected.writes} records written` : 'none (the profile has written no records)'}`);
  if (expected) ctx.io.note(`            ${shownStore(expected.path)}`);
  ctx.io.note(`  ${c.dim('found   ')}  ${describeFound(found)}`);
  ctx.io.note(`            ${found.file}`);
  if (holdsRecords(found)) ctx.io.note(`            ${countsLine(found)}`);
  if (expected && (found.identity?.id !== expected.id || found.identity.writes < expected.writes)) {
    ctx.io.note(c.yellow('  Records of the expected store that this one lacks are unknown to the duplicate'));
    ctx.io.note(c.yellow('  guard and the payment policy from now on: check them with fsapi reconcile.'));
  }
  await proveConsumerSecret(ctx, 'adopts this store');

  // Opened only now, after the proof: a missing or emptied store is made into a new one here.
  const store = await openLocalStore(ctx.paths.dataDir);
  const identity = (await store.identity())!;
  await profiles.rememberStore(profile.name, { id: identity.id, path: found.file, writes: identity.writes }, { exact: true });
  ctx.io.note(`profile "${profile.name}" now keeps its records in ${found.file} (store ${identity.id}, ${identity.writes} records written)`);
  if (ctx.globals.json) printJson(ctx, { profile: profile.name, id: identity.id, path: found.file, writes: identity.writes });
});

function describeFound(found: StoreReport): string {
  if (!found.exists) return 'no store: a new, empty one will be made';
  if (!found.identity && holdsRecords(found)) return 'a store made before stores had an id: it is given one, its records kept';
  if (!found.identity) return 'a file with no fsapi records: it will be made a new, empty store';
  return `${found.identity.id}, ${found.identity.writes} records written`;
}

function countsLine(found: StoreReport): string {
  const n = found.counts;
  return `${n.transfers} transfers, ${n.payees} payees, ${n.policies} policies, ${n.approvalRequests} approval requests`;
}
