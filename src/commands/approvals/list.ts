import { run } from '../run.js';
import { listSpec } from './list.spec.js';
import { controlScope } from '../../controls/payees.js';
import { requestJson } from '../../controls/policy.js';
import { ControlsStore, type ApprovalRequest } from '../../store/controls.js';
import { printList } from '../../ui/output.js';
import { requestColumns } from '../../ui/controls.js';
import { shownTimeZone } from '../../controls/business-clock.js';

export default run(listSpec, async (ctx, opts, _args) => {
  const scope = await controlScope(ctx);
  const store = await ControlsStore.openIfExists(ctx.paths.dataDir);
  let requests: ApprovalRequest[] = [];
  try {
    requests = (await store?.requests(scope)) ?? [];
  } finally {
    store?.close();
  }
  if (!opts.all) requests = requests.filter((r) => r.status === 'held');
  printList(
    ctx,
    requestColumns(await shownTimeZone(ctx), ctx.clock.now()),
    requests,
    requests.map((r) => requestJson(r)),
    opts.all ? 'no approval requests' : 'nothing is waiting for approval',
  );
});
