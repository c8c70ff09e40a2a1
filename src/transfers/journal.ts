// The transfer journal: what fsapi knows of every transfer it sent, in the local store
// (`<dataDir>/fsapi.db`, src/store/database.ts).
//
// It is how fsapi keeps its promise to pay exactly once. The intent of a transfer (every field of the
// request, under the reference fsapi made for it) is on disk before the POST leaves, and each outcome is
// on disk as soon as it is known. A process killed in between leaves an intent without an outcome, which
// `transfer log` shows as unknown and `transfer status` settles by looking the reference up.
//
// Two tables: `journal`, every record in the order written (the evidence; `transfer log --jsonl` exports
// it as JSON Lines, one record a line, as journal.jsonl held it), and `transfers`, each transfer's state
// folded from those records as each is written, indexed by reference and by payee and time. So a claim,
// a send, a batch's planning or `transfer log --limit` reads the few rows it needs, whatever the history.
// The queries are src/store/journal.ts's; what a record means, and how it folds, is decided here.
//
// Durability and concurrency: each record is one transaction of the store, committed (fsync-ed) before
// `append` resolves; a write cut short by a kill or a full disk is rolled back whole, never half kept.
// The decision to send is one write transaction for every process sharing the store: `claim` runs the
// caller's checks (the duplicate guard, who owns the reference) on the transaction's view of the journal
// and writes the intent in the same transaction. Before its first intent a run takes its run lock
// (src/store/process-lock.ts), by which others tell a live writer from a dead one.
//
// An existing journal.jsonl (fsapi before the store) is imported once, on first use, and left in place.
//
// Never stored: tokens, credentials, or anything else secret. Records carry the profile name and the
// base address the transfer went to, so one journal serves every profile.
import { integerKobo, type Kobo } from '../money/kobo.js';
import path from 'node:path';
import * as z from 'zod/mini';
import { CorruptFileError } from '../errors.js';
import { openLocalStore, storePath } from '../store/database.js';
import { claimKeyRead, duplicatesRead, JournalStore, type StoredTransfer, type TransferDoc } from '../store/journal.js';
import { policyIn, policyRead, type ControlScope, type Policy } from '../store/controls.js';
import { shownActor } from '../common/actor.js';
import type { PlannedRead, Queries } from '../store/store.js';
import { forEachLine } from '../store/lines.js';
import { holdRunLock, runIsLive, type RunHoldOptions } from '../store/process-lock.js';
import { LeaseLostError } from '../store/run-lease.js';
import { teamChoice } from '../store/team-choice.js';
import { addressOfChoice } from '../store/postgres.js';
import type { VerifiedTransfer } from './types.js';

/** The JSON Lines journal of fsapi before the store: imported once, kept as it was. */
export const JOURNAL_FILE_NAME = 'journal.jsonl';

export function journalPath(dataDir: string): string {
  return path.join(dataDir, JOURNAL_FILE_NAME);
}

// ---- records -----------------------------------------------------------------------------------------

/** Which account a record belongs to: the profile and the base address the request went to. */
const scopeFields = {
  reference: z.string().check(z.minLength(1)),
  profile: z.string(),
  baseUrl: z.string(),
  /** ISO 8601, UTC. */
  time: z.string(),
};

/** The labels of an act as the journal keeps them (src/transfers/asker.ts viaJson): never proof. */
export const askedViaRecord = z.object({
  client: z.nullable(z.object({ name: z.string(), version: z.string() })),
  sudoUser: z.nullable(z.string()),
  sudoUid: z.nullable(z.int()),
});
export type AskedViaRecord = z.infer<typeof askedViaRecord>;

export const intentRecord = z.looseObject({
  type: z.literal('intent'),
  ...scopeFields,
  env: z.string(),
  /** The body of POST /v1/transfer exactly as sent (amount as the API number). */
  request: z.looseObject({
    beneficiaryBankCode: z.string(),
    beneficiaryAccountNumber: z.string(),
    narration: z.string(),
    amount: z.number(),
    reference: z.string(),
    senderName: z.optional(z.string()),
  }),
  /** The amount in integer kobo, the form fsapi compares and sums. */
  amountKobo: z.int().check(z.positive()),
  bankName: z.string(),
  /** The account name the name enquiry returned, which the operator confirmed. */
  accountName: z.string(),
  /** What made the transfer: `send`, or a batch file and row (set by the caller). */
  origin: z.optional(z.string()),
  pid: z.optional(z.int()),
  /** A random id of the process run that wrote it: tells a live writer from one whose pid was reused. */
  run: z.optional(z.string()),
  /** Who sent it: FSAPI_OPERATOR, or the OS user and host (src/controls/policy.ts, operatorName). */
  operator: z.optional(z.string()),
  /** The labels it came with (src/transfers/asker.ts): the MCP client it ran for, the person behind sudo. */
  via: z.optional(askedViaRecord),
});

