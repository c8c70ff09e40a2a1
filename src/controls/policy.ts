// The payment policy of a profile (docs/cli-contract.md, "Payees, policy and approvals"): what fsapi
// may pay without a person, decided once by the profile's owner.
//
//   hard limits   max-per-transfer, max-per-day: beyond them nothing is sent (exit 1), naming the limit and
//                 what is left today. The daily one is decided inside the journal's claim (src/transfers/claim.ts), under
//                 the lock every fsapi process takes before it sends, so concurrent sends cannot all pass.
//   holds         approval-above, payees-only: the transfer is recorded as a request and nothing is sent
//                 (exit 7); `fsapi approvals approve <id>` at a terminal sends it, through the same journal.
//   names         require-name: a run nobody confirms at a terminal (--yes, an agent) names the holder
//                 (--expect-name) of an account that is not a saved payee; without it nothing is sent
//                 (exit 2). A reference whose name check failed is held to the same, policy or not.
//   four eyes     an approval by whoever asked is refused inside the store's deciding transaction
//                 (src/store/controls.ts decide).
//
// The day is the calendar day in the policy's own time zone (Policy.timeZone, fixed when it was set), read
// on the machine's clock: never the caller's TZ, so a script cannot start a new "today" by choosing a zone.
// What counts towards it: every transfer of the account journalled that day whose outcome is not `refused`,
// whichever process sent it (approved held ones once they are sent). Refused is the one outcome that proves
// no money moved. Failed and reversed ones count: the money left the account until the reversal, and a final
// word fsapi does not know is read as failed, so leaving them out could let a misread status raise the day's
// limit. Erring that way sends less, never more (docs/policy.md).
import type { Context } from '../context.js';
import { HeldForApprovalError, UsageError } from '../errors.js';
import {
  ControlsStore,
  type ApprovalRequest,
  type Asker,
  type ControlScope,
  type HeldTransfer,
  type NameRefusal,
  type Payee,
  type Policy,
} from '../store/controls.js';
import { operatorName, viaJson, viaOf } from '../transfers/asker.js';
import { checkDailyLimit, checkPerTransferLimit, leftUnderDailyMaximum, spentToday, todaysTransfers } from '../transfers/limits.js';
import type { Journal } from '../transfers/journal.js';
import { formatNaira, koboToDecimal, sumKobo, type Kobo } from '../money/kobo.js';
import { DEFAULT_POLICY_TIME_ZONE, zonedClockText } from '../common/time-zone.js';
import { namesMatch } from '../transfers/names.js';
import type { VerifiedTransfer } from '../transfers/types.js';

/**
 * Who asks, in this run (src/transfers/asker.ts): the operator's name and the labels from outside (the MCP
 * client, the person behind sudo). Who acted is the store's to say (Store.actor, src/common/actor.ts).
 */
export function askerOf(ctx: Pick<Context, 'env' | 'client'>): Asker {
  return { operator: operatorName(ctx.env), via: viaOf(ctx) };
}

export function nowIso(ctx: Pick<Context, 'clock'>): string {
  return new Date(ctx.clock.now()).toISOString();
}

/** Why a transfer must wait for a person, or [] when the policy lets it go. */
export function holdReasons(policy: Policy, amountKobo: Kobo, toPayee: boolean): string[] {
  const reasons: string[] = [];
  if (policy.approvalAboveKobo !== undefined && amountKobo > policy.approvalAboveKobo)
    reasons.push(`above the approval threshold of ${formatNaira(policy.approvalAboveKobo)}`);
  if (policy.payeesOnly && !toPayee) reasons.push('not a saved payee (the policy pays saved payees only)');
  return reasons;
}

/**
 * A run nobody confirms at a terminal sent without the expected name where one is needed: exit 2, nothing
 * sent. Said in the command line's words (`--expect-name`); an agent reads `expectName` (src/agents/tools.ts).
 */
export class NameRequiredError extends UsageError {
  constructor(message: string, hint: string) {
    super(message, hint, 'name_required');
  }
}

