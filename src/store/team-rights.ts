// Who may do what on a team store, enforced by PostgreSQL itself, so it holds for psql as for fsapi
// (docs/team.md, "Rights"). Four group roles per database, one per right, each holding the one below it:
//
//   viewer    reads everything;
//   sender    + writes intents and outcomes (journal, transfers), webhook events, and requests held for
//             approval (its own; it may take back its own while held, never approve one);
//   approver  + decides held requests (and sends them: the sending writes intents, as a sender's);
//   owner     + owns the tables: the policy, the payees, the rights of the others, the schema.
//
// A person's login role is made a member of one of them (`fsapi store grant <role> <right>`). The tables,
// their sequences and fsapi's functions belong to the owner group, so every owner may change them and bring
// the schema up to date, and the others have only what is granted here. Where one table mixes rights (a
// sender asks, an approver decides), row-level security says which rows and which values each may write.
// Who acted is the login of the session (session_user), stamped on each row by a trigger of the server
// (src/store/postgres-schema.ts, step 7), never a name the client sends.
//
// The first login to bring a new store to this schema becomes its owner, when it may make roles
// (CREATEROLE) or finds them made for it by the database's administrator (docs/team.md says what to run
// once). A login that may do neither keeps a store that only it, the tables' owner, can use.
import { ExitCode, FsapiError, NotFoundError, UsageError } from '../errors.js';
import type { Queries, SqlRow } from './store.js';

export const TEAM_RIGHTS = ['owner', 'approver', 'sender', 'viewer'] as const;
export type TeamRight = (typeof TEAM_RIGHTS)[number];

/** What each right adds, in words (store grant's help, store status, docs/team.md). */
export const RIGHT_WORDS: Record<TeamRight, string> = {
  owner: 'changes the policy, payees and rights; approves and sends',
  approver: 'approves or rejects held requests; sends',
  sender: 'sends (above the policy: held for approval); reads',
  viewer: 'reads the records',
};

/** Every table of fsapi's on a team store: a module that adds one adds it here, with what each right may do on it. */
export const TEAM_TABLES = [
  'fsapi_schema',
  'store_identity',
  'journal',
  'transfers',
  'events',
  'events_open',
  'events_undelivered',
  'event_claims',
  'imports',
  'payees',
  'policies',
  'policy_changes',
  'approval_requests',
  'approval_transfers',
  'approval_decisions',
  'name_refusals',
  'run_leases',
] as const;

/** Privileges on top of viewer's SELECT on every table (owners own them). Row-level security narrows some. */
const SENDER_GRANTS: ReadonlyArray<readonly [privileges: string, table: (typeof TEAM_TABLES)[number]]> = [
  ['INSERT', 'journal'],
  ['INSERT, UPDATE (state, doc, intents, last_pid, last_run, last_intent_at, answered)', 'transfers'],
  ['INSERT', 'events'],
  ['INSERT, UPDATE, DELETE', 'events_open'],
  ['INSERT, UPDATE, DELETE', 'events_undelivered'],
  ['INSERT, UPDATE, DELETE', 'event_claims'],
  ['INSERT, UPDATE (status)', 'approval_requests'],
  ['INSERT', 'approval_transfers'],
  ['INSERT', 'approval_decisions'],
  // A failed name check, kept against its reference by whoever sent it (it only ever holds a payment back).
  ['INSERT', 'name_refusals'],
  // A sending run's lease: taken, renewed and marked by the run; an ended one a day old is removed by any run.
  ['INSERT, UPDATE, DELETE', 'run_leases'],
];

/** Identity columns whose sequences a sender's inserts draw from. */
const SENDER_SEQUENCES: ReadonlyArray<readonly [table: string, column: string]> = [
  ['journal', 'seq'],
  ['events', 'seq'],
  ['approval_decisions', 'id'],
  ['name_refusals', 'id'],
];

/** Functions of fsapi's, owned by the owner group with the tables. */
const FUNCTIONS = ['fsapi_count_write()', 'fsapi_stamp_actor()'];

