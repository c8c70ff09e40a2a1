// Reads an answer from the wire into the typed result or one typed error with a one-line message.
//
// For POST /v1/transfer these errors are facts, not verdicts: which of them prove that no money moved is
// decided in one place, src/transfers/refusal-proof.ts. A TransportError (no answer, unreadable answer, 5xx)
// means nobody knows whether it happened; an ApiError carries the status and whether the body had the
// spec's error shape. So:
//   2xx JSON matching the schema        -> the parsed value (unknown fields kept)
//   2xx JSON with success:false         -> ApiError (refused, with the API's message)
//   2xx JSON not matching the schema    -> ApiError "unexpected answer from the API: <path>: <issue>"
//   4xx JSON                            -> ApiError "the API refused the request (HTTP 400): <message>"
//   429 JSON                            -> ApiError "the API answered HTTP 429 (rate limited): <message>"
//   5xx JSON                            -> TransportError('bad-gateway') "the API failed (HTTP 503): ..."
//   any status, body not JSON           -> TransportError('unreadable') naming status and content type
//   3xx                                 -> ApiError naming the redirect (fix the base URL)
// 401/403 reach here only for POST /v1/transfer (an ApiError with that status): for every other request
// the client renews the token or raises AuthError first.
import type * as z from 'zod/mini';
import { retryAfterMs } from '../common/retry.js';
import { ApiError, TransportError } from '../errors.js';
import type { HttpAnswer } from './http.js';

/** The JSON body, or TransportError('unreadable') when the body is not JSON (an HTML error page, a proxy's text). */
export function readJson(answer: HttpAnswer, host: string): unknown {
  try {
    if (answer.text.trim() === '') throw new SyntaxError('empty body');
    return JSON.parse(answer.text) as unknown;
  } catch {
    const type = answer.contentType.split(';')[0]?.trim() || 'no content type';
    const what = answer.text.trim() === '' ? 'an empty answer' : `a ${type} answer, not JSON`;
    return unreadable(answer, host, what);
  }
}

function unreadable(answer: HttpAnswer, host: string, what: string): never {
  const hint =
    answer.status >= 500
      ? 'the API or a proxy in front of it failed; try again later'
      : answer.status === 404
        ? 'check the base URL (fsapi auth status)'
        : 'run again with --verbose to see the request';
  throw new TransportError('unreadable', `unreadable answer from ${host}: HTTP ${answer.status} with ${what}`, {
    status: answer.status,
    hint,
  });
}

/** The API's own `message`, when the body carries one. */
export function apiMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message.trim();
  }
  return undefined;
}

/** The spec's error shape (docs/api-spec.md section 7): a JSON object whose `success` is false. */
export function isErrorShape(body: unknown): boolean {
  return body !== null && typeof body === 'object' && !Array.isArray(body) && (body as { success?: unknown }).success === false;
}

/** Maps any answer that is not a success to its error. Returns nothing for a 2xx. */
export function throwUnlessSuccess(answer: HttpAnswer, body: unknown, _host: string): void {
  const { status } = answer;
  const message = apiMessage(body);
  const suffix = message ? `: ${message}` : '';
  const errorShape = isErrorShape(body);
  if (status >= 200 && status < 300) {
    if (errorShape) {
      throw new ApiError(`the API refused the request (HTTP ${status})${suffix}`, { status, apiMessage: message, errorShape });
    }
    return;
  }
  if (status >= 300 && status < 400) {
    const location = answer.headers.location;
    throw new ApiError(`the API answered with a redirect (HTTP ${status}${location ? ` to ${location}` : ''}), which fsapi does not follow`, {
      status,
      errorShape,
      hint: 'use the final address as the base URL (fsapi auth login --base-url ...)',
    });
  }
  if (status >= 500) {
    throw new TransportError('bad-gateway', `the API failed (HTTP ${status})${suffix}`, {
      status,
      hint: 'the API or a proxy in front of it failed; try again later',
    });
  }
  if (status === 429) {
    // Not a refusal of what was asked: the API (or a gateway) asks to be asked later. For a transfer it proves
    // nothing either way (src/transfers/refusal-proof.ts).
    throw new ApiError(`the API answered HTTP 429 (rate limited)${suffix}`, {
      status,
      apiMessage: message,
      errorShape,
      retryAfterMs: retryAfterMs(answer.headers['retry-after'], Date.now()),
      hint: 'too many requests for now; wait a minute and run the command again',
    });
  }
  throw new ApiError(`the API refused the request (HTTP ${status})${suffix}`, { status, apiMessage: message, errorShape });
}

/** A successful answer parsed with its schema; a mismatch names the first issue. */
export function parseAnswer<T extends z.ZodMiniType>(answer: HttpAnswer, host: string, schema: T): z.infer<T> {
  const body = readJson(answer, host);
  throwUnlessSuccess(answer, body, host);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new ApiError(`unexpected answer from the API: ${where}${issue?.message ?? 'does not match the expected shape'}`, {
      status: answer.status,
      hint: 'run again with --verbose; fsapi api <METHOD> <path> shows the raw answer',
      code: 'unexpected_answer',
    });
  }
  return parsed.data;
}
