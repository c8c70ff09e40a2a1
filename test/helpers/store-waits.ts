// What the tests of the stores' waits share (test/store-async.test.ts, test/team-leases.test.ts): a run
// watched until an event, the store's writer lock held by the test, a batch file of distinct rows.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { WRITER_LOCK } from '../../src/store/postgres.js';
import { openDatabase } from '../../src/store/sqlite.js';
import type { startCli } from './cli.js';
import { connectTo, type TestPostgres } from './postgres.js';

/** Polls `check` every 20 ms while `run` runs; fails when it ends first (with what it said), or after `timeoutMs`. */
export async function whileRunning(run: ReturnType<typeof startCli>, check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  let ended = false;
  void run.exited.then(() => (ended = true));
  for (let waited = 0; waited <= timeoutMs; waited += 20) {
    if (await check()) return;
    if (ended) assert.fail(`the run ended before ${what}: ${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`timed out waiting for ${what}: ${run.stderr()}`);
}

export interface HeldWriterLock {
  /** How many transactions wait for it on the server (SQLite does not say: NaN). */
  waiters(): Promise<number>;
  release(): Promise<void>;
}

/**
 * The store's writer lock, held by the test: SQLite's (BEGIN IMMEDIATE on `<where>/fsapi.db`) or the team
 * store's (its advisory lock, on the database at the URL `where`).
 */
export async function holdWriterLock(backend: 'sqlite' | 'postgresql', where: string, server?: TestPostgres): Promise<HeldWriterLock> {
  if (backend === 'sqlite') {
    const db = openDatabase(path.join(where, 'fsapi.db'));
    db.exec('PRAGMA busy_timeout = 10000');
    db.exec('BEGIN IMMEDIATE');
    return {
      waiters: async () => Number.NaN, // SQLite does not say who waits
      release: async () => {
        db.exec('COMMIT');
        db.close();
      },
    };
  }
  if (!server) throw new Error('the team store writer lock needs its server');
  const client = await connectTo(server, where);
  await client.query('BEGIN');
  await client.query(`SELECT pg_advisory_xact_lock(${WRITER_LOCK})`);
  const [high, low] = [Number(WRITER_LOCK >> 32n), Number(WRITER_LOCK & 0xffffffffn)];
  return {
    waiters: async () =>
      Number(
        (
          await client.query(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1 AND classid = $1::bigint::oid AND objid = $2::bigint::oid",
            [high, low],
          )
        ).rows[0].n,
      ),
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** A batch file of `count` rows to distinct accounts at GTBank (`tag`: four digits that keep files apart). */
export function batchFile(dir: string, name: string, count: number, tag: string): string {
  const file = path.join(dir, name);
  const rows = Array.from({ length: count }, (_, i) => `${tag}${String(i + 1).padStart(4, '0')}57,gtb,${101 + i},Row ${i + 1}`);
  writeFileSync(file, `account_number,bank,amount,narration\n${rows.join('\n')}\n`);
  return file;
}
