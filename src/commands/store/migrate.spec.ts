import { defineCommand } from '../spec.js';

export const migrateSpec = defineCommand({
  path: 'store migrate',
  summary: "carry the profile's records from the data dir into a team store",
  args: [{ name: '<url>', description: 'postgres://user@host:port/db of the team store' }],
  options: {},
  helpText:
    "\nCopies the profile's journal, payees, policy (unless the team has one), held\nrequests and decisions, and the data dir's webhook events. Each record once:\nrun it again and nothing is copied twice. The data dir's store is left as it\nis. The password comes from PGPASSWORD or ~/.pgpass (docs/team.md).\n",
  exitCodes: [0, 1, 2],
  examples: ['fsapi store migrate postgres://fsapi@db.example.com/fsapi', 'fsapi store migrate "$URL" --json'],
});
