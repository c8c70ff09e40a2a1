// fsapi clients create individual [--firstname ... --date-of-birth YYYY-MM-DD ... --metadata JSON]:
// POST /v1/account/clients/individual. Missing required fields are asked for on a terminal.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { collectIndividualClient } from '../../core/client-create.js';
import { printRecord, timeCell } from '../../ui/output.js';

export default async function createIndividual(ctx: Context, input: CommandInput): Promise<void> {
  const body = await collectIndividualClient(ctx, input.options);
  const api = await ctx.api();
  const client = await api.createIndividualClient(body);
  printRecord(
    ctx,
    [
      ['Account number', client.accountNumber],
      ['Account name', client.accountName],
      ['Type', client.accountType],
      ['External reference', client.externalReference],
      ['Phone', client.mobileNumber],
      ['E-mail', client.emailAddress],
      ['Gender', client.gender],
      ['Date of birth', client.dateOfBirth],
      ['Created', timeCell(client.createdAt)],
    ],
    client,
  );
}
