// fsapi clients get <accountNumber>: GET /v1/client-enquiry/{accountNumber}, one client account.
import { namingRefusal } from '../../transfers/refusals.js';
import { run } from '../run.js';
import { getSpec } from './get.spec.js';
import { parseAccountNumber } from '../../common/validate.js';
import { printRecord } from '../../ui/output.js';

export default run(getSpec, async (ctx, _opts, args) => {
  const accountNumber = parseAccountNumber(args[0] ?? '', 'client account number');
  const api = await ctx.api();
  const client = await namingRefusal(() => api.getClient(accountNumber), `no client account ${accountNumber}`, 'fsapi clients list shows the client accounts');
  printRecord(
    ctx,
    [
      ['Account name', client.accountName],
      ['Account number', client.accountNumber],
      ['Custom account number', client.customAccountNumber],
      // Shown as the API sent it: it may be a sentence saying NUBAN generation is not enabled.
      ['NUBAN account number', client.nubanAccountNumber],
      ['External reference', client.externalReference],
      ['Currency', client.currency],
      ['Tier', client.accountTier === null ? '' : String(client.accountTier)],
      ['Mobile number', client.mobileNumber],
      ['Email address', client.emailAddress],
    ],
    client,
  );
});
