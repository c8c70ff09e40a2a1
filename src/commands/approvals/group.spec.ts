import { defineGroup } from '../spec.js';
import { approveSpec } from './approve.spec.js';
import { listSpec } from './list.spec.js';
import { rejectSpec } from './reject.spec.js';
import { showSpec } from './show.spec.js';
import { withdrawSpec } from './withdraw.spec.js';

export const approvalsGroup = defineGroup({
  path: 'approvals',
  summary: 'transfers held by the payment policy, for a person to approve or reject',
  examples: ['fsapi approvals list', 'fsapi approvals approve AP-7K3M9Q2X'],
  commands: [listSpec, showSpec, approveSpec, rejectSpec, withdrawSpec],
});
