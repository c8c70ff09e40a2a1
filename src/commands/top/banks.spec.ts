import { defineCommand, flag } from '../spec.js';
import { BANK_LIST } from '../transfer/exit-codes.js';

export const banksSpec = defineCommand({
  path: 'banks',
  light: true,
  summary: 'list banks and their institution codes (cached 24 h)',
  args: [{ name: '[search]', description: 'part of a bank name or code' }],
  options: {
    refresh: flag('--refresh', 'fetch the list again instead of using the cache'),
    csv: flag('--csv', 'CSV on stdout (for spreadsheets)'),
  },
  endpoints: [BANK_LIST],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi banks gtbank', 'fsapi banks --refresh --json | jq length', 'fsapi banks --csv > banks.csv'],
});
