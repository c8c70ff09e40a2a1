// What `webhook listen` does with an event after acknowledging it: recognise resends, verify, forward,
// record the outcome in events.jsonl, and show it. The HTTP side (src/core/listener.ts) only takes bodies
// in; this module never sees a socket.
//
// Resends. The sender may deliver the same event several times, and anyone may post a copy of it. Events
// of one reference are handled one after another, never at the same time, and an event is a resend (not
// shown, not forwarded, recorded as `duplicate`) when
//   - an earlier event with the same body bytes reached a final state: verified, mismatch or not-found
//     (and `unverified` under --no-verify); a pending or unverifiable one is verified again, since the
//     answer may have changed; or
//   - it verifies, and its reference was verified before (a redelivery whose body differs in a field we do
//     not compare, like updatedAt): the money arrived once, so the app hears of it once.
// A forged copy that reaches the listener first therefore cannot hide the genuine event: the two bodies
// differ, and the genuine one is verified on its own.
//
// Delivery. A verified event whose forward fails (the app down longer than the forwarder's own 3 tries) is
// recorded as undelivered and kept: `redeliver()`, which `webhook listen` calls every minute and at start,
// tries it again, also in a later run, until the app takes it. Events of one reference still go one at a time.
import { createHash, randomUUID } from 'node:crypto';
import type { CollectionNotification } from '../api/schemas.js';
import type { Clock } from '../context.js';
import type { EventLogWriter, EventRecord, EventState, OutcomeRecord, ReceivedRecord } from './event-log.js';
import type { ForwardResult } from './forwarder.js';
import type { Kobo } from './money.js';
import type { Verification } from './webhook.js';

/** One line of `webhook listen` output. */
export interface ShownEvent {
  id: string;
  receivedAt: string;
  reference: string;
  virtualAccount: string;
  amount: Kobo;
  payer: string;
  state: Exclude<EventState, 'duplicate'>;
  field: string | null;
  detail: string;
  forwarded: boolean;
  /** Why a verified event did not reach the app, when it was meant to. */
  forwardProblem: string | null;
}

export interface ProcessorDeps {
  log: EventLogWriter;
  clock: Clock;
  /** Undefined under --no-verify: events are `unverified` and never forwarded. */
  verify: ((notification: CollectionNotification, signal: AbortSignal) => Promise<Verification>) | undefined;
  /** Undefined without --forward-to. */
  forward: ((body: Uint8Array, signal: AbortSignal) => Promise<ForwardResult>) | undefined;
  show(event: ShownEvent): void;
  /** A line of talk for stderr. */
  warn(line: string): void;
}

interface ReferenceHistory {
  verified: boolean;
  /** Final state reached by each body (by SHA-256) seen for this reference. */
  bodies: Map<string, EventState>;
}

export type Tally = Record<EventState, number> & { forwarded: number; forwardFailed: number };

/** What one redelivery round did. */
export interface Redelivery {
  delivered: number;
  /** Verified events the app still has not taken. */
  left: number;
  /** Why the last failed one failed. */
  lastProblem: string | undefined;
}

/**
 * Runs at most `max` tasks at once; the others wait their turn, in order. A task whose signal is aborted
 * while it waits is rejected without running. Used to bound lookups and forwards in flight during a burst,
 * without holding a turn through the waits between retries.
 */
export function createLimiter(max: number) {
  let running = 0;
  const queue: Array<{ start: () => void; signal: AbortSignal | undefined }> = [];
  const next = () => {
    while (running < max && queue.length > 0) {
      const waiter = queue.shift()!;
      if (waiter.signal?.aborted) continue;
      running += 1;
      waiter.start();
    }
  };
  return async function limit<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (running >= max || queue.length > 0) {
      await new Promise<void>((resolve, reject) => {
        const waiter = { start: resolve, signal };
        queue.push(waiter);
        signal?.addEventListener('abort', () => reject(signal.reason ?? new Error('stopped')), { once: true });
      });
    } else {
      running += 1;
    }
    try {
      return await task();
    } finally {
      running -= 1;
      next();
    }
  };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function newReceivedRecord(receivedAt: Date, reference: string, body: Uint8Array, text: string): ReceivedRecord {
  return { kind: 'received', id: randomUUID(), receivedAt: receivedAt.toISOString(), reference, sha256: sha256(body), body: text };
}

