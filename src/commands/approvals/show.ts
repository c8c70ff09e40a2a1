import { run } from '../run.js';
import { showSpec } from './show.spec.js';
import { NotFoundError } from '../../errors.js';
import { heldOutcomes } from '../../controls/approvals.js';
import { controlScope, withStore } from '../../controls/payees.js';
import { requestJson } from '../../controls/policy.js';
import { readPolicy } from '../../transfers/limits.js';
import { normaliseRequestId } from '../../store/controls.js';
import { printRequest } from '../../ui/controls.js';
import { businessClock } from '../../controls/business-clock.js';
import { ownerWords } from '../../auth/records-owner.js';

export default run(showSpec, async (ctx, _opts, args) => {
  const id = normaliseRequestId(String(args[0] ?? ''));
  const scope = await controlScope(ctx);
  const request = await withStore(ctx, (store) => store.request(scope, id));
  if (!request) throw new NotFoundError(`no approval request ${id} in ${ownerWords(scope)}`, 'fsapi approvals list shows the requests');
  const outcomes = await heldOutcomes(ctx, scope, request);
  // The policy as it is now: under four eyes, who asked may not approve (the store decides it again then).
  const policy = await readPolicy(ctx, scope);
  printRequest(ctx, request, requestJson(request, outcomes, policy), outcomes, policy, await businessClock(ctx));
});
