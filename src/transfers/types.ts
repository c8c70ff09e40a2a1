// The shapes of a transfer that the payment policy (src/controls/policy.ts), a batch's rows and the store
// share with the sending path. Types only, so that they can be read without importing the sending path.
import type { Kobo } from '../money/kobo.js';

export interface SendRequest {
  accountNumber: string;
  bankQuery: string;
  amountKobo: Kobo;
  narration: string;
  /** Given with --reference (shape checked; the prefix is checked once the business name is known). */
  reference: string | undefined;
  senderName: string | undefined;
  expectName: string | undefined;
}

/** One transfer, verified by name enquiry and ready to send. */
export interface VerifiedTransfer {
  reference: string;
  accountNumber: string;
  bankCode: string;
  bankName: string;
  /** The account name the name enquiry returned. */
  accountName: string;
  amountKobo: Kobo;
  narration: string;
  senderName: string | undefined;
}

/** What the journal's claim checks a transfer by (src/transfers/claim.ts). */
export interface ClaimCandidate {
  profile: string;
  baseUrl: string;
  reference: string;
  accountNumber: string;
  bankCode: string;
  amountKobo: Kobo;
}
