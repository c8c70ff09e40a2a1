import { defineGroup } from '../spec.js';
import { adoptSpec } from './adopt.spec.js';
import { backupSpec } from './backup.spec.js';
import { statusSpec } from './status.spec.js';
import { useSpec } from './use.spec.js';
import { migrateSpec } from './migrate.spec.js';
import { grantSpec } from './grant.spec.js';
import { revokeSpec } from './revoke.spec.js';

export const storeGroup = defineGroup({
  path: 'store',
  summary: "where a profile's records live: check, back up, adopt, share with a team, rights",
  examples: ['fsapi store status', 'fsapi store backup fsapi-backup.db'],
  commands: [statusSpec, backupSpec, adoptSpec, useSpec, migrateSpec, grantSpec, revokeSpec],
});
