// fsapi clients create corporate [--rc-number ... --business-name ... --metadata JSON]:
// POST /v1/account/clients/corporate. Missing required fields are asked for on a terminal.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { collectCorporateClient } from '../../core/client-create.js';
import { printRecord, timeCell } from '../../ui/output.js';

export default async function createCorporate(ctx: Context, input: CommandInput): Promise<void> {
  const body = await collectCorporateClient(ctx, input.options);
  const api = await ctx.api();
  const client = await api.createCorporateClient(body);
  printRecord(
    ctx,
    [
      ['Account number', client.accountNumber],
      ['Account name', client.accountName],
      ['Type', client.accountType],
      ['RC number', client.rcNumber],
      ['Incorporated', client.incorporationDate],
      ['External reference', client.externalReference],
      ['Phone', client.mobileNumber],
      ['E-mail', client.emailAddress],
      ['Created', timeCell(client.createdAt)],
    ],
    client,
  );
}
