// fsapi enquiry <accountNumber> --bank <code|name>: who holds this account? (POST /v1/transfer/name-enquiry)
import type { Context } from '../context.js';
import type { CommandInput } from './types.js';
import { resolveBank } from '../core/banks.js';
import { parseAccountNumber } from '../core/validate.js';
import { printRecord } from '../ui/output.js';

export default async function enquiry(ctx: Context, input: CommandInput): Promise<void> {
  const accountNumber = parseAccountNumber(input.args[0] ?? '');
  const bank = await resolveBank(ctx, String(input.options.bank ?? ''));
  const api = await ctx.api();
  const result = await api.nameEnquiry(bank.institutionCode, accountNumber);
  printRecord(
    ctx,
    [
      ['Account name', result.accountName],
      ['Account number', accountNumber],
      ['Bank', bank.institutionName],
      ['Bank code', bank.institutionCode],
      ['KYC level', result.kycLevel],
      ['Session', result.sessionID],
    ],
    result,
  );
}
