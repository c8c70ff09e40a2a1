import { choice, defineCommand, flag, integer, text } from '../spec.js';

export const listSpec = defineCommand({
  path: 'clients list',
  light: true,
  summary: 'list client accounts',
  options: {
    type: choice('--type <type>', 'account type', ['individual', 'corporate']),
    validityType: text('--validity-type <type>', 'validity type, e.g. permanent'),
    status: text('--status <status>', 'account status'),
    page: integer('--page <n>', 'page number, from 1', { min: 1, max: 1_000_000 }),
    limit: integer('--limit <n>', 'accounts per page, 1 to 100', { min: 1, max: 100 }),
    all: flag('--all', 'every page, streamed', { conflicts: ['page'] }),
    csv: flag('--csv', 'CSV on stdout (for spreadsheets)'),
  },
  endpoints: [['GET /v1/account/clients', 'the client accounts, page by page']],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi clients list --type individual', 'fsapi clients list --all --json | jq length', 'fsapi clients list --all --csv > clients.csv'],
});
