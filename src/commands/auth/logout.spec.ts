import { defineCommand } from '../spec.js';

export const logoutSpec = defineCommand({
  path: 'auth logout',
  light: true,
  summary: 'forget the stored token and credentials of the profile',
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi auth logout', 'fsapi --profile old-sandbox auth logout'],
});
