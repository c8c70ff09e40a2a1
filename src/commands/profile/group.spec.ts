import { defineGroup } from '../spec.js';
import { listSpec } from './list.spec.js';
import { removeSpec } from './remove.spec.js';
import { useSpec } from './use.spec.js';

export const profileGroup = defineGroup({
  path: 'profile',
  summary: 'list, choose and remove saved profiles',
  examples: ['fsapi profile list', 'fsapi profile use local'],
  commands: [listSpec, useSpec, removeSpec],
});