export const acceptedRecord = z.looseObject({
  type: z.literal('accepted'),
  ...scopeFields,
  status: z.string(),
  message: z.string(),
});

export const rejectedRecord = z.looseObject({
  type: z.literal('rejected'),
  ...scopeFields,
  httpStatus: z.optional(z.int()),
  message: z.string(),
});

export const unknownRecord = z.looseObject({
  type: z.literal('unknown'),
  ...scopeFields,
  /** What failed: "timeout: no answer in 30 s", "lookup found nothing in 30 s", ... */
  error: z.string(),
});

export const reconciledRecord = z.looseObject({
  type: z.literal('reconciled'),
  ...scopeFields,
  /** The status the lookup by reference found. */
  status: z.string(),
  /** Failed or reversed: the reason the API gave, with where it was read (src/notifications/failure-reason.ts). */
  reason: z.optional(z.string()),
});

export const statusCheckedRecord = z.looseObject({
  type: z.literal('status-checked'),
  ...scopeFields,
  found: z.boolean(),
  status: z.optional(z.string()),
  reason: z.optional(z.string()),
});

export const repairedRecord = z.looseObject({
  type: z.literal('repaired'),
  time: z.string(),
  note: z.string(),
});

export const journalRecord = z.discriminatedUnion('type', [
  intentRecord,
  acceptedRecord,
  rejectedRecord,
  unknownRecord,
  reconciledRecord,
  statusCheckedRecord,
  repairedRecord,
]);

export type IntentRecord = z.infer<typeof intentRecord>;
export type AcceptedRecord = z.infer<typeof acceptedRecord>;
export type RejectedRecord = z.infer<typeof rejectedRecord>;
export type UnknownRecord = z.infer<typeof unknownRecord>;
export type ReconciledRecord = z.infer<typeof reconciledRecord>;
export type StatusCheckedRecord = z.infer<typeof statusCheckedRecord>;
export type JournalRecord = z.infer<typeof journalRecord>;
type TransferRecord = Exclude<JournalRecord, { type: 'repaired' }>;

const KNOWN_TYPES = new Set(['intent', 'accepted', 'rejected', 'unknown', 'reconciled', 'status-checked', 'repaired']);

// ---- the journal in the store -------------------------------------------------------------------------

type ReferenceScope = { profile: string; baseUrl: string; reference: string };

/** What a claim's checks may ask, under the claim's transaction (src/transfers/claim.ts). */
export interface ClaimView {
  /** The send attempts of a reference (compared without regard to case). */
  attempts(scope: ReferenceScope): Promise<Attempts | undefined>;
  /** The state of a reference (compared without regard to case). */
  stateOf(scope: ReferenceScope): Promise<TransferState | undefined>;
  /** Whether the run that wrote an attempt without an answer is still running. */
  inFlight(attempts: Pick<Attempts, 'lastPid' | 'lastRun'>): Promise<boolean>;
  /** The duplicate guard's rule over the journal, by its index (JournalStore.duplicates). */
  duplicates(candidate: DuplicateCandidate, now: number, windowMs?: number): Promise<TransferState[]>;
  /** The transfers of a profile (any base address) sent in [fromMs, toMs): the policy's day. */
  sentBetween(profile: string, fromMs: number, toMs: number): Promise<TransferState[]>;
  /** The account's payment policy (src/controls/policy.ts), as the claim's transaction sees it. */
  policy(scope: ControlScope): Promise<Policy | undefined>;
  /**
   * What the lookups that follow will ask, asked now and together: one round trip on a team store rather
   * than one a lookup (a claim's four, a page of a batch's rows). Nothing on the data dir's store.
   */
  expect(lookups: LookupsAhead): Promise<void>;
}

/** What writing `record` reads first (insert): its reference's transfers in any spelling. */
function recordReads(record: JournalRecord): PlannedRead[] {
  return record.type === 'repaired' ? [] : [claimKeyRead(record)];
}

/** The statements of lookups asked in advance. */
function plannedReads(lookups: LookupsAhead): PlannedRead[] {
  return [
    ...(lookups.references ?? []).map(claimKeyRead),
    ...(lookups.duplicates ?? []).map(({ candidate, now, windowMs }) => duplicatesRead(candidate, now, windowMs)),
    ...(lookups.policy ? [policyRead(lookups.policy)] : []),
  ];
}

