// Where the consumer key and secret come from, for login and for silent renewal:
//   a `local` profile      -> the simulator's public credentials (it is the simulator, whatever the URL);
//   FSAPI_CONSUMER_KEY + FSAPI_CONSUMER_SECRET in the environment;
//   the ones saved in the profile with `auth login --save-credentials`.
// Never from a command-line flag: argv is visible to every user of the machine.
import type { Profile } from './types.js';
import type { Credentials } from '../api/token.js';

export type CredentialSource = 'simulator' | 'env' | 'saved';

export interface FoundCredentials {
  credentials: Credentials;
  source: CredentialSource;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Each of the two variables, when set and not blank. */
export function envCredentialParts(env: Env): { consumerKey?: string; consumerSecret?: string } {
  const key = env.FSAPI_CONSUMER_KEY?.trim();
  const secret = env.FSAPI_CONSUMER_SECRET;
  return {
    ...(key ? { consumerKey: key } : {}),
    ...(secret !== undefined && secret.trim() !== '' ? { consumerSecret: secret } : {}),
  };
}

export async function simulatorCredentials(): Promise<Credentials> {
  const { SIMULATOR_CREDENTIALS } = await import('../simulator/data.js');
  return { ...SIMULATOR_CREDENTIALS };
}

/** Credentials that can renew this profile's token without asking anyone, or undefined. */
export async function renewalCredentials(profile: Profile, env: Env): Promise<FoundCredentials | undefined> {
  if (profile.env === 'local') return { credentials: await simulatorCredentials(), source: 'simulator' };
  const parts = envCredentialParts(env);
  if (parts.consumerKey && parts.consumerSecret) {
    return { credentials: { consumerKey: parts.consumerKey, consumerSecret: parts.consumerSecret }, source: 'env' };
  }
  if (profile.consumerKey && profile.consumerSecret) {
    return { credentials: { consumerKey: profile.consumerKey, consumerSecret: profile.consumerSecret }, source: 'saved' };
  }
  return undefined;
}

/** Without loading anything: whether renewalCredentials would find some. */
export function canRenew(profile: Profile, env: Env): CredentialSource | undefined {
  if (profile.env === 'local') return 'simulator';
  const parts = envCredentialParts(env);
  if (parts.consumerKey && parts.consumerSecret) return 'env';
  if (profile.consumerKey && profile.consumerSecret) return 'saved';
  return undefined;
}
