// Delivers a notification (a collection, or in realistic mode a payout) to a webhook URL: a JSON POST, a bounded number of tries with
// exponential backoff, failures reported through `log`, never thrown (a receiver that is down must not
// take the simulator down with it).
import type { CollectionNotification } from '../api/schemas.js';

export interface DeliveryOptions {
  /** Attempts in all (default 3). */
  tries?: number;
  /** Wait before the second try; doubles each time (default 500 ms). */
  backoffMs?: number;
  /** Per-attempt timeout (default 5 s). */
  timeoutMs?: number;
  log?: (line: string) => void;
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
  const body = JSON.stringify(notification);
  let last: DeliveryResult = { delivered: false, attempts: 0 };
  for (let attempt = 1; attempt <= tries; attempt++) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'fsapi-simulator' },
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return { delivered: true, attempts: attempt, status: response.status };
      last = { delivered: false, attempts: attempt, status: response.status, error: `HTTP ${response.status}` };
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      last = { delivered: false, attempts: attempt, error: cause?.code ?? cause?.message ?? (error as Error).message };
    }
    log(`simulator: webhook ${url} attempt ${attempt}/${tries} for ${notification.reference} failed: ${last.error}`);
    if (attempt < tries) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
  }
  return last;
}
