// The limits every transfer fsapi sends is held to, whoever sends it (`transfer send`, a batch's row, an
// approved request): the per-transfer maximum, checked before anything is sent, and the daily maximum, which
// the claim checks under the journal's lock (src/transfers/claim.ts). The payment policy that sets them is
// the controls' (src/controls/policy.ts: `policy set`, held requests, names); its reads are here, below both.
import type { Context } from '../context.js';
import { ExitCode, FsapiError } from '../errors.js';
import { ControlsStore, normalBaseUrl, type ControlScope, type Policy } from '../store/controls.js';
import type { Journal, TransferState } from './journal.js';
import { outcomeOfJournalled, type Outcome } from './outcome.js';
import type { ClaimCandidate } from './types.js';
import { addKobo, formatNaira, NO_KOBO, subtractKobo, sumKobo, type Kobo } from '../money/kobo.js';
import { DEFAULT_POLICY_TIME_ZONE, zonedDay } from '../common/time-zone.js';

/** The calendar day of the policy's zone that `now` falls in: [start, end) in epoch ms. */
export function dayWindow(now: number, timeZone: string): { start: number; end: number } {
  return zonedDay(now, timeZone);
}

/** The outcomes that count toward the daily maximum: every one but `refused`. */
export const COUNTED_OUTCOMES: readonly Outcome[] = ['in flight', 'pending', 'successful', 'failed', 'reversed', 'unknown'];
/** COUNTED_OUTCOMES in words, for `policy show` and the daily maximum's refusal. */
export const COUNTED_IN_WORDS = `today's transfers ${COUNTED_OUTCOMES.slice(0, -1).join(', ')} or ${COUNTED_OUTCOMES.at(-1)}; not refused`;

/**
 * What counts toward today's maximum: every journalled transfer of this profile and base address whose
 * intent was written today and whose outcome is one of COUNTED_OUTCOMES (not refused). Pure: the claim
 * calls it with the journal as it is under the lock.
 */
export function spentToday(transfers: readonly TransferState[], scope: ControlScope, now: number, timeZone: string): Kobo {
  const { start, end } = dayWindow(now, timeZone);
  const baseUrl = normalBaseUrl(scope.baseUrl);
  const today = (t: TransferState) => {
    const at = Date.parse(t.sentAt);
    return at >= start && at < end;
  };
  // The same account under another spelling of its base address counts too (parsed only when it differs).
  const sameAccount = (t: TransferState) => t.profile === scope.profile && (t.baseUrl === scope.baseUrl || normalBaseUrl(t.baseUrl) === baseUrl);
  // In flight or unknown is decided the same either way (both count): the plain outcome is enough here.
  const counted = (t: TransferState) => COUNTED_OUTCOMES.includes(outcomeOfJournalled(t));
  return sumKobo(transfers.filter((t) => t.profile === scope.profile && today(t) && sameAccount(t) && counted(t)).map((t) => t.amountKobo));
}

/** Today's transfers of the scope's profile, by the journal's time index: the history is not read. */
export function todaysTransfers(
  journal: Pick<Journal, 'sentBetween'>,
  scope: Pick<ControlScope, 'profile'>,
  now: number,
  timeZone: string,
): Promise<TransferState[]> {
  const { start, end } = dayWindow(now, timeZone);
  return journal.sentBetween(scope.profile, start, end);
}

/** What is left of a daily maximum after `spent` (none below zero); undefined without a maximum. */
export function leftUnderDailyMaximum(maxPerDayKobo: Kobo | undefined, spent: Kobo): Kobo | undefined {
  if (maxPerDayKobo === undefined) return undefined;
  return spent >= maxPerDayKobo ? NO_KOBO : subtractKobo(maxPerDayKobo, spent);
}

/** spentToday of the journal as it is now. */
export async function spentTodayIn(journal: Pick<Journal, 'sentBetween'>, scope: ControlScope, now: number, timeZone: string): Promise<Kobo> {
  return spentToday(await todaysTransfers(journal, scope, now, timeZone), scope, now, timeZone);
}

