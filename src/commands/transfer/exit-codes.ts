import type { ExitCode } from '../spec.js';

/** The words of the exit codes scripts read after a transfer (docs/scripting.md has the full table). */
export const TRANSFER_EXIT_MEANINGS: Partial<Record<ExitCode, string>> = {
  0: 'successful (or, without --wait, pending)',
  1: 'refused, failed or reversed (its reversal R-<reference> is looked up)',
};

export const TRANSACTION_BY_REFERENCE = 'GET /v1/transactions/reference/{reference}';
export const BANK_LIST = ['GET /v1/transfer/banks', 'the bank list, when the 24 h cache is old'] as const;
