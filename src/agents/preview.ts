// transfer_preview: what transfer_send would do with these arguments, and nothing sent. It runs the same
// steps up to the send, through the same functions: the business prefix and the reference's checks, the
// bank, the name enquiry (the verified name), the expected name (namesMatch), the available balance
// (checkAvailable), the duplicate guard's findings, whether the holder's name must be given (the policy's
// require-name, an earlier failed name check of the reference: the same judge and records transfer_send
// reads), and the payment policy's one decision (applyPolicy, the function transfer_send and every batch row
// go through) with what is left of its day. Nothing is
// journalled, no request is held, no POST /v1/transfer.
//
// The charge: the API states it only in its answer to a transfer (docs/api-spec.md 2.9 and 2.10; no
// endpoint gives a fee schedule), so the preview says it is not known yet (`charge: null`) and that it
// comes on top of the amount. Guessing it from earlier transfers would be a number the bank never said.
import type { Context } from '../context.js';
import type { CommandModule } from '../commands/types.js';
import { ApiError, UsageError } from '../errors.js';
import { formatNaira, integerKobo, koboToDecimal, type Kobo } from '../money/kobo.js';
import { applyPolicy, nameRefusedBefore, openPolicyJudge } from '../controls/policy.js';
import { leftUnderDailyMaximum, PolicyLimitError } from '../transfers/limits.js';
import { ControlsStore, type NameRefusal, type Payee } from '../store/controls.js';
import { checkAvailable, openJournal, parseNarration, parseSendExtras, prepareTransfer, transferScope } from '../transfers/transfer.js';
import { namesMatch } from '../transfers/names.js';
import { parseAccountNumber } from '../common/validate.js';
import { NoPolicyError, referenceOfCall, DUPLICATE_HINT } from './send.js';
import { requestHolding } from '../controls/approvals.js';
import { businessClock } from '../controls/business-clock.js';

/** What transfer_send would do: send it, hold it for a person, refuse it, or answer an earlier call. */
export type PreviewDecision = 'send' | 'hold' | 'refuse' | 'repeat';

export const CHARGE_NOTE = 'not known before sending: the API states the charge only in its answer to the transfer; it comes on top of the amount';

