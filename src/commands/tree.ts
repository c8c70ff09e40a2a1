// Every command of fsapi, in the order of `fsapi --help`: each a spec (src/commands/spec.ts) beside its
// code, or a group of them. A new command: its spec file, its run file, and one line here (or in its
// group's list); the engines' maps are made from the specs (scripts/gen-commands.ts, run by `npm run
// build`). Top-level commands keep their specs in top/ (test/help-width.test.ts checks that each spec has one).
import type { CommandSpec, GroupSpec } from './spec.js';
import { accountSpec } from './top/account.spec.js';
import { apiSpec } from './top/api.spec.js';
import { approvalsGroup } from './approvals/group.spec.js';
import { authGroup } from './auth/group.spec.js';
import { banksSpec } from './top/banks.spec.js';
import { clientsGroup } from './clients/group.spec.js';
import { collectionsSpec } from './top/collections.spec.js';
import { completionSpec } from './top/completion.spec.js';
import { enquirySpec } from './top/enquiry.spec.js';
import { mcpSpec } from './top/mcp.spec.js';
import { payeesGroup } from './payees/group.spec.js';
import { policyGroup } from './policy/group.spec.js';
import { profileGroup } from './profile/group.spec.js';
import { reconcileSpec } from './top/reconcile.spec.js';
import { simulatorGroup } from './simulator/group.spec.js';
import { statementSpec } from './top/statement.spec.js';
import { storeGroup } from './store/group.spec.js';
import { transferGroup } from './transfer/group.spec.js';
import { tsqSpec } from './top/tsq.spec.js';
import { txGroup } from './tx/group.spec.js';
import { webhookGroup } from './webhook/group.spec.js';

export const commandSpecs: ReadonlyArray<CommandSpec<any> | GroupSpec> = [
  authGroup,
  profileGroup,
  storeGroup,
  accountSpec,
  banksSpec,
  enquirySpec,
  transferGroup,
  payeesGroup,
  policyGroup,
  approvalsGroup,
  tsqSpec,
  clientsGroup,
  txGroup,
  statementSpec,
  collectionsSpec,
  reconcileSpec,
  webhookGroup,
  simulatorGroup,
  apiSpec,
  mcpSpec,
  completionSpec,
];
