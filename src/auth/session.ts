// The bearer token of one run, and its renewal.
//
// - FSAPI_TOKEN, when set, is used as is: the token store is neither read nor written and nothing is
//   renewed (the person who set it chose that token).
// - Otherwise the profile's stored token is used while it has more than a minute left. An expired (or
//   missing) token is renewed before the request when credentials are at hand, else AuthError (exit 3).
// - A 401/403 answer renews once, silently, when credentials are at hand; the client then retries the
//   refused request once with the new token, except POST /v1/transfer: a 401/403 does not prove the API
//   did nothing with it, so it is never repeated; the renewal serves the lookup of its reference.
// - Renewals are shared: concurrent requests that meet the same expired or refused token wait for one
//   generate-token call, not one each.
// - A renewed token is saved in the profile, except when --base-url points this run somewhere other than
//   the profile's own base address (the token belongs to that other server, so it lives for this run only).
//   Such a run never has the profile's stored token or saved credentials (src/auth/resolve.ts).
// - A token issued in this run and refused at once is not renewed again (it would not help); one refused
//   later (it expired during a long batch) is renewed like any other.
import type { AuthContext } from './types.js';
import { AuthError } from '../errors.js';
import { spanText } from '../common/duration.js';
import { DEFAULT_VALIDITY_MINUTES, generateToken } from '../api/token.js';
import type { Http } from '../api/http.js';
import { canRenew, renewalCredentials } from './credentials.js';
import type { Profile, ProfileStore } from './types.js';
import { sameAddress } from './resolve.js';

/** A token issued in this run and refused sooner than this is not renewed again: the API refuses it. */
export const RENEW_AGAIN_AFTER_MS = 60_000;

/** A token with less than this left is treated as expired: it could expire on the way. */
export const EXPIRY_MARGIN_MS = 60_000;

export type TokenStateName = 'valid' | 'expired' | 'none' | 'env';

export interface TokenState {
  state: TokenStateName;
  /** Epoch ms, for stored tokens. */
  expiresAt?: number;
}

export function tokenState(profile: Profile, env: Readonly<Record<string, string | undefined>>, now: number): TokenState {
  if (env.FSAPI_TOKEN) return { state: 'env' };
  if (!profile.token) return { state: 'none' };
  const expiresAt = profile.tokenExpiresAt;
  if (expiresAt === undefined) return { state: 'valid' };
  return { state: isFresh(expiresAt, now) ? 'valid' : 'expired', expiresAt };
}

export function isFresh(expiresAt: number | undefined, now: number): boolean {
  return expiresAt === undefined || expiresAt - EXPIRY_MARGIN_MS > now;
}

/** Why a run sent elsewhere by --base-url has no token, and what to do, or undefined for a run at home. */
export function secretsElsewhere(profile: Profile): { reason: string; hint: string } | undefined {
  if (profile.secretsKeptFor === undefined) return undefined;
  return {
    reason: `profile "${profile.name}" is logged in to ${profile.secretsKeptFor}, not ${profile.baseUrl}: fsapi sends a stored token or saved credentials only to the address that stored them`,
    hint: `log in a profile for that address (fsapi auth login --profile <name> --base-url ${profile.baseUrl}), or pass FSAPI_TOKEN`,
  };
}

export interface TokenSession {
  /** The token for the next request: FSAPI_TOKEN, the stored one while fresh, else a renewed one. */
  bearer(): Promise<string>;
  /** After a 401/403 answer to `refused`: a different token to retry with once, or undefined. */
  renewAfterRefusal(refused: string): Promise<string | undefined>;
  /** The error for a refusal that renewal cannot (or did not) cure. */
  refusedError(status: number, apiMessage: string | undefined): AuthError;
}

