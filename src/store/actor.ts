// Who acted: the one notion the records of a decision rest on (four eyes, withdrawing a request), beside
// the operator's name, which is only a label (FSAPI_OPERATOR, or user@host: src/controls/policy.ts).
//
//   team store   the session's PostgreSQL login (`session_user`): a password or certificate per person
//                proves it, and psql sees the same name. Read inside the transaction that records the
//                decision, so the comparison and the record are one step.
//   data dir     the OS user running fsapi; under sudo, the user sudo names (SUDO_USER) when it is another
//                user. The store is one user's file (mode 0600 in a 0700 dir), so two people act on it only
//                through sudo into that user (docs/agents.md's set-up): sudo sets SUDO_USER itself, and the
//                rule gives no SETENV. Anyone who can run commands as the store's user without sudo can set
//                SUDO_USER to anything, and can edit the file anyway: on a data dir the actor tells apart
//                one machine's users, as far as its sudo rules do, and proves nothing more (docs/policy.md).
import { userInfo } from 'node:os';
import type { Queries, Store } from './store.js';

/** Who acted, and what says so. */
export interface Actor {
  name: string;
  /** `database login` on a team store, `OS user` on a data dir's store. */
  kind: 'database login' | 'OS user';
}

/** A user name sudo would set: POSIX's portable characters, at most 32 (useradd's own limit). */
const USER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,31}\$?$/;

/**
 * The actor on this machine: the OS user, or the person behind sudo (SUDO_USER, with its SUDO_UID) when
 * sudo made this process another user's. Only a user name sudo could have set counts; anything else in
 * SUDO_USER is no actor (the label is still kept, sanitised: src/controls/asker.ts).
 */
export function machineActor(env: Readonly<Record<string, string | undefined>>): string {
  let own: string;
  try {
    own = userInfo().username;
  } catch {
    own = `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  const sudoUser = env.SUDO_USER?.trim();
  const sudoUid = env.SUDO_UID?.trim();
  const uid = process.getuid?.();
  if (sudoUser && USER_NAME.test(sudoUser) && sudoUid && /^[0-9]{1,10}$/.test(sudoUid) && Number(sudoUid) !== uid) return sudoUser;
  return own;
}

/**
 * The actor of a transaction of `store`: on a team store the session's login, asked of the server in that
 * transaction; on a data dir's store `onMachine` (machineActor of the process).
 */
export async function actorIn(store: Pick<Store, 'backend'>, q: Queries, onMachine: string): Promise<Actor> {
  if (store.backend === 'postgresql') {
    const row = await q.sql('SELECT session_user AS login').get();
    return { name: String(row?.login ?? ''), kind: 'database login' };
  }
  return { name: onMachine, kind: 'OS user' };
}
