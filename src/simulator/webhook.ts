// Delivers a notification (a collection, or in realistic mode a payout) to a webhook URL: a JSON POST, a
// bounded number of tries (SIMULATOR_NOTIFICATION, src/common/retry.ts), failures reported through `log`,
// never thrown (a receiver that is down must not take the simulator down with it). The POST goes through
// fsapi's own HTTP exchange (src/api/exchange.ts) and the run's transport: the same limits, no redirects,
// a test's stubbed answers.
import { exchangeFailure, exchangeWithin } from '../api/exchange.js';
import { systemClock } from '../common/clock.js';
import { Backoff, SIMULATOR_NOTIFICATION, type RetrySchedule } from '../common/retry.js';
import { nodeTransport } from '../api/node-transport.js';
import type { CollectionNotification } from '../api/schemas.js';
import type { Transport } from '../api/types.js';

/** Time allowed for one try of a notification, answer included. docs/simulator.md. */
export const NOTIFICATION_TIMEOUT_MS = 5000;

export interface DeliveryOptions {
  /** The tries and the waits between them (default SIMULATOR_NOTIFICATION: 3 tries, 0.5 s then 1 s apart). */
  schedule?: RetrySchedule;
  /** Per-attempt timeout (default NOTIFICATION_TIMEOUT_MS). */
  timeoutMs?: number;
  log?: (line: string) => void;
  /** What the POST goes through (default node:http, src/api/node-transport.ts). */
  transport?: Transport;
}

export interface DeliveryResult {
  delivered: boolean;
  attempts: number;
  /** HTTP status of the last answer, if there was one. */
  status?: number;
  /** Why the last attempt failed. */
  error?: string;
}

export async function deliverNotification(
  url: string,
  notification: CollectionNotification | (Record<string, unknown> & { reference: string }),
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const backoff = new Backoff(options.schedule ?? SIMULATOR_NOTIFICATION, { clock: systemClock });
  const tries = backoff.tries;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const body = Buffer.from(JSON.stringify(notification));
  const wire = { method: 'POST' as const, url: new URL(url), headers: { 'content-type': 'application/json', 'user-agent': 'fsapi-simulator' }, body };
  let last: DeliveryResult;
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await exchangeWithin(options.transport ?? nodeTransport, wire, options.timeoutMs ?? NOTIFICATION_TIMEOUT_MS);
      if (answer.status >= 200 && answer.status < 300) return { delivered: true, attempts: attempt, status: answer.status };
      last = { delivered: false, attempts: attempt, status: answer.status, error: `HTTP ${answer.status}` };
    } catch (error) {
      last = { delivered: false, attempts: attempt, error: exchangeFailure(error) };
    }
    log(`simulator: webhook ${url} attempt ${attempt}/${tries} for ${notification.reference} failed: ${last.error}`);
    if (!(await backoff.wait())) return last;
  }
}
