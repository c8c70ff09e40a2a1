import { defineGroup } from '../spec.js';
import { collectSpec } from './collect.spec.js';
import { resetSpec } from './reset.spec.js';
import { serveSpec } from './serve.spec.js';
import { triggerSpec } from './trigger.spec.js';

export const simulatorGroup = defineGroup({
  path: 'simulator',
  summary: 'the built-in API simulator: no real money moves',
  examples: ['fsapi simulator serve --port 4010', 'fsapi simulator collect 9900000011 --amount 25000'],
  commands: [serveSpec, collectSpec, triggerSpec, resetSpec],
});