/**
 * Why this transfer needs an expected name it was not given, or undefined: under require-name, an account
 * that is not a saved payee (a saved payee's saved name is the check, asked again at every send), sent
 * `unattended` (--yes, an agent: at a terminal the person confirming the shown name is the check).
 */
export function nameMissing(
  policy: Pick<Policy, 'requireName'> | undefined,
  payees: readonly Payee[],
  candidate: Pick<PolicyCandidate, 'payee' | 'accountNumber' | 'bankCode' | 'accountName'>,
  given: { expectName: string | undefined; unattended: boolean },
  /** How the expected name is given where the words are read: `--expect-name`, an agent's `expectName`. */
  option = '--expect-name',
): string | undefined {
  if (!policy?.requireName || !given.unattended || given.expectName !== undefined) return undefined;
  if (candidate.payee !== undefined || matchingPayee(payees, candidate.accountNumber, candidate.bankCode, candidate.accountName)) return undefined;
  return `the payment policy needs the expected name (${option}) for account ${candidate.accountNumber}, which is not a saved payee`;
}

/** The refusal of a reference whose name check failed before, sent again without a name; undefined when it may go. */
export function nameRefusedBefore(
  refusal: NameRefusal | undefined,
  given: { expectName: string | undefined; unattended: boolean },
  option = '--expect-name',
  timeZone: string = DEFAULT_POLICY_TIME_ZONE,
): string | undefined {
  if (!refusal || given.expectName !== undefined || !given.unattended) return undefined;
  const at = Number.isFinite(Date.parse(refusal.at)) ? zonedClockText(Date.parse(refusal.at), timeZone, { zone: true }) : refusal.at;
  return `reference ${refusal.reference} failed its name check at ${at} (expected "${refusal.expectedName}", the bank says "${refusal.verifiedName}"): it is sent only with the expected name (${option})`;
}

/** Names the holder, or says how: the hint of a NameRequiredError. */
export const NAME_REQUIRED_HINT =
  'give --expect-name with the name you expect the bank to return (case, spacing and punctuation are ignored), send to a saved payee (--to), or send at a terminal without --yes and check the name shown';

/**
 * Throws NameRequiredError (nothing sent) when this transfer needs an expected name it was not given: the
 * policy's require-name, or an earlier failed name check of its reference (nameMissing, nameRefusedBefore).
 */
export async function checkNameGiven(
  ctx: Context,
  scope: ControlScope,
  candidate: Pick<PolicyCandidate, 'payee' | 'accountNumber' | 'bankCode' | 'accountName' | 'reference'>,
  given: { expectName: string | undefined; unattended: boolean },
): Promise<void> {
  if (given.expectName !== undefined || !given.unattended) return;
  const store = await ControlsStore.openIfExists(ctx.paths.dataDir);
  if (!store) return;
  let why: string | undefined;
  try {
    const policy = await store.policy(scope);
    why = nameRefusedBefore(await store.nameRefusal(scope, candidate.reference), given, '--expect-name', policy?.timeZone);
    if (!why) {
      why = policy?.requireName ? nameMissing(policy, await store.payees(scope), candidate, given) : undefined;
    }
  } finally {
    store.close();
  }
  if (why) throw new NameRequiredError(`${why}; nothing was sent`, NAME_REQUIRED_HINT);
}

/** Keeps a failed name check against its reference (given by the caller), so that reference needs a name from then on. */
export async function recordNameRefusal(ctx: Context, scope: ControlScope, refusal: Omit<NameRefusal, 'at' | 'by'>): Promise<void> {
  const store = await ControlsStore.open(ctx.paths.dataDir);
  try {
    await store.recordNameRefusal(scope, { ...refusal, at: nowIso(ctx), by: operatorName(ctx.env) });
  } finally {
    store.close();
  }
}

/** The saved payee an account is, when its verified name is still the one saved. */
export function matchingPayee(payees: readonly Payee[], accountNumber: string, bankCode: string, verifiedName: string): Payee | undefined {
  return payees.find((p) => p.accountNumber === accountNumber && p.bankCode === bankCode && namesMatch(verifiedName, p.accountName));
}

