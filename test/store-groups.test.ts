// Writes committed together (src/store/store.ts, WriteGroups), a team store's writes sent with the next
// statement and its reads asked ahead (src/store/postgres.ts), and the statistics a new team store keeps:
// on the data dir's SQLite and on a real PostgreSQL started for this file, a database of its own a test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteStore } from '../src/store/database.js';
import { JournalStore, claimKeyRead } from '../src/store/journal.js';
import { FIRST_ANALYZE_AFTER, openTeamStore, parseStoreUrl } from '../src/store/postgres.js';
import type { Queries, Store } from '../src/store/store.js';
import { makeHome } from './helpers/cli.js';
import { postgresForThisFile, type TestDatabase } from './helpers/postgres.js';
import { until } from './helpers/until.js';

const postgres = postgresForThisFile('groups');

/** A store of each kind, new: the data dir's SQLite, or a team store on a database of its own. */
async function openStore(backend: 'sqlite' | 'postgresql'): Promise<{ store: Store; database?: TestDatabase }> {
  const home = makeHome();
  if (backend === 'sqlite') return { store: await openSqliteStore(home.dataDir) };
  const database = await postgres.database();
  // The password as a user gives it: PGPASSWORD (a URL with one is refused).
  process.env.PGPASSWORD = postgres.server().env.PGPASSWORD!;
  return { store: await openTeamStore(home.dataDir, parseStoreUrl(database.url)), database };
}

const note = (q: Queries, name: string) => q.sql('INSERT INTO imports (name, at, records, bytes) VALUES (?, ?, 0, 0)').write(name, 'now');

async function names(store: Store): Promise<string[]> {
  return store.read(async (q) => (await q.sql('SELECT name FROM imports ORDER BY name').all()).map((row) => String(row.name)));
}

for (const backend of ['sqlite', 'postgresql'] as const) {
  describe(`${backend}: grouped writes`, () => {
    it('asked together, each is answered with its own result once written; a refusal before writing leaves the others', async () => {
      const { store } = await openStore(backend);
      const results = await Promise.allSettled([
        store.write(async (q) => (await note(q, 'a'), 'a written'), { group: true }),
        store.write(
          async (q) => {
            await q.sql('SELECT count(*) AS n FROM imports').get();
            throw new Error('refused after reading, before writing');
          },
          { group: true },
        ),
        store.write(async (q) => (await note(q, 'c'), 'c written'), { group: true }),
      ]);
      assert.deepEqual(
        results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message)),
        ['a written', 'refused after reading, before writing', 'c written'],
      );
      assert.deepEqual(await names(store), ['a', 'c']);
    });

    it('a member whose statement fails gets its error; the group is written again without it', async () => {
      const { store } = await openStore(backend);
      await store.write((q) => note(q, 'taken'));
      const results = await Promise.allSettled([
        store.write((q) => note(q, 'first'), { group: true }),
        // A second row with the same name: refused by the primary key (on a team store, when the held
        // write is sent with the next member's statement, not its own).
        store.write((q) => note(q, 'taken'), { group: true }),
        store.write(async (q) => (await q.sql('SELECT count(*) AS n FROM imports').get(), await note(q, 'third')), { group: true }),
      ]);
      assert.deepEqual(
        results.map((result) => result.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE|unique|duplicate/);
      assert.deepEqual(await names(store), ['first', 'taken', 'third']);
    });

    it('the last member of a group refused when its writes are committed: the others are kept, each written alone', async () => {
      const { store } = await openStore(backend);
      await store.write((q) => note(q, 'taken'));
      const results = await Promise.allSettled([
        store.write((q) => note(q, 'one'), { group: true }),
        store.write((q) => note(q, 'two'), { group: true }),
        store.write((q) => note(q, 'taken'), { group: true }),
      ]);
      assert.deepEqual(
        results.map((result) => result.status),
        ['fulfilled', 'fulfilled', 'rejected'],
      );
      assert.deepEqual(await names(store), ['one', 'taken', 'two']);
    });

    it('a write that throws after it wrote keeps nothing of its own, and the others are kept', async () => {
      const { store } = await openStore(backend);
      const results = await Promise.allSettled([
        store.write((q) => note(q, 'kept-1'), { group: true }),
        store.write(
          async (q) => {
            await note(q, 'undone');
            throw new Error('changed its mind');
          },
          { group: true },
        ),
        store.write((q) => note(q, 'kept-2'), { group: true }),
      ]);
      // Its own error, as a write of its own would end (a team store says the store's part in it).
      assert.match((results[1] as PromiseRejectedResult).reason.message, /changed its mind/);
      assert.deepEqual(await names(store), ['kept-1', 'kept-2']);
    });
  });
}

