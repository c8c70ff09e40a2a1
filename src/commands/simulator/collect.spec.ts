import { defineCommand, money, text } from '../spec.js';

export const collectSpec = defineCommand({
  path: 'simulator collect',
  summary: 'make an inflow to a client account and send its notification',
  args: [{ name: '<accountNumber>', description: 'client account that receives the money' }],
  options: {
    amount: money('--amount <naira>', 'amount received (required)', { required: true }),
    webhookUrl: text('--webhook-url <url>', 'POST the notification here (local profile)'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi simulator collect 9900000011 --amount 25000 --webhook-url http://127.0.0.1:8787/'],
});
