// Proof that a person holds a profile's consumer secret, for the decisions the payment policy keeps for
// people (changing the policy, approving a held transfer). The secret is typed at a terminal, hidden, and
// checked the only way fsapi can check it: by asking the API for a token with it and the consumer key the
// profile kept from `auth login`. The token is thrown away.
//
// Not proof: FSAPI_CONSUMER_SECRET or a secret saved with --save-credentials (a script or an agent running
// fsapi has those), FSAPI_TOKEN, or being at a terminal at all. Without a terminal the decision is exit 2.
import type { AuthContext } from './types.js';
import { AuthError, FsapiError, ExitCode, UsageError } from '../errors.js';
import { createHttp } from '../api/http.js';
import { generateToken } from '../api/token.js';
import { simulatorCredentials } from './credentials.js';
import { secretsElsewhere } from './session.js';

/** Exit 2 unless a person can answer at a terminal. `what`: "approving a transfer". */
export function requireTerminal(ctx: AuthContext, what: string): void {
  if (ctx.prompt.interactive) return;
  throw new UsageError(
    `${what} needs a person at a terminal who types the profile's consumer secret; nothing was changed`,
    'run the same command in a terminal; the policy keeps this decision for a person (docs/policy.md)',
  );
}

/**
 * Asks for the consumer secret (hidden) and checks it with the API. Typing it is the confirmation: an
 * empty answer cancels (exit 4); a wrong one is exit 3, and nothing was changed.
 */
export async function proveConsumerSecret(ctx: AuthContext, action: string): Promise<void> {
  const profile = await ctx.profile();
  const elsewhere = secretsElsewhere(profile);
  if (elsewhere) throw new AuthError(elsewhere.reason, elsewhere.hint);
  const consumerKey = profile.env === 'local' && profile.baseUrl === undefined ? (await simulatorCredentials()).consumerKey : profile.consumerKey;
  if (!consumerKey) {
    throw new AuthError(
      `profile "${profile.name}" keeps no consumer key to check a secret against (it was logged in by an older fsapi, or logged out)`,
      `log in again: fsapi auth login --profile ${profile.name}`,
    );
  }
  const secret = await ctx.prompt.password(`Consumer secret of profile "${profile.name}" (typing it ${action})`);
  if (secret.trim() === '') {
    throw new FsapiError('no secret typed; nothing was changed', { exitCode: ExitCode.cancelled });
  }
  const http = await createHttp(ctx, profile.baseUrl);
  try {
    await generateToken(http, { consumerKey, consumerSecret: secret }, 1, ctx.clock.now);
  } catch (error) {
    if (error instanceof AuthError) {
      throw new AuthError(
        `the API did not accept that consumer secret for profile "${profile.name}"; nothing was changed`,
        'type the consumer secret of this profile exactly (the one used with fsapi auth login)',
      );
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new FsapiError(`could not check the consumer secret with the API (${detail}); nothing was changed`, { exitCode: ExitCode.failed, cause: error });
  }
}
