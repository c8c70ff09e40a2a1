import { date, defineCommand, flag, text } from '../spec.js';

export const statementSpec = defineCommand({
  path: 'statement',
  summary: 'opening and closing balance, money in and out, charges, one row a day',
  options: {
    since: date('--since <date>', 'first day (YYYY-MM-DD, local; today, yesterday, 7d, 30d, 2w) or ISO date-time; default: 6 days before --until'),
    until: date('--until <date>', 'last day (inclusive; YYYY-MM-DD, today, yesterday, 7d) or ISO date-time; default: today'),
    csv: flag('--csv', 'CSV on stdout, one row a day: date, credits, credit_total, debits, debit_total, charges, stamp_duty, net, balance'),
    transactions: flag('--transactions', 'with --csv: one row per transaction, oldest first, with the balance after it'),
    pdf: text('--pdf <file>', 'write the statement of account as a PDF: totals, a chart of each day, every transaction'),
  },
  endpoints: [['GET /v1/transactions', 'the pages of the period']],
  exitCodes: [0, 1, 2, 3],
  examples: [
    'fsapi statement --since 2026-11-01 --until 2026-11-30 --csv > november.csv',
    'fsapi statement --since 2026-11-01 --until 2026-11-30 --pdf november.pdf',
    'fsapi statement --json | jq -r .closingBalance',
  ],
});
