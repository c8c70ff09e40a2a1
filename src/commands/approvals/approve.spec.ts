import { defineCommand } from '../spec.js';
import { TRANSACTION_BY_REFERENCE, TRANSFER_EXIT_MEANINGS } from '../transfer/exit-codes.js';

export const approveSpec = defineCommand({
  path: 'approvals approve',
  summary: 'send a held request (at a terminal, with the consumer secret)',
  args: [{ name: '<id>', description: 'request id' }],
  options: {},
  helpText:
    '\nShows what will be sent, then asks for the consumer secret of the profile (hidden)\nand checks it with the API; typing it approves. Each transfer is sent once, under\nthe reference it was held with.\n',
  endpoints: [
    ['POST /v1/generate-token', 'the typed consumer secret, checked (no token is kept)'],
    ['POST /v1/transfer/name-enquiry', "each held payee's name, checked again"],
    ['POST /v1/transfer', 'each held transfer, once, under its held reference'],
    [TRANSACTION_BY_REFERENCE, 'lost answers'],
  ],
  exitCodes: [0, 1, 2, 3, 4, 5],
  exitCodeMeanings: { 0: 'sent: successful or pending', 1: TRANSFER_EXIT_MEANINGS[1] },
  examples: ['fsapi approvals approve AP-7K3M9Q2X'],
});
