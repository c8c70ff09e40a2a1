import { run } from './run.js';
import { banksSpec } from './top/banks.spec.js';
import { didYouMean, loadBanks, searchBanks } from '../transfers/banks.js';
import { printList, type Column } from '../ui/output.js';
import { printCsv, refuseCsvWithJson } from '../ui/csv.js';
import type { Bank } from '../api/schemas.js';

export default run(banksSpec, async (ctx, opts, args) => {
  const [search] = args;
  const csv = opts.csv;
  refuseCsvWithJson(ctx, csv);
  const all = await loadBanks(ctx, { refresh: opts.refresh });
  const shown = search === undefined ? all : searchBanks(all, search);
  const columns: Column<Bank>[] = [
    { header: 'CODE', csv: 'institution_code', identifier: true, cell: (bank) => bank.institutionCode },
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
});
