import { defineCommand } from '../spec.js';

export const showSpec = defineCommand({
  path: 'approvals show',
  summary: 'one request: its transfers, why each was held, its decisions',
  args: [{ name: '<id>', description: 'request id, e.g. AP-7K3M9Q2X' }],
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi approvals show AP-7K3M9Q2X'],
});
