// The API's base addresses. The spec names a sandbox and a production environment but publishes neither
// address; these are the ones public integrations of the API (several independent applications calling
// the same endpoints) use. One newer integration uses the same host names under bellmonie.com instead of
// bellmfb.com; --base-url (or FSAPI_BASE_URL) reaches those, or any address a dashboard gives.
import type { Environment } from './types.js';

export const KNOWN_BASE_URLS: Readonly<Record<Exclude<Environment, 'local'>, string>> = {
  sandbox: 'https://sandbox-baas-api.bellmfb.com',
  production: 'https://baas-api.bellmfb.com',
};

/** The known base address of an environment; undefined for `local` (the in-process simulator). */
export function knownBaseUrl(env: Environment): string | undefined {
  return env === 'local' ? undefined : KNOWN_BASE_URLS[env];
}
