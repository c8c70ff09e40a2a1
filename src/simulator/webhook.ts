// Delivers a notification (a collection, or in realistic mode a payout) to a webhook URL: a JSON POST, a bounded number of tries with
// exponential backoff, failures reported through `log`, never thrown (a receiver that is down must not
// take the simulator down with it). The POST goes through fsapi's own HTTP exchange (src/api/http.ts,
// exchangeWithin) and the run's transport: the same limits, no redirects, a test's stubbed answers.
import { exchangeFailure, exchangeWithin } from '../api/exchange.js';
import { nodeTransport } from '../api/node-transport.js';
import type { CollectionNotification } from '../api/schemas.js';
import type { Transport } from '../api/types.js';

export interface DeliveryOptions {
  /** Attempts in all (default 3). */
  tries?: number;
  /** Wait before the second try; doubles each time (default 500 ms). */
  backoffMs?: number;
  /** Per-attempt timeout (default 5 s). */
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
  const tries = Math.max(1, options.tries ?? 3);
  const backoffMs = options.backoffMs ?? 500;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const body = Buffer.from(JSON.stringify(notification));
  const wire = { method: 'POST' as const, url: new URL(url), headers: { 'content-type': 'application/json', 'user-agent': 'fsapi-simulator' }, body };
  let last: DeliveryResult = { delivered: false, attempts: 0 };
  for (let attempt = 1; attempt <= tries; attempt++) {
    try {
      const answer = await exchangeWithin(options.transport ?? nodeTransport, wire, options.timeoutMs ?? 5000);
      if (answer.status >= 200 && answer.status < 300) return { delivered: true, attempts: attempt, status: answer.status };
      last = { delivered: false, attempts: attempt, status: answer.status, error: `HTTP ${answer.status}` };
    } catch (error) {
      last = { delivered: false, attempts: attempt, error: exchangeFailure(error) };
    }
    log(`simulator: webhook ${url} attempt ${attempt}/${tries} for ${notification.reference} failed: ${last.error}`);
    if (attempt < tries) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
  }
  return last;
}