/** The group roles of the store in `database`: roles are the server's, not one database's, so each store has its own. */
export function teamRoleNames(database: string): Record<TeamRight, string> {
  let base = database.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (base.length > 40) base = `${base.slice(0, 30)}_${hash8(database)}`;
  const prefix = base.startsWith('fsapi') ? base : `fsapi_${base}`;
  return { owner: `${prefix}_owner`, approver: `${prefix}_approver`, sender: `${prefix}_sender`, viewer: `${prefix}_viewer` };
}

function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (const char of text) h = Math.imul(h ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** A name as SQL writes an identifier: quoted, so any role name is taken as it is. */
export function sqlIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function sqlLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** What the login of this session is, and may do, on the store. */
export interface TeamLogin {
  /** session_user: who every row this session writes names. */
  login: string;
  database: string;
  roles: Record<TeamRight, string>;
  /** Whether the rights are set up (the tables belong to the owner group). */
  rightsSetUp: boolean;
  /** The highest right the login holds; `owner` too for the tables' owner on a store without rights. */
  right: TeamRight | undefined;
  /** The tables' owner when the rights are not set up (the one login that may use such a store). */
  tablesOwner: string | undefined;
}

/** The login of `q`'s session and its right; works with no right at all (it reads only the catalogue). */
export async function teamLogin(q: Queries): Promise<TeamLogin> {
  const who = (await q
    .sql(`SELECT session_user::text AS login, current_database()::text AS database, pg_get_userbyid(c.relowner)::text AS tables_owner
            FROM (SELECT 1) one LEFT JOIN pg_class c ON c.oid = to_regclass('journal')`)
    .get()) as SqlRow;
  const login = String(who.login);
  const database = String(who.database);
  const roles = teamRoleNames(database);
  const tablesOwner = who.tables_owner === null ? undefined : String(who.tables_owner);
  const rightsSetUp = tablesOwner === roles.owner;
  let right: TeamRight | undefined;
  if (rightsSetUp) {
    const held = (await q
      .sql(`SELECT ${TEAM_RIGHTS.map((_, i) => `coalesce(pg_has_role(session_user, to_regrole(?), 'USAGE'), false)::int AS r${i}`).join(', ')}`)
      .get(...TEAM_RIGHTS.map((r) => roles[r]))) as SqlRow;
    right = TEAM_RIGHTS.find((_, i) => Number(held[`r${i}`]) === 1);
  } else if (tablesOwner !== undefined) {
    const owns = (await q.sql(`SELECT pg_has_role(session_user, ?::text::regrole, 'USAGE')::int AS owns`).get(tablesOwner)) as SqlRow;
    if (Number(owns.owns) === 1) right = 'owner';
  }
  return { login, database, roles, rightsSetUp, right, tablesOwner: rightsSetUp ? undefined : tablesOwner };
}

/** The rights could not be set up by this login: the database's administrator makes the roles once (administratorSetUp). */
export class RightsNotSetUp extends FsapiError {
  constructor(
    readonly login: string,
    readonly roles: Record<TeamRight, string>,
    readonly reason: string,
  ) {
    super(`the team store has no rights set up (${reason}); nothing was changed`, {
      exitCode: ExitCode.failed,
      hint: `the database's administrator makes the roles once, as docs/team.md shows ("Rights"); until then only the login that owns the tables uses the store`,
      code: 'store_rights_not_set_up',
    });
  }
}

/** The SQL an administrator runs once when the first member may not make roles (docs/team.md). */
export function administratorSetUp(roles: Record<TeamRight, string>, firstOwner: string): string {
  const r = (right: TeamRight) => sqlIdentifier(roles[right]);
  return [
    ...TEAM_RIGHTS.map((right) => `CREATE ROLE ${r(right)} NOLOGIN; COMMENT ON ROLE ${r(right)} IS ${sqlLiteral(roleComment(right))};`),
    `GRANT ${r('viewer')} TO ${r('sender')}; GRANT ${r('sender')} TO ${r('approver')};`,
    `GRANT ${r('approver')}, ${r('sender')}, ${r('viewer')} TO ${r('owner')} WITH ADMIN OPTION;`,
    `GRANT ${r('owner')} TO ${sqlIdentifier(firstOwner)} WITH ADMIN OPTION;`,
    `GRANT CREATE, USAGE ON SCHEMA public TO ${r('owner')};`,
  ].join('\n');
}

function roleComment(right: TeamRight): string {
  return `fsapi: the ${right} right on a team store`;
}

/**
 * Sets up the rights when this login may (schema step 7, in the migration's transaction): otherwise the
 * store stays usable by the tables' owner alone, and `fsapi store grant` says what is missing.
 */
export async function setUpRightsIfAllowed(q: Queries): Promise<void> {
  await q.sql('SAVEPOINT fsapi_rights').run();
  try {
    await setUpRights(q);
    await q.sql('RELEASE SAVEPOINT fsapi_rights').run();
  } catch (error) {
    if (!(error instanceof RightsNotSetUp) && (error as { code?: string }).code !== 'store_permission_denied') throw error;
    await q.sql('ROLLBACK TO SAVEPOINT fsapi_rights').run();
  }
}

/**
 * Makes the group roles (or takes the ones an administrator made), makes this login an owner, gives the
 * tables and functions to the owner group, and grants each right its privileges and row policies. Run
 * again, it changes nothing: every step asks first. Throws RightsNotSetUp when this login may not.
 */
export async function setUpRights(q: Queries): Promise<TeamLogin> {
  const found = await teamLogin(q);
  const { roles, login } = found;
  const r = (right: TeamRight) => sqlIdentifier(roles[right]);
  for (const right of TEAM_RIGHTS) {
    const row = await q.sql(`SELECT shobj_description(oid, 'pg_authid') AS note FROM pg_roles WHERE rolname = ?`).get(roles[right]);
    if (row) {
      if (!String(row.note ?? '').startsWith('fsapi')) {
        throw new RightsNotSetUp(login, roles, `a role named ${roles[right]} exists and is not fsapi's (its comment does not say so)`);
      }
      continue;
    }
    const may = (await q.sql(`SELECT (rolcreaterole OR rolsuper)::int AS may FROM pg_roles WHERE rolname = session_user`).get()) as SqlRow;
    if (Number(may.may) !== 1) throw new RightsNotSetUp(login, roles, `${login} may not make roles (CREATEROLE), and the roles are not made`);
    await q.sql(`CREATE ROLE ${r(right)} NOLOGIN`).run();
    await q.sql(`COMMENT ON ROLE ${r(right)} IS ${sqlLiteral(roleComment(right))}`).run();
  }
  // Each right holds the one below it; owners may grant the three others (the grants are the owner
  // group's, so any owner may take back what another granted).
  await ensureMember(q, roles.viewer, roles.sender, false);
  await ensureMember(q, roles.sender, roles.approver, false);
  for (const right of ['approver', 'sender', 'viewer'] as const) await ensureMember(q, roles[right], roles.owner, true);
  const owner = (await q.sql(`SELECT pg_has_role(session_user, ?::text::regrole, 'USAGE')::int AS usage`).get(roles.owner)) as SqlRow;
  if (Number(owner.usage) !== 1) {
    try {
      await q.sql(`GRANT ${r('owner')} TO ${sqlIdentifier(login)}`).run();
    } catch {
      throw new RightsNotSetUp(login, roles, `${login} is not a member of ${roles.owner} and may not make itself one`);
    }
  }
  const schema = String(((await q.sql('SELECT current_schema()::text AS s').get()) as SqlRow).s);
  // Owning the tables needs the right to create in their schema (PostgreSQL 15 and later grant it to nobody).
  await q.sql(`GRANT CREATE, USAGE ON SCHEMA ${sqlIdentifier(schema)} TO ${r('owner')}`).run();
  await q.sql(`GRANT USAGE ON SCHEMA ${sqlIdentifier(schema)} TO ${r('viewer')}`).run();
  for (const table of TEAM_TABLES) {
    if (await tableExists(q, table)) await q.sql(`ALTER TABLE ${table} OWNER TO ${r('owner')}`).run();
  }
  // The write counter's trigger runs as the owner group: a sender's insert counts without a right to
  // change the store's identity. The search path is fixed for that.
  await q.sql(`ALTER FUNCTION fsapi_count_write() SECURITY DEFINER SET search_path = ${sqlIdentifier(schema)}, pg_temp`).run();
  for (const fn of FUNCTIONS) await q.sql(`ALTER FUNCTION ${fn} OWNER TO ${r('owner')}`).run();
  await grantTablePrivileges(q, roles);
  return teamLogin(q);
}

/** The privileges and row policies of each right on fsapi's tables (again after any schema step: new tables). */
export async function grantTablePrivileges(q: Queries, roles: Record<TeamRight, string>): Promise<void> {
  const r = (right: TeamRight) => sqlIdentifier(roles[right]);
  for (const table of TEAM_TABLES) {
    if (!(await tableExists(q, table))) continue;
    await q.sql(`REVOKE ALL ON ${table} FROM PUBLIC`).run();
    await q.sql(`GRANT SELECT ON ${table} TO ${r('viewer')}`).run();
  }
  for (const [privileges, table] of SENDER_GRANTS) {
    if (await tableExists(q, table)) await q.sql(`GRANT ${privileges} ON ${table} TO ${r('sender')}`).run();
  }
  // ANALYZE of the tables a claim reads, by whoever sends (TeamStore.keepStatistics): PostgreSQL 17 and
  // later grant it apart from ownership; before that only the owners' runs analyze.
  if (Number((await q.sql('SHOW server_version_num').get())?.server_version_num ?? 0) >= 170_000) {
    for (const table of ['transfers', 'journal']) if (await tableExists(q, table)) await q.sql(`GRANT MAINTAIN ON ${table} TO ${r('sender')}`).run();
  }
  for (const [table, column] of SENDER_SEQUENCES) {
    // A table of a later schema step is not there yet when an earlier step sets the rights up.
    if (!(await tableExists(q, table))) continue;
    const sequence = (await q.sql('SELECT pg_get_serial_sequence(?, ?) AS s').get(table, column))?.s;
    if (typeof sequence === 'string') await q.sql(`GRANT USAGE ON SEQUENCE ${sequence} TO ${r('sender')}`).run();
  }
  // Held requests: a sender asks (held, as itself: the actor is stamped by the server) and may take back
  // its own while held, never approve; an approver decides a held one. The transfers of a request are
  // added only to the asker's own held request, and a decision row by a sender only refuses its own.
  const policies: ReadonlyArray<readonly [name: string, table: string, body: string]> = [
    ['read', 'approval_requests', `FOR SELECT TO ${r('viewer')} USING (true)`],
    ['ask', 'approval_requests', `FOR INSERT TO ${r('sender')} WITH CHECK (status = 'held')`],
    ['take_back', 'approval_requests', `FOR UPDATE TO ${r('sender')} USING (status = 'held' AND actor = session_user) WITH CHECK (status <> 'approved')`],
    // Four eyes (src/store/controls.ts decide, where fsapi refuses it first): under a policy with four eyes an
    // approver's approval of a request the same login asked for (or whose asker is unknown) is refused here
    // too, whatever client writes it. The row checked is the new one, after the trigger kept its actor.
    // (Until the schema step that adds four eyes has run, the plain rule: this runs again after every step.)
    [
      'decide',
      'approval_requests',
      (await columnExists(q, 'policies', 'four_eyes'))
        ? `FOR UPDATE TO ${r('approver')} USING (status = 'held') WITH CHECK (status = 'rejected' OR (status = 'approved' AND NOT EXISTS (
             SELECT 1 FROM policies p WHERE p.profile = approval_requests.profile AND p.base_url = approval_requests.base_url AND p.four_eyes = 1
               AND (approval_requests.actor IS NULL OR approval_requests.actor = session_user))))`
        : `FOR UPDATE TO ${r('approver')} USING (status = 'held') WITH CHECK (status IN ('approved', 'rejected'))`,
    ],
    ['read', 'approval_transfers', `FOR SELECT TO ${r('viewer')} USING (true)`],
    [
      'ask',
      'approval_transfers',
      `FOR INSERT TO ${r('sender')} WITH CHECK (EXISTS (SELECT 1 FROM approval_requests a WHERE a.id = request_id AND a.actor = session_user AND a.status = 'held'))`,
    ],
    ['read', 'approval_decisions', `FOR SELECT TO ${r('viewer')} USING (true)`],
    ['decide', 'approval_decisions', `FOR INSERT TO ${r('approver')} WITH CHECK (true)`],
    [
      'take_back',
      'approval_decisions',
      `FOR INSERT TO ${r('sender')} WITH CHECK (decision <> 'approved' AND EXISTS (SELECT 1 FROM approval_requests a WHERE a.id = request_id AND a.actor = session_user))`,
    ],
  ];
  for (const table of new Set(policies.map(([, t]) => t))) await q.sql(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`).run();
  for (const [name, table, body] of policies) {
    await q.sql(`DROP POLICY IF EXISTS ${name} ON ${table}`).run();
    await q.sql(`CREATE POLICY ${name} ON ${table} ${body}`).run();
  }
}

/**
 * Tables a schema step made after the rights were set up by an earlier step of the same run: given to the
 * owner group like every other table (on a store brought up to date by an owner they are the group's already).
 */
export async function giveToOwners(q: Queries, tables: ReadonlyArray<(typeof TEAM_TABLES)[number]>): Promise<void> {
  const found = await teamLogin(q);
  if (!found.rightsSetUp) return;
  for (const table of tables) {
    if (await tableExists(q, table)) await q.sql(`ALTER TABLE ${table} OWNER TO ${sqlIdentifier(found.roles.owner)}`).run();
  }
}

async function columnExists(q: Queries, table: string, column: string): Promise<boolean> {
  const row = await q
    .sql('SELECT count(*)::int AS found FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?')
    .get(table, column);
  return Number(row?.found) > 0;
}

async function tableExists(q: Queries, table: string): Promise<boolean> {
  return (await q.sql('SELECT (to_regclass(?) IS NOT NULL)::int AS found').get(table))?.found === 1;
}

/** `member` made a member of `group` (with ADMIN OPTION when `admin`), unless it is already. */
async function ensureMember(q: Queries, group: string, member: string, admin: boolean): Promise<void> {
  const row = await q
    .sql(`SELECT bool_or(admin_option)::int AS admin FROM pg_auth_members WHERE roleid = ?::text::regrole AND member = ?::text::regrole`)
    .get(group, member);
  if (row?.admin !== null && row?.admin !== undefined && (!admin || Number(row.admin) === 1)) return;
  await q.sql(`GRANT ${sqlIdentifier(group)} TO ${sqlIdentifier(member)}${admin ? ' WITH ADMIN OPTION' : ''}`).run();
}

// ---- grant and revoke ----------------------------------------------------------------------------------

/** What a grant or revoke found and left. */
export interface RightChange {
  role: string;
  before: TeamRight | undefined;
  after: TeamRight | undefined;
}

/** A grant or revoke that would leave the store without an owner, or that PostgreSQL keeps for another grantor. */
export class RightsRefusal extends FsapiError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.failed, hint, code: 'store_permission_denied' });
  }
}

/** The right `role` holds directly (its own membership, not through another role), highest first. */
async function directRight(q: Queries, roles: Record<TeamRight, string>, role: string): Promise<TeamRight[]> {
  const rows = await q
    .sql(
      `SELECT g.rolname::text AS name FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
        WHERE m.member = ?::text::regrole AND g.rolname = ANY (?::text[])`,
    )
    .all(role, `{${TEAM_RIGHTS.map((right) => `"${roles[right]}"`).join(',')}}`);
  const names = new Set(rows.map((row) => String(row.name)));
  return TEAM_RIGHTS.filter((right) => names.has(roles[right]));
}

async function checkTarget(q: Queries, found: TeamLogin, role: string): Promise<void> {
  if (Object.values(found.roles).includes(role)) throw new UsageError(`${role} is one of the store's own group roles, not a person's; nothing was changed`);
  const row = await q.sql('SELECT rolsuper::int AS super FROM pg_roles WHERE rolname = ?').get(role);
  if (!row) {
    throw new NotFoundError(
      `there is no role ${role} on the team store's server; nothing was changed`,
      `the database's administrator makes one per person: CREATE ROLE ${sqlIdentifier(role)} LOGIN PASSWORD '...' (docs/team.md)`,
    );
  }
  if (Number(row.super) === 1) throw new UsageError(`${role} is a superuser: it may do anything on the server, whatever fsapi grants; nothing was changed`);
}

