import { defineCommand, text } from '../spec.js';

export const receiptSpec = defineCommand({
  path: 'transfer receipt',
  summary: 'proof of a successful transfer: payee, bank, amount in figures and words, session id (GET /v1/transactions/reference/{reference})',
  args: [{ name: '<reference>', description: 'reference of a transfer sent from here (any case)' }],
  options: {
    pdf: text('--pdf <file>', 'write the receipt as a one-page PDF'),
  },
  exitCodes: [0, 1, 2, 3],
  examples: [
    'fsapi transfer receipt ACME-EXAMPLES000001',
    'fsapi transfer receipt ACME-EXAMPLES000001 --pdf receipt.pdf',
    'fsapi transfer receipt ACME-EXAMPLES000001 --json',
  ],
});
