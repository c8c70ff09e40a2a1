// fsapi auth status: the profile this run would use, its base address and the state of its token. Never
// the token or the secret. Reads the profile store only: no request is sent, so it answers offline and
// costs nothing; whether the API still accepts the token shows on the next real command.
//
// Exit code, like `gh auth status`: non-zero when a command run now could not authenticate (no usable
// token and nothing to renew one with). It is 3, the contract's "authentication needed", with the
// status still printed on stdout first.
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { statusSpec } from './status.spec.js';
import { AuthError } from '../../errors.js';
import { baseUrlCell, isUsable, renewalCell, summarize, tokenCell } from '../../ui/profile-summary.js';
import { LOCAL_PROFILE } from '../../auth/resolve.js';
import { secretsElsewhere } from '../../auth/session.js';
import { printRecord, timeCell } from '../../ui/output.js';

export default run(statusSpec, async (ctx) => {
  const store = await ctx.profiles();
  const profile = await ctx.profile();
  const isDefault = (store.defaultName() ?? LOCAL_PROFILE) === profile.name;
  const summary = summarize(profile, isDefault, ctx.env, ctx.clock.now());

  printRecord(
    ctx,
    [
      ['Profile', summary.profile],
      ['Environment', summary.env],
      ['Base URL', baseUrlCell(summary)],
      ['Default', summary.default ? 'yes' : 'no'],
      ['Token', tokenCell(summary)],
      ['Token expires', summary.tokenExpiresAt === null ? '' : timeCell(Date.parse(summary.tokenExpiresAt))],
      ['Credentials saved', summary.credentialsSaved ? 'yes' : 'no'],
      ['Renewal', renewalCell(summary)],
    ],
    summary,
  );

  if (!isUsable(summary)) {
    const elsewhere = secretsElsewhere(profile);
    if (elsewhere) throw new AuthError(elsewhere.reason, elsewhere.hint);
    const what = summary.token === 'expired' ? 'its token expired' : 'it has no token';
    throw new AuthError(`not logged in: profile "${summary.profile}": ${what} and no credentials are at hand to renew it`, `run fsapi auth login --profile ${summary.profile}`);
  }
});
