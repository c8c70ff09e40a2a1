// A team store's address: a `postgres://` URL, read once here, for the driver and for every place that
// shows it. No secret may come in through it: the password lives in ~/.pgpass (or PGPASSWORD), where
// PostgreSQL's own tools keep it, never in profiles.json, a message, a status or a tool's answer.
//
// The `pg` driver reads every query parameter of the URL into its settings (pg-connection-string: `?password=`
// is the password, `?host=` the host, `?PASSWORD=` a key of its own), so this module reads the URL as the
// driver will and lets through only what fsapi needs: the user, host, port and database written in the URL
// itself, and the TLS parameters (sslmode, sslrootcert, sslcert, sslkey), each once. Anything else is refused
// (exit 2) before anything connects: a password in any spelling (after the user name, `password=`,
// `sslpassword=`, percent-encoded, in another case), libpq's other secrets, parameters that would make the
// driver connect elsewhere than the URL shows (`host=`, `user=`, `dbname=`), session settings (`options=`,
// which could carry anything), a `#` part. A refusal never repeats what was given: a parameter is named only
// when its name is one of libpq's own words.
import { UsageError } from '../errors.js';
import type { TeamChoice } from './team-choice.js';

export interface StoreAddress {
  /** What the driver connects to: the URL, which holds no secret (parseStoreUrl refuses those). */
  url: string;
  /** postgres://user@host:port/db?params, as messages, status and profiles.json show it. */
  display: string;
}

/** The TLS parameters the driver reads from a store URL (docs/team.md): nothing else may be given. */
const READ_PARAMETERS = new Set(['sslmode', 'sslrootcert', 'sslcert', 'sslkey']);
/** sslmode's values that the driver knows; another would be taken silently as verify-full. */
const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];
/** Parameters libpq (PostgreSQL's client library) reads as secrets, and words of the same kind. */
const SECRET_PARAMETERS = new Set(['password', 'sslpassword', 'oauth_client_secret', 'scram_client_key', 'scram_server_key']);
const SECRET_WORDS = /pass|pwd|secret|token|credential|scram/i;
/** libpq's and the driver's other connection parameters: named in a refusal (they are no secret), with why. */
const WHERE_INSTEAD: Record<string, string> = {
  host: 'the host goes in the URL itself: postgres://user@host:port/db',
  hostaddr: 'the host goes in the URL itself: postgres://user@host:port/db',
  port: 'the port goes in the URL itself: postgres://user@host:port/db',
  user: 'the user goes in the URL itself: postgres://user@host:port/db',
  dbname: 'the database goes in the URL itself: postgres://user@host:port/db',
  database: 'the database goes in the URL itself: postgres://user@host:port/db',
  options:
    'fsapi sets its sessions\' settings itself (docs/team.md, "Bounds"); a setting the team needs, such as search_path, is set on the role: ALTER ROLE ... SET',
  passfile: 'the password file is ~/.pgpass, or the one PGPASSFILE names',
  service: 'fsapi reads no service file: give the URL itself',
};
const OTHER_KNOWN = [
  'application_name',
  'fallback_application_name',
  'connect_timeout',
  'client_encoding',
  'keepalives',
  'keepalives_idle',
  'keepalives_interval',
  'keepalives_count',
  'tcp_user_timeout',
  'replication',
  'gssencmode',
  'gsslib',
  'gssdelegation',
  'krbsrvname',
  'require_auth',
  'channel_binding',
  'sslnegotiation',
  'sslcompression',
  'sslcertmode',
  'sslcrl',
  'sslcrldir',
  'sslsni',
  'sslca',
  'ssl',
  'requirepeer',
  'ssl_min_protocol_version',
  'ssl_max_protocol_version',
  'min_protocol_version',
  'max_protocol_version',
  'target_session_attrs',
  'load_balance_hosts',
  'oauth_issuer',
  'oauth_client_id',
  'oauth_scope',
  'uselibpqcompat',
  'statement_timeout',
  'lock_timeout',
  'idle_in_transaction_session_timeout',
  'query_timeout',
  'binary',
];
const KNOWN_PARAMETERS = new Set([...READ_PARAMETERS, ...SECRET_PARAMETERS, ...Object.keys(WHERE_INSTEAD), ...OTHER_KNOWN]);

const EXAMPLE = 'for example postgres://fsapi@db.example.com:5432/fsapi?sslmode=require';
const PASSWORD_HINT =
  'give the URL without it, and the password in ~/.pgpass (a line host:port:database:user:password, mode 0600) or PGPASSWORD (docs/team.md)';

