import { defineCommand } from '../spec.js';

export const statusSpec = defineCommand({
  path: 'auth status',
  light: true,
  summary: 'show the profile, base address and token expiry',
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi auth status', 'fsapi auth status --json'],
});
