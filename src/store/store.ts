// The interface every store of fsapi's records has: the data dir's SQLite (src/store/database.ts) and a
// team's PostgreSQL (src/store/postgres.ts). Asynchronous on both: a wait for the store (another process
// writing, the network) never stops the process, so an HTTP answer that arrives meanwhile is read as it
// arrives (docs/decisions.md, "An asynchronous store").
//
// Statements run only inside a transaction, through its handle (`Queries`): `read` and `write` give one to
// their work, and a call made from within that work joins the transaction by being given the handle. Two
// tasks of one process (the rows of a batch sent 8 at a time, the listener's events) each get their own
// transaction, one after the other on SQLite's one connection and on a connection each from the team
// store's pool: their statements never mix. A handle whose transaction ended refuses every statement.
import type { StoreIdentity } from './identity.js';
import type { SqlRow, SqlValue } from './sqlite.js';

export type { SqlRow, SqlValue } from './sqlite.js';

export interface RunResult {
  changes: number;
  /** The new row's key, for the inserts whose caller reads it (journal, events). */
  lastInsertRowid: number;
}

/** One statement of a transaction, by its SQLite text (`?` placeholders). */
export interface Statement {
  run(...params: SqlValue[]): Promise<RunResult>;
  get(...params: SqlValue[]): Promise<SqlRow | undefined>;
  all(...params: SqlValue[]): Promise<SqlRow[]>;
  /**
   * A write whose result nobody reads. A team store sends it with the transaction's next statement, or with
   * its COMMIT, in one round trip (PostgreSQL runs the statements in order, so every later statement sees
   * it, and a failure fails the transaction): SQLite runs it now.
   */
  write(...params: SqlValue[]): Promise<void>;
}

/** A read a transaction is about to make: its SQLite text and its values. */
export interface PlannedRead {
  text: string;
  params: SqlValue[];
}

/** A transaction's handle: statements run in it, and only while it is open. */
export interface Queries {
  sql(text: string): Statement;
  /**
   * Reads this transaction is about to make, asked together: a team store sends them in one round trip and
   * answers each of them from what came back (the same text, the same values) until something is written;
   * SQLite, whose statements take microseconds, asks each when it comes.
   */
  prefetch?(reads: readonly PlannedRead[]): Promise<void>;
}

/**
 * A condition a write transaction must meet before its work runs, checked in its first round trip: a
 * statement without parameters whose rows say whether it holds (a team store's run lock still held by
 * this run, src/store/process-lock.ts). When it does not, the transaction is rolled back and `lost()`
 * thrown: nothing of it was written.
 */
export interface Fence {
  readonly sql: string;
  holds(rows: readonly SqlRow[]): boolean;
  lost(): Error;
}

export interface WriteOptions {
  fence?: Fence | undefined;
  /**
   * Committed together with the other grouped writes this process asks for meanwhile (the claims and the
   * outcomes of a batch's rows in flight): one transaction, so one commit (one fsync of SQLite's WAL, one
   * writer's lock and one COMMIT on a team store) for all of them (WriteGroups).
   */
  group?: boolean | undefined;
  /** What `work` reads first (Queries.prefetch): a team store asks it with BEGIN, in the same round trip. */
  reads?: readonly PlannedRead[] | undefined;
}

