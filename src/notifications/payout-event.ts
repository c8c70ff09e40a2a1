// Verification of the notifications the API sends about money going out: a `payout` (a transfer the
// business made: pending, successful, failed with its reason, reversed) and a `reversal` (the money of a
// reversed transfer coming back as a credit `R-<reference>`). The spec shows neither (only collections,
// section 6); public integrations route `payout*`, `transfer*` and `revers*` events, read a payout's
// status from `status` and its failure from `failureReason` or `message` (docs/real-api-notes.md). The
// names are not settled, so they are read tolerantly (readOutflowEvent).
//
// As for a collection, nothing in the body is trusted until the API confirms it:
//   payout    GET /v1/transactions/reference/{reference} must be a debit that the shared observation
//             check (src/transfers/lookup.ts: reference, amount, account, bank) finds to be this transfer, with
//             the notified status: the same, or `pending` on one side (an earlier state of the other);
//   reversal  GET /v1/transactions/reference/R-<reference> must be a successful credit of the notified
//             amount, and the original transfer (<reference>) a debit the API shows as reversed.
// A forged `failed` for a transfer that went through is therefore a mismatch, and an app that refunds on
// `failed` never refunds money that left. What is forwarded is built from the API's records, in the
// event's own shape; fields only the notification holds (the failure text) are named as unverified.
import type { TransactionRecord } from '../api/schemas.js';
import { checkObservation } from '../transfers/lookup.js';
import { formatNaira, integerKobo, koboToApiNumber } from '../money/kobo.js';
import { shownText } from '../common/shown.js';
import { epochToDate } from '../common/time.js';
import { apiText, inOwnShape } from './forward-shape.js';
import {
  lookUp,
  readAmount,
  STATUS_WORDS,
  untilSettled,
  type CompareOptions,
  type OutflowEvent,
  type PayoutNotification,
  type ReversalNotification,
  type Verification,
  type VerifyDeps,
  type VerifyPolicy,
} from './verify.js';

export { outflowKind, readOutflowEvent, type OutflowEvent, type PayoutNotification, type ReversalNotification } from './verify.js';

/** The record's status in lower case; a record flagged reversed is `reversed` whatever its status says. */
export function recordStatus(record: TransactionRecord): string {
  const flagged = record.reversedFlag !== 0 && record.reversedFlag !== undefined && record.reversedFlag !== null && String(record.reversedFlag) !== '0';
  if (flagged) return 'reversed';
  const status = String(record.status ?? '')
    .trim()
    .toLowerCase();
  return STATUS_WORDS[status] ?? status;
}

function staleness(record: TransactionRecord, options: CompareOptions): string | undefined {
  if (options.now === undefined || options.maxAgeMs === undefined) return undefined;
  const when = epochToDate(record.createdAt);
  if (!when || options.now - when.getTime() <= options.maxAgeMs) return undefined;
  return `genuine, but the transaction is from ${when.toISOString()}, older than ${options.maxAgeMs / 3_600_000} h: not forwarded (an old event replayed)`;
}

/**
 * What the API's record says about a payout notification. Pure. In order: the shared observation check
 * (reference, amount, account and bank where the notification gives them), the direction (a debit), then
 * the status: equal, or `pending` notified of a transfer that has since settled (verified: the forward is
 * that pending event); a final status notified of a transfer the API still shows pending is
 * `pending` (looked at again); two different final statuses are a mismatch.
 */
