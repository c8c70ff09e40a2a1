// `fsapi store migrate <url>`: a machine's records, from the data dir's SQLite store into a team store
// (src/store/postgres.ts), under the API account they belong to (src/auth/records-owner.ts). One write
// transaction in the team store: all of it is copied, or none. Each record carries where it came from
// (`origin`: the local store's id and the record's seq, unique in the team store), so a second run, or a
// run cut short and run again, copies nothing twice. Rows with keys of their own (payees, policies,
// requests) are kept as the team store has them when it has them: the team's policy is never replaced.
import { parseEventRecord, indexEvent } from './events.js';
import type { TeamStore } from './postgres.js';
import type { Queries, SqlRow, SqlValue, Store } from './store.js';

export interface MigrationScope {
  /** The profile whose rows are carried over, and the base address they were written for (normalised). */
  profile: string;
  baseUrl: string;
  /** The owner and base address of the rows in the team store. */
  account: string;
  accountBaseUrl: string;
}

export interface MigrationCounts {
  journal: number;
  transfers: number;
  payees: number;
  policies: number;
  policyChanges: number;
  approvalRequests: number;
  approvalDecisions: number;
  events: number;
}

export interface MigrationResult {
  from: string;
  to: string;
  copied: MigrationCounts;
  /** Already in the team store (an earlier run, or the team's own). */
  present: MigrationCounts;
  /** Not copied because they never applied there: policy changes, when the team store kept its own policy. */
  left: MigrationCounts;
}

const PAGE = 500;

const zero = (): MigrationCounts => ({
  journal: 0,
  transfers: 0,
  payees: 0,
  policies: 0,
  policyChanges: 0,
  approvalRequests: 0,
  approvalDecisions: 0,
  events: 0,
});

