import { run } from '../run.js';
import { requireTeamRight } from '../../controls/rights.js';
import { approveSpec } from './approve.spec.js';
import { ExitCode, FsapiError, NotFoundError } from '../../errors.js';
import { proveConsumerSecret, requireTerminal } from '../../auth/proof.js';
import { approvalError, checkBeforeApproval, recentDuplicates, sendApproved, unsentTransfers, type ApprovedResult } from '../../controls/approvals.js';
import { writeDuplicateWarning } from '../../ui/transfers.js';
import { businessClock } from '../../controls/business-clock.js';
import { controlScope, withStore } from '../../controls/payees.js';
import { askerOf, nowIso } from '../../controls/policy.js';
import { readPolicy } from '../../transfers/limits.js';
import { normaliseRequestId } from '../../store/controls.js';
import { writeApprovalReview } from '../../ui/controls.js';
import { isoTimeCell, koboCell, printList, statusCell, type Column } from '../../ui/output.js';
import { koboToDecimal } from '../../money/kobo.js';
import { ownerWords } from '../../auth/records-owner.js';
import { actingWords, FourEyesError, lastDecisionWords, undecidedError } from './decided.js';

export default run(approveSpec, async (ctx, _opts, args) => {
  await requireTeamRight(ctx, 'approver', 'approving a held transfer');
  requireTerminal(ctx, 'approving a held transfer');
  const id = normaliseRequestId(String(args[0] ?? ''));
  const scope = await controlScope(ctx);
  const request = await withStore(ctx, (store) => store.request(scope, id));
  if (!request) throw new NotFoundError(`no approval request ${id} in ${ownerWords(scope)}`, 'fsapi approvals list shows the requests');
  const last = request.decisions.at(-1);
  const timeZone = await businessClock(ctx);
  if (request.status === 'rejected' || request.status === 'withdrawn') {
    throw new FsapiError(`request ${id} was ${lastDecisionWords(request, timeZone)}; nothing was sent`, { exitCode: ExitCode.failed, code: 'already_decided' });
  }

  // Approved before: only what the journal has never seen is left (an approval stopped before sending).
  const { unsent } = await unsentTransfers(ctx, scope, request);
  if (request.status === 'approved' && unsent.length === 0) {
    ctx.io.note(
      `request ${id} was already approved by ${last?.by ?? 'someone'} at ${last ? isoTimeCell(last.at, timeZone, { zone: true }).text : 'an earlier time'} and sent; nothing was sent again (fsapi transfer log shows its transfers)`,
    );
    return;
  }
  const toSend = request.status === 'held' ? request.transfers : unsent;

  // Four eyes, for the person's sake before anything is asked: who asked may not approve. The store
  // decides it again inside the transaction that records the approval (below), whatever happens meanwhile.
  const asker = askerOf(ctx);
  if ((await readPolicy(ctx, scope))?.fourEyes) {
    const actor = await withStore(ctx, (store) => store.actingAs());
    if (request.actor === undefined || request.actor === actor.name) throw new FourEyesError(request, actor);
  }

  await checkBeforeApproval(ctx, scope, toSend);
  writeApprovalReview(ctx, { ...request, transfers: [...toSend] }, scope.env, timeZone);
  // Sent to the same account, the same amount, in the last 10 minutes: shown; typing the secret agrees.
  const duplicates = await recentDuplicates(ctx, scope, toSend);
  writeDuplicateWarning(ctx, duplicates, ctx.clock.now());
  await proveConsumerSecret(ctx, 'approves and sends it');

  // The decision, recorded by the store after it reads the request again in the same transaction: one that
  // another member approved, rejected or withdrew meanwhile sends nothing from here and says who decided it.
  if (request.status === 'held') {
    const result = await withStore(ctx, (store) => store.decide(scope, id, { decision: 'approved', at: nowIso(ctx), reason: undefined }, asker));
    if (result.kind !== 'decided') throw undecidedError(id, result, 'nothing was sent from here', ownerWords(scope), timeZone);
    ctx.io.note(`approved ${id} (by ${actingWords(asker.operator, result.actor)}); sending ${toSend.length} transfer${toSend.length === 1 ? '' : 's'}`);
  } else {
    const reason = `finished the approval: sent the ${toSend.length} transfer${toSend.length === 1 ? '' : 's'} that never left`;
    const result = await withStore(ctx, (store) => store.recordDecision(scope, id, { decision: 'approved', at: nowIso(ctx), reason }, asker));
    if (result.kind !== 'decided') throw undecidedError(id, result, 'nothing was sent from here', ownerWords(scope), timeZone);
    ctx.io.note(`request ${id} was approved earlier but ${toSend.length} of its transfers never left: sending them now`);
  }

  const results = await sendApproved(ctx, scope, request, toSend, duplicates);
  const columns: Column<ApprovedResult>[] = [
    { header: 'REFERENCE', cell: (r) => r.reference },
    { header: 'NAME', cell: (r) => r.accountName, flex: true, minWidth: 10 },
    { header: 'AMOUNT', cell: (r) => koboCell(r.amountKobo), align: 'right' },
    { header: 'OUTCOME', cell: (r) => statusCell(r.outcome) },
    { header: 'MESSAGE', cell: (r) => r.message, flex: true, minWidth: 10, priority: 1 },
  ];
  printList(
    ctx,
    columns,
    results,
    results.map(({ amountKobo, ...result }) => ({ ...result, amount: koboToDecimal(amountKobo) })),
  );
  const error = approvalError(request, results);
  if (error) throw error;
});
