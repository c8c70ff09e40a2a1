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
// Delivery. A verified event whose forward fails (the app down, or refusing it) is recorded as
// undelivered, with the body to forward, and kept: `redeliver()`, which `webhook listen` calls often, tries
// each again when its turn comes, after the waits of FORWARD_ROUNDS with jitter (src/common/retry.ts), also
// in a later run, until the app takes it or `retryForMs` since the first failure ran out: then it is
// `failed`, with its tries and the app's last answer, and tried no more. A 410 Gone gives up at once.
// Events of one reference still go one at a time. Before each later try the event log is asked whether
// `webhook events resend` delivered the event meanwhile. An event left undelivered by an older fsapi has
// the body but not the list of fields that could not be checked, so it names every field but
// ALWAYS_CHECKED_FIELDS as unchecked: it claims less than was verified, never more.
//
// Order of a reversal. The app hears of a reversed transfer as the payout's `reversed` event and then the
// reversal (the money back), in that order, whatever order they arrive in: a verified reversal whose
// payout's `reversed` event has not reached the app (delivered, or given up on) is held, recorded as such
// in the event log (so a restart keeps holding it, to the same deadline), and forwarded as soon as that
// event is delivered; if none comes within REVERSAL_HOLD_MS, it goes anyway (the API may not send one).
// While a verified `reversed` payout is still being tried, the reversal waits behind it, past the deadline.
//
// Kinds. Collections, payouts and reversals are verified (webhook.ts, payout-event.ts) and forwarded. A
// payout is forwarded once per reference and status (pending, then failed, are two events); a collection or
// reversal once per reference.
import { createHash, randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Clock } from '../context.js';
import type { EventLogWriter, EventState, OutcomeRecord, PastOutcome, ReceivedRecord } from './event-log.js';
import type { ForwardResult } from './forward.js';
import { FORWARD_ROUNDS, nextTryAt } from '../common/retry.js';
import type { Kobo } from '../money/kobo.js';
import { forwardedEvent, keptUnverified, readAmount, type IncomingEvent, type Verification } from './verify.js';
import { forwardedOutflow, type OutflowEvent, type OutflowVerification } from './payout-event.js';
import type { ReceivedNotification } from '../api/schemas.js';
import { shownText } from '../common/shown.js';

/** One line of `webhook listen` output. */
export interface ShownEvent {
  id: string;
  /** collection, payout, reversal, or the event name of another kind. */
  kind: string;
  /** A payout's status (as the API gives it when verified); null for other kinds. */
  status: string | null;
  receivedAt: string;
  reference: string;
  virtualAccount: string;
  /** Null for an event of another kind. */
  amount: Kobo | null;
  payer: string;
  state: Exclude<EventState, 'duplicate' | 'failed'>;
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
  /** Undefined under --no-verify. */
  verifyOutflow?: ((event: OutflowEvent, signal: AbortSignal) => Promise<OutflowVerification>) | undefined;
  /** How long after its first failed forward an event is tried again before it is `failed`. */
  retryForMs?: number;
  /** [0, 1): the jitter of the backoff (Math.random unless a test fixes it). */
  random?: () => number;
  show(event: ShownEvent): void;
  /** A line of talk for stderr. */
  warn(line: string): void;
}

interface ReferenceHistory {
  verified: boolean;
  /** The statuses of this reference's verified payouts. */
  statuses: Set<string>;
  /** SHA-256 of the bodies of this reference that need no second look (see isFinal). */
  bodies: Set<string>;
}

export type Tally = Record<EventState, number> & { forwarded: number; forwardFailed: number };

/** Default of --retry-for: 3 days, as long as senders commonly keep trying. */
export const DEFAULT_RETRY_FOR_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * How long a verified reversal waits for its payout's `reversed` event to reach the app first. Both are
 * sent when the transfer is reversed, so the other one is seconds away; the API may also never send it
 * (the event names are not settled), and then the reversal is this late, no later.
 */
export const REVERSAL_HOLD_MS = 5 * 60 * 1000;

/** A verified event the app has not taken yet. */
interface Waiting {
  reference: string;
  body: string;
  unverified: readonly string[];
  eventStatus: string | undefined;
  /** Forwards POSTed so far, and rounds of them that failed (the next wait is the table's for it). */
  attempts: number;
  rounds: number;
  /** Epoch ms of the first failed forward (undefined while a held reversal was never tried), and of the next try. */
  firstFailedAt: number | undefined;
  nextAt: number;
  lastProblem: string;
  /** A reversal held for its payout's `reversed` event: that payout's reference, and whether it came. */
  hold?: { original: string; released: boolean } | undefined;
}

