// fsapi tsq <transactionId>: GET /v1/transfer/tsq, the transfer status query (requery): the status in
// colour, then the feedback code and its description. What goes in `transactionId` is not settled: public
// integrations pass the transfer's reference (most) or the session id of its answer, so fsapi sends what
// it is given, unchanged, and on a refusal suggests the other one (docs/transactions.md).
import { namingRefusal } from '../transfers/refusals.js';
import { run } from './run.js';
import { tsqSpec } from './top/tsq.spec.js';
import { parseReferenceArgument } from '../books/transactions.js';
import { printRecord, statusCell } from '../ui/output.js';

export default run(tsqSpec, async (ctx, _opts, args) => {
  const transactionId = parseReferenceArgument(args[0], 'transaction id');
  const api = await ctx.api();
  const result = await namingRefusal(
    () => api.transferRequery(transactionId),
    `no transfer with id or reference ${transactionId}`,
    `tsq takes the transfer's reference or the session id of its answer; fsapi tx get ${transactionId} shows the session id, and fsapi transfer status ${transactionId} the status by reference`,
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
});
