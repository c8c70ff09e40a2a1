// What `transfer send` and `transfer status` show: the summary a person confirms (stderr), and the
// transfer or transaction record (stdout, through src/ui/output.ts so the output rules hold).
import type { Context } from '../context.js';
import type { TransactionRecord, TransferResult } from '../api/schemas.js';
import type { PreparedTransfer } from '../transfers/transfer.js';
import { formatNaira } from '../money/kobo.js';
import { outcomeMeaning, outcomeOfStatus, type TransferWithOutcome } from '../transfers/outcome.js';
import { describeReason, reasonInRecord, type RecordOutcome } from '../notifications/failure-reason.js';
import { colors, moneyCell, printRecord, recordTimeCell, shownText, statusCell, type Cell, type ShownValue } from './output.js';
import { terminalText } from '../common/sanitize.js';
import { wrapText } from './table-layout.js';
import { ownerWords } from '../auth/records-owner.js';

/**
 * The summary shown before the confirmation, on stderr: the verified name, where the money goes, how
 * much, under which reference, from which account and environment. Production gets a red marker.
 */
export function writeTransferSummary(ctx: Context, prepared: PreparedTransfer): void {
  const c = colors(ctx, 'stderr');
  const { transfer, source, scope } = prepared;
  if (scope.env === 'production') ctx.io.note(c.alarm(' PRODUCTION ') + c.red(' real money moves from this account'));
  const rows: Array<[string, string]> = [
    // Names come from the API: shown as text, never obeyed by the terminal (src/common/sanitize.ts).
    ['From', `${terminalText(source.accountName)} (${terminalText(source.accountNumber)})`],
    // A long name gets the marker on the next line, so the line stays within 80 columns.
    ...((transfer.accountName.length > 30
      ? [
          ['To', c.bold(terminalText(transfer.accountName))],
          ['', c.dim('(verified by name enquiry)')],
        ]
      : [['To', `${c.bold(terminalText(transfer.accountName))}  ${c.dim('(verified by name enquiry)')}`]]) as Array<[string, string]>),
    ['Account', transfer.accountNumber],
    ['Bank', `${terminalText(transfer.bankName)} (${transfer.bankCode})`],
    ['Amount', c.bold(formatNaira(transfer.amountKobo))],
    ...(source.availableKobo === undefined
      ? []
      : ([['Available', `${formatNaira(source.availableKobo)}${transfer.amountKobo > source.availableKobo ? c.red('  (less than the amount)') : ''}`]] as Array<
          [string, string]
        >)),
    ['Narration', transfer.narration],
  ];
  if (transfer.senderName !== undefined) rows.push(['Sender name', transfer.senderName]);
  rows.push(['Reference', transfer.reference]);
  rows.push([
    'Environment',
    `${scope.env === 'production' ? c.bold(c.red('production')) : scope.env} (${ownerWords(scope)}${scope.baseUrl === 'local' ? '' : `, ${scope.baseUrl}`})`,
  ]);
  const width = Math.max(...rows.map(([label]) => label.length));
  ctx.io.note(c.bold('Transfer'));
  // Long plain values (a narration, a business name) continue under themselves, within the terminal.
  const valueWidth = Math.max(20, (ctx.io.stderrColumns ?? 80) - width - 4);
  for (const [label, value] of rows) {
    const parts = /\u001b\[/.test(value) ? [value] : wrapText(value, valueWidth);
    parts.forEach((part, i) => ctx.io.note(`  ${i === 0 ? c.dim(label.padEnd(width)) : ' '.repeat(width)}  ${part}`));
  }
}

/** The duplicate guard's warning: what was already sent, when, and how it ended. */
export function writeDuplicateWarning(ctx: Context, duplicates: readonly TransferWithOutcome[], now: number): void {
  const c = colors(ctx, 'stderr');
  for (const earlier of duplicates) {
    const minutes = Math.max(0, Math.round((now - Date.parse(earlier.sentAt)) / 60_000));
    const when = minutes === 0 ? 'less than a minute ago' : `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
    ctx.io.note(
      `${c.yellow('warning:')} ${formatNaira(earlier.amountKobo)} to ${earlier.accountNumber} at ${earlier.bankName} was already sent ${when} ` +
        `(${earlier.reference}, ${earlier.outcome})`,
    );
  }
}

const destination = (...fields: [name: unknown, account: unknown, bankName: unknown, bankCode: unknown]) => {
  const [name, account, bankName, bankCode] = fields.map(shownText) as [string, string, string, string];
  return { name, account, bank: bankName && bankCode ? `${bankName} (${bankCode})` : bankName || bankCode };
};

/**
 * fsapi's outcome, first: its word (TSV) and what it means (terminal); failed or reversed, the reason the
 * API gave beside it, or that it gave none (src/notifications/failure-reason.ts). The API's own status and
 * message come after, labelled as its own.
 */
function outcomeFields(seen: RecordOutcome): Array<readonly [string, Cell | ShownValue]> {
  const { outcome, reason } = seen;
  const style = statusCell(outcome).style;
  const fields: Array<readonly [string, Cell | ShownValue]> = [['Outcome', { text: `${outcome} (${outcomeMeaning(outcome)})`, plain: outcome, style }]];
  if (outcome === 'failed' || outcome === 'reversed') fields.push(['Reason', { text: describeReason(reason), plain: reason?.text ?? '' }]);
  return fields;
}

/**
 * The API's answer to POST /v1/transfer (its `data`), as a record, its time on the business's clock
 * `timeZone`; `--json` prints `result` untouched.
 */
export function printTransferResult(ctx: Context, result: TransferResult, message: string | undefined, timeZone: string): void {
  const to = destination(result.destinationAccountName, result.destinationAccountNumber, result.destinationBankName, result.destinationBankCode);
  const reason = reasonInRecord(result);
  const fields: Array<readonly [string, Cell | ShownValue]> = [
    ...outcomeFields({ outcome: outcomeOfStatus(result.status), reason }),
    ['Reference', result.reference],
    ['Status', statusCell(result.status)],
    ['Amount', moneyCell(result.amount)],
    ['Charge', moneyCell(result.charge)],
    ['To name', to.name],
    ['To account', to.account],
    ['To bank', to.bank],
    ['Narration', result.description],
    ['Completed', completedCell(result.status, result.completedAt, timeZone)],
    // The API's words when it took the transfer ("Transfer successful, ..."), while its status may still be
    // pending: labelled as the API's so that they do not read as the outcome.
    ['API message', message ?? ''],
    // The NIP session id banks trace a transfer by, once the API gives one.
    ...sessionField(result.sessionId),
  ];
  printRecord(ctx, fields, result);
}

/**
 * A transaction record of one of our transfers (GET /v1/transactions/reference/{ref}), its outcome first,
 * its times on the business's clock `timeZone`; `--json` prints the record untouched.
 */
export function printTransaction(ctx: Context, transaction: TransactionRecord, seen: RecordOutcome, timeZone: string): void {
  const to = destination(
    transaction.destinationAccountName,
    transaction.destinationAccountNumber,
    transaction.destinationBankName,
    transaction.destinationBankCode,
  );
  const fields: Array<readonly [string, Cell | ShownValue]> = [
    ...outcomeFields(seen),
    ['Reference', transaction.reference],
    ['Status', statusCell(transaction.status)],
    ['Type', transaction.type],
    ['Amount', moneyCell(transaction.amount)],
    ['Charge', moneyCell(transaction.charge)],
    ['To name', to.name],
    ['To account', to.account],
    ['To bank', to.bank],
    ['Narration', transaction.description],
    ['Created', recordTimeCell(transaction.createdAt, timeZone)],
    ['Completed', completedCell(transaction.status, transaction.completedAt, timeZone)],
    ...sessionField(transaction.sessionId),
  ];
  printRecord(ctx, fields, transaction);
}

/** The session id as a field, or none while the API has not given one. */
const sessionField = (sessionId: unknown): Array<readonly [string, ShownValue]> => {
  const text = shownText(sessionId).trim();
  return text === '' ? [] : [['Session ID', text]];
};

/**
 * When a transfer completed, on the business's clock `timeZone` with its zone's name. A pending one has
 * not, whatever time the API puts there (it may send the creation time): "not yet" on a terminal, empty
 * when piped.
 */
export function completedCell(status: string | null | undefined, completedAt: number | string | null | undefined, timeZone: string): Cell {
  if ((status ?? '').toLowerCase() === 'pending') return { text: 'not yet (pending)', plain: '' };
  return recordTimeCell(completedAt, timeZone);
}
