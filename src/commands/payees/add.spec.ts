import { bank, defineCommand, text } from '../spec.js';
import { BANK_LIST } from '../transfer/exit-codes.js';

export const addSpec = defineCommand({
  path: 'payees add',
  summary: 'save an account under an alias, its holder verified by name enquiry',
  args: [
    { name: '<alias>', description: 'name to send to, e.g. landlord' },
    { name: '<accountNumber>', description: '10-digit account number' },
  ],
  options: {
    bank: bank('--bank <code|name>', "the payee's bank: 6-digit code, brand name (GTBank, OPay) or part of the name"),
    expectName: text('--expect-name <name>', 'refuse unless the verified account name matches this'),
  },
  helpText:
    '\nPay a saved payee with fsapi transfer send --to <alias>: its name is checked\n' +
    'again. Under a payees-only policy, adding a payee needs a terminal and the\nconsumer secret.\n',
  endpoints: [
    BANK_LIST,
    ['POST /v1/transfer/name-enquiry', 'the verified name kept with the payee'],
    ['POST /v1/generate-token', 'under payees-only: the typed consumer secret, checked'],
  ],
  exitCodes: [0, 1, 2, 3, 4],
  examples: ['fsapi payees add supplier 0123456789 --bank gtbank', 'fsapi payees add ada 0123456789 --bank 000013 --expect-name "Okafor Chiamaka Adaeze"'],
});
