import { defineCommand } from '../spec.js';

export const revokeSpec = defineCommand({
  path: 'store revoke',
  summary: 'take every right of a database login on the team store back (owners only)',
  args: [{ name: '<role>', description: "the person's PostgreSQL login role" }],
  options: {},
  helpText:
    '\nThe login keeps its role on the server (its administrator drops it) but may no\nlonger read or write the store. The last owner is never revoked (docs/team.md).\n',
  exitCodes: [0, 1, 2],
  exitCodeMeanings: { 1: 'refused (not an owner, the last owner), or no such role' },
  examples: ['fsapi store revoke bola'],
});
