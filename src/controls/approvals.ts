// Held transfers, approved: each sent once, under the reference it was held with, through the same path
// as every other transfer (executeTransfer: the journal's claim, its duplicate guard and the policy's hard
// limits, one POST, the outcome journalled). The approval itself is recorded first, as a conditional
// change of the request from `held` (src/store/controls.ts), so two approvals at once send it once; and
// the journal's claim refuses a reference already sent, whatever the request says.
import type { Context } from '../context.js';
import { ApiError, ExitCode, FsapiError, OutcomeUnknownError } from '../errors.js';
import { ControlsStore, type ApprovalRequest, type ControlScope, type HeldTransfer } from '../store/controls.js';
import { resolveBank } from '../transfers/banks.js';
import { DuplicateClaimError, ReferenceTakenError } from '../transfers/claim.js';
import { DUPLICATE_WINDOW_MS, type TransferState } from '../transfers/journal.js';
import { formatNaira, sumKobo, type Kobo } from '../money/kobo.js';
import {
  checkDailyLimit,
  checkPerTransferLimit,
  leftUnderDailyMaximum,
  PolicyLimitError,
  readPolicy,
  spentTodayIn,
  todaysTransfers,
} from '../transfers/limits.js';
import { sendRespectingRateLimit } from '../transfers/rate-limit.js';
import { outcomeWords, reasonInRecord } from '../notifications/failure-reason.js';
import {
  isUnsuccessfulOutcome,
  NOT_SENT,
  outcomeOfReference,
  outcomeOfStatus,
  withOutcomeNow,
  type NeverSent,
  type Outcome,
  type TransferWithOutcome,
} from '../transfers/outcome.js';
import { NameMismatchError, openJournal, verifyAccountName, withoutNothingDone, type TransferScope, type VerifiedTransfer } from '../transfers/transfer.js';

/** The request that holds this reference, with the held transfer. */
export async function requestHolding(
  ctx: Context,
  scope: ControlScope,
  reference: string,
): Promise<{ request: ApprovalRequest; transfer: HeldTransfer } | undefined> {
  const store = await ControlsStore.openIfExists(ctx.paths.dataDir);
  if (!store) return undefined;
  try {
    const request = await store.requestOfReference(scope, reference);
    const transfer = request?.transfers.find((t) => t.reference.toUpperCase() === reference.toUpperCase());
    return request && transfer ? { request, transfer } : undefined;
  } finally {
    store.close();
  }
}

/** How one approved transfer ended: an outcome word of the contract (or `not-sent`, as a batch says it), and what happened. */
export interface ApprovedResult {
  reference: string;
  accountName: string;
  amountKobo: Kobo;
  outcome: Outcome | typeof NOT_SENT;
  message: string;
}

/**
 * What became of each transfer of a request, by reference, for `approvals show`: its outcome in the
 * journal once sent (as `transfer log` says it), else `held` while the request waits for a person, else
 * `not-sent` (rejected, or approved but stopped before it left). The journal is only read.
 */
export async function heldOutcomes(ctx: Context, scope: ControlScope, request: ApprovalRequest): Promise<Map<string, Outcome | NeverSent>> {
  const journal = openJournal(ctx);
  const outcomes = new Map<string, Outcome | NeverSent>();
  for (const t of request.transfers) {
    const outcome = await outcomeOfReference(journal, { ...scope, reference: t.reference });
    outcomes.set(t.reference, outcome ?? (request.status === 'held' ? 'held' : NOT_SENT));
  }
  return outcomes;
}

/** The transfers of a request the journal has never seen (all of them, for a request just approved). */
export async function unsentTransfers(
  ctx: Context,
  scope: ControlScope,
  request: ApprovalRequest,
): Promise<{ unsent: HeldTransfer[]; journalled: TransferState[] }> {
  // Each held reference by the journal's index, not by reading the history.
  const found = await openJournal(ctx).snapshot(async (journal) => {
    const states: Array<readonly [HeldTransfer, TransferState | undefined]> = [];
    for (const t of request.transfers) states.push([t, await journal.stateOf({ ...scope, reference: t.reference })]);
    return states;
  });
  const unsent = found.filter(([, state]) => state === undefined).map(([t]) => t);
  const journalled = found.map(([, state]) => state).filter((t): t is TransferState => t !== undefined);
  return { unsent, journalled };
}

/**
 * Before anything is asked of the person: every holder's name asked again (it must still be the one
 * held), and the policy's hard limits, so a request that could not be sent is not approved.
 */
export async function checkBeforeApproval(ctx: Context, scope: ControlScope, transfers: readonly HeldTransfer[]): Promise<void> {
  for (const held of transfers) {
    const bank = await resolveBank(ctx, held.bankCode);
    try {
      await verifyAccountName(ctx, bank, held.accountNumber, held.accountName);
    } catch (error) {
      if (error instanceof NameMismatchError) {
        throw new ApiError(
          `the holder of ${held.accountNumber} at ${held.bankName} is now "${error.verifiedName}", not "${held.accountName}" as when ${held.reference} was held; nothing was approved`,
          {
            hint: 'reject the request (fsapi approvals reject <id> --reason ...) and send again to the right account',
          },
        );
      }
      throw error;
    }
  }
  const policy = await readPolicy(ctx, scope);
  if (!policy) return;
  const now = ctx.clock.now();
  const spent = await spentTodayIn(openJournal(ctx), scope, now, policy.timeZone);
  const left = leftUnderDailyMaximum(policy.maxPerDayKobo, spent);
  for (const held of transfers) checkPerTransferLimit(policy, held.amountKobo, scope.profile, left);
  if (policy.maxPerDayKobo !== undefined) {
    const total = sumKobo(transfers.map((t) => t.amountKobo));
    try {
      checkDailyLimit(
        await todaysTransfers(openJournal(ctx), scope, now, policy.timeZone),
        { ...scope, amountKobo: total },
        policy.maxPerDayKobo,
        now,
        policy.timeZone,
      );
    } catch (error) {
      if (error instanceof PolicyLimitError) throw new PolicyLimitError(error.message.replace(/nothing was sent$/, 'nothing was approved'), error.hint ?? '');
      throw error;
    }
  }
}

