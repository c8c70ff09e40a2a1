import { choice, defineCommand, flag, text } from '../spec.js';

// The fields' labels and value checks are in src/clients/create.ts, which takes their flags from here.
export const individualSpec = defineCommand({
  path: 'clients create individual',
  summary: 'create an individual client account (asks for missing fields on a terminal, then for a review)',
  options: {
    firstname: text('--firstname <name>', 'first name (required)', { required: true }),
    lastname: text('--lastname <name>', 'last name (required)', { required: true }),
    middlename: text('--middlename <name>', 'middle name'),
    phoneNumber: text('--phone-number <phone>', 'Nigerian mobile number, 08031234567 or +2348031234567 (required)', { required: true }),
    emailAddress: text('--email-address <email>', 'e-mail address (required)', { required: true }),
    address: text('--address <address>', 'home address (required)', { required: true }),
    bvn: text('--bvn <11 digits>', 'Bank Verification Number (required)', { required: true }),
    nin: text('--nin <11 digits>', 'National Identification Number'),
    gender: choice('--gender <gender>', 'male or female (required)', ['male', 'female'], { required: true }),
    dateOfBirth: text('--date-of-birth <YYYY-MM-DD>', 'date of birth (required)', { required: true }),
    metadata: text('--metadata <json>', 'JSON object kept with the account, e.g. {"customerId":"42"}'),
    yes: flag('-y, --yes', 'create it without the review'),
  },
  endpoints: [
    ['POST /v1/account/clients/individual', 'the new account'],
    ['GET /v1/transactions', "the business's bank, shown in the result"],
  ],
  exitCodes: [0, 1, 2, 3, 4],
  examples: [
    'fsapi clients create individual',
    'fsapi clients create individual --firstname Ada --lastname Obi --phone-number 08031234567 --email-address ada@example.com --address "1 Marina, Lagos" --bvn 22212345678 --gender female --date-of-birth 1990-04-01 --yes',
  ],
});
