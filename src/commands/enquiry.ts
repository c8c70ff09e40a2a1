// fsapi enquiry [accountNumber] [--bank <code|name>]: who holds this account? (POST /v1/transfer/name-enquiry)
// What is missing is asked for at a terminal (a searchable bank picker), or named in one exit-2 error.
import { namingRefusal } from '../transfers/refusals.js';
import { run } from './run.js';
import { enquirySpec } from './top/enquiry.spec.js';
import { resolveBank } from '../transfers/banks.js';
import { parseAccountNumber } from '../common/validate.js';
import { printRecord } from '../ui/output.js';
import { askForMissing } from '../ui/ask-transfer.js';

export default run(enquirySpec, async (ctx, opts, args) => {
  const given = await askForMissing(
    ctx,
    { accountNumber: args[0], bank: opts.bank, amount: undefined, narration: undefined },
    ['accountNumber', 'bank'],
    'fsapi enquiry <accountNumber> --bank <code|name>',
  );
  const accountNumber = parseAccountNumber(given.accountNumber ?? '');
  const bank = await resolveBank(ctx, given.bank ?? '');
  const api = await ctx.api();
  const result = await namingRefusal(
    () => api.nameEnquiry(bank.institutionCode, accountNumber),
    `${bank.institutionName} (${bank.institutionCode}) did not confirm account ${accountNumber}`,
    'check the account number and the bank; fsapi banks <name> lists the banks',
  );
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
});