/** Lookups asked in advance (ClaimView.expect), with the very arguments they will be asked with. */
export interface LookupsAhead {
  /** These references' `attempts`, and their transfers in any spelling (what writing a record of theirs reads): one statement each. */
  references?: ReferenceScope[];
  duplicates?: Array<{ candidate: DuplicateCandidate; now: number; windowMs: number }>;
  policy?: ControlScope;
}

/** What the journal answers, each on one snapshot: `Journal.snapshot` gives one for many lookups. */
export interface JournalView extends ClaimView {
  /** The transfer with exactly this reference in this scope. */
  transfer(scope: ReferenceScope): Promise<TransferState | undefined>;
  /** When the first transfer of this scope was sent, by index; undefined when it has none. */
  firstSentMs(scope: { profile: string; baseUrl: string }): Promise<number | undefined>;
  /** How many transfers the journal holds; with `scope`, of that profile at that base address. */
  count(scope?: { profile: string; baseUrl: string }): Promise<number>;
}

/** Asked right before a claimed transfer's POST leaves: throws (NotSentError) when it may no longer leave. */
export type SendCheck = () => void;

export interface TransferQuery {
  /** Only the last `limit` transfers (still oldest first). */
  limit?: number;
  /** Only transfers sent in [fromMs, toMs). */
  fromMs?: number;
  toMs?: number;
  /** Only this profile and base address. */
  scope?: { profile: string; baseUrl: string };
}

const PAGE = 500;

/** The journal as one transaction sees it: a read's snapshot, or a claim's write. */
class JournalIn implements JournalView {
  constructor(
    private readonly dataDir: string,
    private readonly rows: JournalStore,
    private readonly q: Queries,
  ) {}

  async transfer(scope: ReferenceScope): Promise<TransferState | undefined> {
    const row = await this.rows.exactTransfer(this.q, scope);
    return row ? shownState(row, this.rows) : undefined;
  }

  async attempts(scope: ReferenceScope): Promise<Attempts | undefined> {
    return this.rows.attempts(this.q, scope);
  }

  async stateOf(scope: ReferenceScope): Promise<TransferState | undefined> {
    const exact = await this.transfer(scope);
    if (exact) return exact;
    const first = await this.rows.claimTransfer(this.q, scope);
    return first ? shownState(first, this.rows) : undefined;
  }

  inFlight(attempts: Pick<Attempts, 'lastPid' | 'lastRun'>): Promise<boolean> {
    return runIsLive(this.dataDir, attempts.lastRun, this.q);
  }

  policy(scope: ControlScope): Promise<Policy | undefined> {
    return policyIn(this.q, this.rows.store.backend, scope);
  }

  async expect(lookups: LookupsAhead): Promise<void> {
    await this.q.prefetch?.(plannedReads(lookups));
  }

  async duplicates(candidate: DuplicateCandidate, now: number, windowMs = DUPLICATE_WINDOW_MS): Promise<TransferState[]> {
    return (await this.rows.duplicates(this.q, candidate, now, windowMs)).map((row) => shownState(row, this.rows));
  }

  async sentBetween(profile: string, fromMs: number, toMs: number): Promise<TransferState[]> {
    return (await this.rows.sentBetween(this.q, profile, fromMs, toMs)).map((row) => shownState(row, this.rows));
  }

  firstSentMs(scope: { profile: string; baseUrl: string }): Promise<number | undefined> {
    return this.rows.firstSentMs(this.q, scope);
  }

  count(scope?: { profile: string; baseUrl: string }): Promise<number> {
    return this.rows.count(this.q, scope);
  }
}

export class Journal implements JournalView {
  /** The database file the journal lives in. */
  readonly file: string;
  private opened: Promise<JournalStore> | undefined;
  /** What importing journal.jsonl skipped: told once, with the first transfers read by this object. */
  private importWarnings: string[] = [];

  /** The journal of the data dir `dataDir`. */
  constructor(
    readonly dataDir: string,
    /** Told once when journal.jsonl is carried over (it can take a while for a long history). */
    private readonly note: (line: string) => void = () => undefined,
  ) {
    const team = teamChoice(dataDir);
    this.file = team ? addressOfChoice(team).display : storePath(dataDir);
  }

  static inDataDir(dataDir: string, note?: (line: string) => void): Journal {
    return new Journal(dataDir, note);
  }

  /** The journal's tables, opened on first use, with journal.jsonl carried over the first time. */
  private rows(): Promise<JournalStore> {
    if (!this.opened) {
      const opening = this.open();
      this.opened = opening;
      // Not opened (the store refused, or was busy): asked again by the next call.
      opening.catch(() => {
        if (this.opened === opening) this.opened = undefined;
      });
    }
    return this.opened;
  }

