// The store never stops the process, and a team store's failures are fsapi's errors (src/store/store.ts,
// src/store/database.ts, src/store/postgres.ts). Real processes (the built CLI) against a served simulator,
// behind the hostile proxy where an answer's moment matters (test/fixtures/hostile-api.ts), and a real
// PostgreSQL started for this file (test/helpers/postgres.ts), a database of its own for each test. Every
// wait is for an event (a line on stderr, a request at the API, a waiter on the server's locks), bounded.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { closeLocalStores, openSqliteStore } from '../src/store/database.js';
import { openTeamStore, parseStoreUrl } from '../src/store/postgres.js';
import type { Store } from '../src/store/store.js';
import { claimer } from './helpers/claimer.js';
import { errorObject, makeHome, startCli } from './helpers/cli.js';
import { postgresForThisFile } from './helpers/postgres.js';
import { batchFile, holdWriterLock, whileRunning } from './helpers/store-waits.js';
import { startProxiedSimulator, type ProxiedSimulator } from './helpers/proxied-simulator.js';
import { sendArgs as send, setUpTransfers } from './helpers/transfer-setup.js';

const postgres = postgresForThisFile('async');
const database = () => postgres.database();

/** What a team store run is given: the store, its password, the consumer key that names the account. */
const teamEnv = (url: string) => ({ FSAPI_STORE: url, ...postgres.server().env, FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey });

/** A fsapi error on stderr is one JSON object (--json) and never a stack trace. */
function cleanError(stderr: string): ReturnType<typeof errorObject> {
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
  assert.doesNotMatch(stderr, new RegExp(postgres.server().env.PGPASSWORD!), 'no password');
  return errorObject(stderr);
}

describe('two tasks of one process never share a transaction', () => {
  for (const backend of ['sqlite', 'postgresql'] as const) {
    it(`${backend}: a write rolled back takes only its own rows, not those of a write another task made meanwhile`, async () => {
      const home = makeHome();
      // The password as a user gives it (a URL with one is refused): PGPASSWORD, for this test's connections.
      const password = process.env.PGPASSWORD;
      process.env.PGPASSWORD = postgres.server().env.PGPASSWORD!;
      try {
        const store: Store =
          backend === 'sqlite' ? await openSqliteStore(home.dataDir) : await openTeamStore(home.dataDir, parseStoreUrl((await database()).url));
        const note = (q: Parameters<Parameters<Store['write']>[0]>[0], name: string) =>
          q.sql('INSERT INTO imports (name, at, records, bytes) VALUES (?, ?, 0, 0)').run(name, new Date().toISOString());
        let letGo!: () => void;
        const held = new Promise<void>((resolve) => (letGo = resolve));
        let firstWrote!: () => void;
        const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
        const first = store.write(async (q) => {
          await note(q, 'first');
          firstWrote();
          await held;
          throw new Error('the first changes its mind');
        });
        await wrote;
        // Started while the first is open: its own transaction, after the first (SQLite's turn, the team store's lock).
        const second = store.write((q) => note(q, 'second'));
        letGo();
        await assert.rejects(first, /the first changes its mind/);
        await second;
        const names = await store.read(async (q) =>
          (await q.sql("SELECT name FROM imports WHERE name IN ('first', 'second') ORDER BY name").all()).map((row) => row.name),
        );
        assert.deepEqual(names, ['second']);
      } finally {
        await closeLocalStores();
        if (password === undefined) delete process.env.PGPASSWORD;
        else process.env.PGPASSWORD = password;
        home.cleanup();
      }
    });
  }
});

describe('an answer that arrives while a store call waits is read as an answer', { timeout: 120_000 }, () => {
  for (const backend of ['sqlite', 'postgresql'] as const) {
    it(`${backend}: the second POST's answer is read while the first row's outcome waits for the writer lock`, async () => {
      const proxied = await startProxiedSimulator();
      try {
        await answerWhileTheStoreWaits(proxied, backend);
      } finally {
        await proxied.close();
      }
    });
  }
});