/** A hard limit of the policy stops the transfer: nothing was sent. Exit 1. */
export class PolicyLimitError extends FsapiError {
  constructor(message: string, hint: string) {
    super(message, { exitCode: ExitCode.failed, hint, code: 'policy_limit' });
  }
}

const CHANGE_HINT = 'a person at a terminal may change the policy: fsapi policy show, fsapi policy set';

/** Throws PolicyLimitError when the candidate would take today's total past the daily maximum. */
export function checkDailyLimit(
  transfers: readonly TransferState[],
  candidate: Pick<ClaimCandidate, 'profile' | 'baseUrl' | 'amountKobo'>,
  maxPerDayKobo: Kobo,
  now: number,
  timeZone: string,
): void {
  const spent = spentToday(transfers, candidate, now, timeZone);
  if (addKobo(spent, candidate.amountKobo) <= maxPerDayKobo) return;
  const left = leftUnderDailyMaximum(maxPerDayKobo, spent)!;
  throw new PolicyLimitError(
    `${formatNaira(candidate.amountKobo)} would pass the daily maximum of ${formatNaira(maxPerDayKobo)} of profile "${candidate.profile}": ` +
      `${formatNaira(spent)} counts toward it (${COUNTED_IN_WORDS}), ${formatNaira(left)} is left; nothing was sent`,
    `the day's total starts again at midnight (${timeZone}); ${CHANGE_HINT}`,
  );
}

/** Throws PolicyLimitError when one transfer is over the per-transfer maximum. */
export function checkPerTransferLimit(policy: Policy, amountKobo: Kobo, profile: string, leftToday: Kobo | undefined): void {
  if (policy.maxPerTransferKobo === undefined || amountKobo <= policy.maxPerTransferKobo) return;
  const left =
    leftToday === undefined ? 'no daily maximum is set' : `${formatNaira(leftToday)} is left of today's maximum of ${formatNaira(policy.maxPerDayKobo!)}`;
  throw new PolicyLimitError(
    `${formatNaira(amountKobo)} is over the per-transfer maximum of ${formatNaira(policy.maxPerTransferKobo)} of profile "${profile}" (${left}); nothing was sent`,
    CHANGE_HINT,
  );
}

// One connection per data dir for the policy reads of a run outside a claim (the business clock's zone, an
// approval's checks): opening the database each time cost about 2 ms a read. Each read still sees the
// latest commit. A claim reads the policy in its own transaction (src/transfers/journal.ts).
const readers = new Map<string, ControlsStore>();

/** Reads the policy of an account; undefined when there is none (or nothing was ever saved). */
export async function readPolicy(ctx: Context, scope: ControlScope): Promise<Policy | undefined> {
  let store = readers.get(ctx.paths.dataDir);
  if (!store) {
    store = await ControlsStore.openIfExists(ctx.paths.dataDir);
    if (!store) return undefined;
    readers.set(ctx.paths.dataDir, store);
  }
  return store.policy(scope);
}

/**
 * The business's clock: the zone of the policy's day when the account has a policy, else Africa/Lagos (the
 * API's country, WAT). Receipts, statements and the statement's CSV times are in it, whatever TZ the
 * machine has, so the same statement reads the same on a laptop in Lagos and a server in UTC.
 */
export async function businessTimeZone(ctx: Context, scope: ControlScope): Promise<string> {
  return (await readPolicy(ctx, scope))?.timeZone ?? DEFAULT_POLICY_TIME_ZONE;
}

/**
 * The hard limits of `policy` (the account's, as the claim reads it: src/transfers/journal.ts), for the
 * claim: throws when the amount is over the per-transfer maximum, and returns the daily maximum
 * (undefined: none) and the zone of its day for the claim to check against every process's transfers.
 * Every transfer fsapi sends goes through it: `transfer send`, each batch row, an approved request.
 */
export function hardLimits(policy: Policy | undefined, profile: string, amountKobo: Kobo): { dailyMaximumKobo: Kobo | undefined; dayTimeZone?: string } {
  if (!policy) return { dailyMaximumKobo: undefined };
  checkPerTransferLimit(policy, amountKobo, profile, undefined);
  return { dailyMaximumKobo: policy.maxPerDayKobo, dayTimeZone: policy.timeZone };
}
