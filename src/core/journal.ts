// The transfer journal: `<dataDir>/journal.jsonl`, one JSON record per line, only ever appended to.
//
// It is how fsapi keeps its promise to pay exactly once. The intent of a transfer (every field of the
// request, under the reference fsapi made for it) is on disk before the POST leaves, and each outcome is
// on disk as soon as it is known. A process killed in between leaves an intent without an outcome, which
// `transfer log` shows as unknown and `transfer status` settles by looking the reference up.
//
// Durability and concurrency:
// - every record is written with ONE write() on a file descriptor opened with O_APPEND, then fsync-ed
//   (the descriptor is also readable, to check that the file ends with a whole line before appending).
//   With O_APPEND the kernel moves to the end and writes in one step, so records from several processes
//   (and from several transfers in flight in one process) never interleave within a line or overwrite
//   each other. Within one process appends are also queued, so a slow disk cannot reorder them.
// - a line cut short (a write interrupted by power loss or a full disk) is detected: at the end of the
//   file it is skipped with a warning; the next append first ends that line and writes a `repaired`
//   marker, so the cut line is recognised later too, instead of corrupting the record glued to it.
// - any other unreadable line is an error naming the file and line: the journal is evidence of money
//   sent, so fsapi never skips or rewrites it silently.
//
// Never stored: tokens, credentials, or anything else secret. Records carry the profile name and the
// base address the transfer went to, so one journal serves every profile.
import { constants } from 'node:fs';
import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/mini';
import { CorruptFileError } from '../errors.js';

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
});

export const statusCheckedRecord = z.looseObject({
  type: z.literal('status-checked'),
  ...scopeFields,
  found: z.boolean(),
  status: z.optional(z.string()),
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

// ---- writing -----------------------------------------------------------------------------------------

// One queue per file in this process: appends run one after the other, in the order they were asked for.
const queues = new Map<string, Promise<unknown>>();

export class Journal {
  constructor(readonly file: string) {}

  static inDataDir(dataDir: string): Journal {
    return new Journal(journalPath(dataDir));
  }

  /** Appends one record and returns once it is on disk (fsync-ed). */
  append(record: JournalRecord): Promise<void> {
    const line = `${JSON.stringify(journalRecord.parse(record))}\n`;
    const previous = queues.get(this.file) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.write(line));
    queues.set(this.file, next);
    void next.finally(() => {
      if (queues.get(this.file) === next) queues.delete(this.file);
    }).catch(() => undefined);
    return next;
  }

  private async write(line: string): Promise<void> {
    const dir = path.dirname(this.file);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await open(this.file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
    let created = false;
    try {
      const { size } = await handle.stat();
      created = size === 0;
      let text = line;
      if (size > 0 && !(await endsWithWholeLine(handle, size))) {
        // The last line was cut short. End it, and say so, so a reader knows to skip it (see the header).
        const marker: JournalRecord = { type: 'repaired', time: new Date().toISOString(), note: 'the line before was cut short by an interrupted write' };
        text = `\n${JSON.stringify(marker)}\n${line}`;
      }
      const buffer = Buffer.from(text, 'utf8');
      // One write call for the whole record; a short write (disk full) is finished, and then shows as a
      // cut line at worst, never as two records mixed.
      let offset = 0;
      while (offset < buffer.length) {
        const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
        offset += bytesWritten;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (created) await syncDirectory(dir);
  }

  /** Every record in file order, and warnings about lines that were skipped. A missing file is empty. */
  async read(): Promise<{ records: JournalRecord[]; warnings: string[] }> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], warnings: [] };
      throw new CorruptFileError(this.file, (error as Error).message);
    }
    return parseJournal(text, this.file);
  }

  /** Each transfer's last known state, oldest intent first. */
  async transfers(): Promise<{ transfers: TransferState[]; warnings: string[] }> {
    const { records, warnings } = await this.read();
    return { transfers: summarise(records), warnings };
  }
}

/**
 * Whether the file ends with a whole line. A last line without its newline is either cut short by an
 * interrupted write, or for a moment another process's record still being copied in: Linux shows the size
 * of a record's first page before its last is in. So an open end is looked at again until it stops moving,
 * and only a line that stays open is called cut short (which adds a `repaired` marker).
 */
async function endsWithWholeLine(handle: FileHandle, size: number): Promise<boolean> {
  const SETTLE_MS = 20;
  const STILL_LOOKS = 3; // an end that has not moved for 60 ms is not being written
  const MAX_LOOKS = 50; // a second in all
  let seen = size;
  let stillLooks = 0;
  for (let look = 0; look < MAX_LOOKS; look += 1) {
    if (await lastByteIsNewline(handle, seen)) return true;
    if (stillLooks >= STILL_LOOKS) return false;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const now = (await handle.stat()).size;
    stillLooks = now === seen ? stillLooks + 1 : 0;
    seen = now;
  }
  return false;
}

async function lastByteIsNewline(handle: FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** Makes a new file's directory entry durable too, so a crash right after creation cannot lose the file. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on directories; the file itself is already synced.
  }
}

// ---- reading -----------------------------------------------------------------------------------------

