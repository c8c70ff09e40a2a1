import { run } from '../run.js';
import { statusSpec } from './status.spec.js';
import { storeRefusal } from '../../store/store-check.js';
import { inspectLocalStore, type StoreReport } from '../../store/database.js';
import { printRecord } from '../../ui/output.js';

export const inspectsStore = true;

export default run(statusSpec, async (ctx) => {
  const profile = await ctx.profile();
  const expected = (await ctx.profiles()).expectedStore(profile.name);
  const found = inspectLocalStore(ctx.paths.dataDir);
  const refusal = storeRefusal(profile.name, expected, { dataDir: ctx.paths.dataDir, file: found.file, identity: found.identity });
  const matches = refusal === undefined;
  const { counts } = found;
  printRecord(
    ctx,
    [
      ['Profile', profile.name],
      ['Expected store', expected ? `${expected.id}, ${expected.writes} records written` : 'none yet (the profile has written no records)'],
      ['Expected file', expected?.path ?? ''],
      ['File', found.file],
      ['Size', found.exists ? `${found.bytes} bytes (+ ${found.walBytes} in -wal)` : 'no such file'],
      ['Store id', found.identity?.id ?? (found.exists ? (holdsRecords(found) ? 'none yet (given at the next command)' : 'none (no fsapi records)') : '')],
      ['Records written', found.identity?.writes ?? 0],
      ['Transfers', counts.transfers],
      ['Journal records', counts.journalRecords],
      ['Payees', counts.payees],
      ['Policies', counts.policies],
      ['Approval requests', counts.approvalRequests],
      ['Webhook events', counts.events],
      ['Matches profile', matches ? 'yes' : `no: ${refusal.message.replace(/; nothing was sent or changed$/, '')}`],
    ],
    {
      profile: profile.name,
      expected: expected ?? null,
      file: found.file,
      exists: found.exists,
      bytes: found.bytes,
      walBytes: found.walBytes,
      id: found.identity?.id ?? null,
      createdAt: found.createdAt ?? null,
      writes: found.identity?.writes ?? 0,
      counts,
      matches,
      problem: refusal ? refusal.message : null,
    },
  );
});

/** A store made before stores had an id holds records without one; its next opening gives it one. */
export function holdsRecords(found: StoreReport): boolean {
  return Object.values(found.counts).some((count) => count > 0);
}
