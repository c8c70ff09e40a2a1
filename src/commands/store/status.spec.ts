import { defineCommand } from '../spec.js';

export const statusSpec = defineCommand({
  path: 'store status',
  summary: 'which store the profile uses, and whether it is the one found',
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi store status', 'fsapi store status --json | jq .matches'],
});
