// fsapi store revoke <role>: every right of a login role on the team store taken back, as the run's own
// login (an owner's; src/store/team-rights.ts).
import { run } from '../run.js';
import { revokeSpec } from './revoke.spec.js';
import { changeRight, parseRole } from '../../controls/rights.js';
import { printJson } from '../../ui/output.js';

export default run(revokeSpec, async (ctx, _opts, args) => {
  const role = parseRole(args[0]);
  const change = await changeRight(ctx, role, undefined);
  if (ctx.globals.json) {
    printJson(ctx, { role, right: null, before: change.before ?? null, store: change.store, by: change.by });
    return;
  }
  ctx.io.note(
    change.before ? `${role} no longer has the ${change.before} right on ${change.store}` : `${role} had no right on ${change.store}; nothing to change`,
  );
});