/**
 * A batch of two rows sent at once through the proxy, which keeps both answers; the test takes the store's
 * writer lock, lets the first answer go, and waits until its outcome waits for the lock; then lets the
 * second go. A process stopped while it waits for the store would read that answer only once the store
 * answered (after the request's own deadline: "no answer", the outcome unknown); this one reads it now.
 */
async function answerWhileTheStoreWaits(proxied: ProxiedSimulator, backend: 'sqlite' | 'postgresql'): Promise<void> {
  const team = backend === 'postgresql' ? await database() : undefined;
  const env = team ? teamEnv(team.url) : {};
  const file = batchFile(proxied.home.root, `${backend}.csv`, 2, backend === 'sqlite' ? '1000' : '2000');
  const postsBefore = proxied.posts();
  proxied.proxy.options.gateTransferAnswers = true;
  // --verbose: one stderr line per answer, written as it is read.
  const batch = startCli(['transfer', 'batch', file, '--yes', '--concurrency', '2', '--verbose', '--json'], {
    env: { ...proxied.home.env, FSAPI_RECONCILE_SCHEDULE_MS: '0,50,100', ...env },
  });
  const answersRead = () => batch.stderr().match(/^http: POST \S*\/v1\/transfer -> 200 /gm)?.length ?? 0;
  let lock: Awaited<ReturnType<typeof holdWriterLock>> | undefined;
  try {
    // Both POSTs have reached the API (their intents are committed); their answers are kept.
    await whileRunning(batch, () => proxied.proxy.heldAnswers() === 2, 'both POSTs at the API', 60_000);
    lock = await holdWriterLock(backend, team ? team.url : proxied.home.dataDir, postgres.server());
    proxied.proxy.releaseAnswer();
    await whileRunning(batch, () => answersRead() === 1, 'the first answer read');
    // Its outcome waits for the lock the test holds (the server shows the waiter; SQLite shows none).
    const held = lock;
    if (team) await whileRunning(batch, async () => (await held.waiters()) === 1, 'the first outcome waiting for the lock');
    // While that store call waits, the second answer arrives: it is read now, not once the store answers.
    proxied.proxy.releaseAnswer();
    await whileRunning(batch, () => answersRead() === 2, 'the second answer read while the store waits');
  } finally {
    proxied.proxy.options.gateTransferAnswers = false;
    while (proxied.proxy.heldAnswers() > 0) proxied.proxy.releaseAnswer();
    await lock?.release();
  }
  const end = await batch.exited;
  assert.equal(end.code, 0, end.stderr);
  const results = JSON.parse(end.stdout) as Array<{ status: string }>;
  assert.deepEqual(
    results.map((r) => r.status),
    ['pending', 'pending'],
    'both answers taken as answers: none unknown',
  );
  assert.equal(proxied.posts() - postsBefore, 2, 'one POST a row');
}

