import { run } from './run.js';
import { accountSpec } from './top/account.spec.js';
import { moneyCell, printRecord, recordTimeCell } from '../ui/output.js';
import { shownTimeZone } from '../controls/business-clock.js';

export default run(accountSpec, async (ctx) => {
  const api = await ctx.api();
  const data = await api.getAccount();
  const timeZone = await shownTimeZone(ctx);
  printRecord(
    ctx,
    [
      ['Account name', data.accountName],
      ['Account number', data.accountNumber],
      ['Available balance', moneyCell(data.availableBalance)],
      ['Ledger balance', moneyCell(data.ledgerBalance)],
      ['Currency', data.currency],
      ['Product', data.productName],
      ['Type', data.accountType],
      ['Tier', data.accountTier === null ? '' : String(data.accountTier)],
      ['Opened', recordTimeCell(data.createdAt, timeZone)],
    ],
    data,
  );
});
