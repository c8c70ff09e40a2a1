import { defineGroup } from '../spec.js';
import { corporateSpec } from './create-corporate.spec.js';
import { individualSpec } from './create-individual.spec.js';
import { getSpec } from './get.spec.js';
import { listSpec } from './list.spec.js';

export const clientsGroup = defineGroup({
  path: 'clients',
  summary: 'client (virtual) accounts',
  examples: ['fsapi clients list --type corporate', 'fsapi clients get 9900000011'],
  commands: [
    listSpec,
    getSpec,
    defineGroup({
      path: 'clients create',
      summary: 'create a client account',
      examples: ['fsapi clients create individual', 'fsapi clients create corporate'],
      commands: [individualSpec, corporateSpec],
    }),
  ],
});
