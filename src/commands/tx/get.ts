// fsapi tx get <reference>: GET /v1/transactions/reference/{reference}, one transaction as a vertical
// label/value view on a terminal, its times on the business's clock (`--json`: the record as it came).
import { namingRefusal } from '../../transfers/refusals.js';
import { completedCell } from '../../ui/transfers.js';
import { run } from '../run.js';
import { getSpec } from './get.spec.js';
import { parseReferenceArgument } from '../../books/transactions.js';
import { moneyCell, printRecord, recordTimeCell, shownText, statusCell } from '../../ui/output.js';
import { shownTimeZone } from '../../controls/business-clock.js';

export default run(getSpec, async (ctx, _opts, args) => {
  const reference = parseReferenceArgument(args[0], 'reference');
  const api = await ctx.api();
  const tx = await namingRefusal(
    () => api.getTransaction(reference),
    `no transaction with reference ${reference}`,
    'check the reference; fsapi tx list shows recent ones',
  );
  const timeZone = await shownTimeZone(ctx);
  printRecord(
    ctx,
    [
      ['Reference', tx.reference],
      ['Status', statusCell(tx.status)],
      ['Type', tx.type],
      ['Amount', moneyCell(tx.amount)],
      ['Charge', moneyCell(tx.charge)],
      ['Net amount', moneyCell(tx.netAmount)],
      ['Stamp duty', moneyCell(tx.stampDuty)],
      ['From', party(tx.sourceAccountName, tx.sourceAccountNumber, tx.sourceBankName)],
      ['To', party(tx.destinationAccountName, tx.destinationAccountNumber, tx.destinationBankName)],
      ['Description', tx.description],
      ['Category', tx.category],
      ['Session ID', tx.sessionId],
      ['Reversed', reversedText(tx.reversedFlag)],
      ['Created', recordTimeCell(tx.createdAt, timeZone)],
      ['Completed', completedCell(tx.status, tx.completedAt, timeZone)],
    ],
    tx,
  );
});

/** "Ada Obi · 0123456789 · Access Bank", leaving out what the API sent empty. */
function party(...parts: unknown[]): string {
  return parts
    .map((part) => shownText(part).trim())
    .filter((part) => part !== '')
    .join(' · ');
}

/** reversedFlag: 0 or 1 (maybe as text); anything else is shown as given. */
function reversedText(flag: unknown): string {
  const text = shownText(flag).trim();
  if (text === '0') return 'no';
  if (text === '1') return 'yes';
  return text;
}
