import { run } from '../run.js';
import { removeSpec } from './remove.spec.js';
import { UsageError } from '../../errors.js';
import { LOCAL_PROFILE, savedNames } from '../../auth/resolve.js';
import { printJson } from '../../ui/output.js';

export default run(removeSpec, async (ctx, _opts, args) => {
  const name = args[0] ?? '';
  const store = await ctx.profiles();
  const wasDefault = store.defaultName() === name;
  if (!(await store.remove(name))) {
    if (name === LOCAL_PROFILE) {
      ctx.io.note('Profile "local" is built in and holds nothing saved; nothing to remove');
      if (ctx.globals.json) printJson(ctx, { removed: null });
      return;
    }
    throw new UsageError(`no profile named "${name}"`, `saved profiles: ${savedNames(store)}`);
  }
  ctx.io.note(`Removed profile "${name}" and its token`);
  if (wasDefault) ctx.io.note('It was the default; there is no default now, so commands use "local" (choose one with fsapi profile use <name>)');
  if (ctx.globals.json) printJson(ctx, { removed: name, wasDefault });
});
