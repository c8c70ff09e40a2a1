// Sending transfers under a rate limit. The spec shows none, but every real API has one: a 429 to
// POST /v1/transfer means the API did not take the transfer. So the transfer is sent again later under
// the SAME reference (the API refuses a reference it already has, so that can never pay twice), after a
// lookup by reference confirms it is not there. Requests that move no money wait for themselves in
// src/api/http.ts; this module is for the one request that does.
//
// A batch shares one AdaptiveLimit among its rows: each 429 halves how many transfers may be in flight
// (down to one), and a run of successes lets it grow back, so a batch slows down instead of failing rows.
import type { Context } from '../context.js';
import type { Journal } from './journal.js';
import { lookUpOnce } from './lookup.js';
import { executeTransfer, recordStatusSeen, type ExecuteOptions, type TransferOutcome, type TransferScope, type VerifiedTransfer } from './transfer.js';

/** At most this many sends of one transfer while the API keeps answering 429. */
export const RATE_LIMITED_SENDS = 8;
const MAX_BACKOFF_MS = 30_000;

export function isRateLimited(outcome: TransferOutcome): boolean {
  return outcome.kind === 'rejected' && outcome.httpStatus === 429;
}

/** How many transfers may be in flight: lowered on every 429, raised again after successes. */
export class AdaptiveLimit {
  private inFlight = 0;
  private successes = 0;
  private readonly waiting: Array<() => void> = [];
  limit: number;

  constructor(readonly max: number) {
    this.limit = Math.max(1, max);
  }

  async acquire(): Promise<void> {
    while (this.inFlight >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight += 1;
  }

  release(): void {
    this.inFlight -= 1;
    this.wakeOne();
  }

  /** A 429: half as many at once from now on (at least one). Returns the new limit. */
  lower(): number {
    this.successes = 0;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    return this.limit;
  }

  /** A transfer went through: after as many successes as the limit, one more may run at once. */
  succeeded(): void {
    this.successes += 1;
    if (this.limit < this.max && this.successes >= this.limit) {
      this.successes = 0;
      this.limit += 1;
      this.wakeOne();
    }
  }

  private wakeOne(): void {
    this.waiting.shift()?.();
  }
}

export interface RateLimitedSendOptions extends ExecuteOptions {
  /** Shared by the rows of a batch; a single transfer needs none. */
  limit?: AdaptiveLimit;
  /** Said once per wait: how long, and the new concurrency when a limit is shared. */
  onRateLimited?: (waitMs: number, attempt: number, concurrency: number | undefined) => void;
}

/**
 * executeTransfer, sent again under the same reference while the API answers 429, at most
 * RATE_LIMITED_SENDS times, 1, 2, 4 ... s (at most 30 s) apart. Before each resend the reference is
 * looked up: a transfer that is found went through after all and is not sent again.
 */
export async function sendRespectingRateLimit(
  ctx: Context,
  journal: Journal,
  scope: TransferScope,
  transfer: VerifiedTransfer,
  options: RateLimitedSendOptions = {},
): Promise<TransferOutcome> {
  const { limit } = options;
  for (let attempt = 1; ; attempt += 1) {
    await limit?.acquire();
    let outcome: TransferOutcome;
    try {
      // Each resend is one more intent of the same reference: the claim (src/transfers/claim.ts) must expect the
      // attempts this loop already made, or it would take them for another process's.
      const base = options.claim ?? { earlierAttempts: 0, duplicates: undefined };
      const claim = { ...base, earlierAttempts: base.earlierAttempts + attempt - 1 };
      outcome = await executeTransfer(ctx, journal, scope, transfer, { ...options, claim });
    } finally {
      limit?.release();
    }
    if (!isRateLimited(outcome) || attempt >= RATE_LIMITED_SENDS) {
      if (outcome.kind === 'accepted' || outcome.kind === 'reconciled') limit?.succeeded();
      return outcome;
    }
    const concurrency = limit?.lower();
    const waitMs = Math.min(1000 * 2 ** (attempt - 1), MAX_BACKOFF_MS);
    options.onRateLimited?.(waitMs, attempt, concurrency);
    // The lookup first (it waits through 429s itself), then the wait: so the resend does not come right
    // behind the lookup, inside the same window of the limit.
    // The 429 already said the transfer was not taken; the lookup guards against an API that took it anyway.
    // When the lookup itself cannot be made, the 429 stands, and the resend carries the same reference,
    // which the API refuses if it has it.
    const lookup = await lookUpOnce(ctx, {
      reference: transfer.reference,
      amountKobo: transfer.amountKobo,
      accountNumber: transfer.accountNumber,
      bankCode: transfer.bankCode,
    });
    const found = lookup.kind === 'found' ? lookup.transaction : undefined;
    if (found) {
      await recordStatusSeen(ctx, journal, scope, { reference: transfer.reference, state: 'rejected' }, found);
      limit?.succeeded();
      return {
        kind: 'reconciled',
        reference: transfer.reference,
        status: found.status,
        transaction: found,
        lostBecause: 'the API answered 429 (rate limited), yet the lookup found it',
      };
    }
    await ctx.clock.sleep(waitMs);
  }
}
