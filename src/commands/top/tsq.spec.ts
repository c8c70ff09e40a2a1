import { defineCommand } from '../spec.js';

export const tsqSpec = defineCommand({
  path: 'tsq',
  light: true,
  summary: 'transfer status query (requery)',
  args: [{ name: '<transactionId>', description: "the transfer's reference, or the session id of its answer" }],
  options: {},
  endpoints: [['GET /v1/transfer/tsq', 'the transfer status query']],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi tsq ACME-EXAMPLES000001', 'fsapi tsq ACME-EXAMPLES000001 --json'],
});