export function comparePayout(notification: PayoutNotification, record: TransactionRecord, options: CompareOptions = {}): Verification {
  const base = { transaction: record };
  const mismatch = (field: string, detail: string): Verification => ({ ...base, state: 'mismatch', field, detail });
  const recordAmount = readAmount(record.amount);
  const recordAccount = shownText(record.destinationAccountNumber).trim();
  const verdict = checkObservation(
    {
      reference: notification.reference,
      // Neither says an amount: one no record can have, so the check names the amount as differing.
      amountKobo: notification.amount ?? recordAmount ?? integerKobo(-1),
      accountNumber: notification.accountNumber ?? recordAccount,
      bankCode: notification.bankCode,
    },
    record,
  );
  if (!verdict.matches) {
    const field =
      shownText(record.reference).trim().toUpperCase() !== notification.reference.toUpperCase()
        ? 'reference'
        : notification.amount !== undefined && notification.amount !== recordAmount
          ? 'amount'
          : notification.accountNumber !== undefined && notification.accountNumber !== recordAccount
            ? 'destinationAccountNumber'
            : 'destinationBankCode';
    return mismatch(field, `the lookup answered, but ${verdict.detail}`);
  }
  if (String(record.type ?? '').toLowerCase() !== 'debit') return mismatch('event', `the transaction is a ${record.type || '(no type)'}, not a payout`);
  const actual = recordStatus(record);
  const notified = notification.status;
  if (notified !== actual) {
    if (actual === 'pending') return { ...base, state: 'pending', detail: `notified ${notified}, but the API still shows the transfer pending` };
    if (notified !== 'pending') return mismatch('status', `notified status ${notified}, but the transfer is ${actual}`);
  }
  const stale = staleness(record, options);
  if (stale) return { ...base, state: 'stale', detail: stale };
  const amount = recordAmount === undefined ? '' : `${formatNaira(recordAmount)} `;
  // A pending event of a transfer settled since says what it said, and what the API shows now.
  const said = notified === actual ? actual : `${notified} (now ${actual})`;
  return { ...base, state: 'verified', detail: `payout ${amount}to ${recordAccount} ${said}, confirmed by the API` };
}

/**
 * What the API says about a reversal: its credit `R-<reference>` must be a successful credit of the
 * notified amount, and the original a debit the API shows reversed. Pure.
 */
export function compareReversal(
  notification: ReversalNotification,
  credit: TransactionRecord,
  original: TransactionRecord,
  options: CompareOptions = {},
): Verification {
  const base = { transaction: credit };
  const mismatch = (field: string, detail: string): Verification => ({ ...base, state: 'mismatch', field, detail });
  if (shownText(credit.reference).trim().toUpperCase() !== notification.reference.toUpperCase())
    return mismatch('reference', `the API answered with transaction ${shownText(credit.reference)}`);
  if (String(credit.type ?? '').toLowerCase() !== 'credit')
    return mismatch('event', `${notification.reference} is a ${credit.type || '(no type)'}, not money coming back`);
  const creditAmount = readAmount(credit.amount);
  if (notification.amount !== undefined && notification.amount !== creditAmount) {
    return mismatch(
      'amount',
      `notified ${formatNaira(notification.amount)}, but the reversal credit is ${creditAmount === undefined ? '(no amount)' : formatNaira(creditAmount)}`,
    );
  }
  if (shownText(original.reference).trim().toUpperCase() !== notification.originalReference.toUpperCase()) {
    return mismatch('originalReference', `the API answered with transaction ${shownText(original.reference)} for ${notification.originalReference}`);
  }
  if (String(original.type ?? '').toLowerCase() !== 'debit') return mismatch('originalReference', `${notification.originalReference} is not a transfer out`);
  const originalStatus = recordStatus(original);
  if (originalStatus !== 'reversed')
    return mismatch('originalReference', `the API shows ${notification.originalReference} ${originalStatus || '(no status)'}, not reversed`);
  const status = recordStatus(credit);
  if (status === 'pending') return { ...base, state: 'pending', detail: 'the reversal credit exists but is not successful yet' };
  if (status !== 'successful') return mismatch('status', `the reversal credit is ${status}`);
  const stale = staleness(credit, options);
  if (stale) return { ...base, state: 'stale', detail: stale };
  return {
    ...base,
    state: 'verified',
    detail: `${creditAmount === undefined ? 'the money' : formatNaira(creditAmount)} of ${notification.originalReference} came back, confirmed by the API`,
  };
}

/** A verified reversal also carries the original transfer's record (for the forward). */
export type OutflowVerification = Verification & { original?: TransactionRecord };

/**
 * Verifies a payout or reversal by looking it up, with the same retries and pending rechecks as a
 * collection (verifyNotification in webhook.ts).
 */