  private async open(): Promise<JournalStore> {
    const rows = new JournalStore(await openLocalStore(this.dataDir));
    // A team store takes a machine's records by `fsapi store migrate`, never by a run that happens by.
    if (!teamChoice(this.dataDir)) this.importWarnings = await importJsonl(rows, journalPath(this.dataDir), this.note);
    return rows;
  }

  /** Runs `work` on one consistent snapshot of the journal: many lookups, one read transaction. */
  async snapshot<T>(work: (journal: JournalView) => Promise<T>): Promise<T> {
    const rows = await this.rows();
    return rows.store.read((q) => work(new JournalIn(this.dataDir, rows, q)));
  }

  /** Appends one record and returns once it is on disk (committed with the others asked for meanwhile: WriteGroups). */
  async append(record: JournalRecord): Promise<void> {
    const parsed = journalRecord.parse(record);
    const rows = await this.rows();
    await rows.store.write((q) => insert(rows, q, parsed), { group: true, reads: recordReads(parsed) });
  }

  /** Appends many records in one transaction (a seeded or imported history): all of them, or none. */
  async appendMany(records: Iterable<JournalRecord>): Promise<number> {
    const rows = await this.rows();
    return rows.store.write(async (q) => {
      let count = 0;
      for (const record of records) {
        await insert(rows, q, journalRecord.parse(record));
        count += 1;
      }
      return count;
    });
  }

  /**
   * Appends `intent` only if `check` (given what the journal holds now, every process's records included)
   * returns without throwing: the check and the write are one transaction for every process sharing the
   * store. This is the claim on a reference: nothing may be sent for it before `claim` has returned, and
   * nothing but the store is awaited inside it (never the API). `hold`: the run's timings, for a team
   * store's lease (src/store/run-lease.ts). Returns the check the POST makes right before it leaves (a team
   * store's send window; nothing on the data dir's store).
   */
  async claim(intent: IntentRecord, check: (journal: ClaimView) => Promise<void>, hold: RunHoldOptions, ahead: LookupsAhead = {}): Promise<SendCheck> {
    const parsed = journalRecord.parse(intent);
    const rows = await this.rows();
    const attempt = async () => {
      const fence = await holdRunLock(this.dataDir, hold);
      await rows.store.write(
        async (q) => {
          await check(new JournalIn(this.dataDir, rows, q));
          await insert(rows, q, parsed);
        },
        // What the check reads first asked with BEGIN (a team store: one round trip for both).
        { fence, group: true, reads: plannedReads(ahead) },
      );
      return fence;
    };
    let fence: Awaited<ReturnType<typeof attempt>>;
    try {
      fence = await attempt();
    } catch (error) {
      // The lease found lost by this claim's fence (nothing of it written): a process that may take a new
      // one (`fsapi mcp`) claims again under it; any other gets the same error from holdRunLock.
      if (!(error instanceof LeaseLostError)) throw error;
      fence = await attempt();
    }
    return fence ? () => fence.mayLeave() : () => undefined;
  }

  /**
   * Appends an outcome of this run's own attempt of a reference only while that attempt is still the
   * reference's last, unanswered (`intents`: its number): an outcome written late never answers an attempt
   * another process made since. Returns whether it was written.
   */
  async appendToOwnAttempt(record: Exclude<JournalRecord, IntentRecord | { type: 'repaired' }>, own: { run: string; intents: number }): Promise<boolean> {
    const parsed = journalRecord.parse(record);
    const rows = await this.rows();
    return rows.store.write(
      async (q) => {
        const attempts = await rows.attempts(q, record);
        if (!attempts || attempts.answered || attempts.lastRun !== own.run || attempts.intents !== own.intents) return false;
        await insert(rows, q, parsed);
        return true;
      },
      // Its attempts and its transfers: one statement, asked with BEGIN when it opens a group.
      { group: true, reads: recordReads(parsed) },
    );
  }

  /** Every record in the order written. Holds them all: exports use `records()`. */
  async read(): Promise<{ records: JournalRecord[]; warnings: string[] }> {
    const records: JournalRecord[] = [];
    for await (const record of this.records()) records.push(record);
    return { records, warnings: this.takeWarnings() };
  }

  /** Every record in the order written, a page at a time (flat memory, for exports). */
  async *records(): AsyncGenerator<JournalRecord> {
    for await (const page of this.recordTextPages()) for (const text of page) yield JSON.parse(text) as JournalRecord;
  }

