import { defineCommand, text } from '../spec.js';

export const resetSpec = defineCommand({
  path: 'simulator reset',
  summary: 'forget the local simulator state and start again from the seed',
  options: {
    businessName: text('--business-name <name>', 'business of the fresh state; its first word is the reference prefix (default: the current one)'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi simulator reset', "fsapi simulator reset --business-name 'JUMPA TECHNOLOGIES LTD'"],
});
