// What `webhook listen` does with an event after acknowledging it: recognise resends, verify, forward,
// record the outcome in the event log (src/notifications/event-log.ts), and show it. The HTTP side (src/notifications/listen.ts) only takes bodies
// in; this module never sees a socket.
//
// Resends. The sender may deliver the same event several times, and anyone may post a copy of it. Events
// of one reference are handled one after another, never at the same time. Only a verified event counts as
// "already seen": a delivery is a resend (not shown, not forwarded, recorded as `duplicate`) when
//   - an earlier delivery with the same body bytes was verified (or, where nothing is verified, shown:
//     `unverified` under --no-verify, `unknown-kind`); or
//   - it verifies, and its reference was verified before (a redelivery whose body differs in a field we do
//     not compare, like updatedAt): the money arrived once, so the app hears of it once.
// Every other delivery is verified again, even with bytes seen before: a forged or early copy that ended
// mismatch, not-found or pending can never stop the genuine event from being verified and forwarded.
//
// What is forwarded. Never the bytes that arrived: the event in the notification's own shape, each value
// the API's where it could be learnt (forwardedEvent in src/notifications/verify.ts), with headers that say which values
// are the API's and which are the notification's own.
//
// Delivery. A verified event whose forward fails (the app down longer than the forwarder's own 3 tries) is
// recorded as undelivered, with the body to forward, and kept: `redeliver()`, which `webhook listen` calls
// every minute and at start, tries it again, also in a later run, until the app takes it. Events of one
// reference still go one at a time. A later run has the body but not the list of fields that could not be
// checked (events.jsonl keeps only the body), so it names every field but ALWAYS_CHECKED_FIELDS as
// unchecked: it claims less than was verified, never more.
import { createHash, randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Clock } from '../context.js';
import type { EventLogWriter, EventState, OutcomeRecord, PastOutcome, ReceivedRecord } from './event-log.js';
import type { ForwardResult } from './forward.js';
import type { Kobo } from '../money/kobo.js';
import { ALWAYS_CHECKED_FIELDS, forwardedEvent, NOTIFICATION_FIELDS, type IncomingEvent, type Verification } from './verify.js';
import type { ReceivedNotification } from '../api/schemas.js';
import { shownText } from '../common/shown.js';

/** One line of `webhook listen` output. */
export interface ShownEvent {
  id: string;
  receivedAt: string;
  reference: string;
  virtualAccount: string;
  /** Null for an event of another kind. */
  amount: Kobo | null;
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
  verify: ((notification: ReceivedNotification, signal: AbortSignal) => Promise<Verification>) | undefined;
  /** Undefined without --forward-to. */
  forward: ((body: Uint8Array, unverified: readonly string[], signal: AbortSignal) => Promise<ForwardResult>) | undefined;
  show(event: ShownEvent): void;
  /** A line of talk for stderr. */
  warn(line: string): void;
}