/** One transfer as the policy sees it before anything is sent. */
export interface PolicyCandidate extends Omit<VerifiedTransfer, 'amountKobo'> {
  amountKobo: Kobo;
  /** The saved payee it was addressed to (`--to`, a `payee` column). */
  payee: string | undefined;
  origin: string | undefined;
}

export interface PolicyVerdict {
  /** Within the policy: to send now. */
  send: PolicyCandidate[];
  /** To hold, each with its reasons. */
  hold: Array<PolicyCandidate & { reasons: string[] }>;
}

/**
 * Sorts transfers into those to send and those to hold; throws PolicyLimitError (nothing sent) when any is
 * over the per-transfer maximum or the ones to send would pass today's maximum. The daily check here is
 * for the person's sake (before any confirmation); the claim decides again under the lock.
 */
export async function applyPolicy(ctx: Context, journal: Journal, scope: ControlScope, candidates: readonly PolicyCandidate[]): Promise<PolicyVerdict> {
  const judge = await openPolicyJudge(ctx, journal, scope);
  if (!judge) return { send: [...candidates], hold: [] };
  for (const candidate of candidates) judge.checkHardLimit(candidate);
  const verdict: PolicyVerdict = { send: [], hold: [] };
  for (const candidate of candidates) {
    const reasons = judge.holdReasons(candidate);
    if (reasons.length > 0) verdict.hold.push({ ...candidate, reasons });
    else verdict.send.push(candidate);
  }
  judge.checkDailyTotal(sumKobo(verdict.send.map((c) => c.amountKobo)));
  return verdict;
}

/** The policy of one scope, read once, to judge any number of transfers one at a time. */
export interface PolicyJudge {
  policy: Policy;
  /** What counts toward today's maximum (COUNTED_OUTCOMES), and what is left of it (undefined: no daily maximum). */
  spentTodayKobo: Kobo;
  leftTodayKobo: Kobo | undefined;
  /** Throws PolicyLimitError when the transfer is over the per-transfer maximum (or today's, alone). */
  checkHardLimit(candidate: Pick<PolicyCandidate, 'amountKobo'>): void;
  /** Why the transfer is held for a person (empty: it may be sent). */
  holdReasons(candidate: Pick<PolicyCandidate, 'amountKobo' | 'payee' | 'accountNumber' | 'bankCode' | 'accountName'>): string[];
  /** Throws PolicyLimitError when the transfers to send, `totalKobo` in all, would pass today's maximum. */
  checkDailyTotal(totalKobo: Kobo): void;
  /** Why the transfer needs an expected name it was not given (nameMissing), or undefined. */
  nameMissing(
    candidate: Pick<PolicyCandidate, 'payee' | 'accountNumber' | 'bankCode' | 'accountName'>,
    given: { expectName: string | undefined; unattended: boolean },
    option?: string,
  ): string | undefined;
}

/** The judge of `scope`'s policy, or undefined when it has none (everything is sent). */
export async function openPolicyJudge(ctx: Context, journal: Journal, scope: ControlScope): Promise<PolicyJudge | undefined> {
  const store = await ControlsStore.openIfExists(ctx.paths.dataDir);
  if (!store) return undefined;
  let policy: Policy | undefined;
  let payees: Payee[];
  try {
    policy = await store.policy(scope);
    payees = await store.payees(scope);
  } finally {
    store.close();
  }
  if (!policy) return undefined;
  const rules = policy;
  const now = ctx.clock.now();
  const today = await todaysTransfers(journal, scope, now, rules.timeZone);
  const spent = spentToday(today, scope, now, rules.timeZone);
  const leftToday = leftUnderDailyMaximum(rules.maxPerDayKobo, spent);
  return {
    policy: rules,
    spentTodayKobo: spent,
    leftTodayKobo: leftToday,
    checkHardLimit: (candidate) => checkPerTransferLimit(rules, candidate.amountKobo, scope.profile, leftToday),
    holdReasons: (candidate) => {
      const toPayee = candidate.payee !== undefined || matchingPayee(payees, candidate.accountNumber, candidate.bankCode, candidate.accountName) !== undefined;
      return holdReasons(rules, candidate.amountKobo, toPayee);
    },
    checkDailyTotal: (totalKobo) => {
      if (rules.maxPerDayKobo !== undefined && totalKobo > 0)
        checkDailyLimit(today, { ...scope, amountKobo: totalKobo }, rules.maxPerDayKobo, now, rules.timeZone);
    },
    nameMissing: (candidate, given, option) => nameMissing(rules, payees, candidate, given, option),
  };
}

