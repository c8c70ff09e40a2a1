import { defineCommand, text } from '../spec.js';

export const rejectSpec = defineCommand({
  path: 'approvals reject',
  summary: 'refuse a held request: it will never be sent',
  args: [{ name: '<id>', description: 'request id' }],
  options: {
    reason: text('--reason <text>', 'why, kept with the decision'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi approvals reject AP-7K3M9Q2X --reason "wrong invoice"'],
});
