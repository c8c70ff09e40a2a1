// The shapes of a transfer that the payment policy (src/controls/policy.ts), a batch's rows and the store
// share with the sending path. Types only, so that they can be read without importing the sending path.
import type { Kobo } from '../money/kobo.js';
import type { SendFields } from '../store/batch-workspace.js';

/** What `transfer send` takes: the shape a batch's workspace keeps for each row too (src/store/batch-workspace.ts). */
export type SendRequest = SendFields;

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