/** What one redelivery round did. */
export interface Redelivery {
  delivered: number;
  /** Verified events the app still has not taken, held reversals not counted. */
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
  /** Verified events whose forward failed, or reversals held, by id, oldest first, with the body to forward. */
  private readonly undelivered = new Map<string, Waiting>();
  /** Payouts whose `reversed` event reached the app (or was given up on) in this run: their reversals go. */
  private readonly reversedPayoutsSettled = new Set<string>();
  private unfinished = 0;
  private idleWaiters: Array<() => void> = [];
  readonly tally: Tally = {
    verified: 0,
    mismatch: 0,
    'not-found': 0,
    pending: 0,
    stale: 0,
    unverifiable: 0,
    'unknown-kind': 0,
    unverified: 0,
    duplicate: 0,
    failed: 0,
    forwarded: 0,
    forwardFailed: 0,
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
  async restore(onBadRow: (row: number) => void = () => undefined): Promise<ReceivedRecord[]> {
    const now = this.deps.clock.now();
    for (const record of await this.deps.log.undelivered(onBadRow)) {
      const common = {
        reference: record.reference,
        body: record.forwardBody!,
        unverified: keptUnverified(record),
        eventStatus: record.eventStatus,
        // The schedule starts over: a new run tries at once, then waits as after a first failed round.
        rounds: 0,
        lastProblem: record.detail,
      };
      if (record.heldFor !== undefined) {
        // Held to the same deadline as before the restart, unless its payout's event went meanwhile.
        const until = Date.parse(record.heldUntil ?? record.at);
        const settled = await this.reversedPayoutSettled(record.heldFor);
        this.undelivered.set(record.id, {
          ...common,
          attempts: record.attempts ?? 0,
          firstFailedAt: undefined,
          nextAt: settled || !Number.isFinite(until) ? now : until,
          hold: { original: record.heldFor, released: settled },
        });
        continue;
      }
      const firstFailedAt = Date.parse(record.firstFailedAt ?? record.at);
      this.undelivered.set(record.id, {
        ...common,
        attempts: record.attempts ?? 1,
        firstFailedAt: Number.isFinite(firstFailedAt) ? firstFailedAt : now,
        nextAt: now,
      });
    }
    return this.deps.log.unfinished(onBadRow);
  }

  /** How many verified events the app has not taken yet, held reversals not counted. */
  get undeliveredCount(): number {
    let count = 0;
    for (const waiting of this.undelivered.values()) if (!waiting.hold) count += 1;
    return count;
  }

  /** How many reversals are held for their payout's `reversed` event. */
  get heldCount(): number {
    return this.undelivered.size - this.undeliveredCount;
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
      const now = this.deps.clock.now();
      const due = [...this.undelivered.entries()].filter(([, waiting]) => waiting.nextAt <= now);
      const rounds = due.map(
        ([id, waiting]) =>
          new Promise<void>((done) =>
            this.enqueue(waiting.reference, async () => {
              try {
                if (this.stop.signal.aborted || !this.undelivered.has(id)) return;
                if (await this.deliveredByResend(id, waiting.reference)) {
                  this.undelivered.delete(id);
                  this.deps.warn(`${waiting.reference} was delivered by webhook events resend (event ${id}); not forwarded again`);
                  if (waiting.eventStatus === 'reversed') this.settleReversedPayout(waiting.reference);
                  return;
                }
                const hold = waiting.hold;
                if (hold && !hold.released) {
                  if (await this.reversedPayoutSettled(hold.original)) hold.released = true;
                  else if (this.reversedPayoutWaiting(hold.original)) {
                    // Its payout's event is verified but the app has not taken it yet: stay behind it.
                    waiting.nextAt = Number.POSITIVE_INFINITY;
                    return;
                  }
                }
                const result = await forward(Buffer.from(waiting.body, 'utf8'), waiting.unverified, this.stop.signal);
                if (this.stop.signal.aborted && !result.ok) return;
                waiting.attempts += result.tries;
                if (!result.ok) {
                  lastProblem = result.detail;
                  waiting.lastProblem = result.detail;
                  waiting.rounds += 1;
                  waiting.firstFailedAt ??= this.deps.clock.now();
                  if (hold) await this.recordHoldEnded(id, waiting, hold, result.detail);
                  await this.scheduleOrGiveUp(id, waiting, result.status);
                  return;
                }
                delivered += 1;
                this.tally.forwarded += 1;
                this.undelivered.delete(id);
                const detail = hold ? `${holdDetail(hold)} (HTTP ${result.status})` : `delivered to the app on a later try (HTTP ${result.status})`;
                await this.writeOutcome(this.keptOutcome(id, waiting, { state: 'verified', detail, forwarded: true }));
                this.deps.warn(`${waiting.reference} ${detail}`);
                if (waiting.eventStatus === 'reversed') this.settleReversedPayout(waiting.reference);
              } finally {
                done();
              }
            }),
          ),
      );
      await Promise.all(rounds);
    }
    return { delivered, left: this.undeliveredCount, lastProblem };
  }

