// A batch file's rows that name a saved payee (`--to`-style aliases in its payee column), filled in from the
// payees of the account before any row is checked or sent.
import type { Context } from '../context.js';
import { controlScope, listPayees } from '../controls/payees.js';
import { ownerWords } from '../auth/records-owner.js';
import type { BatchFile, RowProblem } from './file.js';

/**
 * The rows of a batch file that name a saved payee, filled in from it: account number, bank (by its code)
 * and the saved name as the name the enquiry must find. A row naming no saved payee is a problem of its
 * line, and leaves the run.
 */
export async function resolvePayeeRows(ctx: Context, file: BatchFile): Promise<RowProblem[]> {
  const rows = file.workspace;
  const aliases = rows.payeeAliases();
  if (aliases.length === 0) return [];
  const scope = await controlScope(ctx);
  const payees = new Map((await listPayees(ctx, scope)).map((p) => [p.alias.toLowerCase(), p]));
  const problems: RowProblem[] = [];
  rows.transaction(() => {
    for (const alias of aliases) {
      const payee = payees.get(alias.toLowerCase());
      if (payee) {
        rows.fillFromPayee(alias, payee);
        continue;
      }
      for (const line of rows.linesOfPayee(alias)) {
        problems.push({ line, reason: `payee ${alias} is not saved in ${ownerWords(scope)} (fsapi payees list)` });
        rows.removeRow(line);
      }
    }
  });
  return problems.sort((a, b) => a.line - b.line);
}
