import { run } from '../run.js';
import { requireTeamRight } from '../../controls/rights.js';
import { rejectSpec } from './reject.spec.js';
import { UsageError } from '../../errors.js';
import { controlScope, withStore } from '../../controls/payees.js';
import { askerOf, nowIso } from '../../controls/policy.js';
import { controlCharacterProblem } from '../../common/validate.js';
import { normaliseRequestId } from '../../store/controls.js';
import { businessClock } from '../../controls/business-clock.js';
import { ownerWords } from '../../auth/records-owner.js';
import { actingWords, undecidedError } from './decided.js';

export default run(rejectSpec, async (ctx, opts, args) => {
  const id = normaliseRequestId(String(args[0] ?? ''));
  const reason = opts.reason === undefined ? undefined : opts.reason.trim();
  if (reason !== undefined) {
    const control = controlCharacterProblem(reason, '--reason');
    if (control) throw new UsageError(control);
    if (reason.length > 200) throw new UsageError(`--reason is ${reason.length} characters long; at most 200 are allowed`);
  }
  await requireTeamRight(ctx, 'approver', 'rejecting a held request');
  const scope = await controlScope(ctx);
  const asker = askerOf(ctx);
  const result = await withStore(ctx, (store) => store.decide(scope, id, { decision: 'rejected', at: nowIso(ctx), reason: reason || undefined }, asker));
  if (result.kind !== 'decided') throw undecidedError(id, result, 'nothing was changed', ownerWords(scope), await businessClock(ctx));
  const count = result.request.transfers.length;
  ctx.io.note(`rejected ${id} (by ${actingWords(asker.operator, result.actor)}): its ${count} transfer${count === 1 ? '' : 's'} will not be sent`);
});