  /** Whether `webhook events resend` (another process) delivered this event since it was kept. */
  private async deliveredByResend(id: string, reference: string): Promise<boolean> {
    return (await this.deps.log.outcomesOf(reference)).some((past) => past.id === id && past.forwarded);
  }

  /** Whether the app took the `reversed` event of payout `reference`, or it was given up on: its reversal goes. */
  private async reversedPayoutSettled(reference: string): Promise<boolean> {
    if (this.reversedPayoutsSettled.has(reference)) return true;
    const outcomes = [...(await this.deps.log.outcomesOf(reference)), ...(this.unrecorded.get(reference) ?? [])];
    return outcomes.some((past) => past.eventStatus === 'reversed' && (past.forwarded || past.state === 'failed'));
  }

  /** Whether the `reversed` event of payout `reference` is verified and still being tried. */
  private reversedPayoutWaiting(reference: string): boolean {
    for (const waiting of this.undelivered.values()) if (waiting.reference === reference && waiting.eventStatus === 'reversed' && !waiting.hold) return true;
    return false;
  }

  /** The `reversed` event of payout `reference` reached the app (or was given up on): its held reversals go now. */
  private settleReversedPayout(reference: string): void {
    this.reversedPayoutsSettled.add(reference);
    const now = this.deps.clock.now();
    for (const waiting of this.undelivered.values()) {
      if (waiting.hold?.original !== reference || waiting.hold.released) continue;
      waiting.hold.released = true;
      waiting.nextAt = now;
    }
  }

  /** A held reversal whose first forward failed: from now on an undelivered event like any other. */
  private async recordHoldEnded(id: string, waiting: Waiting, hold: NonNullable<Waiting['hold']>, problem: string): Promise<void> {
    waiting.hold = undefined;
    await this.writeOutcome(
      this.keptOutcome(id, waiting, {
        state: 'verified',
        detail: `held for payout ${hold.original}'s reversed event, then forward failed: ${problem}; kept to try again`,
        forwarded: false,
        undelivered: true,
        firstFailedAt: new Date(waiting.firstFailedAt ?? this.deps.clock.now()).toISOString(),
      }),
    );
  }

  /** An outcome of a kept event: its body, the fields of it left unchecked and its tries, and what became of it. */
  private keptOutcome(id: string, waiting: Waiting, became: Pick<OutcomeRecord, 'state' | 'detail' | 'forwarded'> & Partial<OutcomeRecord>): OutcomeRecord {
    return {
      kind: 'outcome',
      id,
      at: this.now(),
      reference: waiting.reference,
      field: null,
      forwardBody: waiting.body,
      forwardUnverified: [...waiting.unverified],
      attempts: waiting.attempts,
      ...(waiting.eventStatus ? { eventStatus: waiting.eventStatus } : {}),
      ...became,
    };
  }

  /** When the next waiting event is due (epoch ms), or undefined when none waits. */
  get nextDue(): number | undefined {
    let next: number | undefined;
    for (const waiting of this.undelivered.values()) if (next === undefined || waiting.nextAt < next) next = waiting.nextAt;
    return next;
  }

