// fsapi webhook events list: the event log, newest first. RECEIVED is on the business's clock on a terminal
// (src/controls/business-clock.ts), named in its header; piped and --json keep the ISO 8601 UTC instant.
import { run } from '../run.js';
import { eventsListSpec } from './events.spec.js';
import { parseDateOption } from '../../books/dates.js';
import { businessClock } from '../../controls/business-clock.js';
import { eventHistories } from '../../notifications/event-log.js';
import { isoTimeCell, printList, timeColumn, type Column } from '../../ui/output.js';
import { stateStyle } from '../../ui/webhook-events.js';
import { summarise, type EventSummary } from './events-summary.js';

export default run(eventsListSpec, async (ctx, opts) => {
  const state = opts.state?.trim().toLowerCase();
  const kind = opts.kind?.trim().toLowerCase();
  const timeZone = await businessClock(ctx);
  // A day (or a time) of the business's clock, as every DATE option.
  const since = opts.since === undefined ? undefined : parseDateOption(opts.since, '--since', ctx.clock.now(), timeZone).startMs;
  const limit = opts.limit;

  const rows = (await eventHistories(ctx.paths.dataDir))
    .map(summarise)
    .filter((row) => (state === undefined || row.state === state) && (kind === undefined || row.kind.toLowerCase() === kind))
    .filter((row) => since === undefined || Date.parse(row.receivedAt) >= since)
    .slice(0, limit);

  const columns: Column<EventSummary>[] = [
    // The reference is never cut: at a narrow terminal the time and the kind wrap within their cells.
    timeColumn('RECEIVED', timeZone, ctx.clock.now(), (row) => isoTimeCell(row.receivedAt, timeZone, { seconds: true }), {
      flex: true,
      wrap: true,
      minWidth: 10,
    }),
    { header: 'ID', cell: (row) => ({ text: row.id.slice(0, 8), plain: row.id }) },
    { header: 'KIND', cell: (row) => row.kind + (row.status ? ` ${row.status}` : ''), flex: true, wrap: true },
    { header: 'REFERENCE', cell: (row) => row.reference },
    { header: 'STATE', cell: (row) => ({ text: row.state, plain: row.state, style: (text, c) => stateStyle(text, c) }) },
    { header: 'TRIES', cell: (row) => String(row.attempts), align: 'right', priority: 2 },
    { header: 'DETAIL', cell: (row) => row.detail, flex: true, priority: 1 },
  ];
  const filtered = state !== undefined || kind !== undefined || since !== undefined;
  printList(ctx, columns, rows, rows, filtered ? 'no events match (--state, --kind, --since)' : 'no events recorded (fsapi webhook listen records them)');
});
