// fsapi transfer log: the journal of money-moving requests (src/core/journal.ts), the last known state of
// each transfer, oldest first, for every profile. Local only: it asks the API nothing.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { koboToDecimal } from '../../core/money.js';
import { openJournal } from '../../core/transfer.js';
import type { TransferState } from '../../core/journal.js';
import { colors, koboCell, printList, statusCell } from '../../ui/output.js';
import { isoTimeCell } from '../../ui/transfers.js';

export default async function log(ctx: Context, _input: CommandInput): Promise<void> {
  const journal = openJournal(ctx);
  const { transfers, warnings } = await journal.transfers();
  for (const warning of warnings) ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${warning}`);
  const rows = [...transfers].sort((a, b) => Date.parse(a.sentAt) - Date.parse(b.sentAt));
  printList<TransferState>(
    ctx,
    [
      { header: 'TIME', cell: (t) => isoTimeCell(t.sentAt) },
      { header: 'PROFILE', cell: (t) => t.profile, priority: 4 },
      { header: 'REFERENCE', cell: (t) => t.reference },
      { header: 'ACCOUNT', cell: (t) => t.accountNumber, priority: 2 },
      { header: 'NAME', cell: (t) => t.accountName, flex: true, minWidth: 12 },
      { header: 'BANK', cell: (t) => t.bankName, priority: 3, flex: true },
      { header: 'AMOUNT', cell: (t) => koboCell(t.amountKobo), align: 'right' },
      { header: 'STATE', cell: (t) => statusCell(t.state) },
      { header: 'STATUS', cell: (t) => statusCell(t.status), priority: 1 },
      { header: 'MESSAGE', cell: (t) => t.message ?? '', priority: 5, flex: true },
    ],
    rows,
    rows.map(toJson),
    `the journal ${journal.file} has no transfers yet`,
  );
  const unknown = rows.filter((t) => t.state === 'unknown');
  if (unknown.length > 0 && !ctx.globals.json) {
    ctx.io.note(`${unknown.length} transfer${unknown.length === 1 ? ' has' : 's have'} no known outcome: do not resend; fsapi transfer status <reference> settles each`);
  }
}

/** The journal's own JSON (not an API object): one object per transfer, amounts as decimal text and kobo. */
function toJson(t: TransferState) {
  return {
    sentAt: t.sentAt,
    updatedAt: t.updatedAt,
    profile: t.profile,
    env: t.env,
    baseUrl: t.baseUrl,
    reference: t.reference,
    accountNumber: t.accountNumber,
    accountName: t.accountName,
    bankCode: t.bankCode,
    bankName: t.bankName,
    amount: koboToDecimal(t.amountKobo),
    amountKobo: t.amountKobo,
    narration: t.narration,
    senderName: t.senderName ?? null,
    origin: t.origin ?? null,
    state: t.state,
    status: t.status ?? null,
    message: t.message ?? null,
    httpStatus: t.httpStatus ?? null,
  };
}
