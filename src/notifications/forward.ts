// Forwarding a verified event to the developer's app (`webhook listen --forward-to URL`): the event in the
// notification's own shape (built by the caller from the API's answers, never the bytes that arrived),
// `Content-Type: application/json`, `X-Fsapi-Verification: verified`, `X-Fsapi-Verified-Fields` naming
// the fields whose values are the API's, and `X-Fsapi-Unverified-Fields` naming the ones fsapi could not
// check (the notification's own values; empty when there are none). Only verified events are ever
// forwarded (the caller's contract). Every forward is signed (X-Fsapi-Signature, src/notifications/webhook-secret.ts)
// so the app can refuse a body that did not come through the listener. The POST goes through the API's
// transport (src/api/exchange.ts): its limit on the answer, no redirects followed, and a
// test's stubbed answers (ctx.transport).
import type { Clock } from '../context.js';
import { DeadlineExceeded, exchangeFailure, exchangeWithin } from '../api/exchange.js';
import type { Transport } from '../api/types.js';
import { Backoff, FORWARD_TRIES, type RetrySchedule } from '../common/retry.js';
import { UsageError } from '../errors.js';
import { signatureHeader } from './webhook-secret.js';

export const VERIFICATION_HEADER = 'X-Fsapi-Verification';
export const VERIFIED_FIELDS_HEADER = 'X-Fsapi-Verified-Fields';
export const UNVERIFIED_FIELDS_HEADER = 'X-Fsapi-Unverified-Fields';
export const SIGNATURE_HEADER = 'X-Fsapi-Signature';
/** On a forward made by `webhook events resend`: the app may already have this event. */
export const RESEND_HEADER = 'X-Fsapi-Resend';

export interface ForwardPolicy {
  /** The tries of one round and the waits between them. */
  tries: RetrySchedule;
  /** Time allowed for one try, answer included. */
  timeoutMs: number;
}

/**
 * One round of tries: 3 (waits of 0.5 s and 2 s, FORWARD_TRIES), 10 s each: an app restarting under a file
 * watcher gets a second chance. docs/notifications.md states these numbers; test/webhook-schedule.test.ts
 * holds them to it. When a round fails, the next comes after FORWARD_ROUNDS (src/notifications/event-processor.ts).
 */
export const FORWARD_POLICY: ForwardPolicy = { tries: FORWARD_TRIES, timeoutMs: 10_000 };

/** A failure carries the app's last HTTP status when it answered (410 Gone: stop trying). */
export type ForwardResult = { ok: true; status: number; tries: number } | { ok: false; tries: number; detail: string; status?: number };

/** An http(s) URL with a host, or exit 2 before anything listens. */
export function parseForwardTarget(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--forward-to ${JSON.stringify(text)} is not a URL`, 'give it as http://127.0.0.1:3000/hooks');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new UsageError(`--forward-to ${JSON.stringify(text)} must start with http:// or https://`);
  }
  return url;
}

/**
 * POSTs the body to the target. A 2xx answer is delivery. Network errors, timeouts, 408, 429 and 5xx are
 * tried again; any other answer (a 4xx: the app refused it; a 3xx: redirects are not followed, because
 * following a POST redirect can turn it into a GET) is final.
 */
export async function forwardEvent(
  target: URL,
  body: Uint8Array,
  unverified: readonly string[],
  deps: { clock: Clock; secret: string; transport: Transport; policy?: ForwardPolicy; signal?: AbortSignal; resend?: boolean },
): Promise<ForwardResult> {
  const policy = deps.policy ?? FORWARD_POLICY;
  // The body is the event's own shape (a collection, payout or reversal): every field it has is the
  // API's but those named unverified. Both headers name only fields the body has.
  const fields = fieldsOf(body);
  const verified = fields.filter((field) => !unverified.includes(field));
  const unchecked = unverified.filter((field) => fields.includes(field));
  // The very bytes given, not a copy re-encoded: the signature is over them.
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const backoff = new Backoff(policy.tries, { clock: deps.clock, signal: deps.signal });
  let detail = '';
  let lastStatus: number | undefined;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const headers = {
        'content-type': 'application/json',
        [VERIFICATION_HEADER]: 'verified',
        [VERIFIED_FIELDS_HEADER]: verified.join(','),
        [UNVERIFIED_FIELDS_HEADER]: unchecked.join(','),
        // Signed at each try: the time in it is when the app receives it.
        [SIGNATURE_HEADER]: signatureHeader(deps.secret, Math.floor(deps.clock.now() / 1000), body),
        ...(deps.resend ? { [RESEND_HEADER]: '1' } : {}),
        'user-agent': 'fsapi-webhook-listen',
      };
      // The answer's body is not used (the transport reads it, within its limit, so the connection can be reused).
      const answer = await exchangeWithin(deps.transport, { method: 'POST', url: target, headers, body: bytes }, policy.timeoutMs, deps.signal);
      if (answer.status >= 200 && answer.status < 300) return { ok: true, status: answer.status, tries: attempt };
      detail = `${target.origin} answered HTTP ${answer.status}`;
      lastStatus = answer.status;
      const retryable = answer.status === 408 || answer.status === 429 || answer.status >= 500;
      if (!retryable) return { ok: false, tries: attempt, detail, status: answer.status };
    } catch (error) {
      if (deps.signal?.aborted) return { ok: false, tries: attempt, detail: 'stopped before the app answered' };
      lastStatus = undefined;
      detail =
        error instanceof DeadlineExceeded
          ? `${target.origin} did not answer within ${policy.timeoutMs / 1000} s`
          : `cannot reach ${target.origin}: ${exchangeFailure(error)}`;
    }
    const wait = backoff.next();
    if (wait === undefined) {
      return { ok: false, tries: attempt, detail: `${detail} (after ${attempt} tries)`, ...(lastStatus === undefined ? {} : { status: lastStatus }) };
    }
    if (!(await backoff.sleep(wait))) return { ok: false, tries: attempt, detail: `${detail}; stopped before trying again` };
  }
}

/** The top-level field names of a forwarded body, in order. */
function fieldsOf(body: Uint8Array): string[] {
  try {
    const value: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}
