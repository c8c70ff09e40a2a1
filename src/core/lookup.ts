// One look-up of a transaction by reference (GET /v1/transactions/reference/{reference}), read the one way
// every caller needs it: found, definitely absent (the API refused it with a 4xx: no such reference), or
// unknown (no answer, 5xx, an unreadable answer). A refused token is not an answer about the transaction:
// it is thrown, so the command stops with exit 3.
import type { Context } from '../context.js';
import type { TransactionRecord } from '../api/schemas.js';
import { ApiError, AuthError, TransportError } from '../errors.js';

export type SingleLookup = { kind: 'found'; transaction: TransactionRecord } | { kind: 'absent' } | { kind: 'failed'; detail: string };

/**
 * Whether an error is the API's refusal of the request itself (a 4xx answer), not a failure to get one.
 * A 429 is not: it says the API would not answer yet (src/api/http.ts waits for it), nothing about what
 * was asked, so a lookup answered 429 must never read as "no such transaction".
 */
export function isRefusal(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    !(error instanceof TransportError) &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429
  );
}

export async function lookUpOnce(ctx: Context, reference: string): Promise<SingleLookup> {
  const api = await ctx.api();
  try {
    return { kind: 'found', transaction: await api.getTransaction(reference) };
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (isRefusal(error)) return { kind: 'absent' };
    return { kind: 'failed', detail: error instanceof Error ? error.message : String(error) };
  }
}
