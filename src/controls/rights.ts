// Rights on a team store, as the commands meet them (src/store/team-rights.ts enforces them in PostgreSQL):
// `store grant` and `store revoke`, and the check a command makes before it asks a person for anything
// (the consumer secret), so a member without the right is told at once rather than after typing it. The
// database refuses all the same: this check only says so earlier.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { openLocalStore } from '../store/database.js';
import { StorePermissionDeniedError, TeamStore } from '../store/postgres.js';
import { grantRight, revokeRights, TEAM_RIGHTS, type RightChange, type TeamLogin, type TeamRight } from '../store/team-rights.js';
import { teamChoice } from '../store/team-choice.js';

export { TEAM_RIGHTS, RIGHT_WORDS, type TeamRight } from '../store/team-rights.js';

/** Whether `held` includes `needed` (each right holds the ones below it). */
export function holdsRight(held: TeamRight | undefined, needed: TeamRight): boolean {
  return held !== undefined && TEAM_RIGHTS.indexOf(held) <= TEAM_RIGHTS.indexOf(needed);
}

/** The run's team store, or undefined when its records are in the data dir. */
async function teamStoreOf(ctx: Context): Promise<TeamStore | undefined> {
  if (!teamChoice(ctx.paths.dataDir)) return undefined;
  const store = await openLocalStore(ctx.paths.dataDir);
  return store instanceof TeamStore ? store : undefined;
}

/** Throws store_permission_denied when the run's team store login lacks `right` for `what`; nothing on the data dir's store. */
export async function requireTeamRight(ctx: Context, right: TeamRight, what: string): Promise<void> {
  const store = await teamStoreOf(ctx);
  if (!store?.login) return;
  const { login } = store;
  if (holdsRight(login.right, right)) return;
  throw new StorePermissionDeniedError(store.file, login.login, { what, right }, `${login.login} holds ${rightWords(login)}`);
}

/** `owner`, `no right` … as status and messages say it. */
export function rightWords(login: Pick<TeamLogin, 'right' | 'rightsSetUp'>): string {
  if (login.right === undefined) return 'no right';
  return login.rightsSetUp ? `the ${login.right} right` : 'the tables (the store has no rights set up)';
}

export function parseRight(text: string | undefined): TeamRight {
  const right = (text ?? '').trim().toLowerCase();
  if ((TEAM_RIGHTS as readonly string[]).includes(right)) return right as TeamRight;
  throw new UsageError(`the right must be owner, approver, sender or viewer, not ${JSON.stringify(text ?? '')}`, 'for example: fsapi store grant bola sender');
}

/** A PostgreSQL role name as a person types it: what a login role is called on any server. */
export function parseRole(text: string | undefined): string {
  const role = (text ?? '').trim();
  if (!/^[A-Za-z_][A-Za-z0-9_.@-]{0,62}$/.test(role)) {
    throw new UsageError(`${JSON.stringify(text ?? '')} is not a login role name`, 'a letter or _ first, then letters, digits, _ . @ or -, at most 63');
  }
  return role;
}

/** Grants (`right`) or revokes (undefined) as the run's login, in one transaction of the team store. */
export async function changeRight(ctx: Context, role: string, right: TeamRight | undefined): Promise<RightChange & { store: string; by: string }> {
  const store = await teamStoreOf(ctx);
  if (!store) {
    throw new UsageError(
      'rights belong to a team store, and this profile keeps its records in the data dir',
      'on one machine the OS decides who may run fsapi; a team store: fsapi store use <url> (docs/team.md)',
    );
  }
  const change = await store.write((q) => (right === undefined ? revokeRights(q, role) : grantRight(q, role, right)));
  return { ...change, store: store.file, by: await store.actor() };
}