  /** Every record as the text it was written as (journal.jsonl's lines), oldest first, a page at a time. */
  async *recordTextPages(pageSize = PAGE): AsyncGenerator<string[]> {
    const rows = await this.rows();
    let after = 0;
    for (;;) {
      const page = await rows.store.read((q) => rows.recordsAfter(q, after, pageSize));
      if (page.length > 0) yield page.map((record) => record.text);
      if (page.length < pageSize) return;
      after = page[page.length - 1]!.seq;
    }
  }

  /**
   * Every transfer's last known state in the order `transfer log` shows them (by the time its intent was
   * written, then as journalled), a page at a time: keyset pagination over the index on sent_ms, so each
   * page costs the same whatever the history and only one page is held. Each page is its own read: a
   * transfer written meanwhile comes at the end, a state changed meanwhile shows as it is when its page
   * is read. With `scope`, only that profile's at that base address (by the index on both).
   */
  async *transferPages(pageSize = PAGE, scope?: { profile: string; baseUrl: string }): AsyncGenerator<TransferState[]> {
    const rows = await this.rows();
    // An intent time that is not a date (a hand-edited journal.jsonl) has no sent_ms: those first.
    let afterSeq = 0;
    for (;;) {
      const page = await rows.store.read((q) => rows.undatedTransfersAfter(q, scope, afterSeq, pageSize));
      if (page.length > 0) yield page.map((row) => shownState(row, rows));
      if (page.length < pageSize) break;
      afterSeq = page[page.length - 1]!.firstSeq;
    }
    let after = { sentMs: Number.MIN_SAFE_INTEGER, firstSeq: 0 };
    for (;;) {
      const page = await rows.store.read((q) => rows.datedTransfersAfter(q, scope, after, pageSize));
      if (page.length > 0) yield page.map((row) => shownState(row, rows));
      if (page.length < pageSize) return;
      const last = page[page.length - 1]!;
      after = { sentMs: last.sentMs, firstSeq: last.firstSeq };
    }
  }

  /** What carrying journal.jsonl over skipped, once (the store is opened to know). */
  async importNotes(): Promise<string[]> {
    await this.rows();
    return this.takeWarnings();
  }

  /** Each transfer's last known state, oldest intent first; `query` narrows it (by index). */
  async transfers(query: TransferQuery = {}): Promise<{ transfers: TransferState[]; warnings: string[] }> {
    const rows = await this.rows();
    const docs = await rows.store.read((q) => rows.transfers(q, query));
    return { transfers: docs.map((row) => shownState(row, rows)), warnings: this.takeWarnings() };
  }

  private takeWarnings(): string[] {
    const warnings = this.importWarnings;
    this.importWarnings = [];
    return warnings;
  }

  // Each lookup on a snapshot of its own; many in a row: snapshot().

  transfer(scope: ReferenceScope): Promise<TransferState | undefined> {
    return this.snapshot((journal) => journal.transfer(scope));
  }

  attempts(scope: ReferenceScope): Promise<Attempts | undefined> {
    return this.snapshot((journal) => journal.attempts(scope));
  }

  stateOf(scope: ReferenceScope): Promise<TransferState | undefined> {
    return this.snapshot((journal) => journal.stateOf(scope));
  }

  inFlight(attempts: Pick<Attempts, 'lastPid' | 'lastRun'>): Promise<boolean> {
    return this.snapshot((journal) => journal.inFlight(attempts));
  }

  /** The duplicate guard's rule (JournalStore.duplicates, src/store/journal.ts), by its index. */
  duplicates(candidate: DuplicateCandidate, now: number, windowMs = DUPLICATE_WINDOW_MS): Promise<TransferState[]> {
    return this.snapshot((journal) => journal.duplicates(candidate, now, windowMs));
  }

  sentBetween(profile: string, fromMs: number, toMs: number): Promise<TransferState[]> {
    return this.snapshot((journal) => journal.sentBetween(profile, fromMs, toMs));
  }

  policy(scope: ControlScope): Promise<Policy | undefined> {
    return this.snapshot((journal) => journal.policy(scope));
  }

  /** Each lookup of the journal itself is a snapshot of its own: nothing to ask ahead. */
  async expect(): Promise<void> {}

  firstSentMs(scope: { profile: string; baseUrl: string }): Promise<number | undefined> {
    return this.snapshot((journal) => journal.firstSentMs(scope));
  }

  count(scope?: { profile: string; baseUrl: string }): Promise<number> {
    return this.snapshot((journal) => journal.count(scope));
  }
}

