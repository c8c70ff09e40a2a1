import { bank, defineCommand } from '../spec.js';
import { BANK_LIST } from '../transfer/exit-codes.js';

export const enquirySpec = defineCommand({
  path: 'enquiry',
  light: true,
  summary: 'verify the account holder name at a bank',
  args: [{ name: '[accountNumber]', description: '10-digit account number (asked for at a terminal)' }],
  options: {
    bank: bank('--bank <code|name>', '6-digit institution code, brand name (GTBank, OPay) or part of the bank name'),
  },
  endpoints: [BANK_LIST, ['POST /v1/transfer/name-enquiry', 'the account holder name']],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi enquiry 0123456789 --bank 000013', 'fsapi enquiry 0123456789 --bank "access" --json'],
});