async function ownersBesides(q: Queries, roles: Record<TeamRight, string>, role: string): Promise<number> {
  const row = await q
    .sql(
      `SELECT count(*)::int AS n FROM pg_roles p WHERE p.rolcanlogin AND NOT p.rolsuper AND p.rolname <> ? AND pg_has_role(p.oid, ?::text::regrole, 'USAGE')`,
    )
    .get(role, roles.owner);
  return Number(row?.n ?? 0);
}

function requireOwner(found: TeamLogin): void {
  if (!found.rightsSetUp) {
    throw new RightsNotSetUp(found.login, found.roles, 'the store has no rights yet');
  }
}

/**
 * Gives `role` exactly `right` on the store (its other fsapi rights taken back), as the login of `q`,
 * which PostgreSQL lets do so only when it is an owner. Owners are granted with ADMIN OPTION: they grant
 * owner in their turn.
 */
export async function grantRight(q: Queries, role: string, right: TeamRight): Promise<RightChange> {
  let found = await teamLogin(q);
  if (!found.rightsSetUp && found.right === 'owner') found = await setUpRights(q);
  requireOwner(found);
  await checkTarget(q, found, role);
  const held = await directRight(q, found.roles, role);
  const before = held[0];
  if (held.includes('owner') && right !== 'owner' && (await ownersBesides(q, found.roles, role)) === 0) {
    throw new RightsRefusal(`${role} is the store's only owner; nothing was changed`, 'grant another login owner first: fsapi store grant <role> owner');
  }
  for (const other of held.filter((h) => h !== right)) await revokeOne(q, found, role, other);
  if (!held.includes(right)) {
    const grant =
      right === 'owner'
        ? `GRANT ${sqlIdentifier(found.roles.owner)} TO ${sqlIdentifier(role)} WITH ADMIN OPTION`
        : `GRANT ${sqlIdentifier(found.roles[right])} TO ${sqlIdentifier(role)} GRANTED BY ${sqlIdentifier(found.roles.owner)}`;
    await q.sql(grant).run();
  }
  return { role, before, after: right };
}