/**
 * Writes one record and folds it into its transfer's row, in the caller's write transaction.
 * An intent makes its transfer (or reopens a refused one) and counts as an attempt of its reference in
 * any case; an outcome, other than a status check, answers the last attempt and changes the state of
 * the transfer with exactly its reference. An outcome of a reference with no intent changes nothing.
 */
async function insert(rows: JournalStore, q: Queries, record: JournalRecord): Promise<void> {
  if (record.type === 'repaired') {
    await rows.appendRecord(q, record.type, { profile: '', baseUrl: '', reference: '' }, record.time, JSON.stringify(record));
    return;
  }
  // The reference's transfers in any case: the first holds its attempts; one may be exactly this reference.
  // Read before the record is appended (which changes no transfer): the writes that follow read nothing
  // back, so a team store sends them together, with the transaction's next statement or its COMMIT.
  const spellings = await rows.claimKeyTransfers(q, record);
  const claimSeq = spellings[0]?.firstSeq;
  const exact = spellings.find((t) => t.reference === record.reference);
  await rows.appendRecord(q, record.type, record, record.time, JSON.stringify(record));
  const save = (firstSeq: number, state: TransferState) => rows.saveState(q, firstSeq, state.state, JSON.stringify(state));
  if (record.type === 'intent') {
    const attempt = { pid: record.pid, run: record.run };
    if (exact) {
      const state = stateOfRow(exact);
      reopen(state, record);
      await save(exact.firstSeq, state);
    } else {
      const state = stateFromIntent(record);
      const sentMs = Date.parse(record.time);
      // The first spelling of the reference holds its attempts: this row when there is none before it.
      await rows.insertTransfer(
        q,
        {
          profile: record.profile,
          baseUrl: record.baseUrl,
          reference: record.reference,
          sentMs: Number.isFinite(sentMs) ? sentMs : null,
          accountNumber: state.accountNumber,
          bankCode: state.bankCode,
          amountKobo: state.amountKobo,
          state: state.state,
          lastIntentAt: record.time,
          doc: JSON.stringify(state),
          actor: await rows.store.actor(),
        },
        claimSeq === undefined ? attempt : undefined,
      );
      if (claimSeq === undefined) return;
    }
    await rows.noteIntent(q, claimSeq ?? exact!.firstSeq, attempt, record.time, await rows.store.actor());
    return;
  }
  const answers = claimSeq !== undefined && record.type !== 'status-checked';
  if (exact) {
    const state = stateOfRow(exact);
    apply(state, record);
    // The usual case, one spelling of the reference: its attempts answered and its state in one statement.
    if (answers && claimSeq === exact.firstSeq) {
      await rows.saveAnsweredState(q, exact.firstSeq, state.state, JSON.stringify(state));
      return;
    }
    await save(exact.firstSeq, state);
  }
  if (answers) await rows.noteAnswered(q, claimSeq);
}

/** A transfer's state as folded and stored: what a new record is folded into. */
function stateOfRow(row: StoredTransfer): TransferState {
  return JSON.parse(row.doc) as TransferState;
}

/**
 * A transfer's state as it is shown: who sent it as the store says (src/common/actor.ts), beside the
 * name the intent gave. Never stored back: stateOfRow is what folds.
 */
function shownState(row: TransferDoc, rows: JournalStore): TransferState {
  const state = JSON.parse(row.doc) as TransferState;
  if (row.actor === undefined) return state;
  const operator = shownActor(rows.store.backend, row.actor, state.operator ?? '');
  return { ...state, actor: row.actor, operator: operator === '' ? state.operator : operator };
}

/**
 * Carries a JSON Lines file of fsapi before the store into it, once: read a chunk at a time and every
 * record inserted as its line is read, all in one transaction (a line that stops the import leaves
 * nothing imported), with a row in `imports` so it is never read again. The file is left as it is.
 */
async function importJsonl(rows: JournalStore, file: string, note: (line: string) => void): Promise<string[]> {
  const name = path.basename(file);
  if (await rows.store.read((q) => rows.imported(q, name))) return [];
  const imported = await rows.store.write(async (q) => {
    if (await rows.imported(q, name)) return undefined; // another process imported it meanwhile
    const parser = new JournalParser(file);
    let records = 0;
    let bytes: number | undefined;
    // A line that stops the import, or a write the store refuses, is thrown as it is; only reading the file is this import's to name.
    let visiting = false;
    try {
      bytes = await forEachLine(file, async (line, number, terminated) => {
        visiting = true;
        const record = parser.line(line, number, terminated);
        if (record) {
          await insert(rows, q, record);
          records += 1;
        }
        visiting = false;
      });
    } catch (error) {
      if (visiting) throw error;
      throw new CorruptFileError(file, (error as Error).message);
    }
    parser.end();
    await rows.noteImport(q, name, new Date().toISOString(), records, bytes ?? 0);
    return { records, warnings: parser.warnings };
  });
  if (!imported) return [];
  if (imported.records > 0) note(`carrying ${imported.records} records of ${file} over into ${rows.store.file} (once; the file is kept)`);
  return imported.warnings;
}

