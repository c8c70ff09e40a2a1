// An API refusal in terms of what the person asked for. The API answers a lookup of something that does
// not exist with a bare "Request Un-Successful" (HTTP 400); "no client account 9900000099" and a next step
// say what happened and what to do. Only refusals are renamed: a transport failure (no answer, 5xx) or an
// authentication problem keeps its own message and exit code.
import { ApiError } from '../errors.js';
import { isRefusal } from './lookup.js';

/**
 * Runs `lookup`; a refusal becomes `error: <what> (HTTP <status>: <the API's message>)` with `hint`.
 * `what` names the thing asked for, e.g. `no transaction with reference ACME-1`.
 */
export async function namingRefusal<T>(lookup: () => Promise<T>, what: string, hint: string): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (!isRefusal(error)) throw error;
    const detail = error.apiMessage ? `HTTP ${error.status}: ${error.apiMessage}` : `HTTP ${error.status}`;
    throw new ApiError(`${what} (${detail})`, { status: error.status, apiMessage: error.apiMessage, hint, cause: error, code: 'not_found' });
  }
}
