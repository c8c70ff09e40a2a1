// Which profiles `simulator trigger` and `simulator collect` may talk to, decided from the profile alone,
// before any request: their admin routes exist only on fsapi's simulator, and asking a bank's API for them
// would send it the bearer token with a request it never documented. fsapi's simulator is the `local`
// profile (in process), or a server started by `fsapi simulator serve`, which speaks plain http (it has no
// TLS). A bank's API, sandbox or production, is https. So: the in-process simulator, or any profile but a
// production one whose address is plain http.
import type { Profile } from '../../auth/types.js';
import { UsageError } from '../../errors.js';

/** Throws (exit 2, nothing sent) unless the profile can be fsapi's simulator. */
export function refuseUnlessSimulator(profile: Profile, command: string): void {
  // The in-process simulator of the local profile.
  if (profile.baseUrl === undefined) return;
  const address = profile.baseUrl;
  const http = new URL(address).protocol === 'http:';
  if (profile.env !== 'production' && http) return;
  const why =
    profile.env === 'production'
      ? `profile "${profile.name}" is a production profile (${address}), where money is real`
      : `profile "${profile.name}" goes to ${address}, an API over https, not fsapi's simulator (which serves plain http)`;
  throw new UsageError(
    `fsapi ${command} works only on fsapi's simulator, and ${why}; nothing was sent`,
    'use the local profile (--profile local), or a profile logged in to fsapi simulator serve (docs/simulator.md)',
  );
}
