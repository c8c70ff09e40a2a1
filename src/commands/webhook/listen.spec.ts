import { defineCommand, flag, integer, text } from '../spec.js';
import { TRANSACTION_BY_REFERENCE } from '../transfer/exit-codes.js';

export const listenSpec = defineCommand({
  path: 'webhook listen',
  summary: 'receive notifications, verify each by reference, forward verified ones',
  options: {
    port: integer('--port <n>', 'port to listen on', { min: 0, max: 65_535, defaultValue: 8787 }),
    host: text('--host <host>', 'address to listen on', { defaultValue: '127.0.0.1' }),
    path: text('--path <path>', 'URL path notifications are posted to', { defaultValue: '/' }),
    forwardTo: text('--forward-to <url>', 'POST verified events to this URL'),
    retryFor: text('--retry-for <duration>', 'keep trying an event the app refuses this long, then mark it failed (30s, 10m, 3d)'),
    verify: flag('--no-verify', 'do not look references up (events are shown as unverified and not forwarded)'),
  },
  endpoints: [
    [TRANSACTION_BY_REFERENCE, 'each notified transaction (spec section 6)'],
    ['GET /v1/client-enquiry/{accountNumber}', "the credited account's externalReference"],
  ],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi webhook listen --port 8787 --forward-to http://127.0.0.1:3000/hooks', 'fsapi webhook listen --json | jq .state'],
});
