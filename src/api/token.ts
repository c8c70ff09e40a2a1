// POST /v1/generate-token (spec 4.1): the credentials travel in headers, never in a body, a URL or a log
// line (the --verbose line shows method, path and status only).
import { AuthError, ApiError } from '../errors.js';

import { parseAnswer } from './answers.js';
import type { Http } from './http.js';

/** A consumer key and secret: what a token is generated from (spec 1.1). */
export interface Credentials {
  consumerKey: string;
  consumerSecret: string;
}

export const MAX_VALIDITY_MINUTES = 2880;
export const DEFAULT_VALIDITY_MINUTES = 1440;

export interface IssuedToken {
  token: string;
  /** Epoch milliseconds: now + validity, or the token's own `exp` when it says earlier. */
  expiresAt: number;
  validityMinutes: number;
}

export async function generateToken(http: Http, credentials: Credentials, validityMinutes: number, now: () => number): Promise<IssuedToken> {
  const requestedAt = now();
  const answer = await http.send({
    method: 'POST',
    path: '/v1/generate-token',
    headers: {
      'content-type': 'application/json',
      consumerKey: credentials.consumerKey,
      consumerSecret: credentials.consumerSecret,
      validityTime: String(validityMinutes),
    },
  });
  let parsed;
  try {
    // Loaded here, not with this module: zod stays off the path of a run with a cached token (src/auth/api-client.ts).
    const { tokenResponse } = await import('./schemas.js');
    parsed = parseAnswer(answer, http.host, tokenResponse);
  } catch (error) {
    // A refusal of the credentials themselves is an authentication failure (exit 3), with the API's words.
    if (error instanceof ApiError && error.status !== undefined && error.status >= 400 && error.status < 500) {
      throw new AuthError(
        `the API refused these credentials (${error.apiMessage ?? `HTTP ${error.status}`})`,
        'check the consumer key and secret (as typed, in FSAPI_CONSUMER_KEY/FSAPI_CONSUMER_SECRET, or saved), then run fsapi auth login',
      );
    }
    throw error;
  }
  const requestedExpiry = requestedAt + validityMinutes * 60_000;
  const claimed = jwtExpiry(parsed.token);
  return {
    token: parsed.token,
    expiresAt: claimed !== undefined && claimed < requestedExpiry ? claimed : requestedExpiry,
    validityMinutes,
  };
}

/**
 * The `exp` claim of a JWT-shaped token, in epoch ms, read without verifying anything: it only serves to
 * renew before the API would refuse the token (when the API grants less than was asked for).
 */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) && claims.exp > 0 ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