export interface Store {
  readonly dataDir: string;
  /** The database file; for a team store, its address without a password. */
  readonly file: string;
  readonly backend: 'sqlite' | 'postgresql';
  /** Runs `work` on one consistent snapshot. */
  read<T>(work: (q: Queries) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one write transaction, one writer at a time across every process and machine sharing
   * the store (SQLite: BEGIN IMMEDIATE; PostgreSQL: the store's advisory lock): all of it is kept, or none.
   * `work` must never wait for the network (the API): the writer lock is held until it returns.
   */
  write<T>(work: (q: Queries) => Promise<T>, options?: WriteOptions): Promise<T>;
  /** The store's id and write counter. */
  identity(): Promise<StoreIdentity | undefined>;
  /**
   * Who acts through this store (src/common/actor.ts): a team store's PostgreSQL login (session_user, which
   * the server also stamps on every row it writes), else the OS user and host. What "who" compares.
   */
  actor(): Promise<string>;
  /** A consistent copy of the whole store into `target`, which must not exist or be empty (VACUUM INTO; not a team store's). */
  copyInto(target: string): Promise<void>;
  close(): Promise<void>;
}

/** A statement made on a handle whose transaction has ended: a bug of fsapi's, never a user's. */
export class TransactionEndedError extends Error {
  constructor(text: string) {
    super(`a statement outside its transaction (${text.slice(0, 60)}): the transaction it was made in has ended`);
  }
}

/**
 * Transactions of one connection, one at a time, in the order asked: an asynchronous lock whose wait is
 * bounded. The SQLite store's one connection holds one transaction at a time; a second task of the process
 * waits here (without blocking the process) rather than joining a transaction that is not its own.
 */
export class TransactionQueue {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  /** Resolves when the queue is this caller's, with the function that hands it on; rejects with `tooLong()` after `boundMs`. */
  acquire(boundMs: number, tooLong: () => Error): Promise<() => void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(grant);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(tooLong());
      }, boundMs);
      this.waiting.push(grant);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.held = false;
    };
  }
}

const HELD_WRITE_REFUSED = Symbol('a held write refused');

/**
 * Marks a store's error: the server refused a statement sent with COMMIT (a write held for it,
 * Statement.write, or COMMIT itself) and so rolled the whole transaction back: nothing of it was kept, and
 * which write it was is not known (WriteGroups then runs each member alone). Not for a connection lost,
 * after which whether COMMIT took is not known.
 */
export function markHeldWriteRefused<E extends object>(error: E): E {
  Object.defineProperty(error, HELD_WRITE_REFUSED, { value: true });
  return error;
}

function heldWriteRefused(error: unknown): boolean {
  return typeof error === 'object' && error !== null && HELD_WRITE_REFUSED in error;
}

/** Most writes in one group: a batch has at most its concurrency of rows in flight, each with one write waiting. */
const MAX_GROUP = 64;

interface GroupMember {
  work: (q: Queries) => Promise<unknown>;
  fence: Fence | undefined;
  reads: readonly PlannedRead[] | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the grouped writes a process asks for while its previous group is being written (and those
 * asked for in the same turn of the event loop) run one after the other in one write transaction, and each
 * caller is answered once that transaction is committed, so each is as durable when its promise resolves as
 * a write of its own (an intent still reaches the disk before its POST leaves). Each keeps its own
 * all-or-nothing:
 * - a work (or its fence) that throws before it wrote anything (a claim refused: a reference taken, a
 *   duplicate, a limit) gets its error, and the others go on in the same transaction;
 * - a work whose statement failed, or that threw after it wrote, or writes the server refused at COMMIT,
 *   roll the whole group back; every member then runs again in a transaction of its own, as if never
 *   grouped (where the failing one fails as it would have alone, and the others decide again on records
 *   without what was rolled back);
 * - BEGIN or COMMIT failing for the store (busy, unreachable, the disk full) fails every member with that
 *   error: nothing of the group was kept.
 * A work may thus run twice (the first time rolled back): works are store-only decisions, which give the
 * same answer on the same records.
 * A fence's statement (a team store's lease renewed and its in-flight window marked) is kept even when its
 * work is then refused: the window of a live run only ever grows, which keeps its references in flight.
 */
export class WriteGroups {
  private pending: GroupMember[] = [];
  private draining = false;

  constructor(private readonly writeAlone: <T>(work: (q: Queries) => Promise<T>, options?: WriteOptions) => Promise<T>) {}

