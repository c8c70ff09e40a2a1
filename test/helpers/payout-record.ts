// The API's record of a transfer out (GET /v1/transactions/reference/{reference}), as the payout and
// reversal tests look it up: a ₦1,000 debit to 0123454040 that failed, unless told otherwise.
import type { TransactionRecord } from '../../src/api/schemas.js';

export function debitRecord(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    id: 7,
    userId: 1,
    accountId: null,
    netAmount: 1010,
    amount: '1000.00',
    charge: '10.00',
    stampDuty: null,
    details: {},
    description: 'withdrawal',
    destinationAccountNumber: '0123454040',
    destinationAccountName: 'OKAFOR ADA',
    destinationBankCode: '000013',
    destinationBankName: 'GTBank',
    sourceAccountNumber: '1000000001',
    sourceAccountName: 'ACME',
    sourceBankCode: '000023',
    sourceBankName: 'Providus',
    reference: 'ACME-W1',
    transactionTypeName: 'bank_transfer',
    category: 'bank_transfer',
    utilityType: null,
    sessionId: 'S9',
    status: 'failed',
    reversedFlag: 0,
    type: 'debit',
    completedAt: 1_767_225_600_000,
    createdAt: 1_767_225_600_000,
    updatedAt: 1_767_225_605_000,
    ...overrides,
  };
}
