// A sending run's hold on the references it claims, on a team store: a lease, a row of `run_leases` that
// the run renews on a timer, whose expiry the database server's clock decides (never a machine's own).
// docs/team.md ("How a run on another machine is known to be alive") and docs/decisions.md ("Leases").
//
// - Taken before the run's first intent (holdTeamRunLease), for LEASE_MS, renewed every HEARTBEAT_MS from a
//   pool of one connection of its own (outside the store's, which `fsapi mcp` closes after each tool call).
//   A connection reset, terminated or lost is replaced at the next renewal, at once when the pool hears of
//   it: nothing of the lease lives in a connection or a session, so a transaction-mode pooler (PgBouncer) or
//   a managed PostgreSQL that restarts loses nothing.
// - Another member's run is "in flight" (runIsLive: never sent alongside, never looked up and sent again)
//   while its lease is live, OR while a POST of it may still be on its way: each intent's claim marks the
//   lease `in_flight_until` = the server's clock + the run's in-flight window (inFlightWindowMs: the send
//   window + the request timeout + the lookups + a margin), whatever becomes of the lease afterwards. A run
//   that died, was stopped or was cut off keeps its references protected for that long.
// - Fencing: each intent's write transaction checks, in its first round trip, that the run's lease is still
//   live (its fence), and marks the window there. A run whose lease ran out (it could not renew for
//   LEASE_MS: stopped, or partitioned from the store) writes no more intents: LeaseLostError.
// - The POST of an intent leaves only within SEND_WINDOW_MS of its claim (mayLeave): a process stopped
//   between the two (Ctrl+Z, a laptop's lid) could otherwise send it after the window that protects it.
import { hostname } from 'node:os';
import type { Pool as PgPool, QueryResult } from 'pg';
import { ExitCode, FsapiError, NotSentError } from '../errors.js';
import { teamPool, teamStoreError, type TeamStore } from './postgres.js';
import type { Fence, Queries, SqlRow } from './store.js';

/** How long a lease lasts without renewal: three heartbeats, so two lost in a row are survived. */
export const LEASE_MS = 30_000;
/** How often a lease is renewed. */
export const HEARTBEAT_MS = 10_000;
/** After a renewal that failed, the next try comes this soon. */
const RETRY_MS = 1_000;
/** How long an intent's POST may take to leave after its claim began; past it, it is not sent. */
export const SEND_WINDOW_MS = 10_000;
/** What the in-flight window adds to the time a POST may take: the API's delay in showing a transfer to a lookup. */
export const IN_FLIGHT_MARGIN_MS = 30_000;
/** A renewal's bounds on the server (statement, lock) and here (its answer). */
const RENEWAL_BOUND_MS = 5_000;
/** A lease that ended this long ago (and whose window has passed) is removed when a run takes one. */
const FORGOTTEN_AFTER = '1 day';

/**
 * How long another member treats a reference this run claimed as in flight, whatever the lease says: the
 * send window, the POST's timeout, the lookups that learn its outcome when its answer is lost, and a
 * margin. The default: 10 + 30 + 30 + 30 = 100 s.
 */
export function inFlightWindowMs(requestTimeoutMs: number, lookupsMs: number): number {
  return SEND_WINDOW_MS + requestTimeoutMs + lookupsMs + IN_FLIGHT_MARGIN_MS;
}

/** A run's lease ran out before an intent could be written: nothing more is sent by this run. Exit 1. */
export class LeaseLostError extends FsapiError {
  constructor(display: string, why: string) {
    super(`this run's lease on the team store ${display} ${why}: it sends nothing more; nothing was sent for this transfer`, {
      exitCode: ExitCode.failed,
      hint: 'run the same command again: what this run sent is in the journal, and nothing is paid twice (docs/team.md, "Leases")',
      code: 'store_lease_lost',
    });
  }
}

/** A moment of this process: monotonic time and the wall clock, so neither a stopped process nor a suspended machine hides how long passed. */
interface Moment {
  monotonic: bigint;
  wall: number;
}

function moment(): Moment {
  return { monotonic: process.hrtime.bigint(), wall: Date.now() };
}

/** Milliseconds since `then`: the larger of the two clocks' (CLOCK_MONOTONIC does not count a machine's sleep; the wall clock may be set back). */
function elapsedMs(then: Moment): number {
  return Math.max(Number((process.hrtime.bigint() - then.monotonic) / 1_000_000n), Date.now() - then.wall);
}

