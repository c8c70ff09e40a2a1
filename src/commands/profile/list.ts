import { run } from '../run.js';
import { listSpec } from './list.spec.js';
import { baseUrlCell, summarize, tokenCell, type ProfileSummary } from '../../ui/profile-summary.js';
import { implicitLocalProfile, LOCAL_PROFILE } from '../../auth/resolve.js';
import { printList } from '../../ui/output.js';

export default run(listSpec, async (ctx) => {
  const store = await ctx.profiles();
  const defaultName = store.defaultName() ?? LOCAL_PROFILE;
  const profiles = store.list();
  if (!profiles.some((profile) => profile.name === LOCAL_PROFILE)) profiles.push(implicitLocalProfile());
  profiles.sort((a, b) => a.name.localeCompare(b.name));
  const now = ctx.clock.now();
  const rows = profiles.map((profile) => summarize(profile, profile.name === defaultName, ctx.env, now));

  printList<ProfileSummary>(
    ctx,
    [
      { header: 'Default', cell: (row) => (row.default ? { text: '*', plain: 'yes', style: (t, c) => c.green(t) } : { text: '', plain: 'no' }) },
      { header: 'Name', cell: (row) => row.profile },
      { header: 'Environment', cell: (row) => row.env },
      { header: 'Base URL', cell: (row) => baseUrlCell(row), flex: true, minWidth: 16 },
      { header: 'Token', cell: (row) => tokenCell(row, now), flex: true, minWidth: 16 },
    ],
    rows,
  );
});
