import { defineCommand } from '../spec.js';

export const showSpec = defineCommand({
  path: 'policy show',
  summary: 'show the payment policy of the profile, and what is sent and left today',
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi policy show', 'fsapi policy show --json | jq -r .leftToday'],
});
