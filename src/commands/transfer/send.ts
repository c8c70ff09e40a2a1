// fsapi transfer send [accountNumber] [--bank --amount --narration ...]: pay one person, exactly once.
// The contract's nine steps, top to bottom: what is missing asked for at a terminal -> validate ->
// resolve and verify -> summary -> duplicate guard -> confirm -> send once through the journal
// (src/core/transfer.ts) -> report, and --wait.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import type { TransactionRecord } from '../../api/schemas.js';
import type { Journal } from '../../core/journal.js';
import { ApiError, AuthError, CancelledError, OutcomeUnknownError, UsageError } from '../../errors.js';
import { formatNaira } from '../../core/money.js';
import {
  executeTransfer,
  openJournal,
  parseSendRequest,
  prepareTransfer,
  recordStatusSeen,
  waitForSettlement,
  type PreparedTransfer,
} from '../../core/transfer.js';
import { colors } from '../../ui/output.js';
import { askForMissing } from '../../ui/ask-transfer.js';
import { startSpinner, type Spinner } from '../../ui/spinner.js';
import { printTransaction, printTransferResult, writeDuplicateWarning, writeTransferSummary } from '../../ui/transfers.js';

export default async function send(ctx: Context, input: CommandInput): Promise<void> {
  // 1. What the command line left out, asked for at a terminal (all of it named at once without one);
  //    then everything that needs no request, including whether anyone can answer the confirmation.
  const given = await askForMissing(
    ctx,
    { accountNumber: input.args[0], bank: optionText(input.options.bank), amount: optionText(input.options.amount), narration: optionText(input.options.narration) },
    ['accountNumber', 'bank', 'amount', 'narration'],
    'fsapi transfer send <accountNumber> --bank <code|name> --amount <naira> --narration <text>',
  );
  const request = parseSendRequest(given.accountNumber, { ...input.options, bank: given.bank, amount: given.amount, narration: given.narration });
  const yes = input.options.yes === true;
  const wait = input.options.wait === true;
  const allowDuplicate = input.options.allowDuplicate === true;
  if (!yes && !ctx.prompt.interactive) {
    throw new UsageError('there is no terminal to confirm this transfer on; nothing was sent', 'check the details and add --yes to send without asking');
  }

  // 2, 3, 5. The business prefix and the reference, the bank, the name enquiry, --expect-name.
  const journal = openJournal(ctx);
  const prepared = await prepareTransfer(ctx, request, journal);
  writeTransferSummary(ctx, prepared);

  // 9 and 4. The duplicate guard, then the confirmation; both default to No.
  await guardAgainstDuplicate(ctx, prepared, allowDuplicate);
  if (!yes) {
    const { transfer } = prepared;
    const go = await ctx.prompt.confirm(`Send ${formatNaira(transfer.amountKobo)} to ${transfer.accountName}?`, { defaultValue: false });
    if (!go) throw new CancelledError();
  }

  // 6, 7. Journal, one POST, the outcome; a lost answer is reconciled by looking the reference up.
  let spinner: Spinner | undefined;
  const outcome = await executeTransfer(ctx, journal, prepared.scope, prepared.transfer, {
    origin: 'send',
    onUnknown: (detail) => {
      ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} no answer to the transfer (${detail}); not resending, looking ${prepared.transfer.reference} up instead`);
    },
    onLookup: async (attempt, of) => {
      const text = `looking up ${prepared.transfer.reference} (${attempt}/${of})`;
      if (spinner) spinner.update(text);
      else spinner = await startSpinner(ctx, text);
    },
  }).finally(() => spinner?.stop());

  switch (outcome.kind) {
    case 'rejected':
      if (outcome.error instanceof AuthError) throw outcome.error;
      throw new ApiError(
        `the API refused transfer ${outcome.reference}${outcome.httpStatus ? ` (HTTP ${outcome.httpStatus})` : ''}: ${outcome.message}`,
        { status: outcome.httpStatus, apiMessage: outcome.message, hint: 'no money moved; fix what the message says and send again' },
      );
    case 'unknown':
      throw new OutcomeUnknownError(outcome.reference, outcome.detail);
    case 'reconciled':
      ctx.io.note(
        `the answer to the transfer was lost (${outcome.lostBecause}), but the lookup by reference found it: ${outcome.reference} went through (${outcome.status}); it was not sent again`,
      );
      if (ctx.globals.json) ctx.io.note('--json shows the looked-up transaction record, not the answer to the transfer');
      if (wait) return waitAndPrint(ctx, journal, prepared, outcome.transaction, () => printTransaction(ctx, outcome.transaction));
      printTransaction(ctx, outcome.transaction);
      return;
    case 'accepted':
      if (wait) return waitAndPrint(ctx, journal, prepared, undefined, () => printTransferResult(ctx, outcome.result, outcome.message));
      printTransferResult(ctx, outcome.result, outcome.message);
      return;
  }
}

const optionText = (value: unknown) => (value === undefined ? undefined : String(value));

/** Step 9: the same amount to the same account in the last 10 minutes asks again (or needs --allow-duplicate). */
async function guardAgainstDuplicate(ctx: Context, prepared: PreparedTransfer, allowDuplicate: boolean): Promise<void> {
  if (prepared.duplicates.length === 0 || allowDuplicate) return;
  writeDuplicateWarning(ctx, prepared.duplicates, ctx.clock.now());
  if (!ctx.prompt.interactive) {
    throw new UsageError(
      'the same amount went to this account less than 10 minutes ago; nothing was sent',
      'add --allow-duplicate if a second payment is intended; fsapi transfer log shows the first one',
    );
  }
  const again = await ctx.prompt.confirm('Send the same amount to the same account again?', { defaultValue: false });
  if (!again) throw new CancelledError();
}

/** Step 8: --wait polls until successful (at most 5 minutes), then prints the final transaction record. */
async function waitAndPrint(
  ctx: Context,
  journal: Journal,
  prepared: PreparedTransfer,
  initial: TransactionRecord | undefined,
  printWithoutLookup: () => void,
): Promise<void> {
  const { reference } = prepared.transfer;
  const spinner = await startSpinner(ctx, `waiting for ${reference} to be successful (at most 5 minutes)`);
  const result = await waitForSettlement(ctx, reference, {
    initial,
    onStatus: (status) => spinner.update(`waiting for ${reference}: ${status}`),
  }).finally(() => spinner.stop());
  if (!result.transaction) {
    // It was accepted; only its later status is unknown. Show the answer we have and say why.
    printWithoutLookup();
    ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${reference} was accepted, but ${result.reason}; fsapi transfer status ${reference} checks it`);
    return;
  }
  await recordStatusSeen(ctx, journal, prepared.scope, { reference, state: 'accepted' }, result.transaction);
  printTransaction(ctx, result.transaction);
  if (result.settled) return;
  const status = result.transaction.status.toLowerCase();
  if (status !== 'pending') throw new ApiError(`transfer ${reference} ${result.reason}`, { hint: `fsapi transfer status ${reference} shows it` });
  ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${reference} is ${result.reason}; fsapi transfer status ${reference} --wait follows it further`);
}
