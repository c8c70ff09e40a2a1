import { defineGroup } from '../spec.js';
import { eventsGroup } from './events.spec.js';
import { listenSpec } from './listen.spec.js';
import { secretSpec } from './secret.spec.js';
import { verifySpec } from './verify.spec.js';

export const webhookGroup = defineGroup({
  path: 'webhook',
  summary: 'receive and verify payment notifications',
  examples: ['fsapi webhook listen --forward-to http://127.0.0.1:3000/hooks', 'fsapi webhook verify event.json'],
  commands: [listenSpec, secretSpec, eventsGroup, verifySpec],
});
