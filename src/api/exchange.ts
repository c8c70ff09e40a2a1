// One HTTP exchange under a deadline, whatever it is for: the API's requests (src/api/http.ts adds retries,
// rate limits and error mapping on top), forwards to the developer's app (src/notifications/forward.ts) and
// the simulator's notifications (src/simulator/webhook.ts). All go through a Transport (node:http,
// src/api/node-transport.ts, unless a test gives stubbed answers), so all have its limit on the answer's
// size, its refusal to follow redirects and the tests' stub registry.
import { AnswerTooLargeError } from './node-transport.js';
import type { Transport, WireAnswer, WireRequest } from './types.js';

/** The exchange took longer than its deadline allowed. */
export class DeadlineExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${formatSeconds(timeoutMs)}`);
  }
}

/**
 * One request through a transport, its whole answer read within `timeoutMs` (DeadlineExceeded otherwise);
 * `signal` stops it sooner (rejecting with its reason). What every HTTP exchange of fsapi goes through: the
 * API's requests (src/api/http.ts), forwards to the app (src/notifications/forward.ts) and the simulator's
 * notifications (src/simulator/webhook.ts), so all have the transport's limits, its refusal of redirects
 * and its test stubs.
 */
export async function exchangeWithin(transport: Transport, wire: Omit<WireRequest, 'signal'>, timeoutMs: number, signal?: AbortSignal): Promise<WireAnswer> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DeadlineExceeded(timeoutMs)), timeoutMs);
  const stop = () => deadline.abort(signal?.reason);
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  try {
    // The race makes the deadline hold even for a transport that ignores its signal.
    return await Promise.race([transport({ ...wire, signal: deadline.signal }), rejectOnAbort(deadline.signal)]);
  } catch (error) {
    if (deadline.signal.reason instanceof DeadlineExceeded) throw deadline.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
    deadline.abort(); // frees the transport's listeners; no effect on a finished exchange
  }
}

/** Why an exchange got no answer, in a word where there is one: ECONNREFUSED, ECONNRESET, or the limit passed. */
export function exchangeFailure(error: unknown): string {
  if (error instanceof AnswerTooLargeError || error instanceof DeadlineExceeded) return error.message;
  return errorCode(error) ?? describeError(error);
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** The system error's code (ECONNREFUSED, ...), also where it is wrapped as a cause (undici: TypeError('fetch failed', { cause })). */
export function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** `2 s`, `0.5 s`: a wait or a limit in messages. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