export async function migrateToTeam(local: Store, team: TeamStore, scope: MigrationScope, normal: (baseUrl: string) => string): Promise<MigrationResult> {
  const localId = (await local.identity())?.id;
  if (!localId) throw new Error(`${local.file} has no store id`);
  const copied = zero();
  const present = zero();
  const left = zero();
  const count = (key: keyof MigrationCounts, added: boolean) => {
    if (added) copied[key] += 1;
    else present[key] += 1;
  };
  const ours = (row: SqlRow) => String(row.profile) === scope.profile && normal(String(row.base_url)) === scope.baseUrl;
  const owned = (text: string) => {
    // The record as the team store keeps it: its owner and base address are the account's.
    const value = JSON.parse(text) as Record<string, unknown>;
    if ('profile' in value) value.profile = scope.account;
    if ('baseUrl' in value) value.baseUrl = scope.accountBaseUrl;
    return JSON.stringify(value);
  };
  const pages = async (sql: string, each: (row: SqlRow) => Promise<void>) => {
    let after = 0;
    for (;;) {
      const rows = await local.read((lq) => lq.sql(sql).all(after, PAGE));
      for (const row of rows) await each(row);
      if (rows.length < PAGE) return;
      after = Number(rows[rows.length - 1]!.k);
    }
  };
  const everyLocal = (sql: string, ...params: SqlValue[]) => local.read((lq) => lq.sql(sql).all(...params));

  await team.write(async (tq: Queries) => {
    const insert = (sql: string, ...params: SqlValue[]) => tq.sql(sql).all(...params);
    // The journal, in the order written; its seqs are the team store's own, found again by origin.
    await pages('SELECT seq AS k, * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?', async (row) => {
      if (!ours(row)) return;
      const added = await insert(
        `INSERT INTO journal (type, profile, base_url, reference, time, record, origin) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (origin) DO NOTHING RETURNING seq`,
        row.type!,
        scope.account,
        scope.accountBaseUrl,
        row.reference!,
        row.time!,
        owned(String(row.record)),
        `${localId}:${row.seq}`,
      );
      count('journal', added.length > 0);
    });
    await pages('SELECT first_seq AS k, * FROM transfers WHERE first_seq > ? ORDER BY first_seq LIMIT ?', async (row) => {
      if (!ours(row)) return;
      const seq = (await insert('SELECT seq FROM journal WHERE origin = $1', `${localId}:${row.first_seq}`))[0]?.seq;
      if (seq === undefined) throw new Error(`transfer ${String(row.reference)}: its first record is not in the team store`);
      const added = await insert(
        `INSERT INTO transfers (first_seq, profile, base_url, reference, claim_key, sent_ms, account_number, bank_code, amount_kobo, state,
           intents, last_pid, last_run, last_intent_at, answered, doc) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
           ON CONFLICT DO NOTHING RETURNING first_seq`,
        seq,
        scope.account,
        scope.accountBaseUrl,
        row.reference!,
        row.claim_key!,
        row.sent_ms!,
        row.account_number!,
        row.bank_code!,
        row.amount_kobo!,
        row.state!,
        row.intents!,
        row.last_pid!,
        row.last_run!,
        row.last_intent_at!,
        row.answered!,
        owned(String(row.doc)),
      );
      count('transfers', added.length > 0);
    });
    for (const row of await everyLocal('SELECT * FROM payees ORDER BY alias_key')) {
      if (!ours(row)) continue;
      const added = await insert(
        `INSERT INTO payees (profile, base_url, alias_key, alias, account_number, bank_code, bank_name, account_name, added_at, added_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING alias_key`,
        scope.account,
        scope.accountBaseUrl,
        row.alias_key!,
        row.alias!,
        row.account_number!,
        row.bank_code!,
        row.bank_name!,
        row.account_name!,
        row.added_at!,
        row.added_by!,
      );
      count('payees', added.length > 0);
    }
    for (const row of await everyLocal('SELECT * FROM policies')) {
      if (!ours(row)) continue;
      const added = await insert(
        `INSERT INTO policies (profile, base_url, max_per_transfer_kobo, max_per_day_kobo, approval_above_kobo, payees_only, updated_at, updated_by, time_zone,
           four_eyes, require_name) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING RETURNING profile`,
        scope.account,
        scope.accountBaseUrl,
        row.max_per_transfer_kobo!,
        row.max_per_day_kobo!,
        row.approval_above_kobo!,
        row.payees_only!,
        row.updated_at!,
        row.updated_by!,
        row.time_zone ?? null,
        row.four_eyes ?? 0,
        row.require_name ?? 0,
      );
      count('policies', added.length > 0);
    }
    // The audit log of the policy records what was applied: this machine's changes come only with the
    // policy they made, when the team store took it. When the team store kept its own, they never applied
    // to it, and are left out (counted as left); changes an earlier run carried over are there already.
    const policyTaken = copied.policies > 0;
    for (const row of await everyLocal('SELECT * FROM policy_changes ORDER BY id')) {
      if (!ours(row)) continue;
      const origin = `${localId}:policy:${row.id}`;
      if (!policyTaken) {
        const there = (await insert('SELECT 1 AS one FROM policy_changes WHERE origin = $1', origin)).length > 0;
        if (there) present.policyChanges += 1;
        else left.policyChanges += 1;
        continue;
      }
      const added = await insert(
        `INSERT INTO policy_changes (profile, base_url, policy, changed_at, changed_by, origin) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (origin) DO NOTHING RETURNING id`,
        scope.account,
        scope.accountBaseUrl,
        row.policy!,
        row.changed_at!,
        row.changed_by!,
        origin,
      );
      count('policyChanges', added.length > 0);
    }
    // The labels (MCP client, sudo) are carried; the actor is not: the server stamps the login that carries them.
    for (const row of await everyLocal('SELECT * FROM approval_requests ORDER BY created_at, id')) {
      if (!ours(row)) continue;
      const added = await insert(
        `INSERT INTO approval_requests (id, profile, base_url, env, created_at, created_by, origin, status, via) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT DO NOTHING RETURNING id`,
        row.id!,
        scope.account,
        scope.accountBaseUrl,
        row.env!,
        row.created_at!,
        row.created_by!,
        row.origin!,
        row.status!,
        row.via ?? null,
      );
      count('approvalRequests', added.length > 0);
      if (added.length === 0) continue;
      for (const t of await everyLocal('SELECT * FROM approval_transfers WHERE request_id = ? ORDER BY position', row.id!)) {
        await insert(
          `INSERT INTO approval_transfers (request_id, position, reference, reference_key, account_number, bank_code, bank_name, account_name,
             amount_kobo, narration, sender_name, payee, origin, reasons) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
             ON CONFLICT DO NOTHING`,
          t.request_id!,
          t.position!,
          t.reference!,
          t.reference_key!,
          t.account_number!,
          t.bank_code!,
          t.bank_name!,
          t.account_name!,
          t.amount_kobo!,
          t.narration!,
          t.sender_name ?? null,
          t.payee ?? null,
          t.origin ?? null,
          t.reasons!,
        );
      }
    }
    for (const row of await everyLocal(
      'SELECT d.*, r.profile, r.base_url FROM approval_decisions d JOIN approval_requests r ON r.id = d.request_id ORDER BY d.id',
    )) {
      if (!ours(row)) continue;
      // A request the team store had already (its own id) keeps its own decisions.
      const mine = (await insert('SELECT 1 AS one FROM approval_requests WHERE id = $1 AND profile = $2', row.request_id!, scope.account)).length > 0;
      if (!mine) continue;
      const added = await insert(
        `INSERT INTO approval_decisions (request_id, decision, decided_by, decided_at, reason, origin, via) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (origin) DO NOTHING RETURNING id`,
        row.request_id!,
        row.decision!,
        row.decided_by!,
        row.decided_at!,
        row.reason ?? null,
        `${localId}:decision:${row.id}`,
        row.via ?? null,
      );
      count('approvalDecisions', added.length > 0);
    }
    // Webhook events belong to the data dir (webhook listen's), not to a profile: all of them.
    await pages('SELECT seq AS k, * FROM events WHERE seq > ? ORDER BY seq LIMIT ?', async (row) => {
      const added = await insert(
        'INSERT INTO events (kind, id, reference, record, origin) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (origin) DO NOTHING RETURNING seq',
        row.kind!,
        row.id!,
        row.reference!,
        row.record!,
        `${localId}:event:${row.seq}`,
      );
      count('events', added.length > 0);
      const record = parseEventRecord(String(row.record));
      if (added.length > 0 && record) await indexEvent(tq, Number(added[0]!.seq), record);
    });
  });
  return { from: local.file, to: team.file, copied, present, left };
}
