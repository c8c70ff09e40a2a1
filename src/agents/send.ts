// transfer_send: `fsapi transfer send` for an agent. The command itself pays (name enquiry, the policy's
// hold, the duplicate guard, the claim, one POST, the observation check); before it runs, two things
// only an agent's call needs:
// - its reference was used before (the agent retries what it may already have done): the transfer or
//   the held request of that reference is the answer, nothing is sent. The same reference for another
//   payment is refused. The journal's claim refuses a reference twice anyway; this turns "refused" into
//   the first call's outcome, which is what a retry wants to know.
// - the profile has no payment policy: nothing is sent. Without one, an agent's payments would be bounded
//   by nothing a person chose.
import type { Context } from '../context.js';
import type { CommandModule } from '../commands/types.js';
import { ExitCode, FsapiError, UsageError } from '../errors.js';
import { koboToDecimal, formatNaira, integerKobo } from '../money/kobo.js';
import { findPayee, parseAlias } from '../controls/payees.js';
import { heldError, NameRequiredError, requestJson } from '../controls/policy.js';
import { readPolicy } from '../transfers/limits.js';
import type { ApprovalRequest, ControlScope, HeldTransfer } from '../store/controls.js';
import { requestHolding } from '../controls/approvals.js';
import { DuplicateTransferError, checkTransferStatus, openJournal, sourceAccount, transferScope, type TransferScope } from '../transfers/transfer.js';
import { parseReferenceOption } from '../api/reference.js';
import { resolveBank } from '../transfers/banks.js';
import { outcomeNow } from '../transfers/outcome.js';
import type { Journal, TransferState } from '../transfers/journal.js';
import { reasonInWords } from '../notifications/failure-reason.js';

/** No policy for the profile: an agent pays nothing. Exit 2, nothing sent. */
export class NoPolicyError extends FsapiError {
  constructor(profile: string) {
    super(`no payment policy: the owner sets one at a terminal with \`fsapi policy set\` (profile "${profile}"); nothing was sent`, {
      exitCode: ExitCode.usage,
      hint: 'until then transfer_send sends nothing; the other tools read as before',
      code: 'no_policy',
    });
  }
}

/** The tool's run: the checks above, then the command's own run. */
export async function sendForAgent(ctx: Context, module: CommandModule, options: Record<string, unknown>, args: string[]): Promise<void> {
  const scope = await transferScope(ctx);
  const reference = await referenceOfCall(ctx, options.reference);
  const journal = openJournal(ctx);
  const sent = await journal.stateOf({ ...scope, reference });
  if (sent) return answerSent(ctx, journal, scope, sent, await differences(ctx, scope, sent, options, args));
  const held = await requestHolding(ctx, scope, reference);
  if (held) return answerHeld(ctx, held.request, held.transfer, await differences(ctx, scope, held.transfer, options, args));
  if (!(await readPolicy(ctx, scope))) throw new NoPolicyError(scope.profile);
  try {
    await module.default(ctx, { ...options, reference }, args);
  } catch (error) {
    // The command's hint names the flag a person passes; an agent has none (withheld by design).
    if (error instanceof DuplicateTransferError) throw new DuplicateTransferError(error.message, DUPLICATE_HINT);
    if (error instanceof NameRequiredError) throw new NameRequiredError(error.message, NAME_HINT);
    throw error;
  }
}

/** What an agent is told when the holder's name is needed: there is no terminal to confirm a name on. */
export const NAME_HINT =
  'give expectName: the name you expect the bank to return for this account (from the invoice or the payee; case, spacing and punctuation are ignored), or pay a saved payee with to; a wrong name sends nothing';

/** What an agent is told when the duplicate guard refuses: only a person may send the same again. */
export const DUPLICATE_HINT =
  'a second payment of the same amount to the same account within 10 minutes is for a person to send, at a terminal; transfer_log shows the first one';

/**
 * The agent's reference, checked: required (the schema says so; a retry is safe only under the same
 * one), of the API's shape, with the business prefix, which the agent cannot know without asking.
 */
export async function referenceOfCall(ctx: Context, given: unknown): Promise<string> {
  const prefix = async () => (await sourceAccount(ctx)).prefix;
  if (given === undefined) {
    const p = await prefix();
    throw new UsageError(`transfer_send needs a reference of your own, ${p}-…; nothing was sent`, referenceHint(p));
  }
  const reference = parseReferenceOption(String(given));
  const p = await prefix();
  if (!reference.toUpperCase().startsWith(`${p}-`)) {
    throw new UsageError(`reference ${reference} must start with ${p}- (the first word of the business name); nothing was sent`, referenceHint(p));
  }
  return reference;
}

const referenceHint = (prefix: string) =>
  `for example ${prefix}-INVOICE-42: one reference per payment, and the same one again when you retry it (a reference pays once)`;

