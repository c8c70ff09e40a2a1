import { defineCommand, flag, integer } from '../spec.js';
import { TRANSACTION_BY_REFERENCE } from './exit-codes.js';

export const logSpec = defineCommand({
  path: 'transfer log',
  summary: 'the local journal of money-moving requests: the last state of each, and the status fsapi last saw',
  options: {
    refresh: flag('--refresh', 'look up the transfers of this profile that were still pending, first'),
    limit: integer('--limit <n>', 'only the last n transfers', { min: 1, max: 1_000_000 }),
    csv: flag('--csv', 'CSV on stdout (for spreadsheets)'),
    jsonl: flag('--jsonl', 'every journal record as written, one JSON object a line (the audit export)'),
    allProfiles: flag('--all-profiles', "every profile's transfers, not only the profile in use"),
  },
  endpoints: [[TRANSACTION_BY_REFERENCE, 'with --refresh: transfers still pending']],
  exitCodes: [0, 1, 2, 3],
  examples: [
    'fsapi transfer log --limit 50',
    'fsapi transfer log --jsonl > journal-export.jsonl',
    'fsapi transfer log --json | jq \'.[] | select(.outcome=="unknown")\'',
  ],
});
