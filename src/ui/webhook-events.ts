// How `webhook listen` shows events as they finish, one line each (a stream, so no table borders):
//   terminal   14:05:12  ACME-7QK2M9XD4T  9900000011   ₦25,000.00  ADA OBI  verified  forwarded
//              with the state coloured (green verified, yellow pending/unverifiable/unverified, red the rest);
//   piped      TSV under one header line: time (ISO 8601) reference account amount payer state forwarded detail;
//   --json     NDJSON, one object per line:
//              {receivedAt, kind, status, reference, virtualAccount, amount, payer, state, field, detail, forwarded};
//              `amount` is null for an event of another kind; `status` is a payout's, else null.
import type { Styles } from './style.js';
import type { Context } from '../context.js';
import type { ShownEvent } from '../notifications/event-processor.js';
import { formatNaira, koboToDecimal } from '../money/kobo.js';
import { colors, outputMode } from './output.js';
import { terminalText, tsvField } from '../common/sanitize.js';

export const EVENT_TSV_HEADER = ['time', 'reference', 'account', 'amount', 'payer', 'state', 'forwarded', 'detail'];

/** The NDJSON object of one event. `amount` is decimal text, like the notification's amountReceived. */
export function eventJson(event: ShownEvent) {
  return {
    receivedAt: event.receivedAt,
    kind: event.kind,
    status: event.status,
    reference: event.reference,
    virtualAccount: event.virtualAccount,
    amount: event.amount === null ? null : koboToDecimal(event.amount),
    payer: event.payer,
    state: event.state,
    field: event.field,
    detail: event.detail,
    forwarded: event.forwarded,
  };
}

export function stateStyle(state: string, c: Styles): string {
  switch (state) {
    case 'verified':
      return c.green(state);
    case 'pending':
    case 'stale':
    case 'unverifiable':
    case 'unknown-kind':
    case 'unverified':
    case 'undelivered':
    case 'held':
    case 'open':
      return c.yellow(state);
    default:
      return c.red(state);
  }
}

/** Returns a function that writes one event; writes the TSV header first when piped. */
export function createEventPrinter(ctx: Context): (event: ShownEvent) => void {
  const mode = outputMode(ctx);
  if (mode === 'json') return (event) => ctx.io.out(`${JSON.stringify(eventJson(event))}\n`);
  if (mode === 'tsv') {
    ctx.io.out(tsv(EVENT_TSV_HEADER));
    return (event) =>
      ctx.io.out(
        tsv([
          event.receivedAt,
          event.reference,
          event.virtualAccount,
          event.amount === null ? '' : koboToDecimal(event.amount),
          event.payer,
          event.state,
          event.forwarded ? 'yes' : 'no',
          event.detail,
        ]),
      );
  }
  const c = colors(ctx);
  return (event) => {
    const time = new Date(event.receivedAt).toTimeString().slice(0, 8);
    const columns = [
      c.dim(time),
      fit(event.reference, 24),
      fit(event.virtualAccount, 10),
      (event.amount === null ? '' : formatNaira(event.amount)).padStart(15),
      fit(event.payer, 22),
      pad(stateStyle(event.state, c), event.state.length, 12),
      explain(event, c),
    ];
    ctx.io.out(`${columns.join('  ').trimEnd()}\n`);
  };
}

/** What a person needs after the state: where a verified event went, or why it is not trusted. */
function explain(event: ShownEvent, c: Styles): string {
  if (event.state === 'verified') {
    if (event.forwarded) return c.green('forwarded');
    if (event.forwardProblem) return c.red(`forward failed: ${terminalText(event.forwardProblem)}`);
    return '';
  }
  const field = event.field ? `${event.field}: ` : '';
  return c.dim(terminalText(`${field}${event.detail}`));
}

function fit(raw: string, width: number): string {
  const text = terminalText(raw);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function pad(styled: string, visible: number, width: number): string {
  return styled + ' '.repeat(Math.max(0, width - visible));
}

function tsv(values: readonly string[]): string {
  return `${values.map(tsvField).join('\t')}\n`;
}
