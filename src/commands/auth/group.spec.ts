import { defineGroup } from '../spec.js';
import { loginSpec } from './login.spec.js';
import { logoutSpec } from './logout.spec.js';
import { statusSpec } from './status.spec.js';
import { tokenSpec } from './token.spec.js';

export const authGroup = defineGroup({
  path: 'auth',
  summary: 'log in, check and remove stored tokens',
  examples: ['fsapi auth login --profile sandbox', 'fsapi auth status'],
  commands: [loginSpec, statusSpec, logoutSpec, tokenSpec],
});
