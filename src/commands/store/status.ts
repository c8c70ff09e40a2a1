import { run } from '../run.js';
import { statusSpec } from './status.spec.js';
import { storeRefusal } from '../../auth/store-check.js';
import { inspectLocalStore, type StoreReport } from '../../store/database.js';
import { printRecord } from '../../ui/output.js';
import { teamChoice } from '../../store/team-choice.js';
import { addressOfChoice, inspectTeamStore, shownStore } from '../../store/postgres.js';
import { ExitCode, FsapiError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { ExpectedStore } from '../../auth/types.js';
import { rightWords } from '../../controls/rights.js';

export const inspectsStore = true;

export default run(statusSpec, async (ctx) => {
  const profile = await ctx.profile();
  const expected = (await ctx.profiles()).expectedStore(profile.name);
  if (teamChoice(ctx.paths.dataDir)) return teamStatus(ctx, profile.name, expected);
  const found = await inspectLocalStore(ctx.paths.dataDir);
  const refusal = storeRefusal(profile.name, expected, { dataDir: ctx.paths.dataDir, file: found.file, identity: found.identity });
  const matches = refusal === undefined;
  const { counts } = found;
  printRecord(
    ctx,
    [
      ['Profile', profile.name],
      ['Expected store', expected ? `${expected.id}, ${expected.writes} records written` : 'none yet (the profile has written no records)'],
      ['Expected file', expected ? shownStore(expected.path) : ''],
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
      backend: 'sqlite',
      expected: expected ? { ...expected, path: shownStore(expected.path) } : null,
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

/**
 * A team store's status: where it is (never its password), whether it answers, its schema version and
 * what it holds. Unreachable is shown, then exit 1 (a script checking health reads the exit code).
 */
async function teamStatus(ctx: Context, profileName: string, expected: ExpectedStore | undefined): Promise<void> {
  const choice = teamChoice(ctx.paths.dataDir)!;
  const found = await inspectTeamStore(addressOfChoice(choice));
  const refusal = found.reachable
    ? storeRefusal(profileName, expected, { dataDir: ctx.paths.dataDir, file: found.display, identity: found.identity })
    : undefined;
  const n = (table: string) => found.counts[table] ?? 0;
  printRecord(
    ctx,
    [
      ['Profile', profileName],
      ['Backend', 'PostgreSQL (team store)'],
      ['Store', found.display],
      ['Chosen by', choice.source === 'FSAPI_STORE' ? 'FSAPI_STORE' : 'the profile (fsapi store use)'],
      ['Reachable', found.reachable ? 'yes' : `no: ${found.problem ?? 'unknown'}`],
      // Who this machine acts as: the login every record it writes is stamped with (docs/team.md).
      ['Login', found.login?.login ?? ''],
      ['Right', found.login ? rightWords(found.login) : ''],
      ['Server version', found.serverVersion ?? ''],
      ['Schema version', found.schemaVersion || 'none yet (made at the first command that uses it)'],
      ['Expected store', expected ? `${expected.id}, ${expected.writes} records written` : 'none yet (the profile has written no records)'],
      ['Store id', found.identity?.id ?? ''],
      ['Records written', found.identity?.writes ?? 0],
      ['Transfers', n('transfers')],
      ['Journal records', n('journal')],
      ['Payees', n('payees')],
      ['Policies', n('policies')],
      ['Approval requests', n('approval_requests')],
      ['Webhook events', n('events')],
      [
        'Matches profile',
        !found.reachable ? 'unknown' : refusal === undefined ? 'yes' : `no: ${refusal.message.replace(/; nothing was sent or changed$/, '')}`,
      ],
    ],
    {
      profile: profileName,
      backend: 'postgresql',
      store: found.display,
      chosenBy: choice.source,
      reachable: found.reachable,
      problem: found.problem ?? null,
      login: found.login?.login ?? null,
      right: found.login?.right ?? null,
      rightsSetUp: found.login?.rightsSetUp ?? null,
      serverVersion: found.serverVersion ?? null,
      schemaVersion: found.schemaVersion,
      expected: expected ? { ...expected, path: shownStore(expected.path) } : null,
      id: found.identity?.id ?? null,
      writes: found.identity?.writes ?? 0,
      counts: {
        journalRecords: n('journal'),
        transfers: n('transfers'),
        events: n('events'),
        payees: n('payees'),
        policies: n('policies'),
        approvalRequests: n('approval_requests'),
      },
      matches: found.reachable && refusal === undefined,
    },
  );
  // Not reachable, or the login refused: after the status, the cause with its own code.
  if (!found.reachable)
    throw found.failure ?? new FsapiError(`the team store ${found.display} is unreachable`, { exitCode: ExitCode.failed, code: 'store_unreachable' });
}
