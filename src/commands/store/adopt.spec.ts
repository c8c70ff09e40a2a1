import { defineCommand } from '../spec.js';

export const adoptSpec = defineCommand({
  path: 'store adopt',
  summary: 'make the profile use the store in the data dir (moved, restored)',
  options: {},
  helpText:
    '\nNeeds a terminal: the store expected and the store found are shown, then the\nconsumer secret of the profile is asked (hidden) and checked with the API.\n',
  endpoints: [['POST /v1/generate-token', 'the typed consumer secret, checked (no token is kept)']],
  exitCodes: [0, 1, 2, 3, 4],
  examples: ['fsapi store adopt', 'FSAPI_DATA_DIR=/srv/fsapi fsapi store adopt'],
});
