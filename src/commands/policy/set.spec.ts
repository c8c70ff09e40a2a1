import { defineCommand, flag, flagPair, money, text } from '../spec.js';

export const setSpec = defineCommand({
  path: 'policy set',
  summary: 'change the payment policy (at a terminal, with the consumer secret)',
  options: {
    maxPerTransfer: money('--max-per-transfer <naira>', 'hard limit for one transfer (none removes it)', { none: true }),
    maxPerDay: money('--max-per-day <naira>', "hard limit for the day's transfers, every fsapi process counted (none removes it)", { none: true }),
    approvalAbove: money('--approval-above <naira>', 'hold transfers above this for a person to approve (none removes it)', { none: true }),
    payeesOnly: flagPair('--payees-only', 'hold transfers to accounts that are not saved payees', {
      flags: '--no-payees-only',
      description: 'pay accounts that are not saved payees without approval',
    }),
    requireName: flagPair('--require-name', 'a script (--yes) or an agent must give --expect-name for an account that is not a saved payee', {
      flags: '--no-require-name',
      description: 'let scripts and agents pay accounts that are not saved payees without naming the holder',
    }),
    fourEyes: flagPair('--four-eyes', 'a held request is approved only by someone other than who asked', {
      flags: '--no-four-eyes',
      description: 'let whoever asked approve a held request too',
    }),
    timeZone: text('--time-zone <iana>', "the zone of the daily maximum's day and of the times shown (default: kept, else Africa/Lagos)"),
    off: flag('--off', 'remove the policy: pay without limits or approvals'),
  },
  helpText:
    '\nNeeds a terminal: the change is shown, then the consumer secret of the profile is\nasked (hidden) and checked with the API; typing it is the confirmation.\n',
  endpoints: [['POST /v1/generate-token', 'the typed consumer secret, checked (no token is kept)']],
  exitCodes: [0, 1, 2, 3, 4],
  examples: [
    'fsapi policy set --max-per-transfer 200000 --max-per-day 1000000',
    'fsapi policy set --approval-above 50000 --payees-only --require-name --four-eyes',
    'fsapi policy set --off',
  ],
});