export class EventProcessor {
  private readonly history = new Map<string, ReferenceHistory>();
  /** The tail of the queue of each reference; removed when it empties. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly stop = new AbortController();
  /** Verified events whose forward failed, by id, oldest first. */
  private readonly undelivered = new Map<string, ReceivedRecord>();
  private unfinished = 0;
  private idleWaiters: Array<() => void> = [];
  readonly tally: Tally = {
    verified: 0, mismatch: 0, 'not-found': 0, pending: 0, unverifiable: 0, unverified: 0, duplicate: 0, forwarded: 0, forwardFailed: 0,
  };

  constructor(private readonly deps: ProcessorDeps) {}

  /**
   * Rebuilds what earlier runs saw from the records of events.jsonl (in file order) and returns the events
   * that were received but never finished, for `accept` to take up again.
   */
  async restore(records: AsyncIterable<EventRecord>): Promise<ReceivedRecord[]> {
    const open = new Map<string, ReceivedRecord>();
    for await (const record of records) {
      if (record.kind === 'received') {
        open.set(record.id, record);
        continue;
      }
      const received = open.get(record.id);
      open.delete(record.id);
      this.remember(record.reference, received?.sha256, record.state);
      if (record.forwarded) this.undelivered.delete(record.id);
      else if (record.undelivered && received) this.undelivered.set(record.id, received);
    }
    return [...open.values()];
  }

  /** How many verified events the app has not taken yet. */
  get undeliveredCount(): number {
    return this.undelivered.size;
  }

  /**
   * Forwards again every verified event the app has not taken, each in its reference's turn. Without
   * --forward-to it does nothing: they wait for a run that forwards.
   */
  async redeliver(): Promise<Redelivery> {
    const forward = this.deps.forward;
    let delivered = 0;
    let lastProblem: string | undefined;
    if (forward) {
      const rounds = [...this.undelivered.values()].map(
        (record) =>
          new Promise<void>((done) =>
            this.enqueue(record.reference, async () => {
              try {
                if (this.stop.signal.aborted || !this.undelivered.has(record.id)) return;
                const result = await forward(Buffer.from(record.body, 'utf8'), this.stop.signal);
                if (!result.ok) {
                  lastProblem = result.detail;
                  return;
                }
                delivered += 1;
                this.tally.forwarded += 1;
                this.undelivered.delete(record.id);
                const detail = `delivered to the app on a later try (HTTP ${result.status})`;
                this.writeOutcome({ kind: 'outcome', id: record.id, at: this.now(), reference: record.reference, state: 'verified', field: null, detail, forwarded: true });
                this.deps.warn(`${record.reference} ${detail}`);
              } finally {
                done();
              }
            }),
          ),
      );
      await Promise.all(rounds);
    }
    return { delivered, left: this.undelivered.size, lastProblem };
  }

  /** How many accepted events are not finished yet. */
  get inFlight(): number {
    return this.unfinished;
  }

  /** Takes an event that is already in events.jsonl. Returns at once; the work happens in the background. */
  accept(record: ReceivedRecord, notification: CollectionNotification, amount: Kobo, body: Uint8Array): void {
    this.enqueue(record.reference, () => this.process(record, notification, amount, body));
  }

