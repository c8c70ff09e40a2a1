import { defineGroup } from '../spec.js';
import { batchSpec } from './batch.spec.js';
import { logSpec } from './log.spec.js';
import { receiptSpec } from './receipt.spec.js';
import { sendSpec } from './send.spec.js';
import { statusSpec } from './status.spec.js';

export const transferGroup = defineGroup({
  path: 'transfer',
  summary: 'send money, check transfers, pay a CSV batch',
  examples: ['fsapi transfer send 0123456789 --bank gtb --amount 5000 --narration Rent', 'fsapi transfer status ACME-EXAMPLES000001'],
  commands: [sendSpec, statusSpec, receiptSpec, batchSpec, logSpec],
});