/** An SQL string literal (standard_conforming_strings: only quotes are doubled; NULs are not text). */
function literal(text: string): string {
  return `'${text.replace(/\0/g, '').replace(/'/g, "''")}'`;
}

/** The fence of one claim: the lease still live, the in-flight window marked; then, until its POST leaves, the send window. */
export interface ClaimFence extends Fence {
  /** Throws NotSentError when the POST of the intent this fence let through may no longer leave. */
  mayLeave(): void;
}

/** Bounds for one statement sent outside the store's transactions: BEGIN and SET LOCAL ride with it, one round trip. */
function bounded(statement: string): string {
  return `BEGIN; SELECT set_config('statement_timeout', '${RENEWAL_BOUND_MS}', true), set_config('lock_timeout', '${RENEWAL_BOUND_MS}', true);
    ${statement}; COMMIT`;
}

/** The rows of the one statement `bounded` wraps (BEGIN, the bounds, it, COMMIT). */
function rowsOf(answers: QueryResult | QueryResult[]): SqlRow[] {
  const results = Array.isArray(answers) ? answers : [answers];
  return (results[2]?.rows ?? []) as SqlRow[];
}

class RunLease {
  /** Why the lease is gone, once it is: from then on no intent is written under it. */
  lost: LeaseLostError | undefined;
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;
  private stopped = false;
  private lastRenewal: Moment | undefined;

  private constructor(
    readonly display: string,
    private readonly pool: PgPool,
    readonly run: string,
  ) {}

  /** Takes the run's lease (a new row, or the same run's again after it was let go) and starts renewing it. */
  static async take(store: TeamStore, run: string): Promise<RunLease> {
    const display = store.address.display;
    let lease: RunLease | undefined;
    // A connection of the lease's own, kept between renewals; one that fails while idle (reset, terminated)
    // is replaced by renewing at once.
    const pool = await teamPool(store.address, {
      size: 1,
      idleMs: 0,
      waitMs: RENEWAL_BOUND_MS * 2,
      answerMs: RENEWAL_BOUND_MS * 2,
      onIdleFailure: () => lease?.renewSoon(0),
    });
    lease = new RunLease(display, pool, run);
    const at = moment();
    try {
      await pool.query(
        bounded(`INSERT INTO run_leases (run, host, pid, started_at, heartbeat_at, expires_at)
          VALUES (${literal(run)}, ${literal(hostname())}, ${process.pid}, clock_timestamp(), clock_timestamp(), clock_timestamp() + interval '${LEASE_MS} milliseconds')
          ON CONFLICT (run) DO UPDATE SET login = session_user, host = EXCLUDED.host, pid = EXCLUDED.pid, started_at = EXCLUDED.started_at,
            heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at`),
      );
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw teamStoreError(display, error);
    }
    lease.lastRenewal = at;
    lease.renewSoon(HEARTBEAT_MS);
    // Leases long over (ended, and past their window) are removed, as a courtesy: one left behind (a login
    // without the right to remove them) changes nothing, a run without a live lease or window being dead.
    void pool
      .query(bounded(`DELETE FROM run_leases WHERE greatest(expires_at, in_flight_until) < clock_timestamp() - interval '${FORGOTTEN_AFTER}'`))
      .catch(() => undefined);
    return lease;
  }

