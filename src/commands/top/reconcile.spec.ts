import { date, defineCommand } from '../spec.js';
import { TRANSACTION_BY_REFERENCE } from '../transfer/exit-codes.js';

export const reconcileSpec = defineCommand({
  path: 'reconcile',
  summary: 'the journal of transfers sent from here against the API; exit 1 when anything needs attention',
  options: {
    since: date(
      '--since <date>',
      'first day (YYYY-MM-DD, local; today, yesterday, 7d, 30d, 2w) or ISO date-time; default: 6 days ago, or the first journalled transfer if earlier',
    ),
  },
  endpoints: [
    ['GET /v1/transactions', 'the pages of the period'],
    [TRANSACTION_BY_REFERENCE, 'transfers the list does not show'],
  ],
  exitCodes: [0, 1, 2, 3],
  exitCodeMeanings: {
    0: 'every transfer agrees with the API, and every debit was sent from here',
    1: "a finding on fsapi's transfers, a debit it did not send, a failed request",
  },
  examples: ['fsapi reconcile', "fsapi reconcile --since 2026-11-01 --json | jq -r '.findings[].kind'"],
});
