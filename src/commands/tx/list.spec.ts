import { choice, date, defineCommand, flag, integer, text } from '../spec.js';

export const listSpec = defineCommand({
  path: 'tx list',
  light: true,
  summary: 'list transactions, newest first',
  options: {
    page: integer('--page <n>', 'page number, from 1', { min: 1, max: 1_000_000 }),
    limit: integer('--limit <n>', 'transactions per page, 1 to 100', { min: 1, max: 100 }),
    all: flag('--all', 'every page, streamed', { conflicts: ['page'] }),
    type: choice('--type <type>', 'only credits or debits', ['credit', 'debit']),
    status: text('--status <status>', 'only this status, e.g. successful or pending'),
    since: date('--since <date>', 'from this date: YYYY-MM-DD, today, yesterday, 7d (today and the 6 days before), 2w, or an ISO date-time'),
    until: date('--until <date>', 'up to this date (a day is inclusive): YYYY-MM-DD, today, yesterday, 7d, or an ISO date-time'),
    csv: flag('--csv', 'CSV on stdout (for spreadsheets)'),
  },
  endpoints: [['GET /v1/transactions', 'page by page']],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi tx list --all --since 2026-10-01 --until 2026-10-31 --csv > oct.csv', 'fsapi tx list --all --json | jq length'],
});