describe("a team store's failures are fsapi's errors: exit 1, a code, no stack trace, nothing sent unrecorded", { timeout: 180_000 }, () => {
  it('a statement that runs past its bound is store_timeout (not "busy"), and nothing is sent', async () => {
    const t = await database();
    const s = await setUpTransfers();
    try {
      const env = { ...s.env, ...teamEnv(t.url) };
      assert.equal((await s.run(send('100'), { env })).code, 0, 'the store made, one transfer sent');
      // The database's own bound, tighter than fsapi's, is kept; a slow trigger makes the intent's insert run past it.
      await t.sql(`ALTER DATABASE ${t.name} SET statement_timeout = '1s'`);
      await t.sql(`CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(60); RETURN NEW; END $$;
                   CREATE TRIGGER slow_journal BEFORE INSERT ON journal FOR EACH ROW EXECUTE FUNCTION slow()`);
      const slow = await s.run([...send('200'), '--json'], { env });
      assert.equal(slow.code, 1, slow.stderr);
      const error = cleanError(slow.stderr);
      assert.equal(error.code, 'store_timeout');
      assert.match(error.message, /a statement on the team store .* ran past its bound of 1 s/);
      assert.equal(s.posts(), 1, 'nothing more sent');
      assert.equal((await t.sql("SELECT count(*)::int AS n FROM journal WHERE type = 'intent'"))[0]!.n, 1, 'no intent kept');
    } finally {
      await s.close();
    }
  });

  it('a value far past any record of fsapi is refused unread (store_result_too_large); nothing is sent', async () => {
    const t = await database();
    const s = await setUpTransfers();
    try {
      const env = { ...s.env, ...teamEnv(t.url) };
      assert.equal((await s.run(send('300'), { env })).code, 0);
      // 80 MB of text in the transfer's row, written from outside fsapi (the bound is 64 MB).
      await t.sql(`UPDATE transfers SET doc = repeat('x', 80 * 1024 * 1024)`);
      const log = await s.run(['transfer', 'log', '--json'], { env });
      assert.equal(log.code, 1, log.stderr);
      assert.equal(cleanError(log.stderr).code, 'store_result_too_large');
      // The duplicate guard reads that row before anything is sent.
      const again = await s.run([...send('300'), '--json'], { env });
      assert.equal(again.code, 1, again.stderr);
      assert.equal(cleanError(again.stderr).code, 'store_result_too_large');
      assert.equal(s.posts(), 1, 'nothing more sent');
    } finally {
      await s.close();
    }
  });

  it('the server down: store_unreachable at once, nothing sent', async () => {
    const t = await database();
    const s = await setUpTransfers();
    try {
      const env = { ...s.env, ...teamEnv(t.url) };
      assert.equal((await s.run(['transfer', 'log'], { env })).code, 0, 'the store made');
      await postgres.server().pause();
      try {
        const refused = await s.run([...send('100'), '--json'], { env });
        assert.equal(refused.code, 1, refused.stderr);
        assert.equal(cleanError(refused.stderr).code, 'store_unreachable');
        assert.equal(s.posts(), 0);
      } finally {
        await postgres.server().start();
      }
    } finally {
      await s.close();
    }
  });
});

describe('a member stopped inside its write transaction does not hold the team', { timeout: 120_000 }, () => {
  it("the server ends the stopped member's transaction within its idle bound; the other sends; the member, resumed, is told and kept nothing", async () => {
    const t = await database();
    const s = await setUpTransfers();
    try {
      const env = { ...s.env, ...teamEnv(t.url) };
      assert.equal((await s.run(['transfer', 'log'], { env })).code, 0, 'the store made');
      // The holder's process is stopped inside its claim's transaction (blocked on its stdin: it answers
      // nothing, as a process stopped with Ctrl+Z does), holding the writer lock.
      const holder = claimer({
        dataDir: path.join(s.home.root, 'holder'),
        reference: 'ACME-STOPPED1',
        amountKobo: 10_000,
        maxKobo: 1_000_000,
        now: Date.now(),
        role: 'holder',
        env: teamEnv(t.url),
      });
      try {
        assert.equal(await holder.next(), 'ready');
        holder.tell('go');
        assert.equal(await holder.next(), 'holding');
        // Another member's transfer waits for the lock only until the server ends the holder's transaction.
        const other = await s.run([...send('500'), '--json'], { env, timeoutMs: 60_000 });
        assert.equal(other.code, 0, other.stderr);
        assert.equal(s.posts(), 1);
        holder.tell('commit');
        const told = await holder.next();
        assert.match(told, /^failed store_timeout .*sat idle past its bound of 10 s \(was the process stopped\?\)/, holder.stderr());
      } finally {
        holder.tell('commit');
      }
      assert.equal(await holder.exited, 0, holder.stderr());
      const references = (await t.sql("SELECT reference FROM journal WHERE type = 'intent'")).map((row) => row.reference);
      assert.equal(references.length, 1);
      assert.notEqual(references[0], 'ACME-STOPPED1', "the stopped member's intent was not kept");
    } finally {
      await s.close();
    }
  });
});
