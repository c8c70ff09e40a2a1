// fsapi approvals list [--all]: the requests held for approval in this profile (with --all, decided ones too).
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { controlScope } from '../../controls/payees.js';
import { requestJson } from '../../controls/policy.js';
import { ControlsStore, type ApprovalRequest } from '../../store/controls.js';
import { printList } from '../../ui/output.js';
import { requestColumns } from '../../ui/controls.js';

export default async function list(ctx: Context, input: CommandInput): Promise<void> {
  const scope = await controlScope(ctx);
  const store = ControlsStore.openIfExists(ctx.paths.dataDir);
  let requests: ApprovalRequest[] = [];
  try {
    requests = store?.requests(scope) ?? [];
  } finally {
    store?.close();
  }
  if (input.options.all !== true) requests = requests.filter((r) => r.status === 'held');
  printList(ctx, requestColumns, requests, requests.map((r) => requestJson(r)), input.options.all === true ? 'no approval requests' : 'nothing is waiting for approval');
}
