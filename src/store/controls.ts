// fsapi's own controls: saved payees, the payment policy and the requests held for approval, in the
// local store `<dataDir>/fsapi.db` (src/store/database.ts), through its one connection per process. The
// tables are steps of the store's schema (src/store/migrations.ts, "payees, policies, approvals", "four eyes,
// required names, withdrawn requests, who asked").
//
// Everything is per account: a profile name and the API's base address (`local` for the in-process
// simulator), as the journal keys its transfers. Every change is one transaction (BEGIN IMMEDIATE ...
// COMMIT), and every decision on a request reads the request again inside its transaction: one still held
// is decided there, with the policy's four eyes compared against who asked in that same transaction (the
// actor: src/common/actor.ts); one decided meanwhile is answered as it was decided, and by whom. Two people
// approving the same request at once cannot both win. WAL lets readers go on while one process
// writes; a second writer waits its turn (asynchronously, bounded) instead of failing.
//
// Never stored here: tokens, secrets, anything that could be replayed against the API.
import { integerKobo, type Kobo } from '../money/kobo.js';
import { localStoreExists, openLocalStore, storePath, STORE_FILE_NAME } from './database.js';
import { UsageError } from '../errors.js';
import { DEFAULT_POLICY_TIME_ZONE } from '../common/time-zone.js';
import { randomCrockford } from '../common/crockford.js';
import type { PlannedRead, Queries, SqlRow, SqlValue, Store } from './store.js';
import { shownActor, type Actor } from '../common/actor.js';

export const DATABASE_FILE_NAME = STORE_FILE_NAME;

export function databasePath(dataDir: string): string {
  return storePath(dataDir);
}

/** Which account a control belongs to: the profile and the base address its requests go to. */
export interface ControlScope {
  profile: string;
  baseUrl: string;
}

export interface Payee {
  alias: string;
  accountNumber: string;
  bankCode: string;
  bankName: string;
  /** The name the name enquiry returned when the payee was added: every send must still find it. */
  accountName: string;
  addedAt: string;
  /** Who added it, in words (src/common/actor.ts, shownActor); as given when it is being added: the client's name. */
  addedBy: string;
  /** Who the store says added it (a team store's login; the OS user here); undefined before actors were kept. */
  actor?: string | undefined;
}

/** Amounts in integer kobo; undefined means "no such limit". */
export interface Policy {
  maxPerTransferKobo: Kobo | undefined;
  maxPerDayKobo: Kobo | undefined;
  approvalAboveKobo: Kobo | undefined;
  payeesOnly: boolean;
  /** Four eyes: a held request is approved only by an actor other than the one who asked. */
  fourEyes: boolean;
  /** A script or an agent names the holder (expected name) of an account that is not a saved payee. */
  requireName: boolean;
  /**
   * The IANA zone whose calendar day the daily maximum counts, fixed when the policy was set (a policy
   * stored before zones were: DEFAULT_POLICY_TIME_ZONE, src/common/time-zone.ts).
   */
  timeZone: string;
  updatedAt: string;
  /** Who set it, in words (src/common/actor.ts). */
  updatedBy: string;
  /** Who the store says set it. */
  actor?: string | undefined;
}

/** One transfer held for approval, verified by name enquiry when it was held. */
export interface HeldTransfer {
  reference: string;
  accountNumber: string;
  bankCode: string;
  bankName: string;
  accountName: string;
  amountKobo: Kobo;
  narration: string;
  senderName: string | undefined;
  /** The saved payee it was sent to, when it was. */
  payee: string | undefined;
  /** What made it: `send`, or a batch file and line. */
  origin: string | undefined;
  /** Why it was held: "above the approval threshold of ₦50,000.00", "not a saved payee". */
  reasons: string[];
}

export type RequestStatus = 'held' | 'approved' | 'rejected' | 'withdrawn';

/** Labels that came with an act, from outside: the MCP client it ran for, the person behind sudo. Never proof. */
export interface AskedVia {
  client: { name: string; version: string } | undefined;
  sudoUser: string | undefined;
  sudoUid: number | undefined;
}

/** Who does something to the controls, as the client says it (src/transfers/asker.ts); who acted is the store's to say. */
export interface Asker {
  /** The name on the record: FSAPI_OPERATOR, else user@host. A label. */
  operator: string;
  via: AskedVia | undefined;
}