interface ReferenceHistory {
  verified: boolean;
  /** SHA-256 of the bodies of this reference that need no second look (see isFinal). */
  bodies: Set<string>;
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
 * without holding a turn through the waits between retries. However many tasks wait, a signal gets one
 * abort listener from the limiter, not one per waiter (a burst of events once made Node warn of a
 * listener leak: MaxListenersExceededWarning).
 */
export function createLimiter(max: number) {
  let running = 0;
  interface Waiter {
    start: () => void;
    fail: (reason: unknown) => void;
    signal: AbortSignal | undefined;
  }
  const queue: Waiter[] = [];
  const watched = new WeakSet<AbortSignal>();
  const next = () => {
    while (running < max && queue.length > 0) {
      const waiter = queue.shift()!;
      if (waiter.signal?.aborted) continue;
      running += 1;
      waiter.start();
    }
  };
  const watch = (signal: AbortSignal) => {
    if (watched.has(signal)) return;
    watched.add(signal);
    signal.addEventListener(
      'abort',
      () => {
        for (let i = queue.length - 1; i >= 0; i -= 1) {
          if (queue[i]!.signal === signal) queue.splice(i, 1)[0]!.fail(signal.reason ?? new Error('stopped'));
        }
      },
      { once: true },
    );
  };
  return async function limit<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw signal.reason ?? new Error('stopped');
    if (running >= max || queue.length > 0) {
      await new Promise<void>((resolve, reject) => {
        queue.push({ start: resolve, fail: reject, signal });
        if (signal) watch(signal);
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

/** What a forward kept from an earlier run names as unchecked (see the head of this file). */
const UNCHECKED_AFTER_RESTART = NOTIFICATION_FIELDS.filter((field) => !ALWAYS_CHECKED_FIELDS.includes(field));

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function newReceivedRecord(receivedAt: Date, reference: string, body: Uint8Array, text: string): ReceivedRecord {
  return { kind: 'received', id: randomUUID(), receivedAt: receivedAt.toISOString(), reference, sha256: sha256(body), body: text };
}

export class EventProcessor {
  /** Outcomes this run could not write to the log (a full disk), by reference: still known to this run. */
  private readonly unrecorded = new Map<string, PastOutcome[]>();
  /** The tail of the queue of each reference; removed when it empties. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly stop = new AbortController();
  /** Verified events whose forward failed, by id, oldest first, with the body to forward. */
  private readonly undelivered = new Map<string, { reference: string; body: string; unverified: readonly string[] }>();
  private unfinished = 0;
  private idleWaiters: Array<() => void> = [];
  readonly tally: Tally = {
    verified: 0, mismatch: 0, 'not-found': 0, pending: 0, stale: 0, unverifiable: 0, 'unknown-kind': 0, unverified: 0, duplicate: 0,
    forwarded: 0, forwardFailed: 0,
  };

  constructor(private readonly deps: ProcessorDeps) {
    // Every event in progress waits on this one signal (its lookups, retries and forward), each wait
    // removing its listener when it ends: many listeners during a burst are the events in flight, not a
    // leak, so Node's warning past 10 is turned off for this signal alone.
    setMaxListeners(0, this.stop.signal);
  }

  /**
   * Takes up what earlier runs left: returns the events that were received but never finished, for
   * `accept` to take up again, and keeps the verified events the app has not taken for `redeliver`. Both
   * are read by index (src/store/events.ts), never the whole log: a start costs the same after a million
   * events. A verified event left undelivered by an older version (no forwardBody) is among the unfinished,
   * to be verified again, since only the received bytes would be left to forward. Whether a later delivery
   * is a resend is asked of the log when it comes (historyOf).
   */
  restore(onBadRow: (row: number) => void = () => undefined): ReceivedRecord[] {
    for (const record of this.deps.log.undelivered(onBadRow)) {
      this.undelivered.set(record.id, { reference: record.reference, body: record.forwardBody!, unverified: UNCHECKED_AFTER_RESTART });
    }
    return this.deps.log.unfinished(onBadRow);
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
      const rounds = [...this.undelivered.entries()].map(
        ([id, waiting]) =>
          new Promise<void>((done) =>
            this.enqueue(waiting.reference, async () => {
              try {
                if (this.stop.signal.aborted || !this.undelivered.has(id)) return;
                const result = await forward(Buffer.from(waiting.body, 'utf8'), waiting.unverified, this.stop.signal);
                if (!result.ok) {
                  lastProblem = result.detail;
                  return;
                }
                delivered += 1;
                this.tally.forwarded += 1;
                this.undelivered.delete(id);
                const detail = `delivered to the app on a later try (HTTP ${result.status})`;
                this.writeOutcome({ kind: 'outcome', id, at: this.now(), reference: waiting.reference, state: 'verified', field: null, detail, forwarded: true });
                this.deps.warn(`${waiting.reference} ${detail}`);
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

  /** Takes an event that is already in the event log. Returns at once; the work happens in the background. */
  accept(record: ReceivedRecord, event: IncomingEvent): void {
    this.enqueue(record.reference, () => this.process(record, event));
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
   * the event log without an outcome and are taken up by the next run). Returns how many were cut.
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

  private async process(record: ReceivedRecord, event: IncomingEvent): Promise<void> {
    if (this.stop.signal.aborted) return;
    const history = this.historyOf(record.reference);
    if (history?.bodies.has(record.sha256)) return this.finishDuplicate(record, 'resend of an event already shown');

    if (event.kind === 'other') {
      const detail = `not verified: unknown kind ${JSON.stringify(event.event)}; fsapi verifies collections only; not forwarded`;
      return this.finish(record, { state: 'unknown-kind', field: null, detail, virtualAccount: '', amount: null, payer: '' });
    }
    const { notification, amount } = event;

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

    let detail = verification?.detail ?? 'not looked up (--no-verify); not forwarded';
    let forwarded = false;
    let forwardBody: string | undefined;
    let forwardProblem: string | null = null;
    if (state === 'verified' && this.deps.forward && verification?.transaction) {
      const forwarding = forwardedEvent(notification, verification.transaction, verification.account);
      forwardBody = JSON.stringify(forwarding.body);
      const result = await this.deps.forward(Buffer.from(forwardBody, 'utf8'), forwarding.unverified, this.stop.signal);
      if (this.stop.signal.aborted && !result.ok) return;
      forwarded = result.ok;
      if (result.ok) {
        this.tally.forwarded += 1;
        detail = `${detail}; forwarded (HTTP ${result.status})`;
      } else {
        this.tally.forwardFailed += 1;
        this.undelivered.set(record.id, { reference: record.reference, body: forwardBody, unverified: forwarding.unverified });
        forwardProblem = result.detail;
        detail = `${detail}; forward failed: ${result.detail}; kept to try again`;
        this.deps.warn(`forward of ${record.reference} failed: ${result.detail}; kept, and tried again every minute`);
      }
    }
    const undelivered = forwardBody !== undefined && !forwarded;
    // A verified event is shown with the API's facts; any other with what it claimed (that is what is judged).
    const truth = state === 'verified' ? verification?.transaction : undefined;
    const virtualAccount = truth ? shownText(truth.destinationAccountNumber) || notification.virtualAccount : notification.virtualAccount;
    const payer = (truth ? shownText(truth.sourceAccountName) || notification.sourceAccountName : notification.sourceAccountName) ?? '';
    this.finish(
      record,
      { state, field: verification?.field ?? null, detail, virtualAccount, amount, payer },
      { forwarded, forwardProblem, ...(undelivered ? { undelivered, forwardBody } : {}) },
    );
  }

  /** Remembers, tallies, records and shows one finished event. */
  private finish(
    record: ReceivedRecord,
    shown: Pick<ShownEvent, 'state' | 'field' | 'detail' | 'virtualAccount' | 'amount' | 'payer'>,
    delivery: { forwarded: boolean; forwardProblem: string | null; undelivered?: boolean; forwardBody?: string } = { forwarded: false, forwardProblem: null },
  ): void {
    const { state, field, detail } = shown;
    this.tally[state] += 1;
    const { forwarded, forwardProblem, ...kept } = delivery;
    if (!this.writeOutcome({ kind: 'outcome', id: record.id, at: this.now(), reference: record.reference, state, field, detail, forwarded, ...kept })) {
      this.remember(record.reference, record.sha256, state);
    }
    this.deps.show({ id: record.id, receivedAt: record.receivedAt, reference: record.reference, ...shown, forwarded, forwardProblem });
  }

  private finishDuplicate(record: ReceivedRecord, detail: string): void {
    this.tally.duplicate += 1;
    this.writeOutcome({ kind: 'outcome', id: record.id, at: this.now(), reference: record.reference, state: 'duplicate', field: null, detail, forwarded: false });
  }

  /** Writes an outcome; false when the disk refused it (warned). */
  private writeOutcome(outcome: OutcomeRecord): boolean {
    try {
      this.deps.log.append(outcome);
      return true;
    } catch (error) {
      // The event itself is safe in the log; only its outcome is missing, so the next run looks at it again.
      this.deps.warn(`could not record the outcome of ${outcome.reference} in ${this.deps.log.file}: ${(error as Error).message}`);
      return false;
    }
  }

  /**
   * What the log says of a reference's earlier deliveries (by index: a few rows, however long the log),
   * with what this run saw but could not record.
   */
  private historyOf(reference: string): ReferenceHistory {
    const history: ReferenceHistory = { verified: false, bodies: new Set() };
    const add = (state: EventState, bodySha: string | undefined) => {
      if (state === 'duplicate') return;
      if (state === 'verified') history.verified = true;
      if (bodySha && this.isFinal(state)) history.bodies.add(bodySha);
    };
    for (const past of this.deps.log.outcomesOf(reference)) add(past.state, past.sha256);
    for (const past of this.unrecorded.get(reference) ?? []) add(past.state, past.sha256);
    return history;
  }

  /** An outcome the disk refused: remembered for the rest of this run, as if it were in the log. */
  private remember(reference: string, sha256: string | undefined, state: EventState): void {
    const list = this.unrecorded.get(reference) ?? [];
    list.push({ state, sha256 });
    this.unrecorded.set(reference, list);
  }

  /**
   * Whether a body that reached `state` needs no second look. Only a verified body is final where events
   * are verified: anything else may be a forgery or early copy of bytes that later verify. Where nothing
   * is verified (--no-verify, or an event kind fsapi cannot verify) a body is final once shown.
   */
  private isFinal(state: EventState): boolean {
    if (state === 'verified' || state === 'unknown-kind') return true;
    return state === 'unverified' && this.deps.verify === undefined;
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