  /**
   * After a failed try: the next one, backing off with jitter but never past the end of --retry-for; or,
   * once that has passed or the app answered 410 Gone, the end: the event is `failed`, recorded with its
   * tries and the app's last answer, and tried no more.
   */
  private async scheduleOrGiveUp(id: string, waiting: Waiting, status: number | undefined): Promise<void> {
    const now = this.deps.clock.now();
    const firstFailedAt = waiting.firstFailedAt ?? now;
    const deadline = firstFailedAt + (this.deps.retryForMs ?? DEFAULT_RETRY_FOR_MS);
    const nextAt = status === 410 ? undefined : nextTryAt(FORWARD_ROUNDS, waiting.rounds, now, { deadline, random: this.deps.random });
    if (nextAt !== undefined) {
      waiting.nextAt = nextAt;
      return;
    }
    this.undelivered.delete(id);
    this.tally.failed += 1;
    const why = status === 410 ? 'the app answered 410 Gone' : `still refused after ${formatSpan(now - firstFailedAt)}`;
    const detail = `not delivered: ${why}, ${waiting.attempts} tries; last answer: ${waiting.lastProblem}`;
    await this.writeOutcome(
      this.keptOutcome(id, waiting, {
        state: 'failed',
        detail,
        forwarded: false,
        firstFailedAt: new Date(firstFailedAt).toISOString(),
        lastAnswer: waiting.lastProblem,
      }),
    );
    this.deps.warn(
      `gave up forwarding ${waiting.reference} (event ${id}): ${why}, ${waiting.attempts} tries; last answer: ${waiting.lastProblem}; recorded as failed`,
    );
    // The app will not hear of this payout's reversal from its `reversed` event: its reversal need not wait.
    if (waiting.eventStatus === 'reversed') this.settleReversedPayout(waiting.reference);
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
    const history = await this.historyOf(record.reference);
    if (history?.bodies.has(record.sha256)) return this.finishDuplicate(record, 'resend of an event already shown');

    if (event.kind === 'other') {
      const detail = event.problem
        ? `not verified: ${event.problem}; not forwarded`
        : `not verified: unknown kind ${JSON.stringify(event.event)}; fsapi verifies collections, payouts and reversals; not forwarded`;
      return this.finish(record, { kind: event.event, status: null, state: 'unknown-kind', field: null, detail, virtualAccount: '', amount: null, payer: '' });
    }
    if (event.kind === 'payout' || event.kind === 'reversal') return this.processOutflow(record, event, history);
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
    const forwarding =
      state === 'verified' && verification?.transaction ? forwardedEvent(notification, verification.transaction, verification.account) : undefined;
    // A verified event is shown with the API's facts; any other with what it claimed (that is what is judged).
    const truth = state === 'verified' ? verification?.transaction : undefined;
    const virtualAccount = truth ? shownText(truth.destinationAccountNumber) || notification.virtualAccount : notification.virtualAccount;
    const payer = (truth ? shownText(truth.sourceAccountName) || notification.sourceAccountName : notification.sourceAccountName) ?? '';
    const detail = verification?.detail ?? 'not looked up (--no-verify); not forwarded';
    await this.deliver(
      record,
      { kind: 'collection', status: null, state, field: verification?.field ?? null, detail, virtualAccount, amount, payer },
      forwarding && { body: JSON.stringify(forwarding.body), unverified: forwarding.unverified },
    );
  }

  /** A payout or reversal: verified against the transfer it names, forwarded in its own shape. */
  private async processOutflow(record: ReceivedRecord, event: IncomingEvent & OutflowEvent, history: ReferenceHistory): Promise<void> {
    let verification: OutflowVerification | undefined;
    if (this.deps.verifyOutflow) {
      verification = await this.deps.verifyOutflow(event, this.stop.signal);
      if (this.stop.signal.aborted) return;
    }
    const state: ShownEvent['state'] = verification?.state ?? 'unverified';
    const record_ = state === 'verified' ? verification?.transaction : undefined;
    const forwarding = record_ ? forwardedOutflow(event, record_, verification?.original) : undefined;
    if (forwarding && (event.kind === 'payout' ? history.statuses.has(forwarding.status) : history.verified)) {
      return this.finishDuplicate(record, `another delivery of ${event.kind === 'payout' ? `payout ${forwarding.status}` : 'a reversal'} already verified`);
    }
    const n = event.notification;
    const status = event.kind === 'payout' ? (forwarding?.status ?? event.notification.status) : null;
    const amount = record_ ? (readAmount(record_.amount) ?? null) : (n.amount ?? null);
    const account = event.kind === 'payout' ? (record_ ? shownText(record_.destinationAccountNumber) : (event.notification.accountNumber ?? '')) : '';
    // The party column says what happened: the payee of a payout, the transfer a reversal undoes.
    const party =
      event.kind === 'payout'
        ? `payout ${status}${record_ ? ` to ${shownText(record_.destinationAccountName)}` : ''}`
        : `reversal of ${event.notification.originalReference}`;
    const detail = verification?.detail ?? 'not looked up (--no-verify); not forwarded';
    await this.deliver(
      record,
      { kind: event.kind, status, state, field: verification?.field ?? null, detail, virtualAccount: account, amount, payer: party.trim() },
      forwarding && {
        body: JSON.stringify(forwarding.body),
        unverified: forwarding.unverified,
        eventStatus: event.kind === 'payout' ? forwarding.status : undefined,
        holdFor: event.kind === 'reversal' ? event.notification.originalReference : undefined,
      },
    );
  }

