// fsapi banks [search] [--refresh]: the bank list and institution codes, cached 24 h per profile.
import type { Context } from '../context.js';
import type { CommandInput } from './types.js';
import { didYouMean, loadBanks, searchBanks } from '../transfers/banks.js';
import { printList, type Column } from '../ui/output.js';
import { printCsv, refuseCsvWithJson } from '../ui/csv.js';
import type { Bank } from '../api/schemas.js';

export default async function banks(ctx: Context, input: CommandInput): Promise<void> {
  const [search] = input.args;
  const csv = input.options.csv === true;
  refuseCsvWithJson(ctx, csv);
  const all = await loadBanks(ctx, { refresh: input.options.refresh === true });
  const shown = search === undefined ? all : searchBanks(all, search);
  const columns: Column<Bank>[] = [
      { header: 'CODE', csv: 'institution_code', cell: (bank) => bank.institutionCode },
      { header: 'NAME', csv: 'bank_name', cell: (bank) => bank.institutionName, flex: true, minWidth: 20 },
      { header: 'CATEGORY', csv: 'category', cell: (bank) => bank.category, priority: 1, flex: true },
  ];
  if (csv) return printCsv(ctx, columns, shown);
  printList<Bank>(
    ctx,
    columns,
    shown,
    shown,
    search === undefined ? 'the bank list is empty' : [`no bank matches ${JSON.stringify(search)}`, didYouMean(all, search)].filter(Boolean).join('; '),
  );
}
