// fsapi webhook secret [--rotate]: the key `webhook listen` signs its forwards with (X-Fsapi-Signature),
// for the app to check them. It is the profile's own, made on first use; printed on stdout alone so
// `export FSAPI_WEBHOOK_SECRET=$(fsapi webhook secret)` works. It is not an API credential: it only lets
// an app tell a forward from a forgery.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { rotateWebhookSecret, webhookSecret } from '../../notifications/webhook-secret.js';

export default async function secret(ctx: Context, input: CommandInput): Promise<void> {
  const profile = await ctx.profile();
  const rotate = input.options.rotate === true;
  const key = rotate ? rotateWebhookSecret(ctx.paths.dataDir, profile.name) : webhookSecret(ctx.paths.dataDir, profile.name);
  if (ctx.globals.json) ctx.io.out(`${JSON.stringify({ profile: profile.name, secret: key, rotated: rotate })}\n`);
  else ctx.io.out(`${key}\n`);
  if (rotate) ctx.io.note(`new key for profile ${profile.name}; restart webhook listen to sign with it`);
}
