// fsapi payees list [--csv]: the saved payees of the profile, with the names verified when they were added.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { controlScope, listPayees } from '../../controls/payees.js';
import { printCsv, refuseCsvWithJson } from '../../ui/csv.js';
import { payeeColumns } from '../../ui/controls.js';
import { printList } from '../../ui/output.js';

export default async function list(ctx: Context, input: CommandInput): Promise<void> {
  const csv = input.options.csv === true;
  refuseCsvWithJson(ctx, csv);
  const scope = await controlScope(ctx);
  const payees = listPayees(ctx, scope);
  if (csv) return printCsv(ctx, payeeColumns, payees);
  printList(ctx, payeeColumns, payees, payees, `no saved payees in profile "${scope.profile}"; add one with fsapi payees add <alias> <accountNumber> --bank <bank>`);
}
