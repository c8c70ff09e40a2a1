// Logging a profile in: one generate-token call with the given credentials, then the token, its expiry,
// the environment, base address and consumer key (and the secret, only when asked to) saved in the profile. The
// first profile logged in becomes the default.
import type { AuthContext } from './types.js';
import { createHttp } from '../api/http.js';
import { generateToken } from '../api/token.js';
import type { Credentials } from '../api/token.js';
import type { Environment, Profile, ProfileStore } from './types.js';

export interface LoginRequest {
  name: string;
  env: Environment;
  /** Undefined only for `local`: the in-process simulator. */
  baseUrl: string | undefined;
  credentials: Credentials;
  validityMinutes: number;
  saveCredentials: boolean;
}

export interface LoginResult {
  profile: Profile;
  /** True when this login made the profile the default. */
  becameDefault: boolean;
}

export async function logIn(ctx: AuthContext, store: ProfileStore, request: LoginRequest): Promise<LoginResult> {
  const http = await createHttp(ctx, request.baseUrl);
  const issued = await generateToken(http, request.credentials, request.validityMinutes, ctx.clock.now);
  // Each login replaces what the profile holds: credentials saved by an earlier login are dropped unless
  // this one asks to keep them again.
  const profile: Profile = {
    name: request.name,
    env: request.env,
    baseUrl: request.baseUrl,
    token: issued.token,
    tokenExpiresAt: issued.expiresAt,
    validityMinutes: request.validityMinutes,
    // The consumer key is kept always (it names the API account, it is not the secret): approving a held
    // transfer or changing the payment policy checks a typed secret against it (src/auth/proof.ts).
    consumerKey: request.credentials.consumerKey,
    ...(request.saveCredentials ? { consumerSecret: request.credentials.consumerSecret } : {}),
  };
  // One write: the profile, and the default if there is none yet (two logins at once: one default).
  const { becameDefault } = await store.save(profile, { becomeDefaultIfNone: true });
  return { profile, becameDefault };
}
