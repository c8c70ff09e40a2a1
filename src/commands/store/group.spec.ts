import { defineGroup } from '../spec.js';
import { adoptSpec } from './adopt.spec.js';
import { backupSpec } from './backup.spec.js';
import { statusSpec } from './status.spec.js';

export const storeGroup = defineGroup({
  path: 'store',
  summary: "the local store of a profile's records: check, back up, adopt",
  examples: ['fsapi store status', 'fsapi store backup fsapi-backup.db'],
  commands: [statusSpec, backupSpec, adoptSpec],
});
