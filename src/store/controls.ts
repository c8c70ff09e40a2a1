// fsapi's own controls: saved payees, the payment policy and the requests held for approval, in the
// local store `<dataDir>/fsapi.db` (src/store/database.ts), through its one connection per process. The
// tables are a step of the store's schema (src/store/migrations.ts, "payees, policies, approvals").
//
// Everything is per account: a profile name and the API's base address (`local` for the in-process
// simulator), as the journal keys its transfers. Every change is one transaction (BEGIN IMMEDIATE ...
// COMMIT) and every decision on a request is a conditional UPDATE (`WHERE status = 'held'`), so two
// people approving the same request at once cannot both win. WAL lets readers go on while one process
// writes; a second writer waits its turn (asynchronously, bounded) instead of failing.
//
// Never stored here: tokens, secrets, anything that could be replayed against the API.
import { integerKobo, type Kobo } from '../money/kobo.js';
import { localStoreExists, openLocalStore, storePath, STORE_FILE_NAME } from './database.js';
import { UsageError } from '../errors.js';
import { DEFAULT_POLICY_TIME_ZONE } from '../common/time-zone.js';
import { randomCrockford } from '../common/crockford.js';
import type { Queries, SqlRow, SqlValue, Store } from './store.js';

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
  addedBy: string;
}

/** Amounts in integer kobo; undefined means "no such limit". */
export interface Policy {
  maxPerTransferKobo: Kobo | undefined;
  maxPerDayKobo: Kobo | undefined;
  approvalAboveKobo: Kobo | undefined;
  payeesOnly: boolean;
  /**
   * The IANA zone whose calendar day the daily maximum counts, fixed when the policy was set (a policy
   * stored before zones were: DEFAULT_POLICY_TIME_ZONE, src/common/time-zone.ts).
   */
  timeZone: string;
  updatedAt: string;
  updatedBy: string;
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

export type RequestStatus = 'held' | 'approved' | 'rejected';

export interface Decision {
  decision: 'approved' | 'rejected';
  /** The OS user who decided. */
  by: string;
  at: string;
  reason: string | undefined;
}

export interface ApprovalRequest {
  id: string;
  profile: string;
  baseUrl: string;
  env: string;
  createdAt: string;
  createdBy: string;
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

  /** Runs `work` in one read transaction. */
  private async read<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    return (await this.store()).read(work);
  }

