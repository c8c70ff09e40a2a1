import { defineCommand } from '../spec.js';

export const grantSpec = defineCommand({
  path: 'store grant',
  summary: "give a person's database login a right on the team store (owners only)",
  args: [
    { name: '<role>', description: "the person's PostgreSQL login role (one per person)" },
    { name: '<right>', description: 'owner, approver, sender or viewer' },
  ],
  options: {},
  helpText:
    '\nRights, each with those below it:\n' +
    '  owner     changes the policy, payees and rights; approves and sends\n' +
    '  approver  approves or rejects held requests; sends\n' +
    '  sender    sends (above the policy: held for approval); reads\n' +
    '  viewer    reads the records\n' +
    'The role gets exactly this right (another it held is taken back). PostgreSQL\n' +
    'itself enforces them, for psql too; only an owner may grant (docs/team.md).\n',
  exitCodes: [0, 1, 2],
  exitCodeMeanings: { 1: 'refused (store_permission_denied: not an owner), no such role, or the store failed' },
  examples: ['fsapi store grant bola sender', 'fsapi store grant chidi approver --json'],
});
