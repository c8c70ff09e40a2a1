import { defineCommand, duration, flag } from '../spec.js';
import { TRANSACTION_BY_REFERENCE, TRANSFER_EXIT_MEANINGS } from './exit-codes.js';

export const statusSpec = defineCommand({
  path: 'transfer status',
  summary: 'look a transfer up by reference',
  args: [{ name: '<reference>', description: 'transfer reference' }],
  options: {
    wait: flag('--wait', 'poll until it is successful, failed or reversed (at most --wait-timeout)'),
    waitTimeout: duration('--wait-timeout <seconds>', 'how long --wait polls; still pending after it: exit 6', { min: 1, max: 86_400, defaultValue: 300 }),
  },
  endpoints: [[TRANSACTION_BY_REFERENCE, 'the transfer, and its reversal R-<reference>']],
  exitCodes: [0, 1, 2, 3, 6],
  exitCodeMeanings: TRANSFER_EXIT_MEANINGS,
  examples: ['fsapi transfer status ACME-EXAMPLES000001', 'fsapi transfer status ACME-EXAMPLES000001 --wait --wait-timeout 600 --json'],
});
