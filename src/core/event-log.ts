// events.jsonl in the data dir: the durable record of every notification `webhook listen` accepted, and of
// what became of it. One JSON object per line, two kinds:
//   {"kind":"received","id":…,"receivedAt":…,"reference":…,"sha256":…,"body":"<the body exactly as posted>"}
//       written and fsynced BEFORE the 200 answer, so an acknowledged event is never lost;
//   {"kind":"outcome","id":…,"at":…,"reference":…,"state":…,"field":…,"detail":…,"forwarded":…}
//       written once the event is verified (and forwarded), or found to be a resend; a verified event the
//       app has not taken yet also carries `"undelivered":true` and the `forwardBody` to deliver later.
// A received line without an outcome line is an event whose processing was cut short (crash, shutdown
// timeout); the next `webhook listen` picks it up. The file is only ever appended to, never rewritten.
import { closeSync, fsyncSync, mkdirSync, openSync, readSync, writeSync, fstatSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CorruptFileError, ExitCode, FsapiError } from '../errors.js';
import { acquireFileLock, LOCK_STALE_MS, LockBusyError } from './lock.js';

export const EVENT_LOG_FILE = 'events.jsonl';

/**
 * What a listener shows for an event. `stale`: genuine but too old to forward; `unknown-kind`: an event
 * other than a collection, never verified; `unverified`: --no-verify; `duplicate`: a resend, not shown again.
 */
export type EventState = 'verified' | 'mismatch' | 'not-found' | 'pending' | 'stale' | 'unverifiable' | 'unknown-kind' | 'unverified' | 'duplicate';

export interface ReceivedRecord {
  kind: 'received';
  id: string;
  /** ISO 8601, UTC. */
  receivedAt: string;
  reference: string;
  /** Hex SHA-256 of the body bytes: identical resends are recognised by it. */
  sha256: string;
  /** The body exactly as posted (UTF-8 text), so a forward after a restart sends the same bytes. */
  body: string;
}

export interface OutcomeRecord {
  kind: 'outcome';
  /** The id of the received record this outcome belongs to. */
  id: string;
  at: string;
  reference: string;
  state: EventState;
  field: string | null;
  detail: string;
  forwarded: boolean;
  /**
   * True when a verified event's forward was tried and failed: the app has not heard of it yet, and later
   * tries (in this run or the next) deliver it. A later outcome of the same id with `forwarded: true`
   * records the delivery.
   */
  undelivered?: boolean;
  /**
   * With `undelivered`: the body to forward (the verified facts, JSON text), so a later run delivers what
   * was verified without trusting the received bytes.
   */
  forwardBody?: string;
}

export type EventRecord = ReceivedRecord | OutcomeRecord;

export function eventLogPath(dataDir: string): string {
  return path.join(dataDir, EVENT_LOG_FILE);
}

/** A lock that holds while the listener runs; `lost` settles if another process could take it over. */
export interface EventLogLock {
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

/**
 * Makes this process the only listener of an events log. Two listeners on one log would each forward what
 * they receive and each take up the other's unfinished events, so a second one is refused (exit 1). The
 * lock is fsapi's one file lock (src/core/lock.ts): refreshed while held, removed at exit, taken over
 * once stale when its holder died (SIGKILL, power cut).
 */
export async function lockEventLog(file: string): Promise<EventLogLock> {
  try {
    return await acquireFileLock(file);
  } catch (error) {
    if (error instanceof LockBusyError) {
      throw new FsapiError(`another webhook listen is already using ${file}`, {
        exitCode: ExitCode.failed,
        hint: `stop it first, or give this one its own data dir (FSAPI_DATA_DIR); a listener that died frees it within ${LOCK_STALE_MS / 1000} s`,
      });
    }
    throw error;
  }
}

/**
 * Reads every record in order. A line that is not a record (a write cut short by a crash, a hand edit)
 * is skipped and reported through `onBadLine`; the file is left as it is.
 */
export async function* readEventLog(file: string, onBadLine: (lineNumber: number) => void): AsyncGenerator<EventRecord> {
  let stream;
  try {
    stream = createReadStream(file, { encoding: 'utf8' });
    await new Promise<void>((resolve, reject) => {
      stream!.once('open', () => resolve());
      stream!.once('error', reject);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new CorruptFileError(file, (error as Error).message);
  }
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const record = toRecord(line);
    if (record) yield record;
    else onBadLine(lineNumber);
  }
}

function toRecord(line: string): EventRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.id !== 'string' || typeof record.reference !== 'string') return undefined;
  if (record.kind === 'received' && typeof record.body === 'string' && typeof record.sha256 === 'string' && typeof record.receivedAt === 'string') {
    return record as unknown as ReceivedRecord;
  }
  if (record.kind === 'outcome' && typeof record.state === 'string') return record as unknown as OutcomeRecord;
  return undefined;
}

/** An append-only writer. Every append is one write of one whole line followed by fsync. */
export class EventLogWriter {
  private fd: number | undefined;

  private constructor(readonly file: string, fd: number) {
    this.fd = fd;
  }

  /** Opens (creating) the log for appending, mode 0600: events name payers and accounts. */
  static open(file: string): EventLogWriter {
    let fd: number;
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fd = openSync(file, 'a+', 0o600);
    } catch (error) {
      throw new FsapiError(`cannot open ${file} to record events: ${(error as Error).message}`, {
        exitCode: ExitCode.failed,
        hint: 'the data dir must be writable (set FSAPI_DATA_DIR to use another)',
      });
    }
    const writer = new EventLogWriter(file, fd);
    // A crash in the middle of a write can leave a last line without its newline; start on a fresh line
    // so the next record is not glued to it.
    const size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) writer.writeLine('');
    }
    return writer;
  }

  /** Appends and fsyncs one record. Throws when the disk refuses (the caller must not acknowledge then). */
  append(record: EventRecord): void {
    this.writeLine(JSON.stringify(record));
  }

  private writeLine(text: string): void {
    if (this.fd === undefined) throw new Error(`${this.file} is closed`);
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