/** What in this call is not what was sent (or held) under its reference: its amount, account, bank. */
async function differences(
  ctx: Context,
  scope: ControlScope,
  first: Pick<TransferState, 'amountKobo' | 'accountNumber' | 'bankCode'>,
  options: Record<string, unknown>,
  args: string[],
): Promise<string[]> {
  const found: string[] = [];
  if (typeof options.amount === 'number' && options.amount !== first.amountKobo) found.push(`the amount ${formatNaira(integerKobo(options.amount))}`);
  let accountNumber = args[0];
  let bankCode: string | undefined;
  if (options.to !== undefined) {
    const payee = await findPayee(ctx, scope, parseAlias(options.to, 'to'));
    accountNumber = payee.accountNumber;
    bankCode = payee.bankCode;
  } else if (typeof options.bank === 'string') {
    bankCode = /^[0-9]{6}$/.test(options.bank.trim()) ? options.bank.trim() : (await resolveBank(ctx, options.bank)).institutionCode;
  }
  if (accountNumber !== undefined && accountNumber.trim() !== first.accountNumber) found.push(`the account ${accountNumber.trim()}`);
  if (bankCode !== undefined && bankCode !== first.bankCode) found.push(`the bank ${bankCode}`);
  return found;
}

function refuseOther(reference: string, what: string, differ: string[]): void {
  if (differ.length === 0) return;
  throw new UsageError(
    `reference ${reference} was already used for ${what}, not ${differ.join(', ')}; nothing was sent`,
    'a new payment needs a new reference; the same reference again answers what became of the first',
  );
}

/**
 * Sent before under this reference: what became of it, looked up again when it may still change (the
 * journal records what the lookup finds), else as the journal has it. Nothing is sent.
 */
async function answerSent(ctx: Context, journal: Journal, scope: TransferScope, sent: TransferState, differ: string[]): Promise<void> {
  const what = `${formatNaira(sent.amountKobo)} to ${sent.accountName} (account ${sent.accountNumber}, bank ${sent.bankCode})`;
  refuseOther(sent.reference, what, differ);
  if (sent.state !== 'rejected' && (sent.status === undefined || sent.status.toLowerCase() === 'pending')) {
    try {
      await checkTransferStatus(ctx, journal, scope, sent.reference, reasonInWords(ctx));
    } catch (error) {
      if (!(error instanceof FsapiError) || error.exitCode === ExitCode.auth) throw error;
      ctx.io.note(`warning: could not look ${sent.reference} up just now (${error.message}); its outcome is as the journal last saw it`);
    }
  }
  const now = (await journal.stateOf({ ...scope, reference: sent.reference })) ?? sent;
  const outcome = await outcomeNow(journal, now);
  ctx.io.note(`reference ${now.reference} was sent before (${outcome}); nothing was sent again`);
  if (outcome === 'unknown' || outcome === 'in flight') ctx.io.note('its outcome is not known yet: do not send it again; transfer_status looks it up');
  ctx.io.out(
    `${JSON.stringify(
      {
        reference: now.reference,
        repeated: true,
        outcome,
        status: now.status ?? null,
        amount: koboToDecimal(now.amountKobo),
        accountNumber: now.accountNumber,
        bankCode: now.bankCode,
        bankName: now.bankName,
        accountName: now.accountName,
        narration: now.narration,
        sentAt: now.sentAt,
        message: now.message ?? null,
      },
      null,
      2,
    )}\n`,
  );
}

/**
 * Held before under this reference: the request again (still held: exit 7, as the first call was), or
 * the person's rejection. Nothing is sent; an approved request is sent by its approver, not here.
 */
function answerHeld(ctx: Context, request: ApprovalRequest, transfer: HeldTransfer, differ: string[]): void {
  refuseOther(transfer.reference, `the transfer held in request ${request.id}`, differ);
  if (request.status === 'rejected' || request.status === 'withdrawn') {
    const who = request.status === 'rejected' ? 'a person rejected it' : 'it was withdrawn';
    throw new FsapiError(`reference ${transfer.reference} was held in request ${request.id}, and ${who}; nothing was sent`, {
      exitCode: ExitCode.failed,
      hint: 'a new payment needs a new reference, and may be held again',
      code: request.status,
    });
  }
  if (request.status === 'held') {
    // As the first call answered: the request on stdout, then exit 7 naming it.
    ctx.io.out(`${JSON.stringify(requestJson(request), null, 2)}\n`);
    throw heldError(request);
  }
  throw new FsapiError(`reference ${transfer.reference} is in request ${request.id}, approved by a person; its approver sends it, not this call`, {
    exitCode: ExitCode.failed,
    hint: 'transfer_status tells what became of it',
    code: 'approved',
  });
}
