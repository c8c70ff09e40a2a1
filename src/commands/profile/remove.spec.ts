import { defineCommand } from '../spec.js';

export const removeSpec = defineCommand({
  path: 'profile remove',
  light: true,
  summary: 'delete a profile and its token',
  args: [{ name: '<name>', description: 'profile name' }],
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi profile remove old-sandbox'],
});
