// fsapi transfer send [accountNumber] [--bank --amount --narration ...]: pay one person, exactly once.
// The contract's nine steps, top to bottom: what is missing asked for at a terminal -> validate ->
// resolve and verify -> summary -> duplicate guard -> confirm -> send once through the journal
// (src/transfers/transfer.ts) -> report, and --wait.
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { sendSpec } from './send.spec.js';
import type { OptionsOf } from '../spec.js';
import type { TransactionRecord } from '../../api/schemas.js';
import type { Journal } from '../../transfers/journal.js';
import { DuplicateClaimError, type ClaimRules } from '../../transfers/claim.js';
import { DUPLICATE_WINDOW_MS } from '../../transfers/journal.js';
import { ApiError, AuthError, CancelledError, OutcomeUnknownError, StillPendingError, UsageError } from '../../errors.js';
import { formatNaira } from '../../money/kobo.js';
import { sendRespectingRateLimit } from '../../transfers/rate-limit.js';
import {
  DuplicateTransferError,
  NameMismatchError,
  checkAvailable,
  enquireEarly,
  openJournal,
  type EarlyEnquiry,
  parseSendExtras,
  parseSendRequest,
  prepareTransfer,
  recordStatusSeen,
  waitForSettlement,
  type PreparedTransfer,
} from '../../transfers/transfer.js';
import { describeWait, outcomeOfStatus, type TransferWithOutcome } from '../../transfers/outcome.js';
import { endTransferReport } from '../../ui/transfer-outcome.js';
import { businessClock } from '../../controls/business-clock.js';
import { outcomeOfRecord, reasonInRecord, reasonInWords } from '../../notifications/failure-reason.js';
import { colors, printJson } from '../../ui/output.js';
import { askForMissing } from '../../ui/ask-transfer.js';
import { terminalText } from '../../common/sanitize.js';
import { controlScope, findPayee, parseAlias } from '../../controls/payees.js';
import { applyPolicy, checkNameGiven, heldError, holdForApproval, recordNameRefusal, requestJson } from '../../controls/policy.js';
import type { Payee } from '../../store/controls.js';
import { startSpinner, type Spinner } from '../../ui/spinner.js';
import { printTransaction, printTransferResult, writeDuplicateWarning, writeTransferSummary } from '../../ui/transfers.js';

type SendOptions = OptionsOf<typeof sendSpec>;

