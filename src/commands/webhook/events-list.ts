import { run } from '../run.js';
import { eventsListSpec } from './events.spec.js';
import { UsageError } from '../../errors.js';
import { eventHistories } from '../../notifications/event-log.js';
import { printList, type Column } from '../../ui/output.js';
import { stateStyle } from '../../ui/webhook-events.js';
import { summarise, type EventSummary } from './events-summary.js';

export default run(eventsListSpec, async (ctx, opts) => {
  const state = opts.state?.trim().toLowerCase();
  const kind = opts.kind?.trim().toLowerCase();
  let since: number | undefined;
  if (opts.since !== undefined) {
    since = Date.parse(opts.since);
    if (!Number.isFinite(since)) throw new UsageError(`--since ${JSON.stringify(opts.since)} is not a date`, 'give it as 2026-11-26 or 2026-11-26T09:00:00Z');
  }
  const limit = opts.limit;

  const rows = (await eventHistories(ctx.paths.dataDir))
    .map(summarise)
    .filter((row) => (state === undefined || row.state === state) && (kind === undefined || row.kind.toLowerCase() === kind))
    .filter((row) => since === undefined || Date.parse(row.receivedAt) >= since)
    .slice(0, limit);

  const columns: Column<EventSummary>[] = [
    // The reference is never cut: at a narrow terminal the time and the kind wrap within their cells.
    {
      header: 'RECEIVED',
      cell: (row) => ({ text: row.receivedAt.slice(0, 19).replace('T', ' '), plain: row.receivedAt }),
      flex: true,
      wrap: true,
      minWidth: 10,
    },
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
