// fsapi transfer status <reference> [--wait]: where is this transfer? (GET /v1/transactions/reference/{ref})
// When the reference is one of ours, the journal learns the answer: an unknown outcome becomes reconciled.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { ApiError, UsageError } from '../../errors.js';
import { checkTransferStatus, openJournal, recordStatusSeen, transferScope, waitForSettlement } from '../../core/transfer.js';
import { colors } from '../../ui/output.js';
import { startSpinner } from '../../ui/spinner.js';
import { printTransaction } from '../../ui/transfers.js';

export default async function status(ctx: Context, input: CommandInput): Promise<void> {
  const reference = (input.args[0] ?? '').trim();
  if (reference === '') throw new UsageError('the reference is empty', 'fsapi transfer log lists the references sent from here');
  const wait = input.options.wait === true;

  const journal = openJournal(ctx);
  const scope = await transferScope(ctx);
  const { transaction: found, journalled } = await checkTransferStatus(ctx, journal, scope, reference);
  if (journalled?.state === 'unknown') {
    ctx.io.note(`${reference} had no known outcome in the journal; the API has it, so it went through (journal: reconciled)`);
  }

  let transaction = found;
  if (wait) {
    const spinner = await startSpinner(ctx, `waiting for ${reference} to be successful (at most 5 minutes)`);
    const result = await waitForSettlement(ctx, reference, {
      initial: found,
      onStatus: (current) => spinner.update(`waiting for ${reference}: ${current}`),
    }).finally(() => spinner.stop());
    transaction = result.transaction ?? found;
    if (journalled && transaction !== found) await recordStatusSeen(ctx, journal, scope, { reference, state: 'accepted' }, transaction);
    printTransaction(ctx, transaction);
    if (result.settled) return;
    if (transaction.status.toLowerCase() !== 'pending') throw new ApiError(`transfer ${reference} ${result.reason}`);
    ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${reference} is ${result.reason}`);
    return;
  }
  printTransaction(ctx, transaction);
}
