import { defineCommand } from '../spec.js';

export const listSpec = defineCommand({
  path: 'profile list',
  light: true,
  summary: 'list saved profiles; the default is marked',
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi profile list', 'fsapi profile list --json | jq -r ".[].profile"'],
});
