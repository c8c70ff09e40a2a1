// How a profile is shown by `auth status` and `profile list`: never its token or secret, only their state.
import type { Cell } from './output.js';
import { spanText } from '../common/duration.js';
import { canRenew, type CredentialSource } from '../auth/credentials.js';
import { tokenState, type TokenStateName } from '../auth/session.js';
import type { Environment, Profile } from '../auth/types.js';

export interface ProfileSummary {
  profile: string;
  env: Environment;
  /** null for the in-process simulator. */
  baseUrl: string | null;
  default: boolean;
  token: TokenStateName;
  /** ISO 8601, for stored tokens. */
  tokenExpiresAt: string | null;
  /** Whether credentials were saved with --save-credentials. */
  credentialsSaved: boolean;
  /** Where a silent renewal would take credentials from, or null when it cannot happen. */
  renewal: CredentialSource | null;
}

type Env = Readonly<Record<string, string | undefined>>;

export function summarize(profile: Profile, isDefault: boolean, env: Env, now: number): ProfileSummary {
  const state = tokenState(profile, env, now);
  return {
    profile: profile.name,
    env: profile.env,
    baseUrl: profile.baseUrl ?? null,
    default: isDefault,
    token: state.state,
    tokenExpiresAt: state.expiresAt === undefined ? null : new Date(state.expiresAt).toISOString(),
    credentialsSaved: Boolean(profile.consumerKey && profile.consumerSecret),
    renewal: canRenew(profile, env) ?? null,
  };
}

/** Whether a command run now would have a token without anyone logging in. */
export function isUsable(summary: ProfileSummary): boolean {
  return summary.token === 'valid' || summary.token === 'env' || summary.renewal !== null;
}

export function baseUrlCell(summary: ProfileSummary): Cell {
  return summary.baseUrl === null ? { text: 'built-in simulator', plain: '' } : { text: summary.baseUrl, plain: summary.baseUrl };
}

/**
 * The token's state, with how long it has left or since when it expired (relative to `now`: a list of
 * profiles of several accounts has no one business's clock; `auth status` gives the time as well).
 */
export function tokenCell(summary: ProfileSummary, now: number): Cell {
  const left = summary.tokenExpiresAt === null ? undefined : Date.parse(summary.tokenExpiresAt) - now;
  switch (summary.token) {
    case 'valid':
      return { text: left === undefined ? 'valid' : `valid, ${spanText(left)} left`, plain: 'valid', style: (t, c) => c.green(t) };
    case 'expired':
      return { text: left === undefined ? 'expired' : `expired ${spanText(left)} ago`, plain: 'expired', style: (t, c) => c.yellow(t) };
    case 'env':
      return { text: 'from FSAPI_TOKEN', plain: 'env' };
    case 'none':
      return { text: 'none', plain: 'none', style: (t, c) => c.dim(t) };
  }
}

export function renewalCell(summary: ProfileSummary): Cell {
  const text = {
    simulator: 'automatic (simulator)',
    env: 'from FSAPI_CONSUMER_KEY/SECRET',
    saved: 'saved credentials',
  }[summary.renewal ?? 'simulator'];
  return summary.renewal === null ? { text: 'no (log in again when it expires)', plain: 'none' } : { text, plain: summary.renewal };
}
