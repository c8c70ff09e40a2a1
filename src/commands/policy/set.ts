import { run } from '../run.js';
import { requireTeamRight } from '../../controls/rights.js';
import { setSpec } from './set.spec.js';
import { UsageError } from '../../errors.js';
import { proveConsumerSecret, requireTerminal } from '../../auth/proof.js';
import { controlScope, listPayees, withStore } from '../../controls/payees.js';
import { nowIso } from '../../controls/policy.js';
import { operatorName } from '../../transfers/asker.js';
import { readPolicy, spentTodayIn } from '../../transfers/limits.js';
import { DEFAULT_POLICY_TIME_ZONE, parseTimeZone, zonedClockText, zonedDay } from '../../common/time-zone.js';
import { openJournal } from '../../transfers/transfer.js';
import { formatNaira } from '../../money/kobo.js';
import type { Context } from '../../context.js';
import type { ControlScope, Policy } from '../../store/controls.js';
import type { Kobo } from '../../money/kobo.js';
import { policyJson, writePolicyChange } from '../../ui/controls.js';
import { printJson } from '../../ui/output.js';
import { ownerWords } from '../../auth/records-owner.js';

export default run(setSpec, async (ctx, opts) => {
  // Each limit: kobo, null for `none` (removed), undefined when not given (kept).
  const limits = {
    maxPerTransferKobo: opts.maxPerTransfer,
    maxPerDayKobo: opts.maxPerDay,
    approvalAboveKobo: opts.approvalAbove,
  };
  const { payeesOnly, requireName, fourEyes, off } = opts;
  const timeZone = opts.timeZone === undefined ? undefined : parseTimeZone(opts.timeZone, '--time-zone');
  const switches = [payeesOnly, requireName, fourEyes];
  const anyChange = Object.values(limits).some((v) => v !== undefined) || switches.some((v) => v !== undefined) || timeZone !== undefined;
  if (off && anyChange) throw new UsageError('--off removes the whole policy: give it alone');
  if (!off && !anyChange) {
    throw new UsageError(
      'nothing to change',
      'give --max-per-transfer, --max-per-day, --approval-above (naira, or none), --payees-only, --require-name, --four-eyes (each with its --no- form), --time-zone, or --off',
    );
  }
  // A team store's member without the right is told before anything is asked (PostgreSQL refuses it anyway).
  await requireTeamRight(ctx, 'owner', 'changing the payment policy');
  requireTerminal(ctx, 'changing the payment policy');

  const scope = await controlScope(ctx);
  const before = await readPolicy(ctx, scope);
  const at = nowIso(ctx);
  const by = operatorName(ctx.env);
  let after: Policy | undefined;
  if (!off) {
    const pick = (given: Kobo | null | undefined, old: Kobo | undefined) => (given === undefined ? old : given === null ? undefined : given);
    after = {
      maxPerTransferKobo: pick(limits.maxPerTransferKobo, before?.maxPerTransferKobo),
      maxPerDayKobo: pick(limits.maxPerDayKobo, before?.maxPerDayKobo),
      approvalAboveKobo: pick(limits.approvalAboveKobo, before?.approvalAboveKobo),
      payeesOnly: payeesOnly ?? before?.payeesOnly ?? false,
      // A new policy's day is the business's (Africa/Lagos), whatever the zone of the machine it is set on.
      timeZone: timeZone ?? before?.timeZone ?? DEFAULT_POLICY_TIME_ZONE,
      requireName: requireName ?? before?.requireName ?? false,
      fourEyes: fourEyes ?? before?.fourEyes ?? false,
      updatedAt: at,
      updatedBy: by,
    };
    // A policy with nothing in it is no policy.
    if (
      after.maxPerTransferKobo === undefined &&
      after.maxPerDayKobo === undefined &&
      after.approvalAboveKobo === undefined &&
      !after.payeesOnly &&
      !after.requireName &&
      !after.fourEyes
    )
      after = undefined;
  }
  // Stored alone, a zone would be a policy without a limit: one that lets an agent pay (fsapi mcp pays only
  // under a policy) and turns fsapi api's transfers off, while guarding nothing (docs/policy.md).
  if (after === undefined && before === undefined && timeZone !== undefined) {
    throw new UsageError(
      `a time zone alone is no policy: without one, days and times are ${DEFAULT_POLICY_TIME_ZONE}'s; give the zone with a limit`,
      'for example: fsapi policy set --max-per-day 500000 --time-zone Africa/Lagos',
    );
  }
  if (after !== undefined && after.maxPerTransferKobo !== undefined && after.maxPerDayKobo !== undefined && after.maxPerTransferKobo > after.maxPerDayKobo) {
    ctx.io.note('note: the per-transfer maximum is above the daily maximum; the daily one will stop such a transfer');
  }
  if (after?.fourEyes && after.approvalAboveKobo === undefined && !after.payeesOnly) {
    ctx.io.note('note: four eyes applies to held requests, and nothing is held without --approval-above or --payees-only');
  }
  if (after?.payeesOnly && (await listPayees(ctx, scope)).length === 0) {
    ctx.io.note('note: no payees are saved yet: under payees-only every transfer will be held (fsapi payees add)');
  }
  writePolicyChange(ctx, scope.profile, before, after);
  if (before && after && before.timeZone !== after.timeZone) await writeDayChange(ctx, scope, before, after);
  await proveConsumerSecret(ctx, 'makes this change');
  await withStore(ctx, (store) => store.setPolicy(scope, after, by, at));
  ctx.io.note(
    after ? `policy of ${ownerWords(scope)} changed (by ${by})` : `policy of ${ownerWords(scope)} removed (by ${by}): fsapi pays without limits or approvals`,
  );
  if (ctx.globals.json) printJson(ctx, policyJson(after));
});

/** Naira (as --amount takes it) in kobo; `none` is null (remove the limit); undefined when not given. */

/**
 * Before the secret: what a new zone does to today. The daily maximum counts the transfers since the start of
 * the policy's day, so another zone's day counts another set of them from now on: more when its day began
 * earlier, fewer when it began later (nothing sent before that start counts today then, so up to that much
 * more may be sent today). Shown, not refused: whoever may change the zone may raise the maximum too, and
 * reads here what the change does before typing the secret (docs/policy.md).
 */
async function writeDayChange(ctx: Context, scope: ControlScope, before: Policy, after: Policy): Promise<void> {
  const now = ctx.clock.now();
  const dayStart = (zone: string) => zonedClockText(zonedDay(now, zone).start, zone, { zone: true });
  ctx.io.note(`note: from now on days and times follow ${after.timeZone}: tables, statements, receipts, --since today`);
  if (before.maxPerDayKobo === undefined && after.maxPerDayKobo === undefined) return;
  const journal = openJournal(ctx);
  const [was, willBe] = await Promise.all([spentTodayIn(journal, scope, now, before.timeZone), spentTodayIn(journal, scope, now, after.timeZone)]);
  ctx.io.note(`note: today's maximum counts ${formatNaira(was)} sent since ${dayStart(before.timeZone)} now,`);
  ctx.io.note(`  and ${formatNaira(willBe)} sent since ${dayStart(after.timeZone)} once changed`);
}
