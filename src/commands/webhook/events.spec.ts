// fsapi webhook events list|show|resend: the event log of `webhook listen`.
import { date, defineCommand, defineGroup, integer, text } from '../spec.js';

const eventId = { name: '<id>', description: 'event id, or its first 6+ characters (from events list)' };

export const eventsListSpec = defineCommand({
  path: 'webhook events list',
  summary: 'events received, newest first',
  options: {
    state: text('--state <state>', 'only this state (verified, failed, mismatch, undelivered, ...)'),
    kind: text('--kind <kind>', 'only this kind (collection, payout, reversal, ...)'),
    since: date('--since <date>', 'received from this date: YYYY-MM-DD, today, yesterday, 7d, or an ISO date-time'),
    limit: integer('--limit <n>', 'at most n events', { min: 1, max: 100_000, defaultValue: 50 }),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi webhook events list --kind payout', 'fsapi webhook events list --state failed --json'],
});

export const eventsShowSpec = defineCommand({
  path: 'webhook events show',
  summary: 'one event whole: body, outcomes, forward',
  args: [eventId],
  options: {},
  exitCodes: [0, 1, 2],
  examples: ['fsapi webhook events show 6f1c2a'],
});

export const eventsResendSpec = defineCommand({
  path: 'webhook events resend',
  summary: 'forward a verified event again, once, marked X-Fsapi-Resend: 1',
  args: [eventId],
  options: {
    forwardTo: text('--forward-to <url>', 'where to (default: where webhook listen last forwarded)'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi webhook events resend 6f1c2a', 'fsapi webhook events resend 6f1c2a --forward-to http://127.0.0.1:3000/hooks'],
});

export const eventsGroup = defineGroup({
  path: 'webhook events',
  summary: 'the event log: list, show and resend received events',
  examples: ['fsapi webhook events list --state failed', 'fsapi webhook events resend 6f1c2a'],
  commands: [eventsListSpec, eventsShowSpec, eventsResendSpec],
});