  /** Runs `work` in one write transaction. */
  private async transaction<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    return (await this.store()).write(work);
  }

  // ---- payees ------------------------------------------------------------------------------------------

  payees(scope: ControlScope): Promise<Payee[]> {
    return this.read(async (q) =>
      (await all(q, 'SELECT * FROM payees WHERE profile = ? AND base_url = ? ORDER BY alias_key', scope.profile, base(scope))).map(toPayee),
    );
  }

  payee(scope: ControlScope, alias: string): Promise<Payee | undefined> {
    return this.read((q) => payeeIn(q, scope, alias));
  }

  /** Adds a payee; false when the alias is taken (nothing changed). */
  addPayee(scope: ControlScope, payee: Payee): Promise<boolean> {
    return this.transaction(async (q) => {
      if (await payeeIn(q, scope, payee.alias)) return false;
      await run(
        q,
        'INSERT INTO payees (profile, base_url, alias_key, alias, account_number, bank_code, bank_name, account_name, added_at, added_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
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
    return this.read(async (q) => {
      const row = await get(q, 'SELECT * FROM policies WHERE profile = ? AND base_url = ?', scope.profile, base(scope));
      if (!row) return undefined;
      return {
        maxPerTransferKobo: optionalKobo(row.max_per_transfer_kobo),
        maxPerDayKobo: optionalKobo(row.max_per_day_kobo),
        approvalAboveKobo: optionalKobo(row.approval_above_kobo),
        payeesOnly: row.payees_only === 1,
        timeZone: optionalText(row.time_zone) ?? DEFAULT_POLICY_TIME_ZONE,
        updatedAt: String(row.updated_at),
        updatedBy: String(row.updated_by),
      };
    });
  }

  /** Replaces the policy (undefined: none), and records who changed it to what. */
  setPolicy(scope: ControlScope, policy: Policy | undefined, by: string, at: string): Promise<void> {
    return this.transaction(async (q) => {
      await run(q, 'DELETE FROM policies WHERE profile = ? AND base_url = ?', scope.profile, base(scope));
      if (policy) {
        await run(
          q,
          'INSERT INTO policies (profile, base_url, max_per_transfer_kobo, max_per_day_kobo, approval_above_kobo, payees_only, time_zone, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          scope.profile,
          base(scope),
          policy.maxPerTransferKobo ?? null,
          policy.maxPerDayKobo ?? null,
          policy.approvalAboveKobo ?? null,
          policy.payeesOnly ? 1 : 0,
          policy.timeZone,
          at,
          by,
        );
      }
      await run(
        q,
        'INSERT INTO policy_changes (profile, base_url, policy, changed_at, changed_by) VALUES (?, ?, ?, ?, ?)',
        scope.profile,
        base(scope),
        JSON.stringify(policy ?? null),
        at,
        by,
      );
    });
  }

  // ---- approval requests ---------------------------------------------------------------------------------

  /**
   * Records transfers held for approval as one request. A reference already held by an open (held or
   * approved) request of the same account is refused: a reference pays once, and is held once.
   */
  hold(scope: ControlScope & { env: string }, transfers: readonly HeldTransfer[], origin: string, by: string, at: string): Promise<ApprovalRequest> {
    return this.transaction(async (q) => {
      for (const transfer of transfers) {
        const found = await requestOfReferenceIn(q, scope, transfer.reference);
        const open = found && found.status !== 'rejected' ? found : undefined;
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
        "INSERT INTO approval_requests (id, profile, base_url, env, created_at, created_by, origin, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'held')",
        id,
        scope.profile,
        base(scope),
        scope.env,
        at,
        by,
        origin,
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
      return (await requestIn(q, scope, id))!;
    });
  }

  /** The request of this account holding `reference`, newest first: open ones before rejected ones. */
  requestOfReference(scope: ControlScope, reference: string): Promise<ApprovalRequest | undefined> {
    return this.read((q) => requestOfReferenceIn(q, scope, reference));
  }

  /** The requests of this account holding each of `references` (as requestOfReference), in one read. */
  requestsOfReferences(scope: ControlScope, references: readonly string[]): Promise<Map<string, ApprovalRequest>> {
    return this.read(async (q) => {
      const found = new Map<string, ApprovalRequest>();
      for (const reference of references) {
        const request = await requestOfReferenceIn(q, scope, reference);
        if (request) found.set(reference, request);
      }
      return found;
    });
  }

  request(scope: ControlScope, id: string): Promise<ApprovalRequest | undefined> {
    return this.read((q) => requestIn(q, scope, id));
  }

  /** Every request of this account, newest first. */
  requests(scope: ControlScope): Promise<ApprovalRequest[]> {
    return this.read(async (q) => {
      const rows = await all(q, 'SELECT * FROM approval_requests WHERE profile = ? AND base_url = ? ORDER BY created_at DESC, id', scope.profile, base(scope));
      const requests: ApprovalRequest[] = [];
      for (const row of rows) requests.push(await withDetails(q, row));
      return requests;
    });
  }

  /**
   * Records a decision on a held request. Only a request still `held` changes: true when this call
   * decided it, false when someone decided it first (nothing changed then).
   */
  decide(scope: ControlScope, id: string, decision: Decision): Promise<boolean> {
    return this.transaction(async (q) => {
      const changed = await run(
        q,
        "UPDATE approval_requests SET status = ? WHERE id = ? AND profile = ? AND base_url = ? AND status = 'held'",
        decision.decision,
        id,
        scope.profile,
        base(scope),
      );
      if (changed === 0) return false;
      await run(
        q,
        'INSERT INTO approval_decisions (request_id, decision, decided_by, decided_at, reason) VALUES (?, ?, ?, ?, ?)',
        id,
        decision.decision,
        decision.by,
        decision.at,
        decision.reason ?? null,
      );
      return true;
    });
  }

  /** Records one more decision on a request already approved (finishing an approval that stopped), unchanged otherwise. */
  recordDecision(scope: ControlScope, id: string, decision: Decision): Promise<void> {
    return this.transaction(async (q) => {
      if (
        !(await get(
          q,
          "SELECT 1 AS one FROM approval_requests WHERE id = ? AND profile = ? AND base_url = ? AND status = 'approved'",
          id,
          scope.profile,
          base(scope),
        ))
      ) {
        throw new UsageError(`request ${id} is not approved`);
      }
      await run(
        q,
        'INSERT INTO approval_decisions (request_id, decision, decided_by, decided_at, reason) VALUES (?, ?, ?, ?, ?)',
        id,
        decision.decision,
        decision.by,
        decision.at,
        decision.reason ?? null,
      );
    });
  }
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

async function payeeIn(q: Queries, scope: ControlScope, alias: string): Promise<Payee | undefined> {
  const row = await get(q, 'SELECT * FROM payees WHERE profile = ? AND base_url = ? AND alias_key = ?', scope.profile, base(scope), alias.toLowerCase());
  return row ? toPayee(row) : undefined;
}

async function requestOfReferenceIn(q: Queries, scope: ControlScope, reference: string): Promise<ApprovalRequest | undefined> {
  const row = await get(
    q,
    `SELECT r.id FROM approval_transfers t JOIN approval_requests r ON r.id = t.request_id
      WHERE t.reference_key = ? AND r.profile = ? AND r.base_url = ?
      ORDER BY CASE r.status WHEN 'rejected' THEN 1 ELSE 0 END, r.created_at DESC LIMIT 1`,
    reference.toUpperCase(),
    scope.profile,
    base(scope),
  );
  return row ? requestIn(q, scope, String(row.id)) : undefined;
}

async function requestIn(q: Queries, scope: ControlScope, id: string): Promise<ApprovalRequest | undefined> {
  const row = await get(q, 'SELECT * FROM approval_requests WHERE id = ? AND profile = ? AND base_url = ?', id, scope.profile, base(scope));
  return row ? withDetails(q, row) : undefined;
}

async function withDetails(q: Queries, row: SqlRow): Promise<ApprovalRequest> {
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
  const decisions = (await all(q, 'SELECT * FROM approval_decisions WHERE request_id = ? ORDER BY id', id)).map((d) => ({
    decision: d.decision === 'rejected' ? ('rejected' as const) : ('approved' as const),
    by: String(d.decided_by),
    at: String(d.decided_at),
    reason: optionalText(d.reason),
  }));
  return {
    id,
    profile: String(row.profile),
    baseUrl: String(row.base_url),
    env: String(row.env),
    createdAt: String(row.created_at),
    createdBy: String(row.created_by),
    origin: String(row.origin),
    status: row.status === 'approved' ? 'approved' : row.status === 'rejected' ? 'rejected' : 'held',
    transfers,
    decisions,
  };
}

function toPayee(row: SqlRow): Payee {
  return {
    alias: String(row.alias),
    accountNumber: String(row.account_number),
    bankCode: String(row.bank_code),
    bankName: String(row.bank_name),
    accountName: String(row.account_name),
    addedAt: String(row.added_at),
    addedBy: String(row.added_by),
  };
}

function optionalKobo(value: SqlValue | undefined): Kobo | undefined {
  return value === null || value === undefined ? undefined : integerKobo(value);
}

function optionalText(value: SqlValue | undefined): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

function parseReasons(value: SqlValue | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(String(value));
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}
