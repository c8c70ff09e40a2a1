// How `webhook listen` records what arrives: each notification is committed to the event log before it is
// answered 200, and the notifications waiting to be written together go in one transaction (one fsync on
// the data dir's SQLite, one round trip on a team store), so a burst is recorded as fast as the store
// commits, not one commit per notification. What waits here is bounded, by count and by bytes: when the
// store cannot keep up (or cannot be reached), a notification past the bound is refused at once
// (ListenerBusyError: 503, the sender tries again later) rather than held in memory without end. After
// each commit the listener is told (`committed`): its window takes the new events from the store.
import type { ReceivedRecord } from '../store/events.js';

/** More notifications wait to be recorded than the listener holds: answered 503 with Retry-After. */
export class ListenerBusyError extends Error {
  constructor(waiting: number) {
    super(`the event log is behind: ${waiting} notification(s) are waiting to be recorded; try again shortly`);
  }
}

export interface IntakeOptions {
  /** Commits the records in one transaction, all or none; throws when it could not. */
  write(records: readonly ReceivedRecord[]): Promise<void>;
  /** Told after each commit. */
  committed(): void;
  /** Notifications waiting (being written included) past which one is refused. */
  maxWaiting?: number;
  /** Bytes of bodies waiting past which one is refused (a notification is under 2 KB; the largest 1 MB). */
  maxWaitingBytes?: number;
  /** Records per transaction at most. */
  maxBatch?: number;
}

/** Notifications that may wait to be recorded at once: a burst's front, while the store commits the one before. */
export const MAX_WAITING = 1024;
export const MAX_WAITING_BYTES = 16 * 1024 * 1024;
const MAX_BATCH = 256;

interface Waiting {
  record: ReceivedRecord;
  bytes: number;
  done: () => void;
  failed: (error: unknown) => void;
}

export class Intake {
  private readonly queue: Waiting[] = [];
  private waitingBytes = 0;
  /** Records in the transaction being committed. */
  private writing = 0;
  private writer: Promise<void> | undefined;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: IntakeOptions) {}

  /** Notifications waiting to be recorded now, those being written included. */
  get waiting(): number {
    return this.queue.length + this.writing;
  }

  /**
   * Records `record` with the others waiting: settles once it is committed; throws the store's error when
   * the commit failed, or ListenerBusyError at once when too many wait already.
   */
  record(record: ReceivedRecord): Promise<void> {
    const bytes = Buffer.byteLength(record.body);
    const maxWaiting = this.options.maxWaiting ?? MAX_WAITING;
    const maxBytes = this.options.maxWaitingBytes ?? MAX_WAITING_BYTES;
    // One notification alone is always taken (the body limit keeps it under the byte bound).
    if (this.waiting > 0 && (this.waiting >= maxWaiting || this.waitingBytes + bytes > maxBytes)) {
      return Promise.reject(new ListenerBusyError(this.waiting));
    }
    return new Promise<void>((done, failed) => {
      this.queue.push({ record, bytes, done, failed });
      this.waitingBytes += bytes;
      this.writer ??= this.writeAll().finally(() => {
        this.writer = undefined;
        for (const wake of this.idleWaiters.splice(0)) wake();
      });
    });
  }

  /** Settles when nothing waits to be recorded. */
  idle(): Promise<void> {
    return this.writer ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  private async writeAll(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch ?? MAX_BATCH);
      this.writing = batch.length;
      try {
        await this.options.write(batch.map((waiting) => waiting.record));
        for (const waiting of batch) waiting.done();
        this.options.committed();
      } catch (error) {
        for (const waiting of batch) waiting.failed(error);
      } finally {
        this.writing = 0;
        for (const waiting of batch) this.waitingBytes -= waiting.bytes;
      }
    }
  }
}
