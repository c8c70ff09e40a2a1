import { run } from '../run.js';
import { showSpec } from './show.spec.js';
import { openJournal } from '../../transfers/transfer.js';
import { controlScope } from '../../controls/payees.js';
import { COUNTED_IN_WORDS, COUNTED_OUTCOMES, leftUnderDailyMaximum, readPolicy, spentTodayIn } from '../../transfers/limits.js';
import { ControlsStore } from '../../store/controls.js';
import { machineActor, type Actor } from '../../common/actor.js';
import { DEFAULT_POLICY_TIME_ZONE } from '../../common/time-zone.js';
import { isoTimeCell, koboCell, printRecord } from '../../ui/output.js';
import { actorWords, nairaOrNull, policyJson, policyLines } from '../../ui/controls.js';
import { ownedByAccount, ownerWords } from '../../auth/records-owner.js';

export default run(showSpec, async (ctx) => {
  const scope = await controlScope(ctx);
  const policy = await readPolicy(ctx, scope);
  // The policy's day; without a policy, the day of the business's clock it would have (Africa/Lagos), for information.
  const timeZone = policy?.timeZone ?? DEFAULT_POLICY_TIME_ZONE;
  const spent = await spentTodayIn(openJournal(ctx), scope, ctx.clock.now(), timeZone);
  const left = leftUnderDailyMaximum(policy?.maxPerDayKobo, spent);
  // Who this run acts as, as four eyes and withdrawing compare it (src/common/actor.ts).
  const store = await ControlsStore.openIfExists(ctx.paths.dataDir);
  let actor: Actor;
  try {
    actor = store ? await store.actingAs() : { name: machineActor(), kind: 'OS user' };
  } finally {
    store?.close();
  }
  if (!policy) ctx.io.note(`${ownerWords(scope)} has no payment policy: fsapi pays any amount to any account (fsapi policy set, at a terminal)`);
  printRecord(
    ctx,
    [
      [ownedByAccount(scope) ? 'Account' : 'Profile', scope.profile],
      ...policyLines(policy),
      // Not "sent": a failed or reversed transfer counts, a refused one does not (src/controls/policy.ts).
      ["Counted toward today's maximum", { ...koboCell(spent), text: `${koboCell(spent).text} (${COUNTED_IN_WORDS})` }],
      ['Left today', left === undefined ? 'no daily maximum' : koboCell(left)],
      ['Changed', policy ? isoTimeCell(policy.updatedAt, timeZone, { zone: true }) : ''],
      ['Changed by', policy?.updatedBy ?? ''],
      ['You act as', actorWords(actor)],
    ],
    {
      profile: scope.profile,
      baseUrl: scope.baseUrl,
      ...policyJson(policy),
      countedToday: nairaOrNull(spent),
      countedOutcomes: COUNTED_OUTCOMES,
      leftToday: nairaOrNull(left),
      actingAs: actor,
    },
  );
});
