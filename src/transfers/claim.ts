// Who may send a reference, decided at the one moment that counts: in the journal's write transaction,
// right before the intent is written (Journal.claim). Whatever a process saw while it verified names and asked
// for confirmation may be out of date by then: another process may have sent the same reference, or the
// same amount to the same account. So the checks are made again here, against every process's records,
// and the intent is written only if they pass. The intent is the claim: from then on the reference is
// this process's, and no other process sends it.
//
// A reference may be sent again only when its last attempt is over and moved no money: refused by the
// API, or written by a process that died before any answer (and the caller looked the reference up and
// did not find it), or this run's own attempt answered 429 that a lookup since did not find. An attempt whose writer is still running is in flight, whatever else is known; a
// writer is running only while it holds its run lock (src/store/process-lock.ts), never judged by its pid; on
// a team store, while its lease is live or its POST may still be on its way (src/store/run-lease.ts).
import { UsageError } from '../errors.js';
import { runId, runIsLive } from '../store/process-lock.js';
import { claimKey, type Attempts, type ClaimView } from './journal.js';
import { formatNaira, type Kobo } from '../money/kobo.js';
import { checkDailyLimit, dayWindow } from './limits.js';
import { DEFAULT_POLICY_TIME_ZONE } from '../common/time-zone.js';
import { outcomeNow, withOutcomeNow, type TransferWithOutcome } from './outcome.js';
import type { ClaimCandidate } from './types.js';
export type { ClaimCandidate } from './types.js';

/** This process run, written into each intent beside the pid (pids are reused, in containers often). */
export { runId } from '../store/process-lock.js';

export interface ClaimRules {
  /** How many intents of this reference the caller saw when it decided to send it: 0 for a new one. */
  earlierAttempts: number;
  /**
   * The duplicate guard: the same amount to the same account at the same bank within `windowMs` refuses
   * the claim, except transfers whose reference is in `ignore` (upper case): ones the person already
   * agreed to, or the other rows of the same batch file. Undefined with --allow-duplicate.
   */
  duplicates: { windowMs: number; ignore: Pick<ReadonlySet<string>, 'has'> } | undefined;
  /**
   * The policy's daily maximum (src/controls/policy.ts), in kobo: refused (PolicyLimitError) when today's
   * transfers of the account, in flight ones included, plus this one would pass it.
   */
  dailyMaximumKobo?: Kobo | undefined;
  /** The policy's time zone, whose calendar day the daily maximum counts (required with it). */
  dayTimeZone?: string | undefined;
  /**
   * The caller's own last attempt of this reference (this run's) was answered 429 and a lookup since
   * answered that the API holds no such reference (src/transfers/refusal-proof.ts): it may be sent again
   * though the journal reads it unknown.
   */
  resendAfterRateLimit?: boolean | undefined;
}

/** The reference is (being) sent by another process, or was sent already: nothing was sent. Exit 2. */
export class ReferenceTakenError extends UsageError {
  constructor(
    readonly reference: string,
    message: string,
  ) {
    super(`${message}; a reference pays once, so nothing was sent`, `fsapi transfer status ${reference} shows what happened to it`, 'reference_taken');
  }
}

/** Another transfer of the same amount to the same account was journalled in the window. Exit 2. */
export class DuplicateClaimError extends UsageError {
  constructor(
    readonly duplicates: TransferWithOutcome[],
    readonly windowMs: number,
    candidate: ClaimCandidate,
  ) {
    const first = duplicates[0]!;
    super(
      `${formatNaira(candidate.amountKobo)} to ${candidate.accountNumber} was already sent under ${first.reference} at ${first.sentAt} ` +
        `(less than ${describeWindow(windowMs)} ago, ${first.outcome}); nothing was sent`,
      'add --allow-duplicate if a second payment is intended; fsapi transfer log shows the first one',
      'possible_duplicate',
    );
  }
}

function describeWindow(ms: number): string {
  return ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)} hours` : `${Math.round(ms / 60_000)} minutes`;
}

/** Throws ReferenceTakenError, DuplicateClaimError or PolicyLimitError when the claim must not be made. */
export async function checkClaim(journal: ClaimView, candidate: ClaimCandidate, rules: ClaimRules, now: number): Promise<void> {
  const attempts = await journal.attempts(candidate);
  if (attempts) {
    const state = await journal.stateOf(candidate);
    if (!attempts.answered && (await journal.inFlight(attempts))) {
      throw new ReferenceTakenError(
        candidate.reference,
        `reference ${candidate.reference} is being sent by another fsapi process (${state?.operator ? `${state.operator}, ` : ''}pid ${attempts.lastPid}, since ${attempts.lastIntentAt})`,
      );
    }
    const ownRateLimited = rules.resendAfterRateLimit === true && state?.state === 'unknown' && attempts.lastRun === runId();
    if (attempts.answered && state?.state !== 'rejected' && !ownRateLimited) {
      throw new ReferenceTakenError(
        candidate.reference,
        `reference ${candidate.reference} was already sent on ${state?.sentAt ?? attempts.lastIntentAt} (${state === undefined ? 'unknown' : await outcomeNow(journal, state)})`,
      );
    }
    if (attempts.intents !== rules.earlierAttempts) {
      throw new ReferenceTakenError(
        candidate.reference,
        `reference ${candidate.reference} was sent by another fsapi process at ${attempts.lastIntentAt} while this one got ready`,
      );
    }
  } else if (rules.earlierAttempts !== 0) {
    // The journal no longer holds what the caller saw: it was replaced. Decide nothing on a guess.
    throw new ReferenceTakenError(candidate.reference, `the journal no longer holds the earlier attempt of ${candidate.reference}`);
  }
  if (rules.duplicates) {
    const { ignore, windowMs } = rules.duplicates;
    const own = claimKey(candidate);
    const found = (await journal.duplicates(candidate, now, windowMs)).filter((t) => claimKey(t) !== own && !ignore.has(t.reference.toUpperCase()));
    if (found.length > 0) throw new DuplicateClaimError(await withOutcomeNow(journal, found), windowMs, candidate);
  }
  if (rules.dailyMaximumKobo !== undefined) {
    const timeZone = rules.dayTimeZone ?? DEFAULT_POLICY_TIME_ZONE;
    const { start, end } = dayWindow(now, timeZone);
    // A resend of a reference is the same transfer: counted once, as the candidate.
    const own = claimKey(candidate);
    const others = (await journal.sentBetween(candidate.profile, start, end)).filter((t) => claimKey(t) !== own);
    checkDailyLimit(others, candidate, rules.dailyMaximumKobo, now, timeZone);
  }
}

/**
 * Whether the writer of an attempt without an answer is still running: it holds its run lock in the data
 * dir. A reused pid holds nothing; a stopped (SIGSTOP) writer still holds it, and is still sending. On a team
 * store: its lease is live, or the window its claim marked has not passed.
 */
export function isInFlight(attempts: Pick<Attempts, 'lastPid' | 'lastRun'>, dataDir: string): Promise<boolean> {
  return runIsLive(dataDir, attempts.lastRun);
}
