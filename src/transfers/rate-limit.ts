// Sending transfers under a rate limit. The spec shows none, but every real API has one. A 429 to
// POST /v1/transfer proves nothing (src/transfers/refusal-proof.ts): a gateway can answer it after the API
// took the money. So executeTransfer looks the reference up first; only when the API answers that it holds
// no such reference is the transfer sent again later, under the SAME reference (the API refuses a
// reference it already has, so that can never pay twice). When no lookup answers, the outcome is unknown
// and nothing is sent again. Requests that move no money wait for themselves in src/api/http.ts; this
// module is for the one request that does.
//
// A batch shares one AdaptiveLimit among its rows: each 429 halves how many transfers may be in flight
// (down to one), and a run of successes lets it grow back, so a batch slows down instead of failing rows.
import type { Context } from '../context.js';
import { Backoff, TRANSFER_RESEND, triesOf } from '../common/retry.js';
import type { Journal } from './journal.js';
import { executeTransfer, type ExecuteOptions, type TransferOutcome, type TransferScope, type VerifiedTransfer } from './transfer.js';

/** At most this many sends of one transfer while the API keeps answering 429 (and not holding it). */
export const RATE_LIMITED_SENDS = triesOf(TRANSFER_RESEND);

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
 * executeTransfer, sent again under the same reference while the API answers 429 and a lookup since
 * answers that it holds no such reference, at most RATE_LIMITED_SENDS times, the API's Retry-After or 1, 2,
 * 4 ... s (at most 30 s) apart (TRANSFER_RESEND). A 429 whose lookup found the transfer ends as found (reconciled); one whose lookups got no
 * answer ends unknown (executeTransfer decides both); the last send's 429 ends unknown too.
 */
export async function sendRespectingRateLimit(
  ctx: Context,
  journal: Journal,
  scope: TransferScope,
  transfer: VerifiedTransfer,
  options: RateLimitedSendOptions = {},
): Promise<TransferOutcome> {
  const { limit } = options;
  const backoff = new Backoff(TRANSFER_RESEND, { clock: ctx.clock });
  for (let attempt = 1; ; attempt += 1) {
    await limit?.acquire();
    let outcome: Awaited<ReturnType<typeof executeTransfer>>;
    try {
      // Each resend is one more intent of the same reference: the claim (src/transfers/claim.ts) must expect the
      // attempts this loop already made, or it would take them for another process's; and it may send again
      // a reference whose last attempt, this run's, reads unknown after its 429.
      const base = options.claim ?? { earlierAttempts: 0, duplicates: undefined };
      const claim = { ...base, earlierAttempts: base.earlierAttempts + attempt - 1, resendAfterRateLimit: attempt > 1 };
      outcome = await executeTransfer(ctx, journal, scope, transfer, { ...options, claim });
    } finally {
      limit?.release();
    }
    if (outcome.kind !== 'rate-limited') {
      if (outcome.kind === 'accepted' || outcome.kind === 'reconciled') limit?.succeeded();
      return outcome;
    }
    const waitMs = backoff.next(outcome.retryAfterMs);
    if (waitMs === undefined) {
      // Not found when last looked up, but a 429 proves nothing: unknown, not refused.
      return {
        kind: 'unknown',
        reference: transfer.reference,
        detail: `${outcome.detail} after ${attempt} sends, each answered 429: it may have been paid`,
      };
    }
    const concurrency = limit?.lower();
    options.onRateLimited?.(waitMs, attempt, concurrency);
    await ctx.clock.sleep(waitMs);
  }
}