export interface Decision {
  decision: 'approved' | 'rejected' | 'withdrawn';
  /** Who decided, in words (src/common/actor.ts); as given when deciding: the client's name. */
  by: string;
  /** Who the store says decided (a team store's login: compare this, never `by`). */
  actor?: string | undefined;
  at: string;
  reason: string | undefined;
  /** The labels that came with it. */
  via?: AskedVia | undefined;
}

/** A decision asked for: what, when, why; who is the Asker beside it. */
export interface DecisionAsked {
  decision: Decision['decision'];
  at: string;
  reason: string | undefined;
}

/**
 * What became of a decision asked for, as the request was read inside the transaction that would record it:
 * - decided: recorded (the request as it is now);
 * - already: someone decided it first (its decisions say who): nothing changed;
 * - same-actor: four eyes, and the approver is who asked (or who asked was never recorded): nothing changed;
 * - not-requester: a withdrawal by someone other than who asked: nothing changed;
 * - not-found: no such request of this account.
 */
export type DecideResult =
  | { kind: 'decided'; request: ApprovalRequest; actor: Actor }
  | { kind: 'already'; request: ApprovalRequest; actor: Actor }
  | { kind: 'same-actor'; request: ApprovalRequest; actor: Actor }
  | { kind: 'not-requester'; request: ApprovalRequest; actor: Actor }
  | { kind: 'not-found' };

/** A reference whose expected name did not match the verified holder. */
export interface NameRefusal {
  reference: string;
  accountNumber: string;
  bankCode: string;
  expectedName: string;
  verifiedName: string;
  at: string;
  by: string;
}

export interface ApprovalRequest {
  id: string;
  profile: string;
  baseUrl: string;
  env: string;
  createdAt: string;
  /** Who asked, in words (src/common/actor.ts). */
  createdBy: string;
  /** Who the store says asked (a team store's login: compare this, never `createdBy`); undefined before actors were kept. */
  actor: string | undefined;
  /** The labels that came with the request. */
  via: AskedVia | undefined;
  origin: string;
  status: RequestStatus;
  transfers: HeldTransfer[];
  decisions: Decision[];
}

/**
 * The base address as one account has it, however it was typed: `HTTP://Host:4010/` and `http://host:4010`
 * are one account, so another spelling of --base-url cannot step round its policy.
 */
function base(scope: ControlScope): string {
  return normalBaseUrl(scope.baseUrl);
}

