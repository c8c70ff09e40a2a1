// Forwarding a verified event to the developer's app (`webhook listen --forward-to URL`): the event in the
// notification's own shape (built by the caller from the API's answers, never the bytes that arrived),
// `Content-Type: application/json`, `X-Fsapi-Verification: verified`, `X-Fsapi-Verified-Fields` naming
// the fields whose values are the API's, and `X-Fsapi-Unverified-Fields` naming the ones fsapi could not
// check (the notification's own values; empty when there are none). Only verified events are ever
// forwarded (the caller's contract). Every forward is signed (X-Fsapi-Signature, src/notifications/webhook-secret.ts)
// so the app can refuse a body that did not come through the listener.
import type { Clock } from '../context.js';
import { UsageError } from '../errors.js';
import { signatureHeader } from './webhook-secret.js';

export const VERIFICATION_HEADER = 'X-Fsapi-Verification';
export const VERIFIED_FIELDS_HEADER = 'X-Fsapi-Verified-Fields';
export const UNVERIFIED_FIELDS_HEADER = 'X-Fsapi-Unverified-Fields';
export const SIGNATURE_HEADER = 'X-Fsapi-Signature';
/** On a forward made by `webhook events resend`: the app may already have this event. */
export const RESEND_HEADER = 'X-Fsapi-Resend';

export interface ForwardPolicy {
  /** Waits between tries; their count + 1 is the number of tries. */
  retryDelaysMs: readonly number[];
  /** Time allowed for one try, answer included. */
  timeoutMs: number;
}

/**
 * One round of tries: 3 (waits of 0.5 s and 2 s), 10 s each: an app restarting under a file watcher gets a
 * second chance. docs/notifications.md states these numbers; test/webhook-schedule.test.ts holds them to it.
 */
export const FORWARD_POLICY: ForwardPolicy = { retryDelaysMs: [500, 2000], timeoutMs: 10_000 };

/**
 * When a round fails (the app down, or refusing the event), the wait before the next round: after the first
 * failed round 10 s (a deploy or a restart), then 1 min, 5 min, 30 min, then every hour until --retry-for
 * runs out. Soon enough that an app back within a minute loses little time; sparse enough that an app down
 * for 3 days gets at most about 150 rounds, not thousands. docs/notifications.md shows this table;
 * test/webhook-schedule.test.ts compares the two.
 */
export const FORWARD_RETRY_WAITS_MS: readonly number[] = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 60 * 60_000];

/**
 * The wait after failed round `round` (1 for the first), the table's last entry repeating, with jitter:
 * between half and all of it, `random` in [0, 1), so events kept by one outage do not all come back at once.
 */
export function forwardRetryWaitMs(round: number, random: number): number {
  const index = Math.min(Math.max(1, Math.floor(round)), FORWARD_RETRY_WAITS_MS.length) - 1;
  return Math.round(FORWARD_RETRY_WAITS_MS[index]! * (0.5 + 0.5 * random));
}

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
  deps: { clock: Clock; secret: string; policy?: ForwardPolicy; signal?: AbortSignal; resend?: boolean },
): Promise<ForwardResult> {
  const policy = deps.policy ?? FORWARD_POLICY;
  // The body is the event's own shape (a collection, payout or reversal): every field it has is the
  // API's but those named unverified. Both headers name only fields the body has.
  const fields = fieldsOf(body);
  const verified = fields.filter((field) => !unverified.includes(field));
  const unchecked = unverified.filter((field) => fields.includes(field));
  const tries = policy.retryDelaysMs.length + 1;
  let detail = '';
  let lastStatus: number | undefined;
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          [VERIFICATION_HEADER]: 'verified',
          [VERIFIED_FIELDS_HEADER]: verified.join(','),
          [UNVERIFIED_FIELDS_HEADER]: unchecked.join(','),
          // Signed at each try: the time in it is when the app receives it.
          [SIGNATURE_HEADER]: signatureHeader(deps.secret, Math.floor(deps.clock.now() / 1000), body),
          ...(deps.resend ? { [RESEND_HEADER]: '1' } : {}),
          'User-Agent': 'fsapi-webhook-listen',
        },
        // The cast only bridges TypeScript's ArrayBuffer/SharedArrayBuffer split.
        body: body as Uint8Array<ArrayBuffer>,
        redirect: 'manual',
        signal,
      });
      // The answer's body is not used; read it so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, tries: attempt };
      detail = `${target.origin} answered HTTP ${response.status}`;
      lastStatus = response.status;
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      if (!retryable) return { ok: false, tries: attempt, detail, status: response.status };
    } catch (error) {
      if (deps.signal?.aborted) return { ok: false, tries: attempt, detail: 'stopped before the app answered' };
      lastStatus = undefined;
      detail = timeout.aborted ? `${target.origin} did not answer within ${policy.timeoutMs / 1000} s` : `cannot reach ${target.origin}: ${describe(error)}`;
    }
    if (attempt < tries) {
      try {
        await deps.clock.sleep(policy.retryDelaysMs[attempt - 1]!, deps.signal);
      } catch {
        return { ok: false, tries: attempt, detail: `${detail}; stopped before trying again` };
      }
    }
  }
  return { ok: false, tries, detail: `${detail} (after ${tries} tries)`, ...(lastStatus === undefined ? {} : { status: lastStatus }) };
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

/** fetch wraps the socket error in `cause`; that is the part worth showing (ECONNREFUSED, ...). */
function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}
