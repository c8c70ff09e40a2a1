import { run } from '../run.js';
import { requireTeamRight } from '../../controls/rights.js';
import { removeSpec } from './remove.spec.js';
import { controlScope, findPayee, parseAlias, withStore } from '../../controls/payees.js';

export default run(removeSpec, async (ctx, _opts, args) => {
  const alias = parseAlias(args[0]);
  await requireTeamRight(ctx, 'owner', 'removing a payee');
  const scope = await controlScope(ctx);
  const payee = await findPayee(ctx, scope, alias);
  await withStore(ctx, (store) => store.removePayee(scope, payee.alias));
  ctx.io.note(`removed payee ${payee.alias} (${payee.accountName}, ${payee.accountNumber} at ${payee.bankName})`);
});
