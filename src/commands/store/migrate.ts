// fsapi store migrate <url>: this machine's records of the profile, carried into a team store
// (src/store/team-migrate.ts). Adds records only, each once, so it may run again at any time; the data
// dir's store is left as it was. What it copied and what was there already is printed (--json: an object).
import { run } from '../run.js';
import { migrateSpec } from './migrate.spec.js';
import { accountOf } from '../../auth/records-owner.js';
import { UsageError } from '../../errors.js';
import { normalBaseUrl } from '../../store/controls.js';
import { openSqliteStore } from '../../store/database.js';
import { openTeamStore, parseStoreUrl } from '../../store/postgres.js';
import { migrateToTeam, type MigrationCounts } from '../../store/team-migrate.js';
import { printJson } from '../../ui/output.js';

export const inspectsStore = true;

const LABELS: Record<keyof MigrationCounts, string> = {
  journal: 'journal records',
  transfers: 'transfers',
  payees: 'payees',
  policies: 'policies',
  policyChanges: 'policy changes',
  approvalRequests: 'approval requests',
  approvalDecisions: 'approval decisions',
  events: 'webhook events',
};

export default run(migrateSpec, async (ctx, _opts, args) => {
  const address = parseStoreUrl(args[0] ?? '', 'the team store URL');
  const profile = await ctx.profile();
  if (!profile.baseUrl) {
    throw new UsageError(
      `profile "${profile.name}" uses the local simulator, whose records belong to no API account; nothing was copied`,
      'a team store keeps the records of a real API account: run this with that profile (--profile NAME)',
    );
  }
  const consumerKey = ctx.env.FSAPI_CONSUMER_KEY?.trim() || profile.consumerKey;
  if (!consumerKey) {
    throw new UsageError(
      `fsapi does not know the consumer key of profile "${profile.name}", which names its account in a team store; nothing was copied`,
      'set FSAPI_CONSUMER_KEY, or log in again (fsapi auth login)',
      'account_unknown',
    );
  }
  const baseUrl = normalBaseUrl(profile.baseUrl);
  const local = await openSqliteStore(ctx.paths.dataDir);
  const team = await openTeamStore(undefined, address);
  const result = await migrateToTeam(local, team, { profile: profile.name, baseUrl, account: accountOf(consumerKey), accountBaseUrl: baseUrl }, normalBaseUrl);
  if (ctx.globals.json) {
    printJson(ctx, result);
    return;
  }
  ctx.io.note(`from ${result.from} (profile "${profile.name}") to ${result.to}:`);
  for (const key of Object.keys(LABELS) as Array<keyof MigrationCounts>) {
    const copied = result.copied[key];
    const present = result.present[key];
    const left = result.left[key];
    if (copied + present + left === 0) continue;
    const notCopied = left > 0 ? `, ${left} not copied (the team store kept its own policy: they never applied there)` : '';
    ctx.io.note(`  ${LABELS[key]}: ${copied} copied${present > 0 ? `, ${present} there already` : ''}${notCopied}`);
  }
  ctx.io.note(`next: fsapi store use ${result.to} (the profile then keeps its records there)`);
});
