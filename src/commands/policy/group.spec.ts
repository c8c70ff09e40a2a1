import { defineGroup } from '../spec.js';
import { setSpec } from './set.spec.js';
import { showSpec } from './show.spec.js';

export const policyGroup = defineGroup({
  path: 'policy',
  summary: 'the payment policy: limits, and what waits for a person',
  examples: ['fsapi policy show', 'fsapi policy set --max-per-day 500000 --approval-above 100000'],
  commands: [showSpec, setSpec],
});
