import { run } from '../run.js';
import { logoutSpec } from './logout.spec.js';
import { printJson } from '../../ui/output.js';

export default run(logoutSpec, async (ctx) => {
  const store = await ctx.profiles();
  const profile = await ctx.profile();
  const saved = store.get(profile.name);
  const hadSomething = Boolean(saved && (saved.token || saved.consumerKey || saved.consumerSecret));
  if (saved && hadSomething) {
    await store.update(
      profile.name,
      (current) => current && { ...current, token: undefined, tokenExpiresAt: undefined, consumerKey: undefined, consumerSecret: undefined },
    );
  }
  ctx.io.note(
    hadSomething
      ? `Logged out of profile "${profile.name}": token${saved?.consumerSecret ? ' and saved credentials' : ''} removed`
      : `Profile "${profile.name}" holds no token; nothing to remove`,
  );
  if (ctx.env.FSAPI_TOKEN) ctx.io.note('note: FSAPI_TOKEN is set in the environment and is still used until you unset it');
  if (ctx.globals.json) printJson(ctx, { profile: profile.name, removed: hadSomething });
});