  /**
   * Forwards a verified event (when there is a target) and finishes it. A forward that fails is kept for
   * redeliver(), or given up at once on 410 Gone.
   */
  private async deliver(
    record: ReceivedRecord,
    shown: Pick<ShownEvent, 'kind' | 'status' | 'state' | 'field' | 'detail' | 'virtualAccount' | 'amount' | 'payer'>,
    forwarding: { body: string; unverified: string[]; eventStatus?: string | undefined; holdFor?: string | undefined } | undefined,
  ): Promise<void> {
    let detail = shown.detail;
    let forwarded = false;
    let forwardProblem: string | null = null;
    let waiting: Waiting | undefined;
    let refusedWith: number | undefined;
    if (forwarding?.holdFor !== undefined && this.deps.forward && !(await this.reversedPayoutSettled(forwarding.holdFor))) {
      return this.hold(record, shown, forwarding, forwarding.holdFor);
    }
    if (forwarding && this.deps.forward) {
      const result = await this.deps.forward(Buffer.from(forwarding.body, 'utf8'), forwarding.unverified, this.stop.signal);
      if (this.stop.signal.aborted && !result.ok) return;
      forwarded = result.ok;
      if (result.ok) {
        this.tally.forwarded += 1;
        detail = `${detail}; forwarded (HTTP ${result.status})`;
      } else {
        this.tally.forwardFailed += 1;
        const now = this.deps.clock.now();
        waiting = {
          reference: record.reference,
          body: forwarding.body,
          unverified: forwarding.unverified,
          eventStatus: forwarding.eventStatus,
          attempts: result.tries,
          rounds: 1,
          firstFailedAt: now,
          nextAt: now,
          lastProblem: result.detail,
        };
        forwardProblem = result.detail;
        refusedWith = result.status;
        detail = `${detail}; forward failed: ${result.detail}; kept to try again`;
        this.deps.warn(`forward of ${record.reference} failed: ${result.detail}; kept, and tried again with backoff`);
      }
    }
    const kept = forwarding
      ? {
          forwardBody: forwarding.body,
          forwardUnverified: forwarding.unverified,
          ...(forwarding.eventStatus ? { eventStatus: forwarding.eventStatus } : {}),
          ...(waiting ? { undelivered: true, firstFailedAt: new Date(waiting.firstFailedAt ?? 0).toISOString(), attempts: waiting.attempts } : {}),
        }
      : {};
    await this.finish(record, { ...shown, detail }, { forwarded, forwardProblem, ...kept });
    if (waiting) {
      this.undelivered.set(record.id, waiting);
      // 410 Gone gives up at once; anything else waits its turn.
      await this.scheduleOrGiveUp(record.id, waiting, refusedWith);
    }
    if (forwarded && forwarding?.eventStatus === 'reversed') this.settleReversedPayout(record.reference);
  }

  /**
   * A verified reversal whose payout's `reversed` event has not reached the app: recorded as held (with
   * its deadline, so a restart holds it as long), shown, and forwarded by redeliver() once that event is
   * delivered or the deadline passes.
   */
  private async hold(
    record: ReceivedRecord,
    shown: Pick<ShownEvent, 'kind' | 'status' | 'state' | 'field' | 'detail' | 'virtualAccount' | 'amount' | 'payer'>,
    forwarding: { body: string; unverified: string[] },
    original: string,
  ): Promise<void> {
    const until = this.deps.clock.now() + REVERSAL_HOLD_MS;
    const note = `held until payout ${original}'s reversed event reaches the app (at most ${formatSpan(REVERSAL_HOLD_MS)} unless that event is still being tried)`;
    await this.finish(
      record,
      { ...shown, detail: `${shown.detail}; ${note}` },
      {
        forwarded: false,
        forwardProblem: null,
        forwardBody: forwarding.body,
        forwardUnverified: forwarding.unverified,
        undelivered: true,
        heldFor: original,
        heldUntil: new Date(until).toISOString(),
        attempts: 0,
      },
    );
    const hold = { original, released: false };
    this.undelivered.set(record.id, {
      reference: record.reference,
      body: forwarding.body,
      unverified: forwarding.unverified,
      eventStatus: undefined,
      attempts: 0,
      rounds: 0,
      firstFailedAt: undefined,
      nextAt: until,
      lastProblem: '',
      hold,
    });
    this.deps.warn(`${record.reference} ${note}`);
    // Its payout's event may have gone while this one was recorded.
    if (this.reversedPayoutsSettled.has(original)) this.settleReversedPayout(original);
  }