export function createTokenSession(ctx: AuthContext, profile: Profile, store: ProfileStore, http: Http): TokenSession {
  const envToken = ctx.env.FSAPI_TOKEN ? ctx.env.FSAPI_TOKEN.trim() : undefined;
  const elsewhere = secretsElsewhere(profile);
  const loginHint = elsewhere?.hint ?? `run fsapi auth login --profile ${profile.name}`;
  const saved = store.get(profile.name);
  const persist = elsewhere === undefined;

  let current = profile.token;
  let currentExpiresAt = profile.tokenExpiresAt;
  let renewal: Promise<string> | undefined;
  /** Tokens refused with 401/403 in this run, and tokens issued in this run. */
  const refused = new Set<string>();
  /** When each token issued in this run was issued (epoch ms). */
  const issuedInRun = new Map<string, number>();

  async function renew(reason: string): Promise<string> {
    renewal ??= (async () => {
      const replaced = current;
      const found = await renewalCredentials(profile, ctx.env);
      if (!found) throw new AuthError(reason, loginHint);
      const issued = await generateToken(http, found.credentials, profile.validityMinutes ?? DEFAULT_VALIDITY_MINUTES, ctx.clock.now);
      current = issued.token;
      issuedInRun.set(issued.token, ctx.clock.now());
      currentExpiresAt = issued.expiresAt;
      if (persist) {
        // Changed as it is now (another process may have logged in, renewed, logged out or removed the
        // profile since this run read it), and only into the profile this token replaces: the same
        // address, still holding the token this run had and the credentials it started with. A profile
        // removed meanwhile stays removed; a logout (token and credentials gone) stays logged out; a
        // token another process saved meanwhile is kept. This run goes on with its token all the same.
        const token = { token: issued.token, tokenExpiresAt: issued.expiresAt, validityMinutes: issued.validityMinutes };
        await store.update(profile.name, (stored) => {
          if (!stored) return saved ? undefined : { ...profile, baseUrl: undefined, ...token };
          if (!saved) return undefined; // made by another process since: not this run's
          const same = sameAddress(stored.baseUrl, saved.baseUrl ?? profile.baseUrl) && stored.token === replaced && stored.consumerKey === saved.consumerKey;
          return same ? { ...stored, ...token } : undefined;
        });
      }
      return issued.token;
    })().finally(() => {
      renewal = undefined;
    });
    return renewal;
  }

  return {
    async bearer() {
      if (envToken) return envToken;
      if (renewal) return renewal;
      if (current && isFresh(currentExpiresAt, ctx.clock.now())) return current;
      const reason = current
        ? // How long ago, not when: no zone to choose, and no store read on the way to this error.
          `the token of profile "${profile.name}" expired ${expiredAgo(currentExpiresAt, ctx.clock.now())} and no credentials are at hand to renew it`
        : (elsewhere?.reason ?? `not logged in (profile "${profile.name}" has no token)`);
      return renew(reason);
    },
    async renewAfterRefusal(refusedToken) {
      if (envToken) return undefined;
      refused.add(refusedToken);
      if (renewal) return renewal;
      // Another request already replaced the refused token: retry with the new one.
      if (current && !refused.has(current)) return current;
      // A token issued moments ago and refused all the same: renewing again would not help. One issued
      // earlier in a long run has simply expired in turn, and is renewed.
      const issuedAt = current ? issuedInRun.get(current) : undefined;
      if (issuedAt !== undefined && ctx.clock.now() - issuedAt < RENEW_AGAIN_AFTER_MS) return undefined;
      if (!canRenew(profile, ctx.env)) return undefined;
      return renew(`the API refused the token of profile "${profile.name}"`);
    },
    refusedError(status, apiMessage) {
      const detail = apiMessage ? `: ${apiMessage}` : '';
      if (envToken) {
        return new AuthError(
          `the API refused the token in FSAPI_TOKEN (HTTP ${status})${detail}`,
          'set a fresh FSAPI_TOKEN, or unset it to use the stored login',
        );
      }
      return new AuthError(`the API refused the token of profile "${profile.name}" (HTTP ${status})${detail}`, loginHint);
    },
  };
}

/** `3 h ago`: when a token expired, relative to now (`just now` within a few seconds). */
function expiredAgo(expiresAt: number | undefined, now: number): string {
  if (expiresAt === undefined) return 'at an unknown time';
  return now - expiresAt < 5_000 ? 'just now' : `${spanText(now - expiresAt)} ago`;
}
