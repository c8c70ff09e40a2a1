// fsapi webhook events show <id>: one event whole: the body as it arrived, every outcome recorded, and the
// body that was (or would be) forwarded.
import { run } from '../run.js';
import { eventsShowSpec } from './events.spec.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { eventHistories } from '../../notifications/event-log.js';
import { printRecord } from '../../ui/output.js';
import { findEvent, summarise } from './events-summary.js';

export default run(eventsShowSpec, async (ctx, _opts, args) => {
  const given = (args[0] ?? '').trim();
  if (given === '') throw new UsageError('give the id of an event (fsapi webhook events list shows them)');
  const history = findEvent(await eventHistories(ctx.paths.dataDir), given);
  if (history === 'ambiguous') throw new UsageError(`more than one event id starts with ${given}; give more of it`);
  if (!history) throw new NotFoundError(`no event ${given} in the event log`, 'fsapi webhook events list shows the ids');
  const summary = summarise(history);
  const last = history.outcomes.at(-1);
  const parse = (text: string | undefined) => {
    if (text === undefined) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  printRecord(
    ctx,
    [
      ['Id', summary.id],
      ['Received', summary.receivedAt],
      ['Kind', summary.kind + (summary.status ? ` (${summary.status})` : '')],
      ['Reference', summary.reference],
      ['State', summary.state],
      ['Forwarded', summary.forwarded ? 'yes' : 'no'],
      ['Tries', String(summary.attempts)],
      ...(last?.lastAnswer ? ([['Last answer', last.lastAnswer]] as const) : []),
      ['Detail', summary.detail],
      ['Body received', history.received.body],
      ['Body forwarded', last?.forwardBody ?? ''],
    ],
    { ...summary, body: parse(history.received.body), forwardBody: parse(last?.forwardBody), outcomes: history.outcomes },
  );
});