/** Parses the journal's text. Exported for tests; `file` is only used in messages. */
export function parseJournal(text: string, file: string): { records: JournalRecord[]; warnings: string[] } {
  const lines = text.split('\n');
  const endsCleanly = text === '' || text.endsWith('\n');
  if (endsCleanly) lines.pop(); // the empty string after the final newline
  const records: JournalRecord[] = [];
  const warnings: string[] = [];
  let pendingBadLine: { number: number; problem: string } | undefined;

  for (let index = 0; index < lines.length; index += 1) {
    const number = index + 1;
    const line = lines[index]!;
    if (line.trim() === '') continue;
    const isLastUnterminated = !endsCleanly && index === lines.length - 1;
    const parsed = parseLine(line);
    if (parsed.kind === 'bad') {
      if (pendingBadLine) throw new CorruptFileError(file, `line ${pendingBadLine.number} is not a journal record (${pendingBadLine.problem})`);
      if (isLastUnterminated) {
        warnings.push(`skipped the incomplete last line ${number} of ${file}: a write was interrupted`);
        continue;
      }
      pendingBadLine = { number, problem: parsed.problem };
      continue;
    }
    if (pendingBadLine) {
      if (parsed.kind === 'record' && parsed.record.type === 'repaired') {
        warnings.push(`skipped line ${pendingBadLine.number} of ${file}: cut short by an interrupted write`);
        pendingBadLine = undefined;
        continue;
      }
      throw new CorruptFileError(file, `line ${pendingBadLine.number} is not a journal record (${pendingBadLine.problem})`);
    }
    if (parsed.kind === 'record') records.push(parsed.record);
  }
  if (pendingBadLine) throw new CorruptFileError(file, `line ${pendingBadLine.number} is not a journal record (${pendingBadLine.problem})`);
  return { records, warnings };
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
 * - `rejected`: the API refused it (HTTP 4xx); nothing moved.
 * - `reconciled`: the answer was lost, but the lookup by reference found the transfer: it went through.
 */
export type TransferStateName = 'unknown' | 'accepted' | 'rejected' | 'reconciled';

export interface TransferState {
  reference: string;
  profile: string;
  env: string;
  baseUrl: string;
  /** When the intent was written (ISO 8601). */
  sentAt: string;
  /** When the last record about it was written. */
  updatedAt: string;
  accountNumber: string;
  bankCode: string;
  bankName: string;
  accountName: string;
  amountKobo: number;
  narration: string;
  senderName: string | undefined;
  origin: string | undefined;
  state: TransferStateName;
  /** The API's status (pending, successful, ...) when known. */
  status: string | undefined;
  /** The API's message, or what failed. */
  message: string | undefined;
  httpStatus: number | undefined;
}

export function transferKey(scope: { profile: string; baseUrl: string; reference: string }): string {
  return `${scope.profile}\u0000${scope.baseUrl}\u0000${scope.reference}`;
}

/** Folds the records into one state per transfer. Records about a reference with no intent are ignored. */
export function summarise(records: readonly JournalRecord[]): TransferState[] {
  const states = new Map<string, TransferState>();
  for (const record of records) {
    if (record.type === 'repaired') continue;
    const key = transferKey(record);
    if (record.type === 'intent') {
      const earlier = states.get(key);
      if (earlier) {
        // The first intent wins. A second one is a resend under the same reference after a refusal (a 429:
        // not taken); until its answer is recorded, its outcome is unknown, never "refused".
        if (earlier.state === 'rejected') {
          earlier.state = 'unknown';
          earlier.message = 'sent again after a refusal; no answer recorded';
          earlier.httpStatus = undefined;
          earlier.updatedAt = record.time;
        }
        continue;
      }
      states.set(key, {
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
        amountKobo: record.amountKobo,
        narration: record.request.narration,
        senderName: record.request.senderName,
        origin: record.origin,
        state: 'unknown',
        status: undefined,
        message: 'no answer recorded',
        httpStatus: undefined,
      });
      continue;
    }
    const state = states.get(key);
    if (!state) continue;
    apply(state, record);
  }
  return [...states.values()];
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
      state.message = 'the answer was lost; the lookup by reference found it';
      return;
    case 'status-checked':
      if (record.found) {
        if (state.state === 'unknown') {
          state.state = 'reconciled';
          state.message = 'the answer was lost; the lookup by reference found it';
        }
        state.status = record.status ?? state.status;
      } else if (state.state === 'unknown') {
        state.message = `not found by reference lookup at ${record.time}`;
      }
      return;
  }
}

// ---- the duplicate guard -----------------------------------------------------------------------------

export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/**
 * Transfers of the same amount to the same account at the same bank, from the same profile and base
 * address, journalled within the window before `now`. Refused transfers do not count: nothing moved.
 */
export function findDuplicates(
  transfers: readonly TransferState[],
  candidate: { profile: string; baseUrl: string; accountNumber: string; bankCode: string; amountKobo: number },
  now: number,
  windowMs = DUPLICATE_WINDOW_MS,
): TransferState[] {
  return transfers.filter((transfer) => {
    if (transfer.state === 'rejected') return false;
    const sentAt = Date.parse(transfer.sentAt);
    return (
      transfer.profile === candidate.profile &&
      transfer.baseUrl === candidate.baseUrl &&
      transfer.accountNumber === candidate.accountNumber &&
      transfer.bankCode === candidate.bankCode &&
      transfer.amountKobo === candidate.amountKobo &&
      Number.isFinite(sentAt) &&
      now - sentAt < windowMs &&
      sentAt - now < windowMs // a clock set back still counts as recent
    );
  });
}