export function normalBaseUrl(baseUrl: string): string {
  if (!/^https?:\/\//i.test(baseUrl)) return baseUrl; // `local`: the in-process simulator
  try {
    return new URL(baseUrl).href.replace(/\/+$/, '');
  } catch {
    return baseUrl;
  }
}

/** `AP-` and 8 Crockford base32 symbols (no I, L, O, U): an id a person reads out and types. */
export function newRequestId(): string {
  return `AP-${randomCrockford(8)}`;
}

/** An id as typed: case and a missing `AP-` forgiven. */
export function normaliseRequestId(text: string): string {
  const upper = text.trim().toUpperCase();
  return upper.startsWith('AP-') ? upper : `AP-${upper}`;
}

export class ControlsStore {
  private constructor(
    private readonly dataDir: string,
    readonly file: string,
  ) {}

  /** Opens (creating and migrating when needed) the local store of `dataDir`, which holds these tables. */
  static async open(dataDir: string): Promise<ControlsStore> {
    const store = await openLocalStore(dataDir);
    return new ControlsStore(dataDir, store.file);
  }

  /**
   * The store when the database exists, else undefined: nothing saved means no payees, no policy. A
   * missing store that the profile expects is refused here (src/store/identity.ts), never read as "none".
   */
  static async openIfExists(dataDir: string): Promise<ControlsStore | undefined> {
    return localStoreExists(dataDir) ? ControlsStore.open(dataDir) : undefined;
  }

  /** Nothing to close: the connection is the process's store, shared with the journal, open until it ends. */
  close(): void {}

  /** The process's store, looked up at each use (tests close stores between cases). */
  private store(): Promise<Store> {
    return openLocalStore(this.dataDir);
  }

  /** Runs `work` in one read transaction; `backend` says how its rows name who acted. */
  private async read<T>(work: (q: Queries, backend: Backend) => Promise<T>): Promise<T> {
    const store = await this.store();
    return store.read((q) => work(q, store.backend));
  }

  /** Runs `work` in one write transaction, given who acts (Store.actor: the server stamps its own on a team store). */
  private async transaction<T>(work: (q: Queries, actor: string, backend: Backend) => Promise<T>): Promise<T> {
    const store = await this.store();
    const actor = await store.actor();
    return store.write((q) => work(q, actor, store.backend));
  }

  /** Who acts through this store (Store.actor): what four eyes compares with a request's `actor`. */
  async actor(): Promise<string> {
    return (await this.store()).actor();
  }

  /** Who acts through this store, and what says so (a database login, an OS user). */
  async actingAs(): Promise<Actor> {
    const store = await this.store();
    return actorOfStore(await store.actor(), store.backend);
  }

  // ---- payees ------------------------------------------------------------------------------------------

  payees(scope: ControlScope): Promise<Payee[]> {
    return this.read(async (q, backend) =>
      (await all(q, 'SELECT * FROM payees WHERE profile = ? AND base_url = ? ORDER BY alias_key', scope.profile, base(scope))).map((row) =>
        toPayee(row, backend),
      ),
    );
  }

  payee(scope: ControlScope, alias: string): Promise<Payee | undefined> {
    return this.read((q, backend) => payeeIn(q, backend, scope, alias));
  }

  /** Adds a payee; false when the alias is taken (nothing changed). */
  addPayee(scope: ControlScope, payee: Payee): Promise<boolean> {
    return this.transaction(async (q, actor, backend) => {
      if (await payeeIn(q, backend, scope, payee.alias)) return false;
      await run(
        q,
        'INSERT INTO payees (profile, base_url, alias_key, alias, account_number, bank_code, bank_name, account_name, added_at, added_by, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        scope.profile,
        base(scope),
        payee.alias.toLowerCase(),
        payee.alias,
        payee.accountNumber,
        payee.bankCode,
        payee.bankName,
        payee.accountName,
        payee.addedAt,
        payee.addedBy,
        actor,
      );
      return true;
    });
  }

  removePayee(scope: ControlScope, alias: string): Promise<boolean> {
    return this.transaction(
      async (q) =>
        (await run(q, 'DELETE FROM payees WHERE profile = ? AND base_url = ? AND alias_key = ?', scope.profile, base(scope), alias.toLowerCase())) > 0,
    );
  }

  // ---- policy ------------------------------------------------------------------------------------------

  policy(scope: ControlScope): Promise<Policy | undefined> {
    return this.read((q, backend) => policyIn(q, backend, scope));
  }

  /** Replaces the policy (undefined: none), and records who changed it to what. */
  setPolicy(scope: ControlScope, policy: Policy | undefined, by: string, at: string): Promise<void> {
    return this.transaction(async (q, actor) => {
      await run(q, 'DELETE FROM policies WHERE profile = ? AND base_url = ?', scope.profile, base(scope));
      if (policy) {
        await run(
          q,
          'INSERT INTO policies (profile, base_url, max_per_transfer_kobo, max_per_day_kobo, approval_above_kobo, payees_only, four_eyes, require_name, time_zone, updated_at, updated_by, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          scope.profile,
          base(scope),
          policy.maxPerTransferKobo ?? null,
          policy.maxPerDayKobo ?? null,
          policy.approvalAboveKobo ?? null,
          policy.payeesOnly ? 1 : 0,
          policy.fourEyes ? 1 : 0,
          policy.requireName ? 1 : 0,
          policy.timeZone,
          at,
          by,
          actor,
        );
      }
      await run(
        q,
        'INSERT INTO policy_changes (profile, base_url, policy, changed_at, changed_by, actor) VALUES (?, ?, ?, ?, ?, ?)',
        scope.profile,
        base(scope),
        JSON.stringify(policy ?? null),
        at,
        by,
        actor,
      );
    });
  }

  // ---- approval requests ---------------------------------------------------------------------------------

  /**
   * Records transfers held for approval as one request. A reference already held by an open (held or
   * approved) request of the same account is refused: a reference pays once, and is held once.
   */
  hold(scope: ControlScope & { env: string }, transfers: readonly HeldTransfer[], origin: string, asker: Asker, at: string): Promise<ApprovalRequest> {
    return this.transaction(async (q, actor, backend) => {
      const holding = await requestsOfReferencesIn(
        q,
        backend,
        scope,
        transfers.map((transfer) => transfer.reference),
      );
      for (const transfer of transfers) {
        const found = holding.get(transfer.reference);
        const open = found && isOpen(found.status) ? found : undefined;
        if (open)
          throw new UsageError(
            `reference ${transfer.reference} is already held in request ${open.id} (${open.status}); nothing was sent`,
            `fsapi approvals show ${open.id}`,
          );
      }
      let id = newRequestId();
      while (await get(q, 'SELECT 1 AS one FROM approval_requests WHERE id = ?', id)) id = newRequestId();
      await run(
        q,
        "INSERT INTO approval_requests (id, profile, base_url, env, created_at, created_by, origin, status, actor, via) VALUES (?, ?, ?, ?, ?, ?, ?, 'held', ?, ?)",
        id,
        scope.profile,
        base(scope),
        scope.env,
        at,
        asker.operator,
        origin,
        actor,
        viaText(asker.via),
      );
      for (const [position, t] of transfers.entries()) {
        await run(
          q,
          'INSERT INTO approval_transfers (request_id, position, reference, reference_key, account_number, bank_code, bank_name, account_name, amount_kobo, narration, sender_name, payee, origin, reasons) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          id,
          position,
          t.reference,
          t.reference.toUpperCase(),
          t.accountNumber,
          t.bankCode,
          t.bankName,
          t.accountName,
          t.amountKobo,
          t.narration,
          t.senderName ?? null,
          t.payee ?? null,
          t.origin ?? null,
          JSON.stringify(t.reasons),
        );
      }
      return (await requestIn(q, backend, scope, id))!;
    });
  }

  /** The request of this account holding `reference`, newest first: open ones before rejected or withdrawn ones. */
  requestOfReference(scope: ControlScope, reference: string): Promise<ApprovalRequest | undefined> {
    return this.read((q, backend) => requestOfReferenceIn(q, backend, scope, reference));
  }

  /** The requests of this account holding each of `references` (as requestOfReference), in one read. */
  requestsOfReferences(scope: ControlScope, references: readonly string[]): Promise<Map<string, ApprovalRequest>> {
    return this.read((q, backend) => requestsOfReferencesIn(q, backend, scope, references));
  }

  request(scope: ControlScope, id: string): Promise<ApprovalRequest | undefined> {
    return this.read((q, backend) => requestIn(q, backend, scope, id));
  }

  /** Every request of this account, newest first. */
  requests(scope: ControlScope): Promise<ApprovalRequest[]> {
    return this.read(async (q, backend) => {
      const rows = await all(q, 'SELECT * FROM approval_requests WHERE profile = ? AND base_url = ? ORDER BY created_at DESC, id', scope.profile, base(scope));
      const requests: ApprovalRequest[] = [];
      for (const row of rows) requests.push(await withDetails(q, backend, row));
      return requests;
    });
  }

  /**
   * Records a decision on a held request, in one transaction that reads the request again first: only a
   * request still `held` is decided, and then only as the policy allows who acts (four eyes; a withdrawal by
   * whoever asked). Every other answer changes nothing and says why, with the request as it is (DecideResult).
   */
  decide(scope: ControlScope, id: string, asked: DecisionAsked, asker: Asker): Promise<DecideResult> {
    return this.transaction(async (q, login, backend): Promise<DecideResult> => {
      const actor = actorOfStore(login, backend);
      const request = await requestIn(q, backend, scope, id);
      if (!request) return { kind: 'not-found' };
      if (request.status !== 'held') return { kind: 'already', request, actor };
      const refused = await refusedActor(q, backend, scope, request, asked.decision, actor);
      if (refused) return { kind: refused, request, actor };
      const changed = await run(
        q,
        "UPDATE approval_requests SET status = ? WHERE id = ? AND profile = ? AND base_url = ? AND status = 'held'",
        asked.decision,
        id,
        scope.profile,
        base(scope),
      );
      // Read held in this very transaction: nobody can have decided it since.
      if (changed !== 1) throw new Error(`request ${id} changed inside its own transaction`);
      await insertDecision(q, id, asked, asker, actor);
      return { kind: 'decided', request: (await requestIn(q, backend, scope, id))!, actor };
    });
  }

  /**
   * Records one more approval of a request already approved (finishing an approval that stopped before its
   * transfers left), as decide allows it (four eyes); a request that is not approved is `already`.
   */
  recordDecision(scope: ControlScope, id: string, asked: DecisionAsked, asker: Asker): Promise<DecideResult> {
    return this.transaction(async (q, login, backend): Promise<DecideResult> => {
      const actor = actorOfStore(login, backend);
      const request = await requestIn(q, backend, scope, id);
      if (!request) return { kind: 'not-found' };
      if (request.status !== 'approved' || asked.decision !== 'approved') return { kind: 'already', request, actor };
      const refused = await refusedActor(q, backend, scope, request, asked.decision, actor);
      if (refused) return { kind: refused, request, actor };
      await insertDecision(q, id, asked, asker, actor);
      return { kind: 'decided', request: (await requestIn(q, backend, scope, id))!, actor };
    });
  }

  // ---- name checks ---------------------------------------------------------------------------------------

  /** Keeps a failed name check against its reference: it is sent later only with an expected name. */
  recordNameRefusal(scope: ControlScope, refusal: NameRefusal): Promise<void> {
    return this.transaction(async (q) => {
      await run(
        q,
        'INSERT INTO name_refusals (profile, base_url, reference_key, account_number, bank_code, expected_name, verified_name, refused_at, refused_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        scope.profile,
        base(scope),
        refusal.reference.toUpperCase(),
        refusal.accountNumber,
        refusal.bankCode,
        refusal.expectedName,
        refusal.verifiedName,
        refusal.at,
        refusal.by,
      );
    });
  }

  /** The last failed name check of `reference` in this account, if any. */
  nameRefusal(scope: ControlScope, reference: string): Promise<NameRefusal | undefined> {
    return this.read(async (q) => {
      const row = await get(
        q,
        'SELECT * FROM name_refusals WHERE profile = ? AND base_url = ? AND reference_key = ? ORDER BY id DESC LIMIT 1',
        scope.profile,
        base(scope),
        reference.toUpperCase(),
      );
      return row
        ? {
            reference,
            accountNumber: String(row.account_number),
            bankCode: String(row.bank_code),
            expectedName: String(row.expected_name),
            verifiedName: String(row.verified_name),
            at: String(row.refused_at),
            by: String(row.refused_by),
          }
        : undefined;
    });
  }
}

/** Who acts, as a store of this backend says it. */
function actorOfStore(name: string, backend: Backend): Actor {
  return { name, kind: backend === 'postgresql' ? 'database login' : 'OS user' };
}

/** Held or approved: the request still stands for its references (rejected and withdrawn ones do not). */
export function isOpen(status: RequestStatus): boolean {
  return status === 'held' || status === 'approved';
}

/**
 * Why `actor` may not make this decision, read in the deciding transaction: an approval under four eyes by
 * who asked (or of a request whose asker was never recorded, which nobody can show to be someone else), a
 * withdrawal by anyone but who asked.
 */
async function refusedActor(
  q: Queries,
  backend: Backend,
  scope: ControlScope,
  request: ApprovalRequest,
  decision: Decision['decision'],
  actor: Actor,
): Promise<'same-actor' | 'not-requester' | undefined> {
  if (decision === 'withdrawn') return request.actor === actor.name ? undefined : 'not-requester';
  if (decision !== 'approved') return undefined;
  const policy = await policyIn(q, backend, scope);
  if (!policy?.fourEyes) return undefined;
  return request.actor === undefined || request.actor === actor.name ? 'same-actor' : undefined;
}

async function insertDecision(q: Queries, id: string, asked: DecisionAsked, asker: Asker, actor: Actor): Promise<void> {
  await run(
    q,
    'INSERT INTO approval_decisions (request_id, decision, decided_by, decided_at, reason, actor, via) VALUES (?, ?, ?, ?, ?, ?, ?)',
    id,
    asked.decision,
    asker.operator,
    asked.at,
    asked.reason ?? null,
    actor.name,
    viaText(asker.via),
  );
}

/** The statement policyIn reads the policy by: what a claim asks in advance (Queries.prefetch). */
export function policyRead(scope: ControlScope): PlannedRead {
  return { text: 'SELECT * FROM policies WHERE profile = ? AND base_url = ?', params: [scope.profile, base(scope)] };
}

/** The account's policy in the caller's transaction (a claim reads it where it decides: src/transfers/journal.ts). */
export async function policyIn(q: Queries, backend: Backend, scope: ControlScope): Promise<Policy | undefined> {
  const read = policyRead(scope);
  const row = await get(q, read.text, ...read.params);
  if (!row) return undefined;
  return {
    maxPerTransferKobo: optionalKobo(row.max_per_transfer_kobo),
    maxPerDayKobo: optionalKobo(row.max_per_day_kobo),
    approvalAboveKobo: optionalKobo(row.approval_above_kobo),
    payeesOnly: row.payees_only === 1,
    fourEyes: row.four_eyes === 1,
    requireName: row.require_name === 1,
    timeZone: optionalText(row.time_zone) ?? DEFAULT_POLICY_TIME_ZONE,
    updatedAt: String(row.updated_at),
    updatedBy: shownActor(backend, optionalText(row.actor), String(row.updated_by)),
    ...actorOf(row),
  };
}

function all(q: Queries, sql: string, ...params: SqlValue[]): Promise<SqlRow[]> {
  return q.sql(sql).all(...params);
}

function get(q: Queries, sql: string, ...params: SqlValue[]): Promise<SqlRow | undefined> {
  return q.sql(sql).get(...params);
}

async function run(q: Queries, sql: string, ...params: SqlValue[]): Promise<number> {
  return Number((await q.sql(sql).run(...params)).changes);
}

type Backend = Store['backend'];

async function payeeIn(q: Queries, backend: Backend, scope: ControlScope, alias: string): Promise<Payee | undefined> {
  const row = await get(q, 'SELECT * FROM payees WHERE profile = ? AND base_url = ? AND alias_key = ?', scope.profile, base(scope), alias.toLowerCase());
  return row ? toPayee(row, backend) : undefined;
}

/** References asked about in one statement: a page of a batch. */
const KEYS_A_STATEMENT = 500;

async function requestOfReferenceIn(q: Queries, backend: Backend, scope: ControlScope, reference: string): Promise<ApprovalRequest | undefined> {
  return (await requestsOfReferencesIn(q, backend, scope, [reference])).get(reference);
}

/**
 * The request of this account holding each of `references`, newest first, open ones before rejected or
 * withdrawn ones: one statement for them all (a page of a batch is 500 rows), then each request found, once.
 */
async function requestsOfReferencesIn(q: Queries, backend: Backend, scope: ControlScope, references: readonly string[]): Promise<Map<string, ApprovalRequest>> {
  const found = new Map<string, ApprovalRequest>();
  if (references.length === 0) return found;
  const keys = [...new Set(references.map((reference) => reference.toUpperCase()))];
  const rows: SqlRow[] = [];
  // A held batch may be 100,000 rows: asked KEYS_A_STATEMENT at a time (SQLite takes at most 32,766 values a statement).
  for (let at = 0; at < keys.length; at += KEYS_A_STATEMENT) {
    const some = keys.slice(at, at + KEYS_A_STATEMENT);
    rows.push(
      ...(await all(
        q,
        `SELECT reference_key, id FROM (
           SELECT t.reference_key, r.id, ROW_NUMBER() OVER (PARTITION BY t.reference_key
             ORDER BY CASE WHEN r.status IN ('rejected', 'withdrawn') THEN 1 ELSE 0 END, r.created_at DESC) AS n
           FROM approval_transfers t JOIN approval_requests r ON r.id = t.request_id
           WHERE t.reference_key IN (${some.map(() => '?').join(', ')}) AND r.profile = ? AND r.base_url = ?) AS newest
         WHERE n = 1`,
        ...some,
        scope.profile,
        base(scope),
      )),
    );
  }
  const requests = new Map<string, ApprovalRequest | undefined>();
  const byKey = new Map<string, ApprovalRequest>();
  for (const row of rows) {
    const id = String(row.id);
    if (!requests.has(id)) requests.set(id, await requestIn(q, backend, scope, id));
    const request = requests.get(id);
    if (request) byKey.set(String(row.reference_key), request);
  }
  for (const reference of references) {
    const request = byKey.get(reference.toUpperCase());
    if (request) found.set(reference, request);
  }
  return found;
}

async function requestIn(q: Queries, backend: Backend, scope: ControlScope, id: string): Promise<ApprovalRequest | undefined> {
  const row = await get(q, 'SELECT * FROM approval_requests WHERE id = ? AND profile = ? AND base_url = ?', id, scope.profile, base(scope));
  return row ? withDetails(q, backend, row) : undefined;
}

async function withDetails(q: Queries, backend: Backend, row: SqlRow): Promise<ApprovalRequest> {
  const id = String(row.id);
  const transfers = (await all(q, 'SELECT * FROM approval_transfers WHERE request_id = ? ORDER BY position', id)).map((t) => ({
    reference: String(t.reference),
    accountNumber: String(t.account_number),
    bankCode: String(t.bank_code),
    bankName: String(t.bank_name),
    accountName: String(t.account_name),
    amountKobo: integerKobo(t.amount_kobo),
    narration: String(t.narration),
    senderName: optionalText(t.sender_name),
    payee: optionalText(t.payee),
    origin: optionalText(t.origin),
    reasons: parseReasons(t.reasons),
  }));
  const decisions = (await all(q, 'SELECT * FROM approval_decisions WHERE request_id = ? ORDER BY id', id)).map(
    (d): Decision => ({
      decision: d.decision === 'rejected' ? 'rejected' : d.decision === 'withdrawn' ? 'withdrawn' : 'approved',
      by: shownActor(backend, optionalText(d.actor), String(d.decided_by)),
      ...actorOf(d),
      at: String(d.decided_at),
      reason: optionalText(d.reason),
      via: parseVia(d.via),
    }),
  );
  return {
    id,
    profile: String(row.profile),
    baseUrl: String(row.base_url),
    env: String(row.env),
    createdAt: String(row.created_at),
    createdBy: shownActor(backend, optionalText(row.actor), String(row.created_by)),
    actor: optionalText(row.actor),
    via: parseVia(row.via),
    origin: String(row.origin),
    status: statusOf(row.status),
    transfers,
    decisions,
  };
}

function toPayee(row: SqlRow, backend: Backend): Payee {
  return {
    alias: String(row.alias),
    accountNumber: String(row.account_number),
    bankCode: String(row.bank_code),
    bankName: String(row.bank_name),
    accountName: String(row.account_name),
    addedAt: String(row.added_at),
    addedBy: shownActor(backend, optionalText(row.actor), String(row.added_by)),
    ...actorOf(row),
  };
}

function optionalKobo(value: SqlValue | undefined): Kobo | undefined {
  return value === null || value === undefined ? undefined : integerKobo(value);
}

/** `{ actor }` when the row names one (rows written before actors were have none). */
function actorOf(row: SqlRow): { actor?: string } {
  const actor = optionalText(row.actor);
  return actor === undefined ? {} : { actor };
}

function optionalText(value: SqlValue | undefined): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

function statusOf(value: SqlValue | undefined): RequestStatus {
  return value === 'approved' || value === 'rejected' || value === 'withdrawn' ? value : 'held';
}

/** The labels of an act as stored (JSON), or NULL when there were none. */
function viaText(via: AskedVia | undefined): string | null {
  if (!via || (via.client === undefined && via.sudoUser === undefined && via.sudoUid === undefined)) return null;
  return JSON.stringify({ client: via.client ?? null, sudoUser: via.sudoUser ?? null, sudoUid: via.sudoUid ?? null });
}

/** The labels read back: only the fields fsapi writes, each of its type (a team store's row is anyone's to edit). */
function parseVia(value: SqlValue | undefined): AskedVia | undefined {
  if (value === null || value === undefined) return undefined;
  try {
    const parsed = JSON.parse(String(value)) as Record<string, unknown>;
    const client = parsed.client as Record<string, unknown> | null | undefined;
    return {
      client: client && typeof client.name === 'string' && typeof client.version === 'string' ? { name: client.name, version: client.version } : undefined,
      sudoUser: typeof parsed.sudoUser === 'string' ? parsed.sudoUser : undefined,
      sudoUid: typeof parsed.sudoUid === 'number' && Number.isSafeInteger(parsed.sudoUid) ? parsed.sudoUid : undefined,
    };
  } catch {
    return undefined;
  }
}

function parseReasons(value: SqlValue | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(String(value));
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}
