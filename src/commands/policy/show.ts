import { run } from '../run.js';
import { showSpec } from './show.spec.js';
import { openJournal } from '../../transfers/transfer.js';
import { controlScope } from '../../controls/payees.js';
import { COUNTED_IN_WORDS, COUNTED_OUTCOMES, leftUnderDailyMaximum, readPolicy, spentTodayIn } from '../../controls/policy.js';
import { ControlsStore } from '../../store/controls.js';
import { machineActor, type Actor } from '../../common/actor.js';
import { localTimeZone } from '../../common/time-zone.js';
import { koboCell, printRecord } from '../../ui/output.js';
import { isoTimeCell } from '../../ui/transfers.js';
import { actorWords, nairaOrNull, policyJson, policyLines } from '../../ui/controls.js';
import { ownedByAccount, ownerWords } from '../../auth/records-owner.js';

export default run(showSpec, async (ctx) => {
  const scope = await controlScope(ctx);
  const policy = await readPolicy(ctx, scope);
  // Without a policy there is no day of its own: this terminal's day, for information.
  const spent = await spentTodayIn(openJournal(ctx), scope, ctx.clock.now(), policy?.timeZone ?? localTimeZone());
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
      ['Changed', policy ? isoTimeCell(policy.updatedAt) : ''],
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
