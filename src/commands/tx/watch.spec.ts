import { choice, date, defineCommand, integer } from '../spec.js';

export const watchSpec = defineCommand({
  path: 'tx watch',
  summary: 'print new transactions as they appear (Ctrl-C stops)',
  options: {
    interval: integer('--interval <seconds>', 'seconds between polls, 1 to 3600', { min: 1, max: 3600, defaultValue: 5 }),
    type: choice('--type <type>', 'only credits or debits', ['credit', 'debit']),
    since: date('--since <date>', 'first replay the transactions from this date (YYYY-MM-DD, today, yesterday, 7d, or an ISO date-time)'),
    count: integer('--count <n>', 'stop after printing this many transactions', { min: 1, max: 1_000_000 }),
  },
  endpoints: [['GET /v1/transactions', 'the first page, every --interval seconds']],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi tx watch --type credit', 'fsapi tx watch --interval 2 --json | jq -r .reference', 'fsapi tx watch --since 2026-11-22 --count 5'],
});