  /** The next renewal in `ms` (unless one is on its way); never keeps the process alive. */
  private renewSoon(ms: number): void {
    if (this.stopped || this.lost) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.renew(), ms);
    this.timer.unref();
  }

  /** Renews the lease if the server still holds it live; a lease the server let run out is lost for good. */
  private async renew(): Promise<void> {
    if (this.renewing || this.stopped || this.lost) return;
    this.renewing = true;
    const at = moment();
    let next = HEARTBEAT_MS;
    try {
      const rows = rowsOf(
        await this.pool.query(
          bounded(`UPDATE run_leases SET heartbeat_at = clock_timestamp(), expires_at = clock_timestamp() + interval '${LEASE_MS} milliseconds',
            renewals = renewals + 1 WHERE run = ${literal(this.run)} AND expires_at > clock_timestamp() RETURNING 1 AS renewed`),
        ),
      );
      if (rows.length === 1) this.lastRenewal = at;
      else this.lose(this.expiredWords());
    } catch {
      // Unreachable for now (a reset, a restart, the network): tried again soon, on a new connection.
      next = RETRY_MS;
    } finally {
      this.renewing = false;
    }
    this.renewSoon(next);
  }

  private expiredWords(): string {
    const ago = this.lastRenewal ? `last renewed ${Math.round(elapsedMs(this.lastRenewal) / 1000)} s ago; ` : '';
    return `ran out on the server (${ago}a lease lasts ${LEASE_MS / 1000} s unless renewed: was the process stopped, or cut off from the store?)`;
  }

  private lose(why: string): void {
    this.lost ??= new LeaseLostError(this.display, why);
    clearTimeout(this.timer);
  }

  /**
   * The fence of one claim, `inFlightMs` its window: checked (and the window marked) in the claim's first
   * round trip, after the writer's lock; the send window counts from now, before BEGIN leaves, plus the
   * time the server says the claim waited for that lock.
   */
  fence(inFlightMs: number): ClaimFence {
    const started = moment();
    let waitedMs = 0;
    let marked = false;
    return {
      sql: `UPDATE run_leases SET in_flight_until = greatest(in_flight_until, clock_timestamp() + interval '${Math.ceil(inFlightMs)} milliseconds')
              WHERE run = ${literal(this.run)} AND expires_at > clock_timestamp()
              RETURNING greatest(0, extract(epoch FROM clock_timestamp() - now()) * 1000)::bigint AS waited_ms`,
      holds: (rows) => {
        marked = rows.length === 1;
        if (marked) waitedMs = Number(rows[0]!.waited_ms);
        else this.lose(this.expiredWords());
        return marked;
      },
      lost: () => this.lost ?? new LeaseLostError(this.display, this.expiredWords()),
      mayLeave: () => {
        const passed = elapsedMs(started) - waitedMs;
        if (!marked || passed <= SEND_WINDOW_MS) return;
        throw new NotSentError(
          `this run was held ${Math.round(passed / 1000)} s between claiming the transfer and sending it, past the ${SEND_WINDOW_MS / 1000} s ` +
            `a team store allows (was the process stopped?); another member may settle it, so it was not sent`,
        );
      },
    };
  }

  /** Stops renewing and lets the connection go; the lease runs out by itself (LEASE_MS), its window as marked. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    void this.pool.end().catch(() => undefined);
  }
}

/** This process's leases, by store address. */
const leases = new Map<string, Promise<RunLease>>();
let newLeaseAfterLoss = false;

/** A process that serves many commands (`fsapi mcp`) takes a new lease when its last one was lost; a command's run stops instead. */
export function takeNewLeaseAfterLoss(allowed: boolean): void {
  newLeaseAfterLoss = allowed;
}

/**
 * The run's lease on `store` (taken at its first intent, renewed while the process lives) and the fence of
 * the claim about to be written. A lease already lost throws LeaseLostError, except in a process that may
 * take a new one (takeNewLeaseAfterLoss): every claim is checked afresh, and each intent written under the
 * old lease stays protected by its window, so nothing it claimed can be sent twice.
 */
export async function holdTeamRunLease(store: TeamStore, run: string, inFlightMs: number): Promise<ClaimFence> {
  const key = store.address.display;
  let taking = leases.get(key);
  if (taking && newLeaseAfterLoss) {
    const current = await taking.catch(() => undefined);
    if (current?.lost) {
      current.stop();
      taking = undefined;
    }
  }
  if (!taking) {
    const attempt = RunLease.take(store, run);
    taking = attempt;
    leases.set(key, attempt);
    // Not taken (the store unreachable): asked again by the next claim.
    attempt.catch(() => {
      if (leases.get(key) === attempt) leases.delete(key);
    });
  }
  const lease = await taking;
  if (lease.lost) throw lease.lost;
  return lease.fence(inFlightMs);
}

/** Stops renewing this process's leases (tests that run many commands in one process; a process that ends needs nothing). */
export function releaseTeamRunLeases(): void {
  const held = [...leases.values()];
  leases.clear();
  for (const lease of held) void lease.then((l) => l.stop()).catch(() => undefined);
}

/**
 * Whether a run's references are in flight: its lease is live, or a POST of it may still be on its way
 * (the window its last claim marked), by the server's clock. `q`: the caller's transaction.
 */
export async function teamRunIsLive(store: TeamStore, run: string, q?: Queries): Promise<boolean> {
  const ask = (tx: Queries) =>
    tx.sql('SELECT count(*) AS n FROM run_leases WHERE run = ? AND greatest(expires_at, in_flight_until) > clock_timestamp()').get(run);
  const row = q ? await ask(q) : await store.read(ask);
  return Number(row?.n ?? 0) > 0;
}
