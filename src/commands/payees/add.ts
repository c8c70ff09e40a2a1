import { run } from '../run.js';
import { requireTeamRight } from '../../controls/rights.js';
import { addSpec } from './add.spec.js';
import { UsageError } from '../../errors.js';
import { proveConsumerSecret, requireTerminal } from '../../auth/proof.js';
import { controlScope, parseAlias, verifyPayee, withStore } from '../../controls/payees.js';
import { readPolicy } from '../../transfers/limits.js';
import { printPayee } from '../../ui/controls.js';
import { businessClock } from '../../controls/business-clock.js';

export default run(addSpec, async (ctx, opts, args) => {
  const alias = parseAlias(args[0]);
  const expectName = opts.expectName === undefined ? undefined : opts.expectName.trim() || undefined;
  await requireTeamRight(ctx, 'owner', 'saving a payee');
  const scope = await controlScope(ctx);
  const policy = await readPolicy(ctx, scope);
  const timeZone = await businessClock(ctx);
  if (policy?.payeesOnly) requireTerminal(ctx, 'adding a payee under a payees-only policy');
  const taken = await withStore(ctx, (store) => store.payee(scope, alias));
  if (taken)
    throw new UsageError(
      `payee ${taken.alias} already exists (${taken.accountNumber} at ${taken.bankName})`,
      `remove it first: fsapi payees remove ${taken.alias}`,
    );

  const payee = await verifyPayee(ctx, alias, String(args[1] ?? ''), opts.bank ?? '', expectName);
  if (policy?.payeesOnly) {
    ctx.io.note(`payee ${payee.alias}: ${payee.accountName}, ${payee.accountNumber} at ${payee.bankName} (${payee.bankCode})`);
    ctx.io.note('the policy of this profile pays saved payees only: a new payee is a decision for a person');
    await proveConsumerSecret(ctx, 'saves this payee');
  }
  const added = await withStore(ctx, (store) => store.addPayee(scope, payee));
  if (!added) throw new UsageError(`payee ${alias} was added by another fsapi process meanwhile; nothing was changed`, 'fsapi payees list');
  ctx.io.note(`saved payee ${payee.alias}: ${payee.accountName} (verified by name enquiry); send with fsapi transfer send --to ${payee.alias}`);
  printPayee(ctx, payee, timeZone);
});