// ---- reading -----------------------------------------------------------------------------------------

/** Parses the journal's text. Exported for tests; `file` is only used in messages. */
export function parseJournal(text: string, file: string): { records: JournalRecord[]; warnings: string[] } {
  const lines = text.split('\n');
  const endsCleanly = text === '' || text.endsWith('\n');
  if (endsCleanly) lines.pop(); // the empty string after the final newline
  const parser = new JournalParser(file);
  const records: JournalRecord[] = [];
  lines.forEach((line, index) => {
    const record = parser.line(line, index + 1, endsCleanly || index < lines.length - 1);
    if (record) records.push(record);
  });
  parser.end();
  return { records, warnings: parser.warnings };
}

/**
 * journal.jsonl's lines, one at a time: a record, or nothing (a blank line, a record type of a newer fsapi,
 * a line skipped with a warning). A line that is not a record is skipped only when it is the last line and
 * has no newline (a write cut short), or when a `repaired` record follows it (an older fsapi repaired it);
 * any other stops the import with CorruptFileError, naming the line.
 */
class JournalParser {
  readonly warnings: string[] = [];
  private pendingBadLine: { number: number; problem: string } | undefined;

  constructor(private readonly file: string) {}

  line(line: string, number: number, terminated: boolean): JournalRecord | undefined {
    if (line.trim() === '') return undefined;
    const parsed = parseLine(line);
    if (parsed.kind === 'bad') {
      this.refusePending();
      if (!terminated) {
        this.warnings.push(`skipped the incomplete last line ${number} of ${this.file}: a write was interrupted`);
        return undefined;
      }
      this.pendingBadLine = { number, problem: parsed.problem };
      return undefined;
    }
    if (this.pendingBadLine) {
      if (parsed.kind === 'record' && parsed.record.type === 'repaired') {
        this.warnings.push(`skipped line ${this.pendingBadLine.number} of ${this.file}: cut short by an interrupted write`);
        this.pendingBadLine = undefined;
        return undefined;
      }
      this.refusePending();
    }
    return parsed.kind === 'record' ? parsed.record : undefined;
  }

  /** At the end of the file: a bad line nothing repaired stops the import. */
  end(): void {
    this.refusePending();
  }

  private refusePending(): void {
    if (this.pendingBadLine)
      throw new CorruptFileError(this.file, `line ${this.pendingBadLine.number} is not a journal record (${this.pendingBadLine.problem})`);
  }
}

type ParsedLine = { kind: 'record'; record: JournalRecord } | { kind: 'ignored' } | { kind: 'bad'; problem: string };

function parseLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'bad', problem: 'not JSON' };
  }
  // A record type from a newer fsapi is left alone rather than refused.
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  if (typeof type === 'string' && !KNOWN_TYPES.has(type)) return { kind: 'ignored' };
  const result = journalRecord.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { kind: 'bad', problem: issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'invalid record' };
  }
  return { kind: 'record', record: result.data };
}

// ---- the state of each transfer --------------------------------------------------------------------

/**
 * - `unknown`: sent (or about to be), no answer known. Do not resend; `fsapi transfer status <ref>`.
 * - `accepted`: the API answered and took the transfer (its status: pending, then successful).
 * - `rejected`: an answer proved a refusal, or the POST never left (src/transfers/refusal-proof.ts); nothing moved.
 * - `reconciled`: the answer was lost, but the lookup by reference found the transfer: it went through.
 */
export type TransferStateName = 'unknown' | 'accepted' | 'rejected' | 'reconciled';

/** A journalled transfer: what was verified and sent (VerifiedTransfer), where, and what became of it. */
export interface TransferState extends VerifiedTransfer {
  profile: string;
  env: string;
  baseUrl: string;
  /** When the intent was written (ISO 8601). */
  sentAt: string;
  /** When the last record about it was written. */
  updatedAt: string;
  origin: string | undefined;
  /** Who sent it, in words (src/common/actor.ts): the intent's operator, after the login on a team store; undefined for a transfer journalled before operators were. */
  operator?: string | undefined;
  /** Who the store says wrote its latest intent (a team store's login; the OS user here); undefined before actors were kept. */
  actor?: string | undefined;
  /** The labels its intent came with (MCP client, sudo); undefined when none. */
  via?: AskedViaRecord | undefined;
  state: TransferStateName;
  /** The API's status (pending, successful, ...) when known. */
  status: string | undefined;
  /** The API's message, or what failed. */
  message: string | undefined;
  httpStatus: number | undefined;
  /** Failed or reversed: the reason the API gave, with where it was read; absent when none was given. */
  reason?: string | undefined;
}

