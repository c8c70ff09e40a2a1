import { run } from '../run.js';
import { useSpec } from './use.spec.js';
import { getProfileOrThrow } from '../../auth/resolve.js';
import { printJson } from '../../ui/output.js';

export default run(useSpec, async (ctx, _opts, args) => {
  const name = args[0] ?? '';
  const store = await ctx.profiles();
  const profile = getProfileOrThrow(store, name);
  await store.setDefault(profile.name);
  const where = profile.baseUrl === undefined ? 'the local simulator' : `${profile.env}, ${profile.baseUrl}`;
  ctx.io.note(`Default profile is now "${profile.name}" (${where})`);
  if (ctx.globals.json) printJson(ctx, { default: profile.name });
});
