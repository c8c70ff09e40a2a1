import { defineGroup } from '../spec.js';
import { addSpec } from './add.spec.js';
import { listSpec } from './list.spec.js';
import { removeSpec } from './remove.spec.js';

export const payeesGroup = defineGroup({
  path: 'payees',
  summary: 'saved payees: accounts verified once, checked again at every send',
  examples: ['fsapi payees add landlord 0123456789 --bank gtbank', 'fsapi payees list'],
  commands: [addSpec, listSpec, removeSpec],
});