export default run(sendSpec, async (ctx, opts, args) => {
  // 1. What the command line left out, asked for at a terminal (all of it named at once without one);
  //    then everything that needs no request, including whether anyone can answer the confirmation.
  //    Guided: the name enquiry runs as soon as the account and bank are known, before the amount is asked.
  //    --to <alias>: a saved payee gives the account, the bank and the name the enquiry must find again.
  let early: EarlyEnquiry | undefined;
  const payee = await payeeOf(ctx, opts, args[0]);
  // The options never asked for are checked before the first question too (askForMissing checks the rest,
  // the bank included).
  parseSendExtras(opts);
  const given = await askForMissing(
    ctx,
    {
      accountNumber: payee?.accountNumber ?? args[0],
      bank: payee?.bankCode ?? opts.bank,
      // Kobo already (the option spec parsed it); an amount asked for is parsed where it is typed.
      amount: opts.amount,
      narration: opts.narration,
    },
    ['accountNumber', 'bank', 'amount', 'narration'],
    'fsapi transfer send <accountNumber> --bank <code|name> --amount <naira> --narration <text>',
    async (known) => {
      early = await enquireEarly(ctx, known.accountNumber!, known.bank!);
      const c = colors(ctx, 'stderr');
      const name = terminalText(early.accountName);
      // The marker goes on its own line when the name is long, so the line stays within 80 columns.
      const marker = c.dim('(verified by name enquiry)');
      ctx.io.note(`${c.green('✔')} Account holder: ${c.bold(name)}${name.length > 30 ? `\n  ${marker}` : ` ${marker}`}`);
    },
  );
  const request = parseSendRequest(given.accountNumber, {
    reference: opts.reference,
    senderName: opts.senderName,
    expectName: opts.expectName,
    bank: given.bank,
    amountKobo: given.amount,
    narration: given.narration,
    ...(payee ? { expectName: payee.accountName } : {}),
  });
  const { yes, wait, allowDuplicate } = opts;
  const waitTimeoutMs = opts.waitTimeout * 1000;
  if (!yes && !ctx.prompt.interactive) {
    throw new UsageError('there is no terminal to confirm this transfer on; nothing was sent', 'check the details and add --yes to send without asking');
  }

  // 2, 3, 5. The business prefix and the reference, the bank, the name enquiry, --expect-name. A name that
  // does not match is kept against a reference given (--reference, an agent's): that reference is sent
  // later only with an expected name, whatever the policy (src/controls/policy.ts checkNameGiven).
  const journal = openJournal(ctx);
  let prepared: PreparedTransfer;
  try {
    prepared = await prepareTransfer(ctx, request, journal, early);
  } catch (error) {
    if (error instanceof NameMismatchError && request.reference !== undefined) {
      await recordNameRefusal(ctx, await controlScope(ctx), {
        reference: request.reference,
        accountNumber: error.accountNumber,
        bankCode: error.bankCode,
        expectedName: error.expectedName,
        verifiedName: error.verifiedName,
      });
    }
    throw error;
  }
  writeTransferSummary(ctx, prepared);
  checkAvailable(prepared);
  // Nobody confirms at a terminal (--yes): the holder's name is named, where the policy or an earlier
  // failed check of this reference asks for it (exit 2, nothing sent). A saved payee's name is its check.
  await checkNameGiven(ctx, prepared.scope, { ...prepared.transfer, payee: payee?.alias }, { expectName: request.expectName, unattended: yes });

  // The payment policy (src/controls/policy.ts): over a hard limit exit 1; held for a person exit 7. Nothing sent.
  await holdUnlessAllowed(ctx, journal, prepared, payee?.alias, yes);
  // The zone the outcome's times are shown in, read before anything is sent (src/controls/business-clock.ts).
  const timeZone = await businessClock(ctx);

  // 9 and 4. The duplicate guard, then the confirmation; both default to No.
  await guardAgainstDuplicate(ctx, prepared.duplicates, allowDuplicate);
  if (!yes) {
    const { transfer } = prepared;
    const go = await ctx.prompt.confirm(`Send ${formatNaira(transfer.amountKobo)} to ${transfer.accountName}?`, { defaultValue: false });
    if (!go) throw new CancelledError();
  }

  // 6, 7. Journal, one POST, the outcome; a lost answer is reconciled by looking the reference up. The
  // claim checks the guard again across processes: one that sent the same since asks again here.
  const agreed = new Set(prepared.duplicates.map((t) => t.reference.toUpperCase()));
  const claim = (): ClaimRules => ({
    earlierAttempts: prepared.earlierAttempts,
    duplicates: allowDuplicate ? undefined : { windowMs: DUPLICATE_WINDOW_MS, ignore: agreed },
  });
  let spinner: Spinner | undefined;
  // A 429 (rate limited) proves nothing: looked up first; sent again, under the same reference, only when
  // the API answers that it holds no such reference (src/transfers/refusal-proof.ts).
  const execute = () =>
    sendRespectingRateLimit(ctx, journal, prepared.scope, prepared.transfer, {
      origin: 'send',
      claim: claim(),
      onRateLimited: (waitMs) => {
        ctx.io.note(
          `rate limited: ${prepared.transfer.reference} was answered 429 and the lookup does not find it; sending it again under the same reference in ${Math.round(waitMs / 1000)} s`,
        );
      },
      onUnknown: (detail) => {
        ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${detail}; not resending, looking ${prepared.transfer.reference} up instead`);
      },
      onLookup: async (attempt, of) => {
        const text = `looking up ${prepared.transfer.reference} (${attempt}/${of})`;
        if (spinner) spinner.update(text);
        else spinner = await startSpinner(ctx, text);
      },
    }).finally(() => {
      spinner?.stop();
      spinner = undefined;
    });
  let outcome: Awaited<ReturnType<typeof execute>> | undefined;
  for (let asked = 0; outcome === undefined; asked += 1) {
    try {
      outcome = await execute();
    } catch (error) {
      if (!(error instanceof DuplicateClaimError) || asked >= 3) throw error;
      await guardAgainstDuplicate(ctx, error.duplicates, false);
      for (const t of error.duplicates) agreed.add(t.reference.toUpperCase());
    }
  }

  switch (outcome.kind) {
    case 'rejected':
      if (outcome.error instanceof AuthError) throw outcome.error;
      throw new ApiError(`the API refused transfer ${outcome.reference}${outcome.httpStatus ? ` (HTTP ${outcome.httpStatus})` : ''}: ${outcome.message}`, {
        status: outcome.httpStatus,
        apiMessage: outcome.message,
        hint: refusalHint(outcome.message),
      });
    case 'unknown':
      throw new OutcomeUnknownError(outcome.reference, outcome.detail);
    case 'reconciled':
      ctx.io.note(`${outcome.lostBecause}; the lookup by reference found ${outcome.reference}: ${foundSays(outcome.status)}; it was not sent again`);
      if (ctx.globals.json) ctx.io.note('--json shows the looked-up transaction record, not the answer to the transfer');
      if (wait) {
        const shown = outcome.transaction;
        return waitAndPrint(ctx, journal, prepared, timeZone, waitTimeoutMs, shown, async () =>
          printTransaction(ctx, shown, await outcomeOfRecord(ctx, shown), timeZone),
        );
      }
      return printAndEnd(ctx, outcome.reference, outcome.transaction, timeZone, false);
    case 'accepted':
      if (wait)
        return waitAndPrint(ctx, journal, prepared, timeZone, waitTimeoutMs, undefined, () =>
          printTransferResult(ctx, outcome.result, outcome.message, timeZone),
        );
      printTransferResult(ctx, outcome.result, outcome.message, timeZone);
      return endTransferReport(ctx, {
        reference: outcome.reference,
        status: outcome.status,
        waited: false,
        failure: reasonInRecord(outcome.result),
        timeZone,
      });
  }
});

/** What a transfer found by lookup is, in the outcome's words: failed and reversed never "went through". */
function foundSays(status: string): string {
  const outcome = outcomeOfStatus(status);
  return outcome === 'pending' || outcome === 'successful' ? `it went through (${outcome})` : `the API has it, and it ${outcome}`;
}

/**
 * The API's refusals say little ("Request Un-Successful"): the hint names the usual causes, so the person
 * knows where to look. No money moved either way.
 */
function refusalHint(message: string): string {
  const reason = message.trim() === '' || /un-?successful/i.test(message) ? 'the API gave no reason; ' : '';
  return `no money moved; ${reason}the usual causes: the available balance (fsapi account) is below the amount plus its charge, a limit on the account was reached, or the destination account cannot receive it (fsapi enquiry checks it)`;
}

/**
 * The saved payee of --to, which stands for the account number, --bank and --expect-name (transfer_preview
 * reads it the same way: src/agents/preview.ts).
 */
export async function payeeOf(
  ctx: Context,
  opts: Pick<SendOptions, 'to' | 'bank' | 'expectName'>,
  accountNumber: string | undefined,
): Promise<Payee | undefined> {
  if (opts.to === undefined) return undefined;
  const alias = parseAlias(opts.to, '--to');
  const clash = [
    accountNumber !== undefined ? 'an account number' : '',
    opts.bank !== undefined ? '--bank' : '',
    opts.expectName !== undefined ? '--expect-name' : '',
  ].filter(Boolean);
  if (clash.length > 0) throw new UsageError(`--to ${alias} names the account, its bank and its holder: leave out ${clash.join(' and ')}`);
  return await findPayee(ctx, await controlScope(ctx), alias);
}

/**
 * Sends on only what the policy lets go without a person; a hold is recorded and is exit 7. At a terminal
 * (without --yes) the person is asked first: they set out to send, not to file a request, so saying no
 * leaves no request behind (exit 4).
 */
async function holdUnlessAllowed(ctx: Context, journal: Journal, prepared: PreparedTransfer, payee: string | undefined, yes: boolean): Promise<void> {
  const { transfer, scope } = prepared;
  const verdict = await applyPolicy(ctx, journal, scope, [{ ...transfer, payee, origin: 'send' }]);
  if (verdict.hold.length === 0) return;
  if (!yes) {
    const c = colors(ctx, 'stderr');
    const why = [...new Set(verdict.hold.flatMap((held) => held.reasons))].join('; ');
    ctx.io.note(`${c.yellow('note:')} the payment policy holds this transfer for a person to approve: ${why}`);
    const file = await ctx.prompt.confirm(`Ask for approval of ${formatNaira(transfer.amountKobo)} to ${transfer.accountName}?`, { defaultValue: false });
    if (!file) throw new CancelledError('cancelled; nothing was sent and no approval request was made');
  }
  const request = await holdForApproval(ctx, scope, verdict.hold, 'send');
  if (ctx.globals.json) printJson(ctx, requestJson(request));
  throw heldError(request);
}

/** Step 9: the same amount to the same account in the last 10 minutes asks again (or needs --allow-duplicate). */
async function guardAgainstDuplicate(ctx: Context, duplicates: readonly TransferWithOutcome[], allowDuplicate: boolean): Promise<void> {
  if (duplicates.length === 0 || allowDuplicate) return;
  writeDuplicateWarning(ctx, duplicates, ctx.clock.now());
  if (!ctx.prompt.interactive) {
    throw new DuplicateTransferError(
      'the same amount went to this account less than 10 minutes ago; nothing was sent',
      'add --allow-duplicate if a second payment is intended; fsapi transfer log shows the first one',
    );
  }
  const again = await ctx.prompt.confirm('Send the same amount to the same account again?', { defaultValue: false });
  if (!again) throw new CancelledError();
}

/**
 * Step 8: --wait polls until successful (at most --wait-timeout, default 5 minutes), then prints the final
 * transaction record. Failed or reversed: exit 1 with the reversal; still pending at the end: exit 6.
 */
async function waitAndPrint(
  ctx: Context,
  journal: Journal,
  prepared: PreparedTransfer,
  timeZone: string,
  timeoutMs: number,
  initial: TransactionRecord | undefined,
  printWithoutLookup: () => void | Promise<void>,
): Promise<void> {
  const { reference } = prepared.transfer;
  const spinner = await startSpinner(ctx, `waiting for ${reference} to be successful (at most ${describeWait(timeoutMs)})`);
  const { transfer } = prepared;
  const result = await waitForSettlement(ctx, reference, {
    initial,
    timeoutMs,
    // Every status seen is checked against what was sent: another transaction's record is no settlement.
    intent: { reference, amountKobo: transfer.amountKobo, accountNumber: transfer.accountNumber, bankCode: transfer.bankCode },
    onStatus: (status) => spinner.update(`waiting for ${reference}: ${status}`),
  }).finally(() => spinner.stop());
  if (!result.transaction) {
    // The API took it; only its later status is unknown. Show the answer we have and say why.
    await printWithoutLookup();
    throw new StillPendingError(reference, `pending (the API took it), but ${result.reason}`);
  }
  await recordStatusSeen(ctx, journal, prepared.scope, { reference, state: 'accepted' }, result.transaction, await reasonInWords(ctx)(result.transaction));
  await printAndEnd(ctx, reference, result.transaction, timeZone, true, result.reason);
}

/** The record, fsapi's outcome first (with the reason the API gave for a failure), then how the command ends. */
async function printAndEnd(ctx: Context, reference: string, transaction: TransactionRecord, timeZone: string, waited: boolean, reason?: string): Promise<void> {
  const seen = await outcomeOfRecord(ctx, transaction);
  printTransaction(ctx, transaction, seen, timeZone);
  await endTransferReport(ctx, { reference, status: transaction.status, waited, reason, failure: seen.reason, timeZone });
}
