import { defineCommand } from '../spec.js';

export const removeSpec = defineCommand({
  path: 'payees remove',
  summary: 'forget a saved payee',
  args: [{ name: '<alias>', description: 'the payee to forget' }],
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi payees remove landlord'],
});
