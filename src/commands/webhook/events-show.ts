// fsapi webhook events show <id>: one event whole: the body as it arrived, every outcome recorded, and the
// body that was (or would be) forwarded. On a terminal the bodies follow the fields, indented and whole,
// every token as it was written (src/ui/json-text.ts); piped, one TSV record as every record view gives;
// --json, the bodies as JSON values and every outcome.
import { run } from '../run.js';
import { eventsShowSpec } from './events.spec.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { eventHistories } from '../../notifications/event-log.js';
import { colors, isoTimeCell, outputMode, printRecord, type Cell } from '../../ui/output.js';
import { businessClock } from '../../controls/business-clock.js';
import { jsonLines } from '../../ui/json-text.js';
import { findEvent, summarise } from './events-summary.js';

export default run(eventsShowSpec, async (ctx, _opts, args) => {
  const given = (args[0] ?? '').trim();
  if (given === '') throw new UsageError('give the id of an event (fsapi webhook events list shows them)');
  const history = findEvent(await eventHistories(ctx.paths.dataDir), given);
  if (history === 'ambiguous') throw new UsageError(`more than one event id starts with ${given}; give more of it`);
  if (!history) throw new NotFoundError(`no event ${given} in the event log`, 'fsapi webhook events list shows the ids');
  const summary = summarise(history);
  const last = history.outcomes.at(-1);
  // The body forwarded (or kept to forward): the latest outcome that carries one.
  const forward = [...history.outcomes].reverse().find((outcome) => outcome.forwardBody !== undefined);
  const parse = (text: string | undefined) => {
    if (text === undefined) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  const fields: Array<readonly [string, string | Cell]> = [
    ['Id', summary.id],
    // On the business's clock with its zone on a terminal; the ISO 8601 instant piped.
    ['Received', isoTimeCell(summary.receivedAt, await businessClock(ctx), { seconds: true, zone: true })],
    ['Kind', summary.kind + (summary.status ? ` (${summary.status})` : '')],
    ['Reference', summary.reference],
    ['State', summary.state],
    ['Forwarded', summary.forwarded ? 'yes' : 'no'],
    ['Tries', String(summary.attempts)],
    ...(last?.lastAnswer ? ([['Last answer', last.lastAnswer]] as const) : []),
    ['Detail', summary.detail],
    ...(forward ? ([['Unverified', unverified(forward.forwardUnverified ?? [])]] as const) : []),
  ];
  const bodies: Array<readonly [string, string]> = [
    ['Body received', history.received.body],
    ['Body forwarded', forward?.forwardBody ?? ''],
  ];
  const json = { ...summary, body: parse(history.received.body), forwardBody: parse(forward?.forwardBody), outcomes: history.outcomes };
  if (outputMode(ctx) !== 'table') return printRecord(ctx, [...fields, ...bodies], json);

  printRecord(ctx, fields, json);
  const c = colors(ctx);
  const width = Math.max(20, (ctx.io.columns ?? 80) - 2);
  for (const [label, body] of bodies) {
    const lines = body === '' ? ['(none: only verified events are forwarded)'] : jsonLines(body, width);
    ctx.io.out(`\n${c.dim(label)}\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
  }
});

/** The fields of the forward that are the notification's own: blank in TSV when there are none. */
function unverified(fields: readonly string[]): Cell {
  return fields.length === 0 ? { text: "none: every field is the API's", plain: '' } : { text: fields.join(', '), plain: fields.join(',') };
}
