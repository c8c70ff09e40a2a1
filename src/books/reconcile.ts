// fsapi reconcile: the journal of transfers sent from here (src/transfers/journal.ts) against the bank's
// transaction list over a period. Like `diff`, it reports only what needs a person's attention:
//
//   settled            a journalled transfer whose outcome was unknown or pending, now known from the
//                      API; the journal learns it (the only finding that needs nothing more)
//   in-transit         not a finding: a transfer whose intent was written by a process still running,
//                      or less than SETTLEMENT_WINDOW_MS ago (the API settles within 5 minutes), not found
//                      yet or still pending. Shown, never counted as missing, never exit 1
//   still-pending      the API still says pending, after the settlement window
//   missing-from-api   journalled as sent (not refused), but neither the list nor a lookup by reference
//                      finds it (a record of another transaction counts as not found, src/transfers/lookup.ts):
//                      it never arrived, do not assume it was paid
//   failed / reversed  a transfer that did not reach the payee, with its reversal credit (R-<reference>)
//                      when the bank booked one (from the list, else looked up by that reference)
//   amount-differs     the API's amount is not the journalled one
//   totals-differ      the journal's total for the period is not the API's for the same transfers
//
// Apart from those, the debits fsapi did not send from here (`notSentHere`): by hand, by another tool, by
// fsapi with another store. Each is `unjournalled-debit`, or `failed`/`reversed` when it did not go through.
// They are money that left the account with no record here, so they need a person too (exit 1), but they
// come after the findings on fsapi's own transfers, which they would otherwise bury (docs/books.md).
//
// Memory: the journal's transfers of the period and the findings are held; the transaction list is
// streamed (src/books/ledger.ts), so a long period costs pages of time, not memory.
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';
import type { TransactionRecord } from '../api/schemas.js';
import type { Journal } from '../transfers/journal.js';
import { directionOf, koboOf, reversedReference, statusOf, type Period } from './ledger.js';
import { checkObservation, lookUpOnce } from '../transfers/lookup.js';
import { addKobo, koboToDecimal, NO_KOBO, subtractKobo, type Kobo } from '../money/kobo.js';
import { counterparty, transactionTimeMs, type TransactionPage } from './transactions.js';
import { intentOf, recordStatusSeen, type TransferScope } from '../transfers/transfer.js';
import { findReversal, journalledTransfers, statusKind, type JournalledTransfer, type Outcome } from '../transfers/outcome.js';
import { reasonInWords } from '../notifications/failure-reason.js';

/** The API settles a transfer within 5 minutes (docs/api-spec.md): younger ones are still on their way. */
export const SETTLEMENT_WINDOW_MS = 5 * 60 * 1000;

export type Finding =
  | { kind: 'settled'; reference: string; was: string; status: string }
  | { kind: 'in-transit'; reference: string; amountKobo: Kobo; accountNumber: string; accountName: string; sentAt: string; why: string }
  | { kind: 'still-pending'; reference: string; amountKobo: Kobo; sentAt: string }
  | {
      kind: 'missing-from-api';
      reference: string;
      amountKobo: Kobo;
      accountNumber: string;
      accountName: string;
      sentAt: string;
      journalState: string;
      outcome: Outcome;
      detail?: string;
    }
  | {
      kind: 'unjournalled-debit';
      reference: string;
      amountKobo: Kobo;
      accountNumber: string;
      accountName: string;
      bankName: string;
      time: string;
      status: string;
    }
  | {
      kind: 'failed' | 'reversed';
      reference: string;
      amountKobo: Kobo;
      accountNumber: string;
      accountName: string;
      time: string;
      journalled: boolean;
      reversal: { reference: string; amountKobo: Kobo } | null;
    }
  | { kind: 'amount-differs'; reference: string; journalKobo: Kobo; apiKobo: Kobo }
  | { kind: 'totals-differ'; journalKobo: Kobo; apiKobo: Kobo };

export type FindingKind = Finding['kind'];

