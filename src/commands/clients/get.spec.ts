import { defineCommand } from '../spec.js';

export const getSpec = defineCommand({
  path: 'clients get',
  light: true,
  summary: 'look a client account up',
  args: [{ name: '<accountNumber>', description: 'client account number' }],
  options: {},
  endpoints: [['GET /v1/client-enquiry/{accountNumber}', 'one client account']],
  exitCodes: [0, 1, 2, 3],
  examples: ['fsapi clients get 9900000011'],
});
