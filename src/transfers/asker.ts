// Who asks: what every intent, held request and decision records about who made it.
//
//   operator   FSAPI_OPERATOR, else user@host (operatorName): the name people read. A label.
//   actor      who acted as the store tells it (Store.actor, src/common/actor.ts): the database login on a
//              team store, the OS user and host (or the one behind sudo) on a data dir's store. Four eyes and
//              withdrawing compare it; the store records it itself.
//   via        labels from outside, kept as they came (sanitised, bounded): the MCP client's name and
//              version (from its `initialize`), SUDO_USER and SUDO_UID. They say which program and which
//              person behind sudo the record came through; they prove nothing (a client names itself, and
//              whoever runs fsapi as the store's user without sudo sets SUDO_* as they like).
// askerOf (src/controls/policy.ts, beside operatorName) gives the operator and the labels to the store.
import type { Context } from '../context.js';
import { labelText } from '../common/sanitize.js';
import { localActor } from '../common/actor.js';
import { UsageError } from '../errors.js';
import type { AskedVia } from '../store/controls.js';

/** Longest client name and version kept (MCP hosts use short names: `claude-ai`, `inspector`). */
const MAX_CLIENT_TEXT = 80;
/** Longest SUDO_USER kept. */
const MAX_USER_TEXT = 64;

/** The labels of this run: its MCP client and the person behind sudo; undefined when there are none. */
export function viaOf(ctx: Pick<Context, 'env' | 'client'>): AskedVia | undefined {
  const name = ctx.client ? labelText(ctx.client.name, MAX_CLIENT_TEXT) : '';
  const client = ctx.client && name !== '' ? { name, version: labelText(ctx.client.version, MAX_CLIENT_TEXT) } : undefined;
  const user = ctx.env.SUDO_USER === undefined ? '' : labelText(ctx.env.SUDO_USER, MAX_USER_TEXT);
  const uid = ctx.env.SUDO_UID?.trim() ?? '';
  const via: AskedVia = {
    client,
    sudoUser: user === '' ? undefined : user,
    sudoUid: /^[0-9]{1,10}$/.test(uid) && Number.isSafeInteger(Number(uid)) ? Number(uid) : undefined,
  };
  return via.client === undefined && via.sudoUser === undefined && via.sudoUid === undefined ? undefined : via;
}

/** The labels as --json gives them: null when there are none. */
export function viaJson(
  via: AskedVia | undefined,
): { client: { name: string; version: string } | null; sudoUser: string | null; sudoUid: number | null } | null {
  if (!via) return null;
  return { client: via.client ?? null, sudoUser: via.sudoUser ?? null, sudoUid: via.sudoUid ?? null };
}

/** The labels as either shape has them: AskedVia (fields undefined) or viaJson's (fields null). */
type AnyVia = { client?: { name: string; version: string } | null | undefined; sudoUser?: string | null | undefined; sudoUid?: number | null | undefined };

/** The labels in words, for a table cell or a line: `MCP client claude-ai 0.1.0, sudo from alice (uid 1000)`. */
export function viaWords(via: AnyVia | null | undefined): string {
  if (!via) return '';
  const parts: string[] = [];
  if (via.client) parts.push(`MCP client ${via.client.name}${via.client.version ? ` ${via.client.version}` : ''}`);
  const uid = via.sudoUid ?? undefined;
  if (via.sudoUser != null) parts.push(`sudo from ${via.sudoUser}${uid !== undefined ? ` (uid ${uid})` : ''}`);
  else if (uid !== undefined) parts.push(`sudo from uid ${uid}`);
  return parts.join(', ');
}

/**
 * The name the client gives to every record (journal intents, payees, policy changes, held requests,
 * decisions): FSAPI_OPERATOR when set, else the OS user and host (`ada@finance-laptop`). A label, never
 * a proof: on a team store the server stamps the login beside it (src/common/actor.ts), and that is
 * what is compared.
 */
export function operatorName(env: Readonly<Record<string, string | undefined>>): string {
  const named = env.FSAPI_OPERATOR?.trim();
  if (named) {
    // A name shown in tables and terminals: printable, one line, short.
    if (named.length > 100 || /[\u0000-\u001f\u007f-\u009f]/.test(named)) {
      throw new UsageError('FSAPI_OPERATOR must be one line of at most 100 printable characters', 'for example FSAPI_OPERATOR=ada@finance');
    }
    return named;
  }
  return localActor();
}