/** The order findings are reported in: what was fixed, then what is wrong with our transfers, then the totals. */
const KIND_ORDER: readonly FindingKind[] = [
  'settled',
  'in-transit',
  'missing-from-api',
  'failed',
  'reversed',
  'amount-differs',
  'still-pending',
  'totals-differ',
  'unjournalled-debit',
];

export interface Reconciliation {
  period: Period;
  /** Journalled transfers of the period (refused ones left out: nothing moved) and their total. */
  journal: { count: number; totalKobo: Kobo };
  /** The API's amounts for those same transfers, as found. */
  api: { count: number; totalKobo: Kobo };
  /** API debits of the period, all of them. */
  apiDebits: number;
  /** What the API says of the transfers fsapi sent from here (and their totals). */
  findings: Finding[];
  /** Debits of the period fsapi did not send from here, newest first: `unjournalled-debit`, `failed`, `reversed`. */
  notSentHere: Finding[];
  warnings: string[];
}

/** A debit fsapi did not send from here (the API's, not in the journal), as opposed to a finding on its own transfers. */
export function isNotSentHere(finding: Finding): boolean {
  return finding.kind === 'unjournalled-debit' || ((finding.kind === 'failed' || finding.kind === 'reversed') && !finding.journalled);
}

export function needsAttention(finding: Finding): boolean {
  return finding.kind !== 'settled' && finding.kind !== 'in-transit';
}

interface Seen {
  tx: TransactionRecord;
  amountKobo: Kobo;
}

/**
 * Reconciles the journal of this scope with the API over the period. `pages` is the period's transaction
 * list (src/books/ledger.ts periodPages), passed in so the caller can show progress as it streams.
 */
