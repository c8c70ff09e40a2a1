import { defineCommand } from '../spec.js';
import { TRANSACTION_BY_REFERENCE } from '../transfer/exit-codes.js';

export const getSpec = defineCommand({
  path: 'tx get',
  light: true,
  summary: 'one transaction by reference',
  args: [{ name: '<reference>', description: 'transaction reference' }],
  options: {},
  endpoints: [[TRANSACTION_BY_REFERENCE, 'one transaction']],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi tx get ACME-EXAMPLES000001', 'fsapi tx get ACME-EXAMPLES000001 --json | jq .status'],
});
