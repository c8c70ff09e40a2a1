// fsapi auth token: prints the bearer token on stdout, for scripts (curl -H "Authorization: Bearer ...").
// The one place fsapi prints a token, and only because it was asked to. An expired token is renewed
// first when credentials are at hand; otherwise exit 3. FSAPI_TOKEN, when set, is what is printed:
// it is the token every other command would send.
//
// A token calls the API round the payment policy (curl needs nothing else), so while the profile has a
// policy the token goes only to a person at a terminal, as changing the policy does (docs/policy.md).
import { recordsScope } from '../../auth/records-owner.js';
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { tokenSpec } from './token.spec.js';
import { ApiError, TransportError, UsageError } from '../../errors.js';
import { readPolicy } from '../../transfers/limits.js';
import { createHttp } from '../../api/http.js';
import { createTokenSession } from '../../auth/session.js';
import { printJson } from '../../ui/output.js';

export default run(tokenSpec, async (ctx) => {
  const [store, profile] = await Promise.all([ctx.profiles(), ctx.profile()]);
  // The scope as transferScope has it, without opening the client (for `local`, the simulator).
  if (!ctx.prompt.interactive && (await readPolicy(ctx, recordsScope(ctx, profile, profile.baseUrl ?? 'local')))) {
    throw new UsageError(
      `profile "${profile.name}" has a payment policy, and its token would let a script pay round it (curl needs nothing else): fsapi auth token prints it only at a terminal; nothing was printed`,
      'run it yourself in a terminal; scripts pay with fsapi transfer send, within the policy (docs/policy.md)',
    );
  }
  const http = await lazyHttp(ctx, profile.baseUrl);
  const session = createTokenSession(ctx, profile, store, http);
  let bearer: string;
  try {
    bearer = await session.bearer();
  } catch (error) {
    if (error instanceof TransportError) throw new ApiError(`could not get a token: ${error.message}`, { hint: error.hint, cause: error });
    throw error;
  }
  if (ctx.globals.json) {
    const stored = store.get(profile.name);
    const expiresAt = ctx.env.FSAPI_TOKEN || stored?.token !== bearer ? undefined : stored.tokenExpiresAt;
    printJson(ctx, { profile: profile.name, token: bearer, expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString() });
    return;
  }
  ctx.io.out(`${bearer}\n`);
});

/**
 * The HTTP client is needed only when the token must be renewed; for the in-process simulator opening it
 * loads the simulator (and prints its note), so that waits until a request is really made.
 */
async function lazyHttp(ctx: Context, baseUrl: string | undefined): Promise<import('../../api/http.js').Http> {
  let real: Promise<import('../../api/http.js').Http> | undefined;
  const open = () => (real ??= createHttp(ctx, baseUrl));
  return {
    baseUrl: baseUrl ?? 'local',
    host: baseUrl === undefined ? 'the local simulator' : new URL(baseUrl).host,
    inProcess: baseUrl === undefined,
    send: async (request) => (await open()).send(request),
  };
}