  submit<T>(work: (q: Queries) => Promise<T>, options: WriteOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, fence: options.fence, reads: options.reads, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        // The writes asked for in this turn of the event loop (answers read together) join this group.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await this.runGroup(this.pending.splice(0, MAX_GROUP));
      }
    } finally {
      this.draining = false;
    }
  }

  private async runGroup(members: GroupMember[]): Promise<void> {
    const alone = (member: GroupMember) => this.writeAlone(member.work, { fence: member.fence, reads: member.reads }).then(member.resolve, member.reject);
    if (members.length === 1) return alone(members[0]!);
    const results = new Map<GroupMember, { value: unknown } | { error: unknown }>();
    // The fences' rows by their statement: the same fence (a run's lease, its window) is asked once a group,
    // the first member's with BEGIN, in the same round trip.
    const fenceRows = new Map<string, SqlRow[]>();
    const first = members[0]!.fence;
    let statementFailed = false;
    try {
      await this.writeAlone(
        async (q) => {
          for (const member of members) {
            const own = new MemberQueries(q);
            try {
              if (member.fence) {
                let rows = fenceRows.get(member.fence.sql);
                if (!rows) fenceRows.set(member.fence.sql, (rows = await own.fence(member.fence.sql)));
                if (!member.fence.holds(rows)) throw member.fence.lost();
              }
              results.set(member, { value: await member.work(own) });
            } catch (error) {
              if (own.wrote || own.failed) {
                statementFailed = true;
                throw error;
              }
              results.set(member, { error });
            } finally {
              own.end();
            }
          }
          // The writes a team store still holds go with its COMMIT (one round trip): refused there, they
          // are told by heldWriteRefused.
        },
        {
          // The first member's first reads ride with BEGIN; the others' are asked as each begins.
          reads: members[0]!.reads,
          fence: first && {
            sql: first.sql,
            // Kept for the members, each of which decides on them (a lease lost refuses only the claims under it).
            holds: (rows) => {
              fenceRows.set(first.sql, [...rows]);
              return true;
            },
            lost: () => first.lost(),
          },
        },
      );
    } catch (error) {
      if (statementFailed || heldWriteRefused(error)) {
        // Rolled back whole, and whose statement failed is not always known (a team store sends writes
        // together): every member again in a transaction of its own, as if never grouped; a refusal too,
        // since it was decided on records that included the others' writes.
        await Promise.all(members.map(alone));
        return;
      }
      // BEGIN or COMMIT failed (the store busy, unreachable, the disk full): nothing of the group was kept,
      // and what each decided in it stands on nothing either.
      for (const member of members) member.reject(error);
      return;
    }
    for (const member of members) {
      const own = results.get(member)!;
      if ('error' in own) member.reject(own.error);
      else member.resolve(own.value);
    }
  }
}

/** Whether a statement may write, whichever way its rows are read (RETURNING): all but a SELECT. */
export function mayWrite(text: string): boolean {
  return !/^\s*SELECT\b/i.test(text);
}

/** One member's view of its group's transaction: whether it wrote (`run`, or a statement that may write) or one of its statements failed. */
class MemberQueries implements Queries {
  wrote = false;
  failed = false;
  private open = true;

  constructor(private readonly group: Queries) {}

  async prefetch(reads: readonly PlannedRead[]): Promise<void> {
    try {
      await this.group.prefetch?.(reads);
    } catch (error) {
      // The writes held before it went with it: whichever failed, the transaction did.
      this.failed = true;
      throw error;
    }
  }

  end(): void {
    this.open = false;
  }

  /** A fence's statement: kept even when the work is then refused (WriteGroups), so it does not count as a write of the member's. */
  async fence(text: string): Promise<SqlRow[]> {
    try {
      return await this.group.sql(text).all();
    } catch (error) {
      this.failed = true;
      throw error;
    }
  }

  sql(text: string): Statement {
    const statement = this.group.sql(text);
    const send = async <R>(writes: boolean, call: () => Promise<R>): Promise<R> => {
      if (!this.open) throw new TransactionEndedError(text);
      if (writes) this.wrote = true;
      try {
        return await call();
      } catch (error) {
        this.failed = true;
        throw error;
      }
    };
    return {
      run: (...params) => send(true, () => statement.run(...params)),
      write: (...params) => send(true, () => statement.write(...params)),
      get: (...params) => send(mayWrite(text), () => statement.get(...params)),
      all: (...params) => send(mayWrite(text), () => statement.all(...params)),
    };
  }
}
