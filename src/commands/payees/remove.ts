// fsapi payees remove <alias>: forget a saved payee. Removing one only narrows what fsapi may pay.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { controlScope, findPayee, parseAlias, withStore } from '../../controls/payees.js';

export default async function remove(ctx: Context, input: CommandInput): Promise<void> {
  const alias = parseAlias(input.args[0]);
  const scope = await controlScope(ctx);
  const payee = findPayee(ctx, scope, alias);
  withStore(ctx, (store) => store.removePayee(scope, payee.alias));
  ctx.io.note(`removed payee ${payee.alias} (${payee.accountName}, ${payee.accountNumber} at ${payee.bankName})`);
}
