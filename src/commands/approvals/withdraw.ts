// fsapi approvals withdraw <id>: who asked takes a held request back. The store reads the request again in
// the transaction that records it (src/store/controls.ts decide): still held, and asked by the same actor
// (the database login on a team store, the OS user here), or nothing changes. A withdrawn request is never
// approved or sent.
import { run } from '../run.js';
import { withdrawSpec } from './withdraw.spec.js';
import { controlScope, withStore } from '../../controls/payees.js';
import { askerOf, nowIso, requestJson } from '../../controls/policy.js';
import { normaliseRequestId } from '../../store/controls.js';
import { ownerWords } from '../../auth/records-owner.js';
import { printJson } from '../../ui/output.js';
import { actingWords, lastDecisionWords, undecidedError } from './decided.js';
import { businessClock } from '../../controls/business-clock.js';

export default run(withdrawSpec, async (ctx, _opts, args) => {
  const id = normaliseRequestId(String(args[0] ?? ''));
  const scope = await controlScope(ctx);
  const asker = askerOf(ctx);
  const result = await withStore(ctx, (store) => store.decide(scope, id, { decision: 'withdrawn', at: nowIso(ctx), reason: undefined }, asker));
  // Withdrawn already by who asked: the same answer again (a retry of a withdrawal is no failure).
  const again = result.kind === 'already' && result.request.status === 'withdrawn' && result.request.actor === result.actor.name;
  if (result.kind !== 'decided' && !(result.kind === 'already' && again))
    throw undecidedError(id, result, 'nothing was changed', ownerWords(scope), await businessClock(ctx));
  const { request } = result;
  const count = request.transfers.length;
  ctx.io.note(
    again
      ? `request ${id} was ${lastDecisionWords(request)}; nothing more to do`
      : `withdrew ${id} (by ${actingWords(asker.operator, result.actor)}): its ${count} transfer${count === 1 ? '' : 's'} will not be sent`,
  );
  if (ctx.globals.json) printJson(ctx, requestJson(request));
});
