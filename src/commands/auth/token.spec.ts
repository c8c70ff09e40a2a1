import { defineCommand } from '../spec.js';

export const tokenSpec = defineCommand({
  path: 'auth token',
  light: true,
  summary: 'print the current bearer token (for scripts; renewed if expired)',
  options: {},
  endpoints: [['POST /v1/generate-token', 'a new token when the stored one expired']],
  exitCodes: [0, 1, 2, 3],
  examples: ['FSAPI_TOKEN=$(fsapi auth token) fsapi account'],
});