/** Takes every fsapi right of `role` back. */
export async function revokeRights(q: Queries, role: string): Promise<RightChange> {
  const found = await teamLogin(q);
  requireOwner(found);
  await checkTarget(q, found, role);
  const held = await directRight(q, found.roles, role);
  if (held.includes('owner') && (await ownersBesides(q, found.roles, role)) === 0) {
    throw new RightsRefusal(`${role} is the store's only owner; nothing was changed`, 'grant another login owner first: fsapi store grant <role> owner');
  }
  for (const right of held) await revokeOne(q, found, role, right);
  return { role, before: held[0], after: undefined };
}

async function revokeOne(q: Queries, found: TeamLogin, role: string, right: TeamRight): Promise<void> {
  const group = sqlIdentifier(found.roles[right]);
  if (right !== 'owner') {
    await q.sql(`REVOKE ${group} FROM ${sqlIdentifier(role)} GRANTED BY ${sqlIdentifier(found.roles.owner)}`).run();
  } else {
    await q.sql(`REVOKE ${group} FROM ${sqlIdentifier(role)}`).run();
  }
  // PostgreSQL 16 and later keep who granted a membership, and take back only the revoker's own grant
  // (with a warning, not an error): a grant another owner made is still there.
  const left = await q
    .sql(
      `SELECT string_agg(DISTINCT pg_get_userbyid(m.grantor)::text, ', ') AS by FROM pg_auth_members m
        WHERE m.roleid = ?::text::regrole AND m.member = ?::text::regrole`,
    )
    .get(found.roles[right], role);
  if (left?.by !== null && left?.by !== undefined) {
    throw new RightsRefusal(
      `the ${right} right of ${role} was granted by ${String(left.by)}, and PostgreSQL lets only the login that granted it take it back; nothing was changed`,
      `ask ${String(left.by)} to run fsapi store revoke ${role}, or the database's administrator: REVOKE ${group} FROM ${sqlIdentifier(role)} GRANTED BY ${sqlIdentifier(String(left.by).split(', ')[0]!)}`,
    );
  }
}
