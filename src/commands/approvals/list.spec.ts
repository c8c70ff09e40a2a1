import { defineCommand, flag } from '../spec.js';

export const listSpec = defineCommand({
  path: 'approvals list',
  summary: 'the requests waiting for approval',
  options: {
    all: flag('--all', 'approved and rejected requests too'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi approvals list', 'fsapi approvals list --all --json | jq -r ".[].id"'],
});
