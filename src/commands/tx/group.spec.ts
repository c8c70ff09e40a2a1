import { defineGroup } from '../spec.js';
import { getSpec } from './get.spec.js';
import { listSpec } from './list.spec.js';
import { watchSpec } from './watch.spec.js';

export const txGroup = defineGroup({
  path: 'tx',
  summary: 'transactions: inflows and outflows',
  examples: ['fsapi tx list --limit 10', 'fsapi tx get ACME-EXAMPLES000001'],
  commands: [listSpec, getSpec, watchSpec],
});
