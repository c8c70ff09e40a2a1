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
import { forwardedEvent, keptUnverified, parseNotification, readAmount, type IncomingEvent, type Verification } from './verify.js';
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
  /** At most this many events taken from the event log into memory at once (DEFAULT_WINDOW). */
  window?: number;
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

/**
 * Events taken from the event log into memory at once: being verified, rechecked while pending, forwarded.
 * The rest of a burst waits in the store, so memory does not grow with what arrives (a notification is
 * under 2 KB; the largest accepted, 1 MB, makes this 64 MB at worst). Lookups in flight are fewer (8).
 */
export const DEFAULT_WINDOW = 64;

/** Open events taken from the store per transaction: a page of bodies well inside the store's bound on one result. */
const TAKE_PAGE = 32;

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

export function newReceivedRecord(receivedAt: Date, reference: string, body: Uint8Array, text: string, account?: string): ReceivedRecord {
  return {
    kind: 'received',
    id: randomUUID(),
    receivedAt: receivedAt.toISOString(),
    reference,
    sha256: sha256(body),
    body: text,
    ...(account === undefined ? {} : { account }),
  };
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
  /** The rows of the event log taken and not finished yet (the window), by seq. */
  private readonly taken = new Set<number>();
  /** The most events ever in the window at once (for tests of its bound). */
  private peakTaken = 0;
  /** Pieces of work queued or running per reference: its claim is held while there are any. */
  private readonly holds = new Map<string, number>();
  /** References whose work is all done: their claims are let go by the next take. */
  private readonly releasing = new Set<string>();
  /** The claims' operations, one after another: a release never overtakes a claim made after it was decided. */
  private claimTurn: Promise<unknown> = Promise.resolve();
  /** Whether the last take found less than it asked for (nothing more to take until something changes). */
  private dry = false;
  /** A take is wanted (new events, room in the window, claims to let go). */
  private wanted = false;
  private pumping: Promise<void> | undefined;
  /** No more taking (stopping). */
  private closed = false;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private ticks = 0;
  /** While undelivered events are read again: the ids finished meanwhile (so they are not kept again). */
  private refreshing: Set<string> | undefined;
  /** The last problem with the store told on stderr, so a long outage is told once. */
  private storeProblem: string | undefined;
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
   * Takes up what earlier runs (and other listeners of the account) left: keeps the verified events the
   * app has not taken, for `redeliver`, and returns how many received events are not finished yet: the
   * window takes those from the store as it has room (wake). Both are read by index
   * (src/store/events.ts), never the whole log: a start costs the same after a million events. A verified
   * event left undelivered by an older version (no forwardBody) is among the open ones, to be verified
   * again, since only the received bytes would be left to forward. Whether a later delivery is a resend is
   * asked of the log when it comes (historyOf).
   */
  async restore(onBadRow: (row: number) => void = () => undefined): Promise<number> {
    await this.keepUndelivered(await this.deps.log.undelivered(onBadRow));
    this.startHeartbeat();
    return this.deps.log.openCount();
  }

  /** Keeps verified events the app has not taken, each to be tried when its turn comes. */
  private async keepUndelivered(records: readonly OutcomeRecord[]): Promise<void> {
    const now = this.deps.clock.now();
    for (const record of records) {
      if (this.undelivered.has(record.id) || this.refreshing?.has(record.id)) continue;
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
  }

  /** Forgets a kept event (delivered, given up, or settled by another listener). */
  private forget(id: string): void {
    this.undelivered.delete(id);
    this.refreshing?.add(id);
  }

  /**
   * Reads again the undelivered events of the account this listener does not keep: those another
   * listener left (it stopped, or died) are tried here from now on, each under its reference's claim.
   */
  private async refreshUndelivered(): Promise<void> {
    if (!this.deps.forward || this.refreshing) return;
    this.refreshing = new Set();
    try {
      const found = await this.deps.log.undelivered(
        () => undefined,
        (id) => this.undelivered.has(id),
      );
      await this.keepUndelivered(found);
    } finally {
      this.refreshing = undefined;
    }
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
                // Another listener of the account may be trying it too: one at a time, by the reference's claim.
                if (!(await this.claimed(waiting.reference))) {
                  waiting.nextAt = Math.max(waiting.nextAt, this.deps.clock.now() + this.tickMs);
                  return;
                }
                const settled = await this.settledElsewhere(id, waiting.reference);
                if (settled) {
                  this.forget(id);
                  this.deps.warn(`${waiting.reference} ${settled} (event ${id}); not forwarded again`);
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
                this.forget(id);
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

  /**
   * What became of a kept event elsewhere since it was kept, in words, or undefined: `webhook events
   * resend` delivered it, or another listener of the account delivered it or gave up on it.
   */
  private async settledElsewhere(id: string, reference: string): Promise<string | undefined> {
    const mine = (await this.deps.log.outcomesOf(reference)).filter((past) => past.id === id);
    if (mine.some((past) => past.forwarded && past.resent)) return 'was delivered by webhook events resend';
    if (mine.some((past) => past.forwarded)) return 'was delivered by another listener';
    if (mine.some((past) => past.state === 'failed')) return 'was given up on by another listener';
    return undefined;
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
    this.forget(id);
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

  /** How many events are in the window now: taken from the event log and not finished. */
  get inWindow(): number {
    return this.taken.size;
  }

  /** The most events that were ever in the window at once. */
  get peakWindow(): number {
    return this.peakTaken;
  }

  private get windowSize(): number {
    return this.deps.window ?? DEFAULT_WINDOW;
  }

  /** A third of the claims' bound: how often they are renewed and the log is looked at for events left by others. */
  private get tickMs(): number {
    return Math.max(100, Math.floor(this.deps.log.claims.who.claimMs / 3));
  }

  /**
   * New events are in the event log (committed): take them as the window has room. Returns at once; the
   * work happens in the background. Also how events left by others (a listener that stopped, or died and
   * whose claims ran out) are taken up: the heartbeat wakes the window too.
   */
  wake(): void {
    this.dry = false;
    this.kick();
  }

  private kick(): void {
    this.wanted = true;
    if (this.pumping || this.closed) return;
    this.startHeartbeat();
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
      if (this.wanted && !this.closed && (this.room() > 0 || this.releasing.size > 0)) this.kick();
      else this.wakeIfIdle();
    });
  }

  private room(): number {
    return this.dry ? 0 : this.windowSize - this.taken.size;
  }

  /** Takes events while the window has room and the log has some, letting go of finished claims as it goes. */
  private async pump(): Promise<void> {
    while (this.wanted && !this.closed) {
      const room = this.room();
      if (room <= 0 && this.releasing.size === 0) return; // an event that finishes asks again
      this.wanted = false;
      const limit = Math.min(Math.max(room, 0), TAKE_PAGE);
      let taken: Awaited<ReturnType<EventLogWriter['take']>>;
      try {
        taken = await this.inClaimTurn(() => {
          // Decided in the claims' turn: a reference given work since it was set aside keeps its claim.
          const releasing = [...this.releasing].filter((reference) => !this.holds.has(reference));
          this.releasing.clear();
          return this.deps.log.take(limit, [...this.taken], releasing);
        });
        this.storeBack();
      } catch (error) {
        // The store is down or busy: told once; the heartbeat asks again.
        this.storeTrouble(error);
        return;
      }
      if (limit > 0 && taken.length < limit) this.dry = true;
      for (const item of taken) {
        if ('badRow' in item) {
          this.deps.warn(`event row ${item.badRow} in ${this.deps.log.file} is not an event record; skipped (it is left as it is)`);
          continue;
        }
        this.takeIn(item.seq, item.record);
      }
      if (taken.length === limit && limit > 0) this.wanted = true;
    }
  }

  /** One event of the window: processed in its reference's turn, then out of the window. */
  private takeIn(seq: number, record: ReceivedRecord): void {
    this.taken.add(seq);
    this.peakTaken = Math.max(this.peakTaken, this.taken.size);
    this.enqueue(record.reference, async () => {
      try {
        const parsed = parseNotification(record.body);
        if (parsed.ok) await this.process(record, parsed);
        else await this.finishUnreadable(record, parsed.detail);
      } finally {
        this.taken.delete(seq);
        if (!this.dry) this.kick();
      }
    });
  }

  /** Runs `work` in the claims' turn (see claimTurn). */
  private inClaimTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.claimTurn.then(work, work);
    this.claimTurn = turn.catch(() => undefined);
    return turn;
  }

  /** Whether this listener holds the claim on `reference` now (claiming it if it is free), for the claims' bound. */
  private async claimed(reference: string): Promise<boolean> {
    try {
      const held = await this.inClaimTurn(() => this.deps.log.claim(reference));
      this.storeBack();
      return held;
    } catch (error) {
      this.storeTrouble(error);
      return false;
    }
  }

  /**
   * Before a forward: this listener's claim on `reference` extended, or false when it ran out and another
   * listener took the reference over (or the store cannot say): then this one does not forward, and leaves
   * the event to the one that holds it.
   */
  private async stillClaimed(reference: string): Promise<boolean> {
    try {
      const held = await this.inClaimTurn(() => this.deps.log.extendClaim(reference));
      this.storeBack();
      if (!held) this.deps.warn(`${reference}: another listener took it over (this one's claim ran out); left to it, not forwarded here`);
      return held;
    } catch (error) {
      this.storeTrouble(error);
      this.deps.warn(`${reference}: not forwarded, since the store cannot say whether this listener still holds it; left for a later try`);
      return false;
    }
  }

  /** Renews this listener's claims, and looks for events and undelivered ones left by others, every tickMs. */
  private startHeartbeat(): void {
    if (this.heartbeat || this.closed) return;
    this.heartbeat = setInterval(() => void this.beat(), this.tickMs);
    // The listener's own life is its server's; this timer keeps no process alive (tests drop processors).
    this.heartbeat.unref();
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    this.ticks += 1;
    try {
      if (this.holds.size > 0) await this.inClaimTurn(() => this.deps.log.renewClaims());
      if (this.ticks % 3 === 0) await this.refreshUndelivered();
      this.storeBack();
    } catch (error) {
      this.storeTrouble(error);
    }
    this.wake();
  }

  private storeTrouble(error: unknown): void {
    const problem = error instanceof Error ? error.message : String(error);
    if (problem !== this.storeProblem) this.deps.warn(`the event log cannot be reached: ${problem}; trying again every ${formatSpan(this.tickMs)}`);
    this.storeProblem = problem;
  }

  private storeBack(): void {
    if (this.storeProblem === undefined) return;
    this.storeProblem = undefined;
    this.deps.warn('the event log answers again');
  }

  /** Runs `work` after the reference's earlier work; drain() waits for it like for any event. */
  private enqueue(reference: string, work: () => Promise<void>): void {
    this.unfinished += 1;
    this.holds.set(reference, (this.holds.get(reference) ?? 0) + 1);
    const previous = this.chains.get(reference) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.deps.warn(`event ${reference}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (this.chains.get(reference) === next) this.chains.delete(reference);
        const left = (this.holds.get(reference) ?? 1) - 1;
        if (left > 0) this.holds.set(reference, left);
        else {
          // Its claim goes with the next take (at once: the window asks for one).
          this.holds.delete(reference);
          this.releasing.add(reference);
          this.kick();
        }
        this.unfinished -= 1;
        this.wakeIfIdle();
      });
    this.chains.set(reference, next);
  }

  /** Idle: nothing in progress, and nothing more to take (or no more taking). */
  private get idle(): boolean {
    return this.unfinished === 0 && this.pumping === undefined && (this.dry || this.closed || this.storeProblem !== undefined);
  }

  private wakeIfIdle(): void {
    if (this.idle) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /**
   * Waits for every event in the log this listener can take to be finished, at most `timeoutMs`; then
   * stops taking and cuts the rest short (they stay in the event log without an outcome and are taken up by
   * another listener or the next run). Returns how many in the window were cut.
   */
  async drain(timeoutMs: number): Promise<number> {
    this.wake();
    if (!this.idle) {
      const idle = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      const timer = new AbortController();
      await Promise.race([idle, this.deps.clock.sleep(timeoutMs, timer.signal).catch(() => undefined)]);
      timer.abort();
    }
    const left = this.unfinished;
    if (left > 0) {
      this.closed = true;
      this.stop.abort();
      // What was cut returns quickly now (its waits are aborted); give it a moment to unwind.
      const idle = new Promise<void>((resolve) => (this.unfinished === 0 ? resolve() : this.idleWaiters.push(resolve)));
      const timer = new AbortController();
      await Promise.race([idle, this.deps.clock.sleep(2000, timer.signal).catch(() => undefined)]);
      timer.abort();
    }
    return left;
  }

  /**
   * Stops taking events and lets go of this listener's claims, so the others take up at once what it
   * leaves (a listener that dies instead leaves them until its claims run out).
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.pumping;
    await this.inClaimTurn(() => this.deps.log.releaseClaims()).catch((error: unknown) =>
      this.deps.warn(
        `could not let go of this listener's claims (${error instanceof Error ? error.message : String(error)}); the others take its events up when they run out`,
      ),
    );
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

  /**
   * A record in the log whose body this fsapi cannot read as a notification (written by hand, or by another
   * version): finished as an event of unknown kind, so no listener takes it again.
   */
  private async finishUnreadable(record: ReceivedRecord, problem: string): Promise<void> {
    const detail = `not verified: the body in the event log cannot be read as a notification (${problem}); not forwarded`;
    await this.finish(record, { kind: 'unreadable', status: null, state: 'unknown-kind', field: null, detail, virtualAccount: '', amount: null, payer: '' });
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
      // Held by this listener still (a listener frozen past its claims' bound has lost the event to another).
      if (!(await this.stillClaimed(record.reference))) return;
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
