import { defineCommand, flag, integer, text } from '../spec.js';
import { BANK_LIST, TRANSACTION_BY_REFERENCE } from './exit-codes.js';

export const batchSpec = defineCommand({
  path: 'transfer batch',
  summary: 'verify and pay every row of a CSV file, once; safe to run again',
  args: [
    {
      name: '<file>',
      description:
        'CSV of at most 100,000 rows with columns account_number, bank, amount, narration (and optionally reference, sender_name, expect_name, payee)',
    },
  ],
  options: {
    dryRun: flag('--dry-run', 'verify and show the summary, send nothing'),
    yes: flag('-y, --yes', 'do not ask for confirmation'),
    concurrency: integer('--concurrency <n>', 'transfers in flight at once, 1 to 16', { min: 1, max: 16, defaultValue: 4 }),
    report: text('--report <file>', 'where to write the report CSV (default: <file>.report.csv)'),
    allowDuplicate: flag(
      '--allow-duplicate',
      'send rows even if the journal has the same amount to the same account in the last 24 hours under another reference, or another row of the file does',
    ),
  },
  endpoints: [
    ['GET /v1/account', 'the business name and the available balance'],
    BANK_LIST,
    ['POST /v1/transfer/name-enquiry', "each row's verified name"],
    ['POST /v1/transfer', 'each row, once'],
    [TRANSACTION_BY_REFERENCE, 'rows sent before, and lost answers'],
  ],
  exitCodes: [0, 1, 2, 3, 4, 5, 7],
  examples: ['fsapi transfer batch payroll.csv --dry-run', 'fsapi transfer batch payroll.csv --yes --report out.csv'],
});