  /** Runs `work` after the reference's earlier work; drain() waits for it like for any event. */
  private enqueue(reference: string, work: () => Promise<void>): void {
    this.unfinished += 1;
    const previous = this.chains.get(reference) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.deps.warn(`event ${reference}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (this.chains.get(reference) === next) this.chains.delete(reference);
        this.unfinished -= 1;
        if (this.unfinished === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    this.chains.set(reference, next);
  }

  /**
   * Waits for every accepted event to finish, at most `timeoutMs`; then cuts the rest short (they stay in
   * events.jsonl without an outcome and are taken up by the next run). Returns how many were cut.
   */
  async drain(timeoutMs: number): Promise<number> {
    if (this.unfinished > 0) {
      const idle = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      const timer = new AbortController();
      await Promise.race([idle, this.deps.clock.sleep(timeoutMs, timer.signal).catch(() => undefined)]);
      timer.abort();
    }
    const left = this.unfinished;
    if (left > 0) {
      this.stop.abort();
      // What was cut returns quickly now (its waits are aborted); give it a moment to unwind.
      const idle = new Promise<void>((resolve) => (this.unfinished === 0 ? resolve() : this.idleWaiters.push(resolve)));
      const timer = new AbortController();
      await Promise.race([idle, this.deps.clock.sleep(2000, timer.signal).catch(() => undefined)]);
      timer.abort();
    }
    return left;
  }

  private async process(record: ReceivedRecord, notification: CollectionNotification, amount: Kobo, body: Uint8Array): Promise<void> {
    if (this.stop.signal.aborted) return;
    const history = this.history.get(record.reference);
    const earlier = history?.bodies.get(record.sha256);
    if (earlier !== undefined && this.isFinal(earlier)) {
      return this.finishDuplicate(record, `resend of an event already ${earlier}`);
    }

    let verification: Verification | undefined;
    if (this.deps.verify) {
      verification = await this.deps.verify(notification, this.stop.signal);
      // Cut short by shutdown: leave it unfinished so the next run verifies it properly.
      if (this.stop.signal.aborted) return;
    }
    const state: ShownEvent['state'] = verification?.state ?? 'unverified';
    if (state === 'verified' && history?.verified) {
      return this.finishDuplicate(record, 'another delivery of a reference already verified');
    }
    this.remember(record.reference, record.sha256, state);

    let forwarded = false;
    let undelivered = false;
    let forwardProblem: string | null = null;
    let detail = verification?.detail ?? 'not looked up (--no-verify); not forwarded';
    if (state === 'verified' && this.deps.forward) {
      const result = await this.deps.forward(body, this.stop.signal);
      if (this.stop.signal.aborted && !result.ok) return;
      forwarded = result.ok;
      if (result.ok) {
        this.tally.forwarded += 1;
        detail = `${detail}; forwarded (HTTP ${result.status})`;
      } else {
        this.tally.forwardFailed += 1;
        undelivered = true;
        this.undelivered.set(record.id, record);
        forwardProblem = result.detail;
        detail = `${detail}; forward failed: ${result.detail}; kept to try again`;
        this.deps.warn(`forward of ${record.reference} failed: ${result.detail}; kept, and tried again every minute`);
      }
    }

    this.tally[state] += 1;
    const field = verification?.field ?? null;
    this.writeOutcome({ kind: 'outcome', id: record.id, at: this.now(), reference: record.reference, state, field, detail, forwarded, ...(undelivered ? { undelivered } : {}) });
    this.deps.show({
      id: record.id,
      receivedAt: record.receivedAt,
      reference: record.reference,
      virtualAccount: notification.virtualAccount,
      amount,
      payer: notification.sourceAccountName,
      state,
      field,
      detail,
      forwarded,
      forwardProblem,
    });
  }

  private finishDuplicate(record: ReceivedRecord, detail: string): void {
    this.tally.duplicate += 1;
    this.writeOutcome({ kind: 'outcome', id: record.id, at: this.now(), reference: record.reference, state: 'duplicate', field: null, detail, forwarded: false });
  }

  private writeOutcome(outcome: OutcomeRecord): void {
    try {
      this.deps.log.append(outcome);
    } catch (error) {
      // The event itself is safe in the log; only its outcome is missing, so the next run looks at it again.
      this.deps.warn(`could not record the outcome of ${outcome.reference} in ${this.deps.log.file}: ${(error as Error).message}`);
    }
  }

  private remember(reference: string, bodySha: string | undefined, state: EventState): void {
    if (state === 'duplicate') return;
    let history = this.history.get(reference);
    if (!history) {
      history = { verified: false, bodies: new Map() };
      this.history.set(reference, history);
    }
    if (state === 'verified') history.verified = true;
    if (bodySha) history.bodies.set(bodySha, state);
  }

  /** Whether a body that reached `state` needs no second look. */
  private isFinal(state: EventState): boolean {
    if (state === 'verified' || state === 'mismatch' || state === 'not-found') return true;
    return state === 'unverified' && this.deps.verify === undefined;
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }

}