export async function reconcile(
  ctx: Context,
  journal: Journal,
  scope: TransferScope,
  period: Period,
  pages: AsyncIterable<TransactionPage>,
): Promise<Reconciliation> {
  // The period's transfers of this scope, by the journal's time index: the history outside it is not read.
  const { transfers, warnings } = await journalledTransfers(journal, { scope, fromMs: period.sinceMs, toMs: period.untilMs });
  const now = ctx.clock.now();
  /** Why a transfer is still on its way (its writer runs, or it is younger than the window), or undefined. */
  const inTransit = (transfer: JournalledTransfer): string | undefined => {
    if (transfer.writerRunning) return `being sent by a running fsapi process (pid ${transfer.writerPid})`;
    const sentAt = Date.parse(transfer.lastIntentAt);
    if (now - sentAt < SETTLEMENT_WINDOW_MS)
      return `sent ${Math.max(0, Math.round((now - sentAt) / 1000))} s ago, settles within ${SETTLEMENT_WINDOW_MS / 60_000} min`;
    return undefined;
  };
  const transitFinding = (transfer: JournalledTransfer, why: string): Finding => ({
    kind: 'in-transit',
    reference: transfer.reference,
    amountKobo: transfer.amountKobo,
    accountNumber: transfer.accountNumber,
    accountName: transfer.accountName,
    sentAt: transfer.sentAt,
    why,
  });
  /** References of ours on their way and not found: out of both totals, they are not a difference. */
  const notYet = new Set<string>();
  const ours = new Map<string, JournalledTransfer>();
  for (const transfer of transfers) ours.set(transfer.reference, transfer);
  // Any reference this scope ever journalled, looked up by index: a debit listed in the period but
  // journalled just before it (a clock a little off, a transfer sent at midnight) is still known, not
  // "sent by someone else".
  const known = async (reference: string) => ours.has(reference) || (await journal.transfer({ ...scope, reference })) !== undefined;

  const findings: Finding[] = [];
  const seen = new Map<string, Seen>();
  const reversals = new Map<string, TransactionRecord>();
  const unsuccessful: TransactionRecord[] = [];
  let apiDebits = 0;

  for await (const page of pages) {
    for (const tx of page.rows) {
      const reversed = reversedReference(tx);
      if (reversed !== undefined) {
        reversals.set(reversed, tx);
        continue;
      }
      if (directionOf(tx) !== 'debit') continue;
      apiDebits += 1;
      const reference = String(tx.reference ?? '');
      const status = statusOf(tx);
      const mine = ours.get(reference);
      // A listed row counts as ours only when it is the transfer we sent (account and bank); its amount is
      // compared below, where a difference is a finding of its own.
      if (mine && checkObservation(intentOf(mine), { ...tx, amount: koboToDecimal(mine.amountKobo) }).matches)
        seen.set(reference, { tx, amountKobo: koboOf(tx.amount) });
      if (statusKind(status) === 'final') unsuccessful.push(tx);
      else if (!(await known(reference))) {
        const party = counterparty(tx);
        findings.push({
          kind: 'unjournalled-debit',
          reference,
          amountKobo: koboOf(tx.amount),
          accountNumber: party.accountNumber,
          accountName: party.name,
          bankName: party.bank,
          time: new Date(transactionTimeMs(tx)).toISOString(),
          status: String(tx.status ?? ''),
        });
      }
    }
  }

  // Our transfers the listing did not show (sent just before --since, or dated oddly): one lookup each,
  // its record checked against what was sent (src/transfers/lookup.ts).
  for (const transfer of ours.values()) {
    if (seen.has(transfer.reference) || transfer.state === 'rejected') continue;
    const lookup = await lookUpOnce(ctx, intentOf(transfer));
    if (lookup.kind === 'failed') throw new ApiError(`could not look ${transfer.reference} up: ${lookup.detail}`);
    // Our transfer with another amount is still ours: found, and its amount reported as differing below.
    const onlyAmountDiffers =
      lookup.kind === 'mismatch' && checkObservation(intentOf(transfer), { ...lookup.transaction, amount: koboToDecimal(transfer.amountKobo) }).matches;
    if (lookup.kind === 'found' || onlyAmountDiffers) {
      // Found (an amount that differs is reported as such below).
      const tx = lookup.transaction;
      seen.set(transfer.reference, { tx, amountKobo: koboOf(tx.amount) });
      if (statusKind(tx.status) === 'final') unsuccessful.push(tx);
    } else {
      const transit = inTransit(transfer);
      if (transit !== undefined) {
        // On its way: nothing to report, nothing to journal.
        notYet.add(transfer.reference);
        findings.push(transitFinding(transfer, transit));
        continue;
      }
      if (transfer.state === 'unknown') {
        await journal.append({
          type: 'status-checked',
          reference: transfer.reference,
          profile: scope.profile,
          baseUrl: scope.baseUrl,
          time: new Date(ctx.clock.now()).toISOString(),
          found: false,
        });
      }
      findings.push({
        kind: 'missing-from-api',
        reference: transfer.reference,
        amountKobo: transfer.amountKobo,
        accountNumber: transfer.accountNumber,
        accountName: transfer.accountName,
        sentAt: transfer.sentAt,
        journalState: transfer.state,
        outcome: transfer.outcome,
        ...(lookup.kind === 'mismatch' ? { detail: lookup.detail } : {}),
      });
    }
  }

  // What the API says about each of ours: settle the journal, compare amounts.
  let journalTotal = NO_KOBO;
  let journalCount = 0;
  let apiTotal = NO_KOBO;
  let apiCount = 0;
  for (const transfer of ours.values()) {
    if (transfer.state === 'rejected' && !seen.has(transfer.reference)) continue;
    if (notYet.has(transfer.reference)) continue;
    journalCount += 1;
    journalTotal = addKobo(journalTotal, transfer.amountKobo);
    const found = seen.get(transfer.reference);
    if (!found) continue;
    apiCount += 1;
    apiTotal = addKobo(apiTotal, found.amountKobo);
    const status = statusOf(found.tx);
    const journalStatus = (transfer.status ?? '').toLowerCase();
    if (transfer.state === 'unknown' || transfer.state === 'rejected' || journalStatus !== status) {
      await recordStatusSeen(ctx, journal, scope, transfer, found.tx, await reasonInWords(ctx)(found.tx));
      // Failed and reversed ones are reported as such below; the journal has learned their status all the same.
      if (status === 'successful') findings.push({ kind: 'settled', reference: transfer.reference, was: transfer.outcome, status: String(found.tx.status) });
    }
    if (status === 'pending') {
      const transit = inTransit(transfer);
      if (transit !== undefined) findings.push(transitFinding(transfer, transit));
      else findings.push({ kind: 'still-pending', reference: transfer.reference, amountKobo: transfer.amountKobo, sentAt: transfer.sentAt });
    }
    if (found.amountKobo !== transfer.amountKobo)
      findings.push({ kind: 'amount-differs', reference: transfer.reference, journalKobo: transfer.amountKobo, apiKobo: found.amountKobo });
  }

  // A reversal credit the list did not show (some services keep it out of the list) is looked up by its
  // reference, R-<reference>: one lookup per failed or reversed transfer, which are few.
  for (const tx of unsuccessful) {
    if (reversals.has(tx.reference)) continue;
    const found = await findReversal(ctx, tx.reference);
    if (found.state === 'found' && reversedReference(found.transaction) === tx.reference) reversals.set(tx.reference, found.transaction);
    if (found.state === 'unknown') warnings.push(`could not look up the reversal credit ${found.reference}: ${found.detail}`);
  }
  for (const tx of unsuccessful) {
    const reversal = reversals.get(tx.reference);
    const party = counterparty(tx);
    findings.push({
      // Any final status that is not a success (src/transfers/outcome.ts): reversed, else failed.
      kind: statusOf(tx) === 'reversed' ? 'reversed' : 'failed',
      reference: tx.reference,
      amountKobo: koboOf(tx.amount),
      accountNumber: party.accountNumber,
      accountName: party.name,
      time: new Date(transactionTimeMs(tx)).toISOString(),
      journalled: await known(tx.reference),
      reversal: reversal ? { reference: reversal.reference, amountKobo: koboOf(reversal.amount) } : null,
    });
  }

  if (journalTotal !== apiTotal) findings.push({ kind: 'totals-differ', journalKobo: journalTotal, apiKobo: apiTotal });
  const ownFindings = findings.filter((finding) => !isNotSentHere(finding));
  ownFindings.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  // Newest first, as the API lists them, whatever their status.
  const notSentHere = findings.filter(isNotSentHere).sort((a, b) => timeOf(b).localeCompare(timeOf(a)));
  return {
    period,
    journal: { count: journalCount, totalKobo: journalTotal },
    api: { count: apiCount, totalKobo: apiTotal },
    apiDebits,
    findings: ownFindings,
    notSentHere,
    warnings,
  };
}

/** The ISO time of a debit not sent from here, for ordering. */
function timeOf(finding: Finding): string {
  return 'time' in finding ? finding.time : '';
}

/** A finding in `--json`: amounts as two-decimal text, like every total fsapi prints. */
export function findingJson(finding: Finding): Record<string, unknown> {
  switch (finding.kind) {
    case 'amount-differs':
    case 'totals-differ': {
      const { journalKobo, apiKobo, ...rest } = finding;
      const difference = subtractKobo(apiKobo, journalKobo);
      return { ...rest, journalAmount: koboToDecimal(journalKobo), apiAmount: koboToDecimal(apiKobo), difference: koboToDecimal(difference) };
    }
    case 'settled':
      return { ...finding };
    case 'failed':
    case 'reversed': {
      const { amountKobo, reversal, ...rest } = finding;
      return {
        ...rest,
        amount: koboToDecimal(amountKobo),
        reversal: reversal ? { reference: reversal.reference, amount: koboToDecimal(reversal.amountKobo) } : null,
      };
    }
    default: {
      const { amountKobo, ...rest } = finding;
      return { ...rest, amount: koboToDecimal(amountKobo) };
    }
  }
}
