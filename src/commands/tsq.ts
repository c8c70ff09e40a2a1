// fsapi tsq <transactionId>: GET /v1/transfer/tsq, the transfer status query (requery): the status in
// colour, then the feedback code and its description.
import { namingRefusal } from '../core/refusals.js';
import type { Context } from '../context.js';
import type { CommandInput } from './types.js';
import { parseReferenceArgument } from '../core/transactions.js';
import { printRecord, statusCell } from '../ui/output.js';

export default async function tsq(ctx: Context, input: CommandInput): Promise<void> {
  const transactionId = parseReferenceArgument(input.args[0], 'transaction id');
  const api = await ctx.api();
  const result = await namingRefusal(
    () => api.transferRequery(transactionId),
    `no transfer with id or reference ${transactionId}`,
    'check it; fsapi transfer log lists the references sent from here',
  );
  printRecord(
    ctx,
    [
      ['Transaction', transactionId],
      ['Status', statusCell(result.transactionStatus)],
      ['Feedback code', result.feedbackCode],
      ['Feedback', result.feedbackDescription],
    ],
    result,
  );
}
