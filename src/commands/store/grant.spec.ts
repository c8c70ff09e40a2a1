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
    '\nEach right holds those below it. owner: changes the policy, payees and\n' +
    'rights. approver: approves or rejects held requests. sender: sends (beyond the\n' +
    'policy: held for approval). viewer: reads the records. The role gets exactly\n' +
    'this right (another it held is taken back). PostgreSQL itself enforces them,\n' +
    'for psql too; only an owner may grant (docs/team.md).\n',
  exitCodes: [0, 1, 2],
  exitCodeMeanings: { 1: 'refused (not an owner: store_permission_denied), or no such role' },
  examples: ['fsapi store grant bola sender', 'fsapi store grant chidi approver --json'],
});
