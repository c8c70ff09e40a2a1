import { defineCommand, flag, list, text } from '../spec.js';

export const apiSpec = defineCommand({
  path: 'api',
  summary: 'call any endpoint with the stored authentication',
  description:
    "Call any endpoint with the stored authentication (the token is renewed as for every command) and print the answer's " +
    'body on stdout, whatever the status. Exit 0 for a 2xx success; 1 otherwise, also for success: false, with ' +
    "the API's message on stderr; 3 when the token is refused and cannot be renewed. Paths are below the base address." +
    '\n\nPOST /v1/transfer is refused: it would not be name-checked, confirmed or journalled. Use fsapi transfer send.',
  args: [
    { name: '<method>', description: 'GET, POST, PUT, PATCH or DELETE' },
    { name: '<path>', description: 'path below the base address, e.g. /v1/account' },
  ],
  options: {
    data: text('--data <json|@file|->', 'JSON request body: inline, @file, or - for stdin'),
    query: list('--query <key=value...>', 'query parameters (repeat, or list several)'),
    include: flag('--include', 'print the HTTP status and the response headers on stderr'),
    allowTransfer: flag('--allow-transfer', 'send POST /v1/transfer anyway (no name check, no journal; exit 5 if the outcome is unknown)'),
  },
  endpoints: [['<METHOD> <path>', "any endpoint, with the profile's token"]],
  exitCodes: [0, 1, 2, 3, 5],
  exitCodeMeanings: { 0: 'a 2xx answer', 1: 'any other answer, or success: false' },
  examples: [
    'fsapi api GET /v1/account',
    'fsapi api POST /v1/transfer/name-enquiry --data \'{"bankCode":"000013","accountNumber":"0123456789"}\'',
    'fsapi api GET /v1/transactions --query page=2 --query limit=5 --include',
  ],
});
