import { defineCommand } from '../spec.js';

export const accountSpec = defineCommand({
  path: 'account',
  light: true,
  summary: 'show the primary business account and its balances',
  options: {},
  endpoints: [['GET /v1/account', 'the primary account and its balances']],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi account', 'fsapi account --json | jq -r .availableBalance'],
});