describe('postgresql: one transaction for a group, writes sent with the next statement, reads asked ahead', () => {
  it('writes asked together share one transaction', async () => {
    const { store } = await openStore('postgresql');
    const transactions = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        store.write(async (q) => (await note(q, `t${i}`), String((await q.sql('SELECT txid_current() AS id').get())!.id)), { group: true }),
      ),
    );
    assert.equal(new Set(transactions).size, 1, `one transaction: ${transactions.join(', ')}`);
    assert.equal((await names(store)).length, 4);
  });

  it('a held write is seen by the statements after it, a read asked ahead is asked again after a write, and values keep every character', async () => {
    const { store } = await openStore('postgresql');
    const awkward = ["O'Brien \\ E'x' $1 ? ;--", '₦5,000.00 — naïve\ttab\nline', "'); DROP TABLE imports; --", '\\x00 not a NUL'];
    const count = 'SELECT count(*)::int AS n FROM imports';
    const seen = await store.write(async (q) => {
      await q.prefetch?.([{ text: count, params: [] }]);
      const before = Number((await q.sql(count).get())!.n);
      for (const name of awkward) await note(q, name);
      const after = Number((await q.sql(count).get())!.n);
      return [before, after];
    });
    assert.deepEqual(seen, [0, awkward.length]);
    assert.deepEqual((await names(store)).sort(), [...awkward].sort());
  });

  it("a held write refused when the next member asks its reads ahead is that member's failure to no one: each is written again alone", async () => {
    const { store } = await openStore('postgresql');
    await store.write((q) => note(q, 'taken'));
    const count = 'SELECT count(*)::int AS n FROM imports';
    const results = await Promise.allSettled([
      store.write((q) => note(q, 'taken'), { group: true }),
      store.write(
        async (q) => {
          await q.prefetch?.([{ text: count, params: [] }]);
          await note(q, 'second');
        },
        { group: true },
      ),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'fulfilled'],
    );
    assert.deepEqual(await names(store), ['second', 'taken']);
  });

  it('a work that goes on past a store error it caught is told its transaction kept nothing', async () => {
    const { store } = await openStore('postgresql');
    await store.write((q) => note(q, 'taken'));
    await assert.rejects(
      store.write(async (q) => {
        await note(q, 'not kept');
        await q
          .sql('INSERT INTO imports (name, at, records, bytes) VALUES (?, ?, 0, 0)')
          .run('taken', 'now')
          .catch(() => undefined);
      }),
      (error: Error & { code?: string }) => {
        assert.match(String(error.code), /^store_/, `${String(error.code)} ${error.message}`);
        return true;
      },
    );
    assert.deepEqual(await names(store), ['taken']);
  });

  it('a held write that fails fails its transaction at COMMIT: nothing of it is kept, and the error is a store error', async () => {
    const { store } = await openStore('postgresql');
    await store.write((q) => note(q, 'taken'));
    await assert.rejects(
      store.write(async (q) => {
        await note(q, 'not kept');
        await note(q, 'taken');
      }),
      (error: Error & { code?: string }) => {
        assert.match(String(error.code), /^store_/, `a store error: ${String(error.code)} ${error.message}`);
        return true;
      },
    );
    assert.deepEqual(await names(store), ['taken']);
  });

  it("a new store is analyzed as a run writes, so a claim's lookups read through its index", async () => {
    const { store, database } = await openStore('postgresql');
    const rows = new JournalStore(store);
    const scope = { profile: 'acme', baseUrl: 'http://127.0.0.1:1' };
    // Enough transfers of one account for PostgreSQL to need statistics, written as a batch writes them.
    const transfers = Math.ceil(FIRST_ANALYZE_AFTER / 2) + 50;
    for (let start = 0; start < transfers; start += 50) {
      await store.write(async (q) => {
        for (let i = start; i < Math.min(transfers, start + 50); i += 1) {
          const reference = `ACME-STATS-${i}`;
          await rows.appendRecord(q, 'intent', { ...scope, reference }, new Date().toISOString(), '{}');
          await rows.insertTransfer(
            q,
            {
              ...scope,
              reference,
              sentMs: Date.now(),
              accountNumber: '0123456789',
              bankCode: '000013',
              amountKobo: 100 + i,
              state: 'pending',
              lastIntentAt: new Date().toISOString(),
              doc: '{}',
              actor: 'ada',
            } as Parameters<JournalStore['insertTransfer']>[1],
            { pid: 1, run: 'run' },
          );
        }
      });
    }
    await until('the transfers analyzed', async () => {
      const [row] = await database!.sql("SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'transfers'");
      return row?.last_analyze !== null && row?.last_analyze !== undefined;
    });
    const lookup = claimKeyRead({ ...scope, reference: 'ACME-NEW' });
    let n = 0;
    const plan = await database!.sql(`EXPLAIN ${lookup.text.replace(/\?/g, () => `$${++n}`)}`, ...lookup.params);
    const text = plan.map((row) => String(row['QUERY PLAN'])).join('\n');
    assert.match(text, /transfers_by_claim/, text);
    // The members analyze too (PostgreSQL 17 and later): the sender's right includes it.
    const [maintain] = await database!.sql(
      `SELECT count(*)::int AS n FROM pg_class c, aclexplode(c.relacl) a JOIN pg_roles r ON r.oid = a.grantee
        WHERE c.relname = 'transfers' AND a.privilege_type = 'MAINTAIN' AND r.rolname LIKE '%sender'`,
    );
    assert.equal(maintain!.n, 1);
  });
});