  /** Remembers, tallies, records and shows one finished event. */
  private async finish(
    record: ReceivedRecord,
    shown: Pick<ShownEvent, 'kind' | 'status' | 'state' | 'field' | 'detail' | 'virtualAccount' | 'amount' | 'payer'>,
    delivery: Pick<
      OutcomeRecord,
      'forwarded' | 'undelivered' | 'forwardBody' | 'forwardUnverified' | 'eventStatus' | 'firstFailedAt' | 'attempts' | 'heldFor' | 'heldUntil'
    > & {
      forwardProblem: string | null;
    } = { forwarded: false, forwardProblem: null },
  ): Promise<void> {
    const { state, field, detail } = shown;
    this.tally[state] += 1;
    const { forwarded, forwardProblem, ...kept } = delivery;
    if (!(await this.writeOutcome({ kind: 'outcome', id: record.id, at: this.now(), reference: record.reference, state, field, detail, forwarded, ...kept }))) {
      this.remember(record.id, record.reference, record.sha256, state, forwarded, kept.eventStatus);
    }
    this.deps.show({ id: record.id, receivedAt: record.receivedAt, reference: record.reference, ...shown, forwarded, forwardProblem });
  }

  private async finishDuplicate(record: ReceivedRecord, detail: string): Promise<void> {
    this.tally.duplicate += 1;
    await this.writeOutcome({
      kind: 'outcome',
      id: record.id,
      at: this.now(),
      reference: record.reference,
      state: 'duplicate',
      field: null,
      detail,
      forwarded: false,
    });
  }

  /** Writes an outcome; false when the disk refused it (warned). */
  private async writeOutcome(outcome: OutcomeRecord): Promise<boolean> {
    try {
      await this.deps.log.append(outcome);
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
  private async historyOf(reference: string): Promise<ReferenceHistory> {
    const history: ReferenceHistory = { verified: false, statuses: new Set(), bodies: new Set() };
    const add = (state: EventState, bodySha: string | undefined, eventStatus?: string) => {
      if (state === 'duplicate') return;
      // A failed event was verified: the app refused it, and `webhook events resend` is how to send it again.
      if (state === 'verified' || state === 'failed') {
        history.verified = true;
        if (eventStatus) history.statuses.add(eventStatus);
      }
      if (bodySha && this.isFinal(state)) history.bodies.add(bodySha);
    };
    for (const past of await this.deps.log.outcomesOf(reference)) add(past.state, past.sha256, past.eventStatus);
    for (const past of this.unrecorded.get(reference) ?? []) add(past.state, past.sha256, past.eventStatus);
    return history;
  }

  /** An outcome the disk refused: remembered for the rest of this run, as if it were in the log. */
  private remember(id: string, reference: string, sha256: string | undefined, state: EventState, forwarded: boolean, eventStatus?: string): void {
    const list = this.unrecorded.get(reference) ?? [];
    list.push({ id, state, sha256, eventStatus, forwarded });
    this.unrecorded.set(reference, list);
  }

  /**
   * Whether a body that reached `state` needs no second look. Only a verified body is final where events
   * are verified: anything else may be a forgery or early copy of bytes that later verify. Where nothing
   * is verified (--no-verify, or an event kind fsapi cannot verify) a body is final once shown.
   */
  private isFinal(state: EventState): boolean {
    if (state === 'verified' || state === 'failed' || state === 'unknown-kind') return true;
    return state === 'unverified' && this.deps.verify === undefined;
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

/** "3 s", "12 min", "3 h", "2 d": how long an event was tried. */
export function formatSpan(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.round(ms / 3_600_000)} h`;
  return `${Math.round(ms / 86_400_000)} d`;
}

/** What became of a held reversal when it was forwarded. */
function holdDetail(hold: { original: string; released: boolean }): string {
  return hold.released
    ? `forwarded after payout ${hold.original}'s reversed event`
    : `forwarded without payout ${hold.original}'s reversed event, which did not reach the app within ${formatSpan(REVERSAL_HOLD_MS)}`;
}
