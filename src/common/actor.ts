// Who acted, as fsapi's records name it. Two parts:
//
//   actor   who the store says acted: on a team store the PostgreSQL login of the session that wrote the
//           row (session_user, stamped by the server: src/store/postgres-schema.ts, step 7), on the data
//           dir's SQLite the OS user and host of the process (one machine: a name, not a proof);
//   label   the name the client gave beside it: FSAPI_OPERATOR, else the OS user and host
//           (src/controls/policy.ts, operatorName). Free text: shown, never compared.
//
// What compares "who" (four eyes: the approver is not the one who asked) compares actors. Rows written
// before actors were have none: they show their label alone, and compare as nobody.
import { hostname, userInfo } from 'node:os';

let local: string | undefined;

/** The OS user and host of this process: `ada@finance-laptop` (read once: every intent names it). */
export function localActor(): string {
  local ??= osUserAndHost();
  return local;
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
