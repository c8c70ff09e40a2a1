import { run } from '../run.js';
import { statusSpec } from './status.spec.js';
import { AuthError } from '../../errors.js';
import { baseUrlCell, isUsable, renewalCell, summarize, tokenCell } from '../../ui/profile-summary.js';
import { LOCAL_PROFILE } from '../../auth/resolve.js';
import { secretsElsewhere } from '../../auth/session.js';
import { printRecord, recordTimeCell } from '../../ui/output.js';
import { shownTimeZone } from '../../controls/business-clock.js';

export default run(statusSpec, async (ctx) => {
  const store = await ctx.profiles();
  const profile = await ctx.profile();
  const isDefault = (store.defaultName() ?? LOCAL_PROFILE) === profile.name;
  const now = ctx.clock.now();
  const summary = summarize(profile, isDefault, ctx.env, now);
  const timeZone = summary.tokenExpiresAt === null ? undefined : await shownTimeZone(ctx);

  printRecord(
    ctx,
    [
      ['Profile', summary.profile],
      ['Environment', summary.env],
      ['Base URL', baseUrlCell(summary)],
      ['Default', summary.default ? 'yes' : 'no'],
      ['Token', tokenCell(summary, now)],
      ['Token expires', summary.tokenExpiresAt === null || timeZone === undefined ? '' : recordTimeCell(Date.parse(summary.tokenExpiresAt), timeZone)],
      ['Credentials saved', summary.credentialsSaved ? 'yes' : 'no'],
      ['Renewal', renewalCell(summary)],
    ],
    summary,
  );

  if (!isUsable(summary)) {
    const elsewhere = secretsElsewhere(profile);
    if (elsewhere) throw new AuthError(elsewhere.reason, elsewhere.hint);
    const what = summary.token === 'expired' ? 'its token expired' : 'it has no token';
    throw new AuthError(
      `not logged in: profile "${summary.profile}": ${what} and no credentials are at hand to renew it`,
      `run fsapi auth login --profile ${summary.profile}`,
    );
  }
});
