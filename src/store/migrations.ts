// The local store's schema, in steps. `PRAGMA user_version` says how many steps a database has taken;
// opening it runs the missing ones, in order, in one transaction (src/store/database.ts). A step is only
// ever added at the end, never edited once released: a database made by one fsapi must open in the next.
// Each step creates with IF NOT EXISTS, so a step interrupted before its user_version was written (it
// cannot be: the step and the version commit together) would still run again cleanly.
//
// A module that keeps its own tables here adds its own step at the end of the list. A step may also fold
// what earlier steps' tables hold into its new ones (`run`), in the same transaction.

import { randomBytes } from '../common/random.js';
import { indexAllEvents } from './events.js';
import type { Queries } from './store.js';

export interface Migration {
  /** What the step adds, for messages. */
  readonly name: string;
  readonly sql: string;
  /** After `sql`, in the same transaction: fills the new tables from what the database already holds. */
  readonly run?: (q: Queries) => Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    name: 'transfer journal, webhook events, imports',
    sql: `
      -- Every journal record, in the order written: the evidence, exported as JSON Lines by
      -- \`transfer log --jsonl\`. Never updated, never deleted.
      CREATE TABLE IF NOT EXISTS journal (
        seq INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        reference TEXT NOT NULL,
        time TEXT NOT NULL,
        record TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS journal_by_reference ON journal (profile, base_url, reference, seq);

      -- Each transfer's state, folded from the records as they are written (src/transfers/journal.ts), so no
      -- command reads the history to know one transfer. first_seq orders transfers as the journal does.
      -- The attempts columns are kept on the first transfer of a claim key (the reference in capitals).
      CREATE TABLE IF NOT EXISTS transfers (
        first_seq INTEGER PRIMARY KEY,
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        reference TEXT NOT NULL,
        claim_key TEXT NOT NULL,
        sent_ms INTEGER,
        account_number TEXT NOT NULL,
        bank_code TEXT NOT NULL,
        amount_kobo INTEGER NOT NULL,
        state TEXT NOT NULL,
        intents INTEGER NOT NULL,
        last_pid INTEGER,
        last_run TEXT,
        last_intent_at TEXT NOT NULL,
        answered INTEGER NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS transfers_by_reference ON transfers (profile, base_url, reference);
      CREATE INDEX IF NOT EXISTS transfers_by_claim ON transfers (profile, base_url, claim_key, first_seq);
      CREATE INDEX IF NOT EXISTS transfers_by_payee ON transfers (profile, base_url, account_number, bank_code, amount_kobo, sent_ms);
      CREATE INDEX IF NOT EXISTS transfers_by_time ON transfers (profile, base_url, sent_ms);

      -- webhook listen's record of each notification and what became of it (src/notifications/event-log.ts).
      CREATE TABLE IF NOT EXISTS events (
        seq INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        reference TEXT NOT NULL,
        record TEXT NOT NULL
      );

      -- Files carried over from before the store (journal.jsonl, events.jsonl): each once.
      CREATE TABLE IF NOT EXISTS imports (
        name TEXT PRIMARY KEY,
        at TEXT NOT NULL,
        records INTEGER NOT NULL,
        bytes INTEGER NOT NULL
      );
    `,
  },
  {
    name: 'transfers by time sent',
    sql: `
      -- transfer log's order (time sent, then as journalled: first_seq is the rowid every index ends with),
      -- read a page at a time from where the last page ended (src/transfers/journal.ts, transferPages).
      CREATE INDEX IF NOT EXISTS transfers_by_sent ON transfers (sent_ms);
    `,
  },
  {
    name: 'webhook events by id and reference, open and undelivered events',
    sql: `
      -- webhook listen asks the event history only by index (src/store/events.ts): an event's earlier
      -- deliveries by reference, an outcome's received record by id, and the two short lists a start needs.
      CREATE INDEX IF NOT EXISTS events_by_reference ON events (reference, kind);
      CREATE INDEX IF NOT EXISTS events_by_id ON events (id, kind);
      -- Received events with no outcome that finishes them (seq: the received record).
      CREATE TABLE IF NOT EXISTS events_open (
        id TEXT PRIMARY KEY,
        seq INTEGER NOT NULL
      );
      -- Verified events whose forward failed (seq: the outcome holding the body; since: first left undelivered).
      CREATE TABLE IF NOT EXISTS events_undelivered (
        id TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        since INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS events_undelivered_by_since ON events_undelivered (since);
    `,
    // A log written before these tables is folded once, a page at a time, by the step that gave them the
    // columns the fold writes (webhook events shared by listeners, below).
  },
  {
    name: 'payees, policies, approvals',
    // src/store/controls.ts. Until this step they were created by that module itself, with these very
    // statements (IF NOT EXISTS): a database that has them already keeps them, and what they hold, as they are.
    sql: `
      CREATE TABLE IF NOT EXISTS payees (
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        alias_key TEXT NOT NULL,
        alias TEXT NOT NULL,
        account_number TEXT NOT NULL,
        bank_code TEXT NOT NULL,
        bank_name TEXT NOT NULL,
        account_name TEXT NOT NULL,
        added_at TEXT NOT NULL,
        added_by TEXT NOT NULL,
        PRIMARY KEY (profile, base_url, alias_key)
      );
      CREATE TABLE IF NOT EXISTS policies (
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        max_per_transfer_kobo INTEGER,
        max_per_day_kobo INTEGER,
        approval_above_kobo INTEGER,
        payees_only INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL,
        updated_by TEXT NOT NULL,
        PRIMARY KEY (profile, base_url)
      );
      CREATE TABLE IF NOT EXISTS policy_changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        policy TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        changed_by TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS approval_requests (
        id TEXT PRIMARY KEY,
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        env TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        origin TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('held', 'approved', 'rejected'))
      );
      CREATE INDEX IF NOT EXISTS approval_requests_scope ON approval_requests (profile, base_url, created_at);
      CREATE TABLE IF NOT EXISTS approval_transfers (
        request_id TEXT NOT NULL REFERENCES approval_requests (id),
        position INTEGER NOT NULL,
        reference TEXT NOT NULL,
        reference_key TEXT NOT NULL,
        account_number TEXT NOT NULL,
        bank_code TEXT NOT NULL,
        bank_name TEXT NOT NULL,
        account_name TEXT NOT NULL,
        amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
        narration TEXT NOT NULL,
        sender_name TEXT,
        payee TEXT,
        origin TEXT,
        reasons TEXT NOT NULL,
        PRIMARY KEY (request_id, position)
      );
      CREATE INDEX IF NOT EXISTS approval_transfers_reference ON approval_transfers (reference_key);
      CREATE TABLE IF NOT EXISTS approval_decisions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id TEXT NOT NULL REFERENCES approval_requests (id),
        decision TEXT NOT NULL CHECK (decision IN ('approved', 'rejected')),
        decided_by TEXT NOT NULL,
        decided_at TEXT NOT NULL,
        reason TEXT
      );
    `,
  },
  {
    name: 'the time zone of a policy',
    // The zone whose calendar day the daily maximum counts (src/controls/policy.ts). NULL in a policy stored
    // before this step: read as Africa/Lagos, the API's country (src/common/time-zone.ts).
    sql: `
      ALTER TABLE policies ADD COLUMN time_zone TEXT;
    `,
  },
  {
    name: 'store identity',
    // A profile remembers the store that holds its records by this id and by `writes` (src/store/identity.ts):
    // an emptied store, another one, an older copy or one that lost its -wal is told apart before anything
    // is sent. `writes` counts every record added from here on, and starts at what the store already holds.
    sql: `
      CREATE TABLE IF NOT EXISTS store_identity (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        writes INTEGER NOT NULL
      );
      CREATE TRIGGER IF NOT EXISTS writes_journal AFTER INSERT ON journal BEGIN UPDATE store_identity SET writes = writes + 1; END;
      CREATE TRIGGER IF NOT EXISTS writes_events AFTER INSERT ON events BEGIN UPDATE store_identity SET writes = writes + 1; END;
      CREATE TRIGGER IF NOT EXISTS writes_payees_added AFTER INSERT ON payees BEGIN UPDATE store_identity SET writes = writes + 1; END;
      CREATE TRIGGER IF NOT EXISTS writes_payees_removed AFTER DELETE ON payees BEGIN UPDATE store_identity SET writes = writes + 1; END;
      CREATE TRIGGER IF NOT EXISTS writes_policy AFTER INSERT ON policy_changes BEGIN UPDATE store_identity SET writes = writes + 1; END;
      CREATE TRIGGER IF NOT EXISTS writes_requests AFTER INSERT ON approval_requests BEGIN UPDATE store_identity SET writes = writes + 1; END;
      CREATE TRIGGER IF NOT EXISTS writes_decisions AFTER INSERT ON approval_decisions BEGIN UPDATE store_identity SET writes = writes + 1; END;
    `,
    run: async (q) => {
      await q
        .sql(
          `INSERT OR IGNORE INTO store_identity (only, id, created_at, writes) VALUES (1, ?, ?,
          (SELECT count(*) FROM journal) + (SELECT count(*) FROM events) + (SELECT count(*) FROM payees)
          + (SELECT count(*) FROM policy_changes) + (SELECT count(*) FROM approval_requests) + (SELECT count(*) FROM approval_decisions))`,
        )
        .run(newStoreId(), new Date().toISOString());
    },
  },
  {
    name: 'who acted beside each name',
    // Who the store says acted (src/common/actor.ts): here the OS user and host, written by fsapi; on a
    // team store the login, stamped by the server. NULL on rows written before this step.
    sql: `
      ALTER TABLE transfers ADD COLUMN actor TEXT;
      ALTER TABLE payees ADD COLUMN actor TEXT;
      ALTER TABLE policies ADD COLUMN actor TEXT;
      ALTER TABLE policy_changes ADD COLUMN actor TEXT;
      ALTER TABLE approval_requests ADD COLUMN actor TEXT;
      ALTER TABLE approval_decisions ADD COLUMN actor TEXT;
    `,
  },
  {
    name: 'four eyes, required names, withdrawn requests, who asked',
    // src/store/controls.ts. The policy's two switches (four eyes: the member who asked may not approve;
    // required names: a script or an agent names the holder of an account that is not a saved payee);
    // a request may be withdrawn by whoever asked; each request and decision keeps, beside its actor, the
    // labels that came with it (the MCP client, the person behind sudo: `via`, JSON); a failed name check is
    // kept against its reference. SQLite cannot change a CHECK in place: the request tables are made again,
    // rows kept.
    sql: `
      -- node:sqlite checks foreign keys: the new tables refer to each other, the old ones are dropped children
      -- first, and renaming the new parent makes its children's references follow it.
      ALTER TABLE policies ADD COLUMN four_eyes INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE policies ADD COLUMN require_name INTEGER NOT NULL DEFAULT 0;

      CREATE TABLE approval_requests_next (
        id TEXT PRIMARY KEY,
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        env TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        origin TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('held', 'approved', 'rejected', 'withdrawn')),
        actor TEXT,
        via TEXT
      );
      CREATE TABLE approval_transfers_next (
        request_id TEXT NOT NULL REFERENCES approval_requests_next (id),
        position INTEGER NOT NULL,
        reference TEXT NOT NULL,
        reference_key TEXT NOT NULL,
        account_number TEXT NOT NULL,
        bank_code TEXT NOT NULL,
        bank_name TEXT NOT NULL,
        account_name TEXT NOT NULL,
        amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
        narration TEXT NOT NULL,
        sender_name TEXT,
        payee TEXT,
        origin TEXT,
        reasons TEXT NOT NULL,
        PRIMARY KEY (request_id, position)
      );
      CREATE TABLE approval_decisions_next (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id TEXT NOT NULL REFERENCES approval_requests_next (id),
        decision TEXT NOT NULL CHECK (decision IN ('approved', 'rejected', 'withdrawn')),
        decided_by TEXT NOT NULL,
        decided_at TEXT NOT NULL,
        reason TEXT,
        actor TEXT,
        via TEXT
      );
      INSERT INTO approval_requests_next (id, profile, base_url, env, created_at, created_by, origin, status, actor)
        SELECT id, profile, base_url, env, created_at, created_by, origin, status, actor FROM approval_requests;
      INSERT INTO approval_transfers_next SELECT request_id, position, reference, reference_key, account_number, bank_code, bank_name,
        account_name, amount_kobo, narration, sender_name, payee, origin, reasons FROM approval_transfers;
      INSERT INTO approval_decisions_next (id, request_id, decision, decided_by, decided_at, reason, actor)
        SELECT id, request_id, decision, decided_by, decided_at, reason, actor FROM approval_decisions;
      DROP TABLE approval_decisions;
      DROP TABLE approval_transfers;
      DROP TABLE approval_requests;
      ALTER TABLE approval_requests_next RENAME TO approval_requests;
      ALTER TABLE approval_transfers_next RENAME TO approval_transfers;
      ALTER TABLE approval_decisions_next RENAME TO approval_decisions;
      CREATE INDEX IF NOT EXISTS approval_requests_scope ON approval_requests (profile, base_url, created_at);
      CREATE INDEX IF NOT EXISTS approval_transfers_reference ON approval_transfers (reference_key);
      CREATE TRIGGER IF NOT EXISTS writes_requests AFTER INSERT ON approval_requests BEGIN UPDATE store_identity SET writes = writes + 1; END;
      CREATE TRIGGER IF NOT EXISTS writes_decisions AFTER INSERT ON approval_decisions BEGIN UPDATE store_identity SET writes = writes + 1; END;

      -- A reference whose expected name did not match the verified one: sent later only with a name.
      CREATE TABLE IF NOT EXISTS name_refusals (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        reference_key TEXT NOT NULL,
        account_number TEXT NOT NULL,
        bank_code TEXT NOT NULL,
        expected_name TEXT NOT NULL,
        verified_name TEXT NOT NULL,
        refused_at TEXT NOT NULL,
        refused_by TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS name_refusals_by_reference ON name_refusals (profile, base_url, reference_key);
    `,
  },
  {
    name: 'webhook events shared by listeners: the account of each open event, claims on references',
    // Listeners of one account on several machines share one event log (a team store): each takes open
    // events of its account, and the reference they name, by a claim with an end (src/store/event-log.ts),
    // so an event is processed once, whichever listener received it, and a listener that dies leaves its
    // events to another once its claims run out. The open and undelivered lists are folded again from the
    // records, which now say the account (NULL before: any listener of the data dir takes those up).
    sql: `
      ALTER TABLE events_open ADD COLUMN account TEXT;
      ALTER TABLE events_open ADD COLUMN reference TEXT;
      CREATE INDEX IF NOT EXISTS events_open_by_seq ON events_open (seq);
      ALTER TABLE events_undelivered ADD COLUMN account TEXT;
      CREATE TABLE IF NOT EXISTS event_claims (
        account TEXT NOT NULL,
        reference TEXT NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_until INTEGER NOT NULL,
        PRIMARY KEY (account, reference)
      );
      CREATE INDEX IF NOT EXISTS event_claims_by_listener ON event_claims (claimed_by);
    `,
    run: indexAllEvents,
  },
  {
    name: "a profile's transfers in journal order",
    // `transfer log --limit 50` reads a profile's last transfers by first_seq: without this index SQLite
    // took the profile's rows by time and sorted all of them (300 ms with 200,000 journalled).
    sql: `
      CREATE INDEX IF NOT EXISTS transfers_by_scope_seq ON transfers (profile, base_url, first_seq);
    `,
  },
];

/** 16 hex digits, grouped for reading aloud: `st-3f9a-c2d1-07be-5a44`. */
function newStoreId(): string {
  return `st-${randomBytes(8)
    .toString('hex')
    .replace(/(.{4})(?=.)/g, '$1-')}`;
}
