import { defineCommand } from '../spec.js';

export const useSpec = defineCommand({
  path: 'profile use',
  light: true,
  summary: 'make a profile the default',
  args: [{ name: '<name>', description: 'profile name' }],
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi profile use local'],
});
