import { run } from '../run.js';
import { statusSpec } from './status.spec.js';
import { UsageError } from '../../errors.js';
import { checkTransferStatus, intentOf, openJournal, recordStatusSeen, transferScope, waitForSettlement } from '../../transfers/transfer.js';
import { describeWait, outcomeOfStatus } from '../../transfers/outcome.js';
import { endTransferReport } from '../../ui/transfer-outcome.js';
import { outcomeOfRecord, reasonInWords } from '../../notifications/failure-reason.js';
import { startSpinner } from '../../ui/spinner.js';
import { printTransaction } from '../../ui/transfers.js';
import { businessClock } from '../../controls/business-clock.js';

export default run(statusSpec, async (ctx, opts, args) => {
  const reference = (args[0] ?? '').trim();
  if (reference === '') throw new UsageError('the reference is empty', 'fsapi transfer log lists the references sent from here');
  const { wait } = opts;
  const waitTimeoutMs = opts.waitTimeout * 1000;

  const journal = openJournal(ctx);
  const scope = await transferScope(ctx);
  const { transaction: found, journalled } = await checkTransferStatus(ctx, journal, scope, reference, reasonInWords(ctx));
  if (journalled?.state === 'unknown') {
    const outcome = outcomeOfStatus(found.status);
    const says = outcome === 'pending' || outcome === 'successful' ? `so it went through (${outcome})` : `and it ${outcome}`;
    ctx.io.note(`${reference} had no known outcome in the journal; the API has it, ${says} (journal: reconciled)`);
  }

  let transaction = found;
  let reason: string | undefined;
  if (wait) {
    const spinner = await startSpinner(ctx, `waiting for ${reference} to be successful (at most ${describeWait(waitTimeoutMs)})`);
    const result = await waitForSettlement(ctx, reference, {
      initial: found,
      intent: journalled ? intentOf(journalled) : undefined,
      timeoutMs: waitTimeoutMs,
      onStatus: (current) => spinner.update(`waiting for ${reference}: ${current}`),
    }).finally(() => spinner.stop());
    transaction = result.transaction ?? found;
    reason = result.reason;
    if (journalled && transaction !== found)
      await recordStatusSeen(ctx, journal, scope, { reference, state: 'accepted' }, transaction, await reasonInWords(ctx)(transaction));
  }
  // fsapi's outcome first; failed or reversed, the reason the API gave (src/notifications/failure-reason.ts).
  const seen = await outcomeOfRecord(ctx, transaction);
  const timeZone = await businessClock(ctx);
  printTransaction(ctx, transaction, seen, timeZone);
  // failed/reversed (any final status but successful): the reversal is shown, exit 1; still pending after --wait: exit 6.
  await endTransferReport(ctx, { reference, status: transaction.status, waited: wait, reason, failure: seen.reason, timeZone });
});