/** The address of the team store a run chose, read as parseStoreUrl reads it, said as coming from where it came. */
export function addressOfChoice(choice: TeamChoice): StoreAddress {
  return parseStoreUrl(choice.url, choice.source === 'FSAPI_STORE' ? 'FSAPI_STORE' : "the profile's team store (profiles.json)");
}

/** Whether `text` names a team store (rather than a path or nothing). */
export function isStoreUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text.trim());
}

/**
 * Reads a store URL (`where` says whose, for messages: FSAPI_STORE, the profile's). Bad input, and any
 * secret in any form, is exit 2, and the message never repeats the URL or any part of it.
 */
export function parseStoreUrl(text: string, where = 'the store URL'): StoreAddress {
  const trimmed = text.trim();
  let url: URL;
  try {
    if (!isStoreUrl(trimmed)) throw new Error('not postgres://');
    url = new URL(trimmed);
  } catch {
    throw new UsageError(`${where} must be a postgres:// or postgresql:// URL`, EXAMPLE);
  }
  const refuse = (what: string, hint = EXAMPLE): never => {
    throw new UsageError(`${where} ${what}; nothing was connected to or kept`, hint);
  };
  if (url.password !== '') refuse('carries a password (after the user name)', PASSWORD_HINT);
  // A fragment is nothing to the driver; it is most often what follows a `#` in a password typed as is.
  if (url.hash !== '' || trimmed.includes('#')) refuse('has a # part, which a store URL cannot have (a # in a name is written %23)');
  if (!url.hostname) refuse('names no host', 'for example postgres://fsapi@db.example.com:5432/fsapi');
  // One database name: a `/` or `@` past it is a password's `/` or `@` typed as is, read as a path.
  if (/[/@]/.test(url.pathname.slice(1))) refuse("has a database name with a '/' or '@' in it (write them %2F and %40)");
  const seen = new Set<string>();
  let position = 0;
  for (const [name] of url.searchParams) {
    position += 1;
    if (READ_PARAMETERS.has(name)) {
      if (seen.has(name)) refuse(`gives ${name} more than once`);
      seen.add(name);
      continue;
    }
    const lower = name.toLowerCase();
    if (SECRET_PARAMETERS.has(lower)) refuse(`carries a password or secret (parameter ${lower})`, PASSWORD_HINT);
    if (READ_PARAMETERS.has(lower)) refuse(`writes parameter ${lower} in capitals: the driver reads names in lower case only`);
    if (KNOWN_PARAMETERS.has(lower)) refuse(`has parameter ${lower}, which fsapi does not read`, WHERE_INSTEAD[lower] ?? EXAMPLE);
    if (SECRET_WORDS.test(lower)) refuse(`carries a password or secret (its ${ordinal(position)} parameter)`, PASSWORD_HINT);
    refuse(`has a parameter fsapi does not know (the ${ordinal(position)}); it reads only sslmode, sslrootcert, sslcert and sslkey`);
  }
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null && !SSL_MODES.includes(sslmode)) refuse(`has an sslmode fsapi does not know; it takes ${SSL_MODES.join(', ')}`);
  for (const file of ['sslrootcert', 'sslcert', 'sslkey']) if (url.searchParams.get(file) === '') refuse(`names no file for ${file}`);
  return { url: url.href, display: url.href };
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/**
 * A store address as it may be shown, whatever it holds: the form every message, status and answer uses.
 * A URL parseStoreUrl accepts is shown as it is; any other (one an older fsapi kept in profiles.json) is
 * shown with its password, its `#` part and every parameter fsapi does not read left out. A path (the
 * data dir's store) is shown as it is.
 */
export function shownStore(where: string): string {
  if (!isStoreUrl(where)) return where;
  try {
    return parseStoreUrl(where).display;
  } catch {
    // Not an address fsapi would connect to: shown without anything that could be a secret.
  }
  try {
    const url = new URL(where.trim());
    url.password = '';
    url.hash = '';
    const kept = [...url.searchParams].filter(([name, value]) => READ_PARAMETERS.has(name) && (name !== 'sslmode' || SSL_MODES.includes(value)));
    url.search = kept.length > 0 ? `?${kept.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}` : '';
    if (/[/@]/.test(url.pathname.slice(1))) url.pathname = '/';
    return url.href;
  } catch {
    return 'a postgres:// URL fsapi cannot read';
  }
}
