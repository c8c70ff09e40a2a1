import { run } from '../run.js';
import { listSpec } from './list.spec.js';
import { controlScope, listPayees } from '../../controls/payees.js';
import { printCsv, refuseCsvWithJson } from '../../ui/csv.js';
import { payeeColumns } from '../../ui/controls.js';
import { shownTimeZone } from '../../controls/business-clock.js';
import { printList } from '../../ui/output.js';
import { ownerWords } from '../../auth/records-owner.js';

export default run(listSpec, async (ctx, opts, _args) => {
  const csv = opts.csv;
  refuseCsvWithJson(ctx, csv);
  const scope = await controlScope(ctx);
  const payees = await listPayees(ctx, scope);
  const columns = payeeColumns(await shownTimeZone(ctx), ctx.clock.now());
  if (csv) return printCsv(ctx, columns, payees);
  printList(ctx, columns, payees, payees, `no saved payees in ${ownerWords(scope)}; add one with fsapi payees add <alias> <accountNumber> --bank <bank>`);
});
