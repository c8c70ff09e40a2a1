// How `transfer send` and `transfer status` end once the transfer's record is printed: a success exits 0;
// a failed, reversed or other final status shows its reversal (`R-<reference>`, or that none was found) and
// exits 1 with the reason the API gave (or that it gave none); a transfer still pending when --wait gave up
// exits 6 (it may still succeed).
import type { Context } from '../context.js';
import { ApiError, StillPendingError } from '../errors.js';
import { formatNaira, parseApiAmount } from '../money/kobo.js';
import { epochToDate } from '../common/time.js';
import { zonedClockText } from '../common/time-zone.js';
import { findReversal, outcomeOfStatus, statusKind, type ReversalLookup } from '../transfers/outcome.js';
import { describeReason, type FailureReason } from '../notifications/failure-reason.js';
import { colors } from './output.js';

export interface EndOfTransfer {
  reference: string;
  /** The status last seen (the record's, or the transfer answer's). */
  status: string;
  /** Failed or reversed: the reason the API gave (src/notifications/failure-reason.ts); undefined when none. */
  failure?: FailureReason | undefined;
  /** True when --wait was asked for: a status still pending then exits 6. */
  waited: boolean;
  /** Why the wait ended, from waitForSettlement ("still pending after 5 minutes"). */
  reason?: string | undefined;
  /** The business's clock (src/controls/business-clock.ts): the zone of the reversal's time. */
  timeZone: string;
}

export async function endTransferReport(ctx: Context, end: EndOfTransfer): Promise<void> {
  const kind = statusKind(end.status);
  if (kind === 'successful') return;
  if (kind === 'pending') {
    if (end.waited) throw new StillPendingError(end.reference, end.reason ?? `still ${end.status || 'pending'}`);
    // Pending is not paid yet: say how to follow it, at a terminal only (scripts read the exit code and --json).
    if (ctx.io.stderrIsTTY && !ctx.globals.json) {
      // Two lines, so that each fits 80 columns whatever the length of the reference's prefix.
      ctx.io.note(`${colors(ctx, 'stderr').yellow('pending:')} not settled yet; to follow it until it is:\n  fsapi transfer status ${end.reference} --wait`);
    }
    return;
  }
  const outcome = outcomeOfStatus(end.status);
  writeReversal(ctx, await findReversal(ctx, end.reference), end.timeZone, outcome);
  // fsapi's word first; the API's own status beside it only when it says something else ("declined").
  const apiWord = end.status.trim().toLowerCase() === outcome ? '' : ` (the API's status: ${end.status})`;
  throw new ApiError(`transfer ${end.reference} ended as ${outcome}${apiWord}: ${describeReason(end.failure)}; the payee was not paid`, {
    hint: `check the reversal before paying again; a new attempt needs a new reference (fsapi tx get ${end.reference})`,
    code: 'transfer_failed',
  });
}

/** One stderr line: the reversal credit with its amount and time (on the business's clock `timeZone`), or that none was found. */
function writeReversal(ctx: Context, lookup: ReversalLookup, timeZone: string, outcome: 'failed' | 'reversed' | 'pending' | 'successful' = 'reversed'): void {
  const c = colors(ctx, 'stderr');
  if (lookup.state === 'none') {
    // A failed transfer gives its money back to the balance without a credit of its own (the simulator's
    // 4040 accounts do the same, docs/simulator.md); a reversal is booked as R-<reference>.
    ctx.io.note(
      outcome === 'failed'
        ? `${c.yellow('reversal:')} no credit ${lookup.reference}: a failed transfer's money returns to the available balance without one; fsapi account shows it`
        : `${c.yellow('reversal:')} none found (no transaction ${lookup.reference}); the money may not have come back yet`,
    );
    return;
  }
  if (lookup.state === 'unknown') {
    ctx.io.note(`${c.yellow('reversal:')} could not look ${lookup.reference} up: ${lookup.detail}`);
    return;
  }
  const tx = lookup.transaction;
  let amount = String(tx.amount ?? '');
  try {
    amount = formatNaira(parseApiAmount(tx.amount));
  } catch {
    // shown as the API gave it
  }
  const when = tx.completedAt ?? tx.createdAt;
  const instant = epochToDate(when);
  const time = instant ? zonedClockText(instant.getTime(), timeZone, { zone: true }) : String(when ?? '');
  ctx.io.note(`${c.green('reversal:')} ${lookup.reference} credited ${amount}${time ? ` on ${time}` : ''}${tx.status ? ` (${tx.status})` : ''}`);
}
