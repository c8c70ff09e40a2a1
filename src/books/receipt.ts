// fsapi transfer receipt: the proof of payment a payee or an auditor asks for. Made only from what the
// API says now (GET /v1/transactions/reference/{reference}), checked against what this machine meant to
// send (the journal's intent: the payee the name enquiry verified and the operator confirmed). A receipt
// of success is made only for a transfer the API calls successful and that matches the intent; anything
// else is said for what it is, with no receipt.
import type { TransactionRecord } from '../api/schemas.js';
import type { TransferState } from '../transfers/journal.js';
import { amountInWords } from '../money/amount-words.js';
import { checkObservation } from '../transfers/lookup.js';
import { formatNaira, koboToDecimal, parseApiAmount, type Kobo } from '../money/kobo.js';
import { koboOf } from './ledger.js';
import { shownText } from '../common/shown.js';
import { epochToDate } from '../common/time.js';
import { zonedTimeText } from '../common/time-zone.js';
import type { DocumentEnvironment } from '../common/document-origin.js';
import { statusKind } from '../transfers/outcome.js';

/** What a receipt states. Every field is the API's observation, checked against the intent. */
export interface Receipt {
  reference: string;
  status: string;
  sessionId: string;
  payer: { name: string; accountNumber: string; bankName: string };
  payee: { name: string; accountNumber: string; bankName: string; bankCode: string };
  /** The sender name the payee's bank showed them: --sender-name, else the business name (the API's rule). */
  senderName?: string | undefined;
  amountKobo: Kobo;
  chargeKobo: Kobo;
  narration: string;
  /** When the transfer completed (else was made), epoch ms. */
  timeMs: number | undefined;
  /** When the API's record was read, epoch ms. */
  readAtMs: number;
  /** The zone its times are in: the business's (src/controls/policy.ts, businessTimeZone). */
  timeZone: string;
  /** Where it comes from: a simulator's or a sandbox's receipt is marked as no proof of payment. */
  environment: DocumentEnvironment;
}

/** Where a receipt is made: the zone of its times and the environment of its figures. */
export interface ReceiptSetting {
  timeZone: string;
  environment: DocumentEnvironment;
}

/**
 * The differences between what the API observed and what the journal meant to send, through the one
 * check every observation of a transfer passes (src/transfers/lookup.ts: reference without regard to case,
 * amount in kobo, destination account, bank code where the record names one); a receipt also needs the
 * record to be a debit of the account. Empty when they agree.
 */
export function receiptIntentMismatches(intent: TransferState, tx: TransactionRecord): string[] {
  const differences: string[] = [];
  const verdict = checkObservation(
    { reference: intent.reference, amountKobo: intent.amountKobo, accountNumber: intent.accountNumber, bankCode: intent.bankCode },
    tx,
  );
  if (!verdict.matches) differences.push(verdict.detail);
  if (String(tx.type ?? '').toLowerCase() !== 'debit') differences.push(`a ${shownText(tx.type) || 'transaction'} of the account, not a transfer out of it`);
  return differences;
}

/** Why there is no receipt of success: the transfer is not (yet) successful, or the API reversed it. */
export function notSuccessful(tx: TransactionRecord): string | undefined {
  const status = shownText(tx.status).trim().toLowerCase();
  const kind = statusKind(status);
  if (kind === 'pending')
    return `${tx.reference} is ${status || 'without a status'}: not yet paid, so no receipt of success (fsapi transfer status ${tx.reference} --wait)`;
  if (kind === 'final') return `${tx.reference} ended as ${status}: it did not reach the payee, so there is no receipt of success`;
  if (Number(tx.reversedFlag ?? 0) !== 0) return `${tx.reference} is marked reversed by the API: no receipt of success`;
  return undefined;
}

/** The receipt's facts: the API's record, the payee's name as verified before sending. */
export function makeReceipt(
  intent: TransferState,
  tx: TransactionRecord,
  business: { name: string; accountNumber: string },
  readAtMs: number,
  setting: ReceiptSetting,
): Receipt {
  const time = epochToDate(tx.completedAt) ?? epochToDate(tx.createdAt);
  const payerName = shownText(tx.sourceAccountName).trim() || business.name;
  return {
    reference: shownText(tx.reference),
    status: shownText(tx.status).toLowerCase(),
    sessionId: shownText(tx.sessionId),
    payer: {
      name: payerName,
      accountNumber: shownText(tx.sourceAccountNumber).trim() || business.accountNumber,
      bankName: shownText(tx.sourceBankName).trim(),
    },
    // The name the name enquiry returned and the operator confirmed; account and bank as the API booked them.
    payee: {
      name: intent.accountName,
      accountNumber: shownText(tx.destinationAccountNumber).trim(),
      bankName: shownText(tx.destinationBankName).trim() || intent.bankName,
      bankCode: shownText(tx.destinationBankCode).trim(),
    },
    // The API shows the receiver the business name when no sender name was sent (docs/api-spec.md).
    senderName: intent.senderName ?? payerName,
    amountKobo: parseApiAmount(tx.amount as string | number),
    chargeKobo: koboOf(tx.charge),
    narration: shownText(tx.description).trim() || intent.narration,
    timeMs: time?.getTime(),
    readAtMs,
    timeZone: setting.timeZone,
    environment: setting.environment,
  };
}

/** The receipt as labelled lines, the same on a terminal, piped and in the PDF. */
export function receiptFields(receipt: Receipt): Array<[string, string]> {
  return [
    ['Status', receipt.status],
    ['Amount', formatNaira(receipt.amountKobo)],
    ['Amount in words', amountInWords(receipt.amountKobo)],
    ['Paid to', receipt.payee.name],
    ['Account number', receipt.payee.accountNumber],
    ['Bank', receipt.payee.bankCode ? `${receipt.payee.bankName} (${receipt.payee.bankCode})` : receipt.payee.bankName],
    ['Paid by', receipt.payer.name],
    ...(receipt.senderName === undefined ? [] : ([['Sender name shown', receipt.senderName]] as Array<[string, string]>)),
    ['From account', receipt.payer.bankName ? `${receipt.payer.accountNumber}, ${receipt.payer.bankName}` : receipt.payer.accountNumber],
    ['Narration', receipt.narration],
    ['Reference', receipt.reference],
    ['Session ID', receipt.sessionId || '(not given by the API)'],
    ['Time', receipt.timeMs === undefined ? '(not given by the API)' : zonedTimeText(receipt.timeMs, receipt.timeZone)],
    ['Charge', formatNaira(receipt.chargeKobo)],
  ];
}

/** `--json`: where it comes from, amounts as exact two-decimal strings, times as ISO 8601 (UTC) and in the business's zone. */
export function receiptJson(receipt: Receipt) {
  return {
    environment: receipt.environment,
    reference: receipt.reference,
    status: receipt.status,
    sessionId: receipt.sessionId,
    amount: koboToDecimal(receipt.amountKobo),
    amountInWords: amountInWords(receipt.amountKobo),
    charge: koboToDecimal(receipt.chargeKobo),
    payer: receipt.payer,
    payee: { ...receipt.payee, verified: true },
    narration: receipt.narration,
    time: receipt.timeMs === undefined ? null : new Date(receipt.timeMs).toISOString(),
    timeLocal: receipt.timeMs === undefined ? null : zonedTimeText(receipt.timeMs, receipt.timeZone),
    timeZone: receipt.timeZone,
    readAt: new Date(receipt.readAtMs).toISOString(),
  };
}