/** Records transfers as one request held for approval. */
export async function holdForApproval(
  ctx: Context,
  scope: ControlScope & { env: string },
  transfers: ReadonlyArray<PolicyCandidate & { reasons: string[] }>,
  origin: string,
): Promise<ApprovalRequest> {
  const store = await ControlsStore.open(ctx.paths.dataDir);
  try {
    const held: HeldTransfer[] = transfers.map((t) => ({ ...t }));
    return await store.hold(scope, held, origin, askerOf(ctx), nowIso(ctx));
  } finally {
    store.close();
  }
}

/**
 * The exit-7 error for a request just held: it names the request and how to approve it. src/main.ts
 * writes it after `held:` (not `error:`), so it reads "held: for approval as request AP-…: …".
 */
export function heldError(request: ApprovalRequest): HeldForApprovalError {
  const count = request.transfers.length;
  const total = formatNaira(sumKobo(request.transfers.map((t) => t.amountKobo)));
  const why = [...new Set(request.transfers.flatMap((t) => t.reasons))].join('; ');
  const what = count === 1 ? `${total} to ${request.transfers[0]!.accountName} (${request.transfers[0]!.reference})` : `${count} transfers totalling ${total}`;
  return new HeldForApprovalError(request.id, `for approval as request ${request.id}: ${what}, ${why}; nothing was sent`);
}

/** A request as --json shows it. */
export function requestJson(
  request: ApprovalRequest,
  outcomes?: ReadonlyMap<string, string>,
  policy?: Pick<Policy, 'fourEyes'> | undefined,
): Record<string, unknown> {
  return {
    id: request.id,
    status: request.status,
    // `approvals show`: the policy's four eyes as it is now, and who may not approve this request then.
    ...(outcomes ? { fourEyes: policy?.fourEyes ?? false, mayNotApprove: mayNotApprove(request, policy) ?? null } : {}),
    profile: request.profile,
    baseUrl: request.baseUrl,
    createdAt: request.createdAt,
    createdBy: request.createdBy,
    // Who the store says asked: a team store's login (src/common/actor.ts); what four eyes compares. And the
    // labels that came with it (MCP client, sudo: src/transfers/asker.ts), which prove nothing.
    actor: request.actor ?? null,
    via: viaJson(request.via),
    origin: request.origin,
    // Money as the API writes it (two-decimal naira text), as in every --json of fsapi's own records.
    total: koboToDecimal(sumKobo(request.transfers.map((t) => t.amountKobo))),
    transfers: request.transfers.map(({ amountKobo, ...t }) => ({
      ...t,
      amount: koboToDecimal(amountKobo),
      senderName: t.senderName ?? null,
      payee: t.payee ?? null,
      origin: t.origin ?? null,
      // `approvals show`: what became of it (src/controls/approvals.ts heldOutcomes).
      ...(outcomes ? { outcome: outcomes.get(t.reference) ?? null } : {}),
    })),
    decisions: request.decisions.map((d) => ({ ...d, reason: d.reason ?? null, actor: d.actor ?? null, via: viaJson(d.via) })),
  };
}

/**
 * Under four eyes, who may not approve a held request: who asked (its actor), or everyone when who asked
 * was never recorded (a request held before fsapi recorded actors: it is rejected and sent again).
 */
export function mayNotApprove(request: Pick<ApprovalRequest, 'status' | 'actor'>, policy: Pick<Policy, 'fourEyes'> | undefined): string | undefined {
  if (!policy?.fourEyes || request.status !== 'held') return undefined;
  return request.actor ?? 'anyone: who asked was not recorded';
}
