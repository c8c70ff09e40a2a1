import { defineCommand, flag } from '../spec.js';

export const listSpec = defineCommand({
  path: 'payees list',
  summary: 'list the saved payees of the profile',
  options: {
    csv: flag('--csv', 'CSV on stdout (for spreadsheets)'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi payees list', 'fsapi payees list --json | jq -r ".[].alias"'],
});
