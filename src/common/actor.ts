// Who acted, as fsapi's records name it. Two parts:
//
//   actor   who the store says acted: on a team store the PostgreSQL login of the session that wrote the
//           row (session_user, stamped by the server: src/store/postgres-schema.ts, step 7), on the data
//           dir's SQLite the OS user and host of the process, or, when sudo made the process another
//           user's, the user sudo names (machineActor; one machine: a name, not a proof);
//   label   the name the client gave beside it: FSAPI_OPERATOR, else the OS user and host
//           (src/controls/policy.ts, operatorName). Free text: shown, never compared.
//
// What compares "who" (four eyes: the approver is not the one who asked) compares actors. Rows written
// before actors were have none: they show their label alone, and compare as nobody.
import { hostname, userInfo } from 'node:os';

/** Who acted, and what says so. */
export interface Actor {
  name: string;
  /** `database login` on a team store, `OS user` on a data dir's store. */
  kind: 'database login' | 'OS user';
}

let local: string | undefined;

/** The OS user and host of this process: `ada@finance-laptop` (read once: every intent names it). */
export function localActor(): string {
  local ??= osUserAndHost();
  return local;
}

/** A user name sudo would set: POSIX's portable characters, at most 32 (useradd's own limit). */
const USER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,31}\$?$/;

/**
 * The actor on this machine (a data dir's store): localActor, or, when sudo made this process another
 * user's, the user sudo names on this host (`alice@finance-laptop`). The store is one OS user's file, so two
 * people share it only through sudo into that user (docs/agents.md's set-up); sudo sets SUDO_USER and
 * SUDO_UID itself and the rule gives no SETENV. Whoever runs commands as the store's user without sudo sets
 * them as they like, and can edit the file anyway: it tells one machine's users apart as far as its sudo
 * rules go, and proves nothing more (docs/policy.md). Only a user name sudo could have set counts.
 */
export function machineActor(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const user = env.SUDO_USER?.trim();
  const uid = env.SUDO_UID?.trim();
  if (user && USER_NAME.test(user) && uid && /^[0-9]{1,10}$/.test(uid) && Number(uid) !== process.getuid?.()) return `${user}@${hostname()}`;
  return localActor();
}

function osUserAndHost(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
  return `${user}@${hostname()}`;
}

/**
 * Who acted, in words: on a team store the login, with the client's label beside it when it says
 * something else (`bola (Bola, finance)`); on SQLite the label as it always was (it names the OS user
 * unless FSAPI_OPERATOR is set).
 */
export function shownActor(backend: 'sqlite' | 'postgresql', actor: string | null | undefined, label: string): string {
  if (backend === 'sqlite' || actor === null || actor === undefined || actor === '') return label;
  return label === '' || label === actor ? actor : `${actor} (${label})`;
}