export async function verifyOutflow(deps: VerifyDeps, event: OutflowEvent, policy: VerifyPolicy, signal?: AbortSignal): Promise<OutflowVerification> {
  const options = (): CompareOptions => ({ now: deps.clock.now(), maxAgeMs: policy.maxAgeMs });
  return untilSettled(deps, policy, signal, async (): Promise<OutflowVerification> => {
    if (event.kind === 'payout') {
      const lookup = await lookUp(deps, event.notification.reference, policy, signal);
      if ('state' in lookup) return lookup;
      return comparePayout(event.notification, lookup.transaction, options());
    }
    const credit = await lookUp(deps, event.notification.reference, policy, signal);
    if ('state' in credit) return credit;
    const original = await lookUp(deps, event.notification.originalReference, policy, signal);
    if ('state' in original) {
      if (original.state !== 'not-found') return original;
      return {
        state: 'mismatch',
        field: 'originalReference',
        transaction: credit.transaction,
        detail: `the API knows no transfer ${event.notification.originalReference}`,
      };
    }
    return { ...compareReversal(event.notification, credit.transaction, original.transaction, options()), original: original.transaction };
  });
}

export interface ForwardedOutflow {
  body: Record<string, unknown>;
  /** Fields whose value is the notification's own, or empty. */
  unverified: string[];
  /** The status the forward carries (the API's): a payout is forwarded once per reference and status. */
  status: string;
}

/** A payout notification's names for the record's payee fields (readOutflowEvent reads the same ones). */
const PAYOUT_RECORD_FIELDS: ReadonlyMap<string, keyof TransactionRecord> = new Map([
  ['destinationAccountNumber', 'destinationAccountNumber'],
  ['accountNumber', 'destinationAccountNumber'],
  ['beneficiaryAccountNumber', 'destinationAccountNumber'],
  ['destinationAccountName', 'destinationAccountName'],
  ['accountName', 'destinationAccountName'],
  ['beneficiaryAccountName', 'destinationAccountName'],
  ['destinationBankCode', 'destinationBankCode'],
  ['bankCode', 'destinationBankCode'],
  ['beneficiaryBankCode', 'destinationBankCode'],
  ['destinationBankName', 'destinationBankName'],
  ['bankName', 'destinationBankName'],
  ['beneficiaryBankName', 'destinationBankName'],
  ['sessionId', 'sessionId'],
]);

/**
 * The forward of a verified payout or reversal, in the notification's own shape (src/notifications/
 * forward-shape.ts): the fields it came with and no other, each value the API record's where the record
 * holds it (for a reversal, the credit's; `originalReference` the original transfer's), the rest the
 * notification's own and named unverified: a payout's `failureReason` and `message` always (the record
 * holds no such text), and any field fsapi cannot match to the record. A failed or reversed payout that
 * came without a reason is forwarded without one. The record's amounts are JSON numbers of at most two
 * decimals, its times epoch milliseconds, its statuses lower case.
 */
export function forwardedOutflow(event: OutflowEvent, record: TransactionRecord, original?: TransactionRecord): ForwardedOutflow {
  // A `pending` payout of a transfer that has settled since is passed on as the pending event it was (it
  // verified: pending is an earlier state of every outcome); the settled event that follows carries the
  // outcome and its reason. Otherwise the status is the API's.
  const status = event.kind === 'payout' && event.notification.status === 'pending' ? 'pending' : recordStatus(record);
  const common = (field: string): unknown => {
    switch (field) {
      // The name the API sent, so the app routes it as before: the record's direction verified it.
      case 'event':
        return event.notification.said.event;
      case 'reference':
        return shownText(record.reference);
      case 'amount': {
        const kobo = readAmount(record.amount);
        return kobo === undefined ? undefined : koboToApiNumber(kobo);
      }
      case 'status':
        return status;
      case 'createdAt':
      case 'updatedAt':
        return epochToDate(record[field])?.getTime();
      default:
        return undefined;
    }
  };
  if (event.kind === 'payout') {
    const { body, unverified } = inOwnShape(event.notification.said, (field) => {
      const recordField = PAYOUT_RECORD_FIELDS.get(field);
      return recordField === undefined ? common(field) : apiText(record[recordField]);
    });
    return { body, unverified, status };
  }
  const { body, unverified } = inOwnShape(event.notification.said, (field) =>
    field === 'originalReference' ? (original ? apiText(original.reference) : undefined) : field === 'sessionId' ? apiText(record.sessionId) : common(field),
  );
  return { body, unverified, status };
}
