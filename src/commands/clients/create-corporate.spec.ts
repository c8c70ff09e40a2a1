import { defineCommand, flag, text } from '../spec.js';

// The fields' labels and value checks are in src/clients/create.ts, which takes their flags from here.
export const corporateSpec = defineCommand({
  path: 'clients create corporate',
  summary: 'create a corporate client account (asks for missing fields on a terminal, then for a review)',
  options: {
    rcNumber: text('--rc-number <number>', 'company registration number, 1234567 or RC1234567 (required)', { required: true }),
    businessName: text('--business-name <name>', 'registered business name (required)', { required: true }),
    emailAddress: text('--email-address <email>', 'business e-mail address (required)', { required: true }),
    phoneNumber: text('--phone-number <phone>', 'Nigerian mobile number, 08031234567 or +2348031234567 (required)', { required: true }),
    address: text('--address <address>', 'business address'),
    bvn: text('--bvn <11 digits>', "a director's Bank Verification Number (required)", { required: true }),
    incorporationDate: text('--incorporation-date <YYYY-MM-DD>', 'date of incorporation (required)', { required: true }),
    dateOfBirth: text('--date-of-birth <YYYY-MM-DD>', "the director's date of birth (required)", { required: true }),
    metadata: text('--metadata <json>', 'JSON object kept with the account, e.g. {"customerId":"42"}'),
    yes: flag('-y, --yes', 'create it without the review'),
  },
  endpoints: [
    ['POST /v1/account/clients/corporate', 'the new account'],
    ['GET /v1/transactions', "the business's bank, shown in the result"],
  ],
  exitCodes: [0, 1, 2, 3, 4],
  examples: [
    'fsapi clients create corporate',
    'fsapi clients create corporate --rc-number 1234567 --business-name "Kola Foods Ltd" --email-address ops@kola.ng --phone-number 08031234567 --bvn 22212345678 --incorporation-date 2015-06-01 --date-of-birth 1980-01-31 --yes',
  ],
});
