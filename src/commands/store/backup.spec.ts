import { defineCommand } from '../spec.js';

export const backupSpec = defineCommand({
  path: 'store backup',
  summary: 'copy the whole store, consistently, while fsapi runs',
  args: [{ name: '<file>', description: 'new file to write the copy to (never overwritten)' }],
  options: {},
  helpText:
    '\nRestore: stop fsapi, put the copy in the data dir as fsapi.db (no -wal beside\nit), then run fsapi store adopt if fsapi refuses it (docs/store.md).\n',
  exitCodes: [0, 1, 2],
  examples: ['fsapi store backup fsapi-2026-11-26.db'],
});