export function transferKey(scope: { profile: string; baseUrl: string; reference: string }): string {
  return `${scope.profile}\u0000${scope.baseUrl}\u0000${scope.reference}`;
}

/** What the journal knows of the send attempts of one reference (in one profile and base address). */
export interface Attempts {
  /** Intents written for it: a resend after a refusal is a second one. */
  intents: number;
  /** Who wrote the last intent: its pid and run id (see intentRecord). */
  lastPid: number | undefined;
  lastRun: string | undefined;
  lastIntentAt: string;
  /** Whether an outcome (accepted, rejected, unknown, reconciled) was written after the last intent. */
  answered: boolean;
}

/** References are compared without regard to case, as a person reading them would. */
export function claimKey(scope: { profile: string; baseUrl: string; reference: string }): string {
  return transferKey({ ...scope, reference: scope.reference.toUpperCase() });
}

function stateFromIntent(record: IntentRecord): TransferState {
  return {
    reference: record.reference,
    profile: record.profile,
    env: record.env,
    baseUrl: record.baseUrl,
    sentAt: record.time,
    updatedAt: record.time,
    accountNumber: record.request.beneficiaryAccountNumber,
    bankCode: record.request.beneficiaryBankCode,
    bankName: record.bankName,
    accountName: record.accountName,
    amountKobo: integerKobo(record.amountKobo),
    narration: record.request.narration,
    senderName: record.request.senderName,
    origin: record.origin,
    operator: record.operator,
    via: record.via,
    state: 'unknown',
    status: undefined,
    message: 'no answer recorded',
    httpStatus: undefined,
  };
}

/** A second intent of a transfer: a resend after a refusal (the claim allows nothing else). */
function reopen(state: TransferState, record: IntentRecord): void {
  // In flight again until its own outcome.
  if (state.state === 'rejected')
    Object.assign(state, { state: 'unknown', status: undefined, message: 'resent; no answer recorded', httpStatus: undefined, updatedAt: record.time });
}

function apply(state: TransferState, record: Exclude<TransferRecord, IntentRecord>): void {
  state.updatedAt = record.time;
  switch (record.type) {
    case 'accepted':
      state.state = 'accepted';
      state.status = record.status;
      state.message = record.message;
      state.httpStatus = undefined;
      return;
    case 'rejected':
      // A refusal never hides a transfer known to have gone through: it can only be the answer to a second
      // attempt (e.g. the API refusing a reference it already holds), and the money moved all the same.
      if (state.state === 'accepted' || state.state === 'reconciled') return;
      state.state = 'rejected';
      state.status = undefined;
      state.message = record.message;
      state.httpStatus = record.httpStatus;
      return;
    case 'unknown':
      // An unknown after a known outcome cannot happen in one run; never let it hide what is known.
      if (state.state === 'unknown') state.message = record.error;
      return;
    case 'reconciled':
      if (state.state === 'unknown' || state.state === 'rejected') state.state = 'reconciled';
      state.status = record.status;
      state.message = 'the outcome was not known; the lookup by reference found it';
      if (record.reason !== undefined) state.reason = record.reason;
      return;
    case 'status-checked':
      if (record.found) {
        if (state.state === 'unknown') {
          state.state = 'reconciled';
          state.message = 'the outcome was not known; the lookup by reference found it';
        }
        state.status = record.status ?? state.status;
        if (record.reason !== undefined) state.reason = record.reason;
      } else if (state.state === 'unknown') {
        state.message = `not found by reference lookup at ${record.time}`;
      }
      return;
  }
}

// ---- the duplicate guard -----------------------------------------------------------------------------

export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/**
 * What the duplicate guard compares (JournalStore.duplicates, src/store/journal.ts, holds the rule):
 * transfers of the same amount to the same account at the same bank, from the same profile and base
 * address, journalled within the window of `now`. Refused transfers do not count: nothing moved.
 */
export interface DuplicateCandidate {
  profile: string;
  baseUrl: string;
  accountNumber: string;
  bankCode: string;
  amountKobo: Kobo;
}