/**
 * Transfers of the same amount to the same account in the last 10 minutes (the duplicate guard's window),
 * for the review: the person sees them before typing the secret, and typing it agrees to them.
 */
export async function recentDuplicates(ctx: Context, scope: ControlScope, transfers: readonly HeldTransfer[]): Promise<TransferWithOutcome[]> {
  const own = new Set(transfers.map((t) => t.reference.toUpperCase()));
  return openJournal(ctx).snapshot(async (journal) => {
    const found = new Map<string, TransferState>();
    for (const held of transfers) {
      for (const t of await journal.duplicates(
        { ...scope, accountNumber: held.accountNumber, bankCode: held.bankCode, amountKobo: held.amountKobo },
        ctx.clock.now(),
      )) {
        if (!own.has(t.reference.toUpperCase())) found.set(t.reference, t);
      }
    }
    return withOutcomeNow(journal, [...found.values()]);
  });
}

/** Sends the approved transfers one after the other; never throws for one transfer's fate. */
export async function sendApproved(
  ctx: Context,
  scope: TransferScope,
  request: ApprovalRequest,
  transfers: readonly HeldTransfer[],
  agreedDuplicates: readonly TransferState[] = [],
): Promise<ApprovedResult[]> {
  const journal = openJournal(ctx);
  const ownReferences = new Set([...request.transfers, ...agreedDuplicates].map((t) => t.reference.toUpperCase()));
  const results: ApprovedResult[] = [];
  for (const held of transfers) {
    const base = { reference: held.reference, accountName: held.accountName, amountKobo: held.amountKobo };
    const transfer: VerifiedTransfer = {
      reference: held.reference,
      accountNumber: held.accountNumber,
      bankCode: held.bankCode,
      bankName: held.bankName,
      accountName: held.accountName,
      amountKobo: held.amountKobo,
      narration: held.narration,
      senderName: held.senderName,
    };
    try {
      const outcome = await sendRespectingRateLimit(ctx, journal, scope, transfer, {
        origin: `approval ${request.id}${held.origin ? ` (${held.origin})` : ''}`,
        claim: { earlierAttempts: 0, duplicates: { windowMs: DUPLICATE_WINDOW_MS, ignore: ownReferences } },
      });
      switch (outcome.kind) {
        case 'accepted': {
          // The API's words when it took it ("Transfer successful, ...") come after fsapi's outcome, as in a
          // batch's report: beside a pending outcome they must not read as the payment's result.
          const taken = outcomeOfStatus(outcome.status);
          results.push({ ...base, outcome: taken, message: outcomeWords(taken, reasonInRecord(outcome.result), outcome.message) });
          break;
        }
        case 'reconciled':
          results.push({ ...base, outcome: outcomeOfStatus(outcome.status), message: `${outcome.lostBecause}; the lookup by reference found it` });
          break;
        case 'rejected':
          results.push({ ...base, outcome: 'refused', message: `${outcome.httpStatus ? `HTTP ${outcome.httpStatus}: ` : ''}${outcome.message}` });
          break;
        case 'unknown':
          results.push({ ...base, outcome: 'unknown', message: `${outcome.detail}; do not resend: fsapi transfer status ${outcome.reference}` });
          break;
      }
    } catch (error) {
      if (error instanceof ReferenceTakenError || error instanceof DuplicateClaimError || error instanceof PolicyLimitError) {
        results.push({ ...base, outcome: NOT_SENT, message: error.message });
        continue;
      }
      // The journal could not be written before this one's POST: it was not sent, and neither will the
      // rest be. Those sent before it were: the table says so, rather than one error that hides them.
      if (results.length === 0 || !(error instanceof FsapiError)) throw error;
      const why = error.message;
      results.push({ ...base, outcome: NOT_SENT, message: why });
      for (const rest of transfers.slice(results.length)) {
        results.push({
          reference: rest.reference,
          accountName: rest.accountName,
          amountKobo: rest.amountKobo,
          outcome: NOT_SENT,
          message: `not sent: stopped at ${held.reference} (${withoutNothingDone(why)})`,
        });
      }
      break;
    }
  }
  return results;
}

/** The exit of an approval that sent: 5 when an outcome is unknown, 1 when any was refused, failed, reversed or not sent. */
export function approvalError(request: ApprovalRequest, results: readonly ApprovedResult[]): FsapiError | undefined {
  const unknown = results.find((r) => r.outcome === 'unknown');
  if (unknown) return new OutcomeUnknownError(unknown.reference, unknown.message);
  const bad = results.filter((r) => isUnsuccessfulOutcome(r.outcome) || r.outcome === NOT_SENT);
  if (bad.length === 0) return undefined;
  const total = formatNaira(sumKobo(bad.map((r) => r.amountKobo)));
  return new FsapiError(
    `${bad.length} of ${results.length} approved transfer${results.length === 1 ? ' was' : 's were'} refused, failed, reversed or not sent (${total}); request ${request.id}`,
    {
      exitCode: ExitCode.failed,
      hint: 'refused ones moved no money: the message of each says why; fsapi transfer log shows the journal',
    },
  );
}
