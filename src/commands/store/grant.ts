// fsapi store grant <role> <right>: a person's login role gets exactly that right on the team store
// (src/store/team-rights.ts), as the run's own login, which PostgreSQL lets do so only when it is an owner.
import { run } from '../run.js';
import { grantSpec } from './grant.spec.js';
import { changeRight, parseRight, parseRole } from '../../controls/rights.js';
import { printJson } from '../../ui/output.js';
import { RIGHT_WORDS } from '../../store/team-rights.js';

export default run(grantSpec, async (ctx, _opts, args) => {
  const role = parseRole(args[0]);
  const right = parseRight(args[1]);
  const change = await changeRight(ctx, role, right);
  if (ctx.globals.json) {
    printJson(ctx, { role, right, before: change.before ?? null, store: change.store, by: change.by });
    return;
  }
  const was = change.before === right ? ' (it had it already)' : change.before ? ` (was ${change.before})` : '';
  ctx.io.note(`${role} now has the ${right} right on ${change.store}${was}: ${RIGHT_WORDS[right]}`);
});
