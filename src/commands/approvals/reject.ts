import { run } from '../run.js';
import { requireTeamRight } from '../../controls/rights.js';
import { rejectSpec } from './reject.spec.js';
import { ExitCode, FsapiError, NotFoundError, UsageError } from '../../errors.js';
import { controlScope, withStore } from '../../controls/payees.js';
import { nowIso, operatorName } from '../../controls/policy.js';
import { controlCharacterProblem } from '../../common/validate.js';
import { normaliseRequestId } from '../../store/controls.js';
import { isoTimeCell } from '../../ui/output.js';
import { businessClock } from '../../controls/business-clock.js';
import { ownerWords } from '../../auth/records-owner.js';

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
  const outcome = await withStore(ctx, async (store) => {
    const request = await store.request(scope, id);
    if (!request) return undefined;
    const decided = await store.decide(scope, id, { decision: 'rejected', by: operatorName(ctx.env), at: nowIso(ctx), reason: reason || undefined });
    // Decided by someone else since it was read: what they decided, read again.
    return { request: decided ? request : ((await store.request(scope, id)) ?? request), decided };
  });
  if (!outcome) throw new NotFoundError(`no approval request ${id} in ${ownerWords(scope)}`, 'fsapi approvals list shows the requests');
  if (!outcome.decided) {
    const last = outcome.request.decisions.at(-1);
    const at = last ? isoTimeCell(last.at, await businessClock(ctx), { zone: true }).text : '';
    throw new FsapiError(`request ${id} is already ${outcome.request.status}${last ? ` (by ${last.by} at ${at})` : ''}; nothing was changed`, {
      exitCode: ExitCode.failed,
    });
  }
  ctx.io.note(
    `rejected ${id} (by ${operatorName(ctx.env)}): its ${outcome.request.transfers.length} transfer${outcome.request.transfers.length === 1 ? '' : 's'} will not be sent`,
  );
});