export async function previewForAgent(ctx: Context, module: CommandModule, options: Record<string, unknown>, args: string[]): Promise<void> {
  const scope = await transferScope(ctx);
  // `to`: the saved payee, read as transfer send reads --to (its words become the tool's: src/agents/tools.ts).
  const { payeeOf } = module as unknown as {
    payeeOf(ctx: Context, options: Record<string, unknown>, accountNumber: string | undefined): Promise<Payee | undefined>;
  };
  const payee = await payeeOf(ctx, options, args[0]);
  const accountNumber = parseAccountNumber(payee?.accountNumber ?? args[0] ?? '', 'accountNumber');
  const bankQuery = payee?.bankCode ?? String(options.bank ?? '');
  if (typeof options.amount !== 'number') throw new UsageError('transfer_preview needs amount');
  const amountKobo = integerKobo(options.amount);
  const extras = parseSendExtras(options);
  const narration = options.narration === undefined ? undefined : parseNarration(String(options.narration));
  const expectName = payee?.accountName ?? extras.expectName;

  // A reference given is checked as transfer_send checks it; one used before makes transfer_send answer
  // the first call, sending nothing.
  let reference: { reference: string; usedBefore: Record<string, unknown> | null } | null = null;
  const journal = openJournal(ctx);
  if (options.reference !== undefined) {
    const given = await referenceOfCall(ctx, options.reference);
    const sent = await journal.stateOf({ ...scope, reference: given });
    const held = sent ? undefined : await requestHolding(ctx, scope, given);
    reference = {
      reference: given,
      usedBefore: sent
        ? { as: 'sent', amount: koboToDecimal(sent.amountKobo), accountNumber: sent.accountNumber, bankCode: sent.bankCode, sentAt: sent.sentAt }
        : held
          ? {
              as: 'held',
              request: held.request.id,
              status: held.request.status,
              amount: koboToDecimal(held.transfer.amountKobo),
              accountNumber: held.transfer.accountNumber,
            }
          : null,
    };
  }

  // The bank and the name enquiry, as transfer_send makes them (its reference is not needed: none is kept).
  const prepared = await prepareTransfer(
    ctx,
    { accountNumber, bankQuery, amountKobo, narration: narration ?? '', reference: undefined, senderName: extras.senderName, expectName: undefined },
    journal,
  );
  const { transfer } = prepared;

  const refusals: string[] = [];
  let holds: string[] = [];
  const nameMatches = expectName === undefined ? undefined : namesMatch(transfer.accountName, expectName);
  if (nameMatches === false) {
    refusals.push(`account ${transfer.accountNumber} at ${transfer.bankName} belongs to "${transfer.accountName}", not "${expectName}"`);
  }
  try {
    checkAvailable(prepared);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    refusals.push(withoutNothingSent(error.message));
  }
  if (prepared.duplicates.length > 0) {
    refusals.push(
      `the same amount went to this account less than 10 minutes ago (${prepared.duplicates.map((t) => t.reference).join(', ')}): ${DUPLICATE_HINT}`,
    );
  }
  const judge = await openPolicyJudge(ctx, journal, scope);
  // The holder's name, as transfer_send asks for it (there is no terminal: nobody confirms a name shown),
  // in the tool's words (results are not rewritten as errors are).
  const given = { expectName, unattended: true };
  const missing =
    nameRefusedBefore(reference ? await nameRefusalOf(ctx, scope, reference.reference) : undefined, given, 'expectName', await businessClock(ctx)) ??
    judge?.nameMissing({ ...transfer, payee: payee?.alias }, given, 'expectName');
  if (missing) refusals.push(missing);
  if (!judge) {
    refusals.push(withoutNothingSent(new NoPolicyError(scope.profile).message));
  } else {
    try {
      const verdict = await applyPolicy(ctx, journal, scope, [{ ...transfer, payee: payee?.alias, origin: 'send' }]);
      holds = verdict.hold.flatMap((held) => held.reasons);
    } catch (error) {
      if (!(error instanceof PolicyLimitError)) throw error;
      refusals.push(withoutNothingSent(error.message));
    }
  }
  const decision: PreviewDecision = reference?.usedBefore ? 'repeat' : refusals.length > 0 ? 'refuse' : holds.length > 0 ? 'hold' : 'send';
  const reasons =
    decision === 'repeat'
      ? [`reference ${reference!.reference} was used before: transfer_send answers what became of it, and sends nothing`]
      : decision === 'refuse'
        ? refusals
        : decision === 'hold'
          ? holds
          : [];

  const policy = judge?.policy;
  const leftToday = judge?.leftTodayKobo;
  ctx.io.note(
    `preview: ${formatNaira(amountKobo)} to ${transfer.accountName} (account ${transfer.accountNumber}, ${transfer.bankName}): ${inWords(decision, reasons)}`,
  );
  ctx.io.note('nothing was sent');
  ctx.io.out(
    `${JSON.stringify(
      {
        decision,
        wouldSend: decision === 'send',
        reasons,
        accountNumber: transfer.accountNumber,
        accountName: transfer.accountName,
        verifiedBy: 'name enquiry',
        bankCode: transfer.bankCode,
        bankName: transfer.bankName,
        amount: koboToDecimal(amountKobo),
        charge: null,
        chargeNote: CHARGE_NOTE,
        narration: narration ?? null,
        senderName: transfer.senderName ?? null,
        payee: payee?.alias ?? null,
        nameCheck: expectName === undefined ? null : { expected: expectName, matches: nameMatches },
        availableBalance: prepared.source.availableKobo === undefined ? null : koboToDecimal(prepared.source.availableKobo),
        duplicates: prepared.duplicates.map((t) => ({ reference: t.reference, sentAt: t.sentAt, outcome: t.outcome })),
        reference,
        policy: policy
          ? {
              maxPerTransfer: naira(policy.maxPerTransferKobo),
              maxPerDay: naira(policy.maxPerDayKobo),
              approvalAbove: naira(policy.approvalAboveKobo),
              payeesOnly: policy.payeesOnly,
              requireName: policy.requireName,
              fourEyes: policy.fourEyes,
              timeZone: policy.timeZone,
            }
          : null,
        today: judge
          ? {
              countedToday: koboToDecimal(judge.spentTodayKobo),
              maxPerDay: naira(policy?.maxPerDayKobo),
              leftToday: naira(leftToday),
              leftAfterThis: leftToday === undefined || decision !== 'send' ? null : koboToDecimal(leftUnderDailyMaximum(leftToday, amountKobo)!),
            }
          : null,
        sent: false,
      },
      null,
      2,
    )}\n`,
  );
}

/** The last failed name check of `reference`, without creating the store when there is none. */
async function nameRefusalOf(ctx: Context, scope: { profile: string; baseUrl: string }, reference: string): Promise<NameRefusal | undefined> {
  const store = await ControlsStore.openIfExists(ctx.paths.dataDir);
  if (!store) return undefined;
  try {
    return await store.nameRefusal(scope, reference);
  } finally {
    store.close();
  }
}

const naira = (kobo: Kobo | undefined) => (kobo === undefined ? null : koboToDecimal(kobo));

/** A refusal's own words, without its "nothing was sent": the preview says that once, for all of it. */
const withoutNothingSent = (message: string) => message.replace(/;\s*nothing was sent\s*$/, '');

function inWords(decision: PreviewDecision, reasons: readonly string[]): string {
  switch (decision) {
    case 'send':
      return 'transfer_send would send it now';
    case 'hold':
      return `transfer_send would hold it for a person to approve (${reasons.join('; ')})`;
    case 'refuse':
      return `transfer_send would refuse it: ${reasons.join('; ')}`;
    case 'repeat':
      return reasons[0]!;
  }
}
