// fsapi webhook secret [--rotate]: the key `webhook listen` signs its forwards with (X-Fsapi-Signature),
// for the app to check them. It is the profile's own, made on first use; printed on stdout alone so
// `export FSAPI_WEBHOOK_SECRET=$(fsapi webhook secret)` works. It is not an API credential: it only lets
// an app tell a forward from a forgery.
import { run } from '../run.js';
import { secretSpec } from './secret.spec.js';
import { rotateWebhookSecret, webhookSecret } from '../../notifications/webhook-secret.js';

export default run(secretSpec, async (ctx, opts) => {
  const profile = await ctx.profile();
  const rotate = opts.rotate;
  const key = rotate ? rotateWebhookSecret(ctx.paths.dataDir, profile.name) : webhookSecret(ctx.paths.dataDir, profile.name);
  if (ctx.globals.json) ctx.io.out(`${JSON.stringify({ profile: profile.name, secret: key, rotated: rotate })}\n`);
  else ctx.io.out(`${key}\n`);
  if (rotate) ctx.io.note(`new key for profile ${profile.name}; restart webhook listen to sign with it`);
});
