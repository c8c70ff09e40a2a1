import { defineCommand } from '../spec.js';

/** `fsapi` alone: the root's own action (src/program.ts), not a command of the list. */
export const overviewSpec = defineCommand({
  path: '',
  summary: 'a short overview: the profile, the account and what to run next',
  options: {},
  exitCodes: [0, 1, 2, 3],
  examples: [],
});
