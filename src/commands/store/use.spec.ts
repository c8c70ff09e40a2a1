import { defineCommand } from '../spec.js';

export const useSpec = defineCommand({
  path: 'store use',
  summary: "keep the profile's records in a team store (PostgreSQL), or back in the data dir",
  args: [{ name: '<url>', description: 'postgres://user@host:port/db[?sslmode=require], or "local" for the data dir' }],
  options: {},
  helpText:
    "\nThe URL is kept with the profile without a password: fsapi takes it from\nPGPASSWORD or ~/.pgpass. Needs a terminal: the consumer secret of the profile\nis asked (hidden) and checked with the API. Carry this machine's records over\nfirst with fsapi store migrate <url> (docs/team.md).\n",
  endpoints: [['POST /v1/generate-token', 'the typed consumer secret, checked (no token is kept)']],
  exitCodes: [0, 1, 2, 3, 4],
  examples: ['fsapi store use postgres://fsapi@db.example.com/fsapi?sslmode=require', 'fsapi store use local'],
});
