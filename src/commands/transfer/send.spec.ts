import { bank, defineCommand, duration, flag, money, text } from '../spec.js';
import { BANK_LIST, TRANSACTION_BY_REFERENCE, TRANSFER_EXIT_MEANINGS } from './exit-codes.js';

export const sendSpec = defineCommand({
  path: 'transfer send',
  summary: 'verify the receiver, confirm, and send one transfer exactly once (asks for what is missing at a terminal)',
  args: [{ name: '[accountNumber]', description: '10-digit account number of the receiver' }],
  options: {
    bank: bank('--bank <code|name>', "receiver's bank: 6-digit code, brand name (GTBank, OPay) or part of the name"),
    amount: money('--amount <naira>', 'amount in naira, e.g. 1500 or 1,500.50'),
    narration: text('--narration <text>', 'transfer description, one line of plain text'),
    reference: text('--reference <ref>', 'your reference, PREFIX-... with the business prefix (upper-cased when the prefix is not)'),
    senderName: text('--sender-name <name>', 'name shown to the receiver (default: the business name)'),
    expectName: text('--expect-name <name>', 'refuse unless the verified account name matches this'),
    yes: flag('-y, --yes', 'do not ask for confirmation'),
    wait: flag('--wait', 'wait until the transfer is successful, failed or reversed (at most --wait-timeout)'),
    waitTimeout: duration('--wait-timeout <seconds>', 'how long --wait waits; still pending after it: exit 6', { min: 1, max: 86_400, defaultValue: 300 }),
    allowDuplicate: flag('--allow-duplicate', 'send even if the same amount went to this account in the last 10 minutes'),
    to: text('--to <alias>', 'a saved payee (fsapi payees list) instead of the account number and --bank; its name is checked again'),
  },
  endpoints: [
    ['GET /v1/account', 'the business name: the reference prefix'],
    BANK_LIST,
    ['POST /v1/transfer/name-enquiry', 'the verified name, before asking'],
    ['POST /v1/transfer', 'the transfer, once, never retried blindly'],
    [TRANSACTION_BY_REFERENCE, 'the outcome, when the answer is lost, and --wait'],
  ],
  exitCodes: [0, 1, 2, 3, 4, 5, 6, 7],
  exitCodeMeanings: TRANSFER_EXIT_MEANINGS,
  examples: [
    'fsapi transfer send',
    'fsapi transfer send 0123456789 --bank gtbank --amount 15000 --narration Rent',
    'fsapi transfer send 0123456789 --bank 000013 --amount 2500 --narration rent -y --json',
  ],
});
