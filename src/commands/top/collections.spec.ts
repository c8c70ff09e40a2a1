import { date, defineCommand, flag } from '../spec.js';

export const collectionsSpec = defineCommand({
  path: 'collections',
  summary: 'inflows by receiving client (virtual) account: count, total, first and last payment',
  args: [{ name: '[accountNumber]', description: 'one client account: list its inflows' }],
  options: {
    since: date('--since <date>', 'first day (YYYY-MM-DD, local; today, yesterday, 7d, 30d, 2w) or ISO date-time; default: 6 days before --until'),
    until: date('--until <date>', 'last day (inclusive; YYYY-MM-DD, today, yesterday, 7d) or ISO date-time; default: today'),
    csv: flag('--csv', 'CSV on stdout (for spreadsheets)'),
  },
  endpoints: [
    ['GET /v1/transactions', 'the pages of the period'],
    ['GET /v1/account/clients', 'the names of the client accounts'],
  ],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi collections', 'fsapi collections --since 2026-11-01 --csv > collections.csv', 'fsapi collections 9900000011 --json | jq length'],
});
