import { defineCommand } from '../spec.js';

export const withdrawSpec = defineCommand({
  path: 'approvals withdraw',
  summary: 'take back a request you asked for while it is held: it will never be sent',
  args: [{ name: '<id>', description: 'request id' }],
  options: {},
  helpText:
    '\nOnly who asked withdraws (the same OS user here, the same database login on a\nteam store); anyone else rejects instead. It moves no money: no terminal, no secret.\n',
  exitCodes: [0, 1, 2],
  examples: ['fsapi approvals withdraw AP-7K3M9Q2X'],
});
