import { defineCommand, text } from '../spec.js';

export const triggerSpec = defineCommand({
  path: 'simulator trigger',
  summary: 'make an event happen through the simulator and send its notifications',
  args: [{ name: '<event>', description: 'collection, payout, payout.failed, payout.reversed or reversal' }],
  options: {
    webhookUrl: text('--webhook-url <url>', 'POST the notifications here (local profile; a served simulator uses its own)'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi simulator trigger payout.failed', 'fsapi simulator trigger reversal --webhook-url http://127.0.0.1:8787/'],
});
