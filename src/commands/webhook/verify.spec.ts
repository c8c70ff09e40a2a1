import { defineCommand } from '../spec.js';
import { TRANSACTION_BY_REFERENCE } from '../transfer/exit-codes.js';

export const verifySpec = defineCommand({
  path: 'webhook verify',
  summary: 'verify one saved notification',
  args: [{ name: '<file>', description: 'saved notification JSON, or - for stdin' }],
  options: {},
  endpoints: [
    [TRANSACTION_BY_REFERENCE, 'the notified transaction (spec section 6)'],
    ['GET /v1/client-enquiry/{accountNumber}', "the credited account's externalReference"],
  ],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi webhook verify event.json', 'cat event.json | fsapi webhook verify -'],
});
