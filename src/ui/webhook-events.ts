// How `webhook listen` shows events as they finish (a stream, so no table borders):
//   terminal   each event folded to the terminal's width (80 when unknown), nothing cut and no word broken,
//              its time on the business's clock (src/controls/business-clock.ts; `webhook listen` names the zone):
//                14:05:12  COL-V22WVMLD000061           ₦25,000.00  verified      forwarded
//                          9900000011  ABDULLAHI ADAEZE HAUWA
//              the first line is the outcome at a glance (time, reference, amount, state, and whether the
//              app has it), the second whose account and who paid; an event that is not trusted or not
//              delivered says why on the lines after, under them. The state is coloured (green verified,
//              yellow pending/unverifiable/unverified, red the rest). A field too long for its line
//              goes to the next, and a long payer or reason wraps at words;
//   piped      TSV under one header line: time (ISO 8601) reference account amount payer state forwarded detail,
//              one line an event whatever its length: data for a program, not a screen;
//   --json     NDJSON, one object per line:
//              {receivedAt, kind, status, reference, virtualAccount, amount, payer, state, field, detail, forwarded};
//              `amount` is null for an event of another kind; `status` is a payout's, else null.
import type { Paint, Styles } from './style.js';
import type { Context } from '../context.js';
import type { ShownEvent } from '../notifications/event-processor.js';
import { formatNaira, koboToDecimal } from '../money/kobo.js';
import { colors, outputMode } from './output.js';
import { terminalText, tsvField } from '../common/sanitize.js';
import { zonedClockText } from '../common/time-zone.js';
import { displayWidth, wrapWords } from '../common/text-width.js';

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
  return stateColour(state, c)(state);
}

/** The colour of a state: green verified, yellow not settled, red contradicted or given up. */
function stateColour(state: string, c: Styles): Paint {
  switch (state) {
    case 'verified':
      return c.green;
    case 'pending':
    case 'stale':
    case 'unverifiable':
    case 'unknown-kind':
    case 'unverified':
    case 'undelivered':
    case 'held':
    case 'open':
      return c.yellow;
    default:
      return c.red;
  }
}

/** Returns a function that writes one event (times in `timeZone`); writes the TSV header first when piped. */
export function createEventPrinter(ctx: Context, timeZone: string): (event: ShownEvent) => void {
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
  return (event) => ctx.io.out(eventLines(event, ctx.io.columns ?? 80, c, timeZone));
}

/** Where an event's second and later lines start: under its reference. */
const INDENT = 10;

/** A piece of an event's lines: its text (already safe for the terminal) and its colour. */
interface Part {
  text: string;
  paint?: Paint;
}

/** One event as the terminal shows it in `width` columns, its time in `timeZone`: its lines, each ending in a newline. */
export function eventLines(event: ShownEvent, width: number, c: Styles, timeZone: string): string {
  const time = zonedClockText(Date.parse(event.receivedAt), timeZone, { date: false, seconds: true }).padEnd(8);
  const forwarded = event.state === 'verified' && event.forwarded;
  const outcome: Part[] = [
    { text: time, paint: c.dim },
    { text: terminalText(event.reference).padEnd(24) },
    { text: (event.amount === null ? '' : formatNaira(event.amount)).padStart(15) },
    { text: event.state.padEnd(12), paint: stateColour(event.state, c) },
    ...(forwarded ? [{ text: 'forwarded', paint: c.green }] : []),
  ];
  const who: Part[] = [{ text: terminalText(event.virtualAccount) }, { text: terminalText(event.payer) }];
  const lines = [...layOut(outcome, width, 0), ...layOut(who, width, INDENT)];
  const why = reason(event, c);
  if (why) lines.push(...layOut([why], width, INDENT));
  return lines.map((line) => `${line}\n`).join('');
}

/** Why an event is not trusted, or why a verified one did not reach the app; nothing when all is well. */
function reason(event: ShownEvent, c: Styles): Part | undefined {
  if (event.state === 'verified') {
    return event.forwardProblem ? { text: `forward failed: ${terminalText(event.forwardProblem)}`, paint: c.red } : undefined;
  }
  const field = event.field ? `${event.field}: ` : '';
  const text = terminalText(`${field}${event.detail}`).trim();
  return text === '' ? undefined : { text, paint: c.dim };
}

/**
 * `parts` two spaces apart on lines of at most `width` columns, the first line starting at `start`, the
 * others at INDENT: a part that does not fit the rest of its line goes to the next, and one wider than a
 * whole line wraps at words. Padding (columns' alignment) is kept only where the parts all fit on one
 * line; otherwise each part is laid out as its bare text.
 */
function layOut(parts: readonly Part[], width: number, start: number): string[] {
  const fitsPadded =
    start +
      displayWidth(
        parts
          .map((part) => part.text)
          .join('  ')
          .trimEnd(),
      ) <=
    width;
  const texts = parts.map((part) => (fitsPadded ? part.text : part.text.trim()));
  const room = Math.max(1, width - INDENT);
  const lines: string[] = [];
  let line = ' '.repeat(start);
  let used = start;
  let empty = true;
  const newLine = () => {
    lines.push(line.trimEnd());
    line = ' '.repeat(INDENT);
    used = INDENT;
    empty = true;
  };
  parts.forEach((part, index) => {
    const text = texts[index]!;
    if (text === '') return;
    const pieces = displayWidth(text) > room ? wrapWords(text, room) : [text];
    const paint = part.paint ?? ((plain: string) => plain);
    pieces.forEach((piece, pieceIndex) => {
      if (pieceIndex > 0) newLine();
      const bare = piece.trimEnd();
      if (!empty && used + 2 + displayWidth(bare) > width) newLine();
      if (!empty) {
        line += '  ';
        used += 2;
      }
      // The colour covers the text, not its padding.
      const lead = piece.length - piece.trimStart().length;
      line += piece.slice(0, lead) + paint(bare.slice(lead)) + ' '.repeat(displayWidth(piece) - displayWidth(bare));
      used += displayWidth(piece);
      empty = false;
    });
  });
  if (!empty) lines.push(line.trimEnd());
  return lines;
}

function tsv(values: readonly string[]): string {
  return `${values.map(tsvField).join('\t')}\n`;
}
