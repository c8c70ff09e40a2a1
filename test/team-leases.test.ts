// A sending run's lease on the team store (src/store/run-lease.ts), against a real PostgreSQL started for
// this file (test/helpers/postgres.ts), the built CLI as real processes, two members (two homes, a login
// role each: ada owns the store, bola sends) of one account behind the hostile proxy
// (test/fixtures/hostile-api.ts), which holds a POST on its way or its answer for as long as a test likes. Every wait is for an event (a request held at the proxy, a waiter on
// the server's locks, a renewal in the lease's row), bounded by the test's own deadline.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { closeLocalStores } from '../src/store/database.js';
import { errorObject, makeHome, runCli, startCli, stripAnsi } from './helpers/cli.js';
import { mcpPayment, resultText, serveMcp, structuredOf } from './helpers/mcp-client.js';
import { connectTo, postgresForThisFile, type TestDatabase } from './helpers/postgres.js';
import { startProxiedSimulator, type ProxiedSimulator } from './helpers/proxied-simulator.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { batchFile, holdWriterLock, whileRunning } from './helpers/store-waits.js';
import { sendArgs as send, setUpTransfers } from './helpers/transfer-setup.js';

const postgres = postgresForThisFile('leases');

/** What a team store run is given: the store, its password, the consumer key that names the account. */
const teamEnv = (url: string) => ({ FSAPI_STORE: url, ...postgres.server().env, FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey });

/** Two members of one account (both through the proxy: one base address), one team store. */
interface Team {
  p: ProxiedSimulator;
  db: TestDatabase;
  envA: Record<string, string>;
  envB: Record<string, string>;
  /** POST /v1/transfer requests that reached the proxy, held ones included. */
  postsSent(): number;
  close(): Promise<void>;
}

let teams = 0;

/**
 * A database owned by ada's login (which may make roles, as the store's rights need) and a login for bola, made by the server's superuser as a database
 * administrator would; `db.sql` is that superuser's, for what the tests do to the server behind fsapi's back.
 */
async function teamDatabase(): Promise<{ db: TestDatabase; ada: Record<string, string>; bola: Record<string, string> }> {
  teams += 1;
  const server = postgres.server();
  const name = `leaseteam${teams}`;
  const admin = await connectTo(server, server.directUrl);
  const logins: Record<string, string>[] = [];
  try {
    for (const member of ['ada', 'bola']) {
      const login = `${member}_${teams}`;
      const password = `pw-${member}-${teams}`;
      await admin.query(`CREATE ROLE ${login} LOGIN PASSWORD '${password}'${member === 'ada' ? ' CREATEROLE' : ''}`);
      logins.push({ FSAPI_STORE: `postgres://${login}@127.0.0.1:${server.port}/${name}`, PGPASSWORD: password, login });
    }
    await admin.query(`CREATE DATABASE ${name} OWNER ${logins[0]!.login}`);
  } finally {
    await admin.end();
  }
  const direct = server.directUrl.replace(/\/fsapi$/, `/${name}`);
  const sql = async (text: string, ...params: unknown[]) => {
    const client = await connectTo(server, direct);
    try {
      return (await client.query(text, params)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
  return { db: { name, url: direct, sql }, ada: logins[0]!, bola: logins[1]! };
}

async function team(): Promise<Team> {
  const { db, ada, bola } = await teamDatabase();
  const p = await startProxiedSimulator();
  const b = makeHome();
  await logInToSimulator(b.env, p.proxy.url);
  const shared = { FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey, FSAPI_RECONCILE_SCHEDULE_MS: '0,50,100' };
  const envA = { ...p.home.env, ...shared, FSAPI_STORE: ada.FSAPI_STORE!, PGPASSWORD: ada.PGPASSWORD!, FSAPI_OPERATOR: 'ada@machine-a' };
  const envB = { ...b.env, ...shared, FSAPI_STORE: bola.FSAPI_STORE!, PGPASSWORD: bola.PGPASSWORD!, FSAPI_OPERATOR: 'bola@machine-b' };
  // Ada, first to open the empty database she owns, becomes the store's owner and makes bola a sender.
  const granted = await runCli(['store', 'grant', bola.login!, 'sender', '--json'], { env: envA, timeoutMs: 60_000 });
  assert.equal(granted.code, 0, granted.stderr);
  return {
    p,
    db,
    envA,
    envB,
    postsSent: () => p.proxy.hits.filter((hit) => hit === 'POST /v1/transfer').length,
    close: async () => {
      p.proxy.options.gateTransfers = false;
      p.proxy.options.gateTransferAnswers = false;
      while (p.proxy.heldTransfers() > 0) p.proxy.releaseTransfer();
      while (p.proxy.heldAnswers() > 0) p.proxy.releaseAnswer();
      await closeLocalStores();
      b.cleanup();
      await p.close();
    },
  };
}

type BatchRow = { line: number; status: string; message: string };
const rowsOf = (stdout: string) => JSON.parse(stdout) as BatchRow[];

/** The lease row of the run whose process is `pid`. */
async function leaseOf(db: TestDatabase, pid: number | undefined) {
  const [lease] = await db.sql('SELECT run, renewals::int AS renewals, started_at, expires_at > clock_timestamp() AS live FROM run_leases WHERE pid = $1', pid);
  assert.ok(lease, `no lease of pid ${pid}`);
  return lease as { run: string; renewals: number; started_at: Date; live: boolean };
}

/** Every run's lease and in-flight window moved into the past on the server, as time would move them. */
async function runOutLeases(db: TestDatabase): Promise<void> {
  await db.sql("UPDATE run_leases SET expires_at = clock_timestamp() - interval '1 second', in_flight_until = clock_timestamp() - interval '1 second'");
}

describe('a lease that survives a reset', { timeout: 180_000 }, () => {
  it("a live sender's connections terminated while its POST is on its way: it renews on a new connection, the other member never sends that reference, the sender records its outcome", async () => {
    const t = await team();
    try {
      const file = batchFile(t.p.home.root, 'reset.csv', 1, '4100');
      // The POST is kept before it reaches the API: a lookup by its reference finds nothing.
      t.p.proxy.options.gateTransfers = true;
      const a = startCli(['transfer', 'batch', file, '--yes', '--json'], { env: t.envA });
      await whileRunning(a, () => t.p.proxy.heldTransfers() === 1, "A's POST on its way");
      const before = await leaseOf(t.db, a.child.pid);
      // Every session of fsapi's on this database: the pool's and the lease's (as a restart of the server would).
      const ended = await t.db.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'fsapi'", t.db.name);
      assert.ok(ended.length >= 1, "A's lease connection was open");
      // A hears of it and renews at once, on a new connection.
      await whileRunning(a, async () => (await leaseOf(t.db, a.child.pid)).renewals > before.renewals, "A's lease renewed after the reset");
      assert.equal((await leaseOf(t.db, a.child.pid)).live, true);

      // The other member runs the same file: its row is in flight, whatever a lookup would say. (With the
      // session lock the reset freed, it found A dead, looked the reference up, found nothing and sent it.)
      const other = await runCli(['transfer', 'batch', file, '--yes', '--json'], { env: t.envB, timeoutMs: 60_000 });
      assert.deepEqual(
        rowsOf(other.stdout).map((row) => row.status),
        ['in flight'],
        other.stderr,
      );
      assert.equal(t.postsSent(), 1, 'the other member sent nothing');

      // A's POST goes on; its answer is recorded on the new connections.
      t.p.proxy.options.gateTransfers = false;
      t.p.proxy.releaseTransfer();
      const end = await a.exited;
      assert.equal(end.code, 0, end.stderr);
      assert.deepEqual(
        rowsOf(end.stdout).map((row) => row.status),
        ['pending'],
      );
      const again = await runCli(['transfer', 'batch', file, '--yes', '--json'], { env: t.envB, timeoutMs: 60_000 });
      assert.equal(again.code, 0, again.stderr);
      assert.match(rowsOf(again.stdout)[0]!.message, /sent by an earlier run/);
      assert.equal(t.p.posts(), 1, 'paid once');
    } finally {
      await t.close();
    }
  });

  it('a sender whose lease is taken away stops before its next row and says what it sent and what it did not', async () => {
    const t = await team();
    try {
      const file = batchFile(t.p.home.root, 'taken.csv', 3, '4200');
      t.p.proxy.options.gateTransferAnswers = true;
      const a = startCli(['transfer', 'batch', file, '--yes', '--concurrency', '1', '--json'], { env: t.envA });
      await whileRunning(a, () => t.p.proxy.heldAnswers() === 1, "row 1's answer held");
      // Its lease runs out on the server (as it would for a run cut off from the store for 30 s).
      await t.db.sql("UPDATE run_leases SET expires_at = clock_timestamp() - interval '1 second' WHERE pid = $1", a.child.pid);
      t.p.proxy.options.gateTransferAnswers = false;
      t.p.proxy.releaseAnswer();
      const end = await a.exited;
      assert.equal(end.code, 1, end.stderr);
      const error = errorObject(end.stderr);
      assert.equal(error.code, 'store_lease_lost');
      assert.match(error.message, /1 pending or successful.*the run stopped: this run's lease on the team store .* ran out/);
      const rows = rowsOf(end.stdout);
      assert.deepEqual(
        rows.map((row) => row.status),
        ['pending', 'not-sent', 'not-sent'],
      );
      assert.match(
        rows[1]!.message,
        /^this run's lease on the team store .* ran out on the server \(last renewed \d+ s ago; .*\): it sends nothing more; nothing was sent for this transfer$/,
      );
      assert.equal(t.p.posts(), 1, 'nothing sent after the lease was gone');
    } finally {
      await t.close();
    }
  });

  it('a claim whose POST cannot leave within the send window is not sent, and says so in the journal', async () => {
    const t = await team();
    try {
      const env = t.envA;
      assert.equal((await t.p.run(['transfer', 'log'], env)).code, 0, 'the store made');
      // The server holds the intent's insert 11 s (past the 10 s send window), as a process stopped between
      // its claim and its POST would be held.
      await t.db.sql(`CREATE FUNCTION slow_intent() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN IF NEW.type = 'intent' THEN PERFORM pg_sleep(11); END IF; RETURN NEW; END $$;
                      CREATE TRIGGER slow_intent BEFORE INSERT ON journal FOR EACH ROW EXECUTE FUNCTION slow_intent()`);
      const late = await t.p.run([...send('700', '--reference', 'ACME-LATE0001'), '--json'], env);
      assert.equal(late.code, 1, late.stderr);
      const error = errorObject(late.stderr);
      assert.equal(error.code, 'store_lease_lost');
      assert.match(error.message, /held 1\d s between claiming the transfer and sending it, past the 10 s .*it was not sent/);
      assert.equal(t.postsSent(), 0, 'nothing left');
      const records = (await t.db.sql('SELECT type, record FROM journal ORDER BY seq')).map((row) => [row.type, JSON.parse(String(row.record)).message]);
      assert.deepEqual(records[0], ['intent', undefined]);
      assert.equal(records[1]?.[0], 'rejected');
      assert.match(String(records[1]?.[1]), /^not sent: /);

      // Refused by nobody but itself: the same reference may go again.
      await t.db.sql('DROP TRIGGER slow_intent ON journal');
      const sent = await t.p.run([...send('700', '--reference', 'ACME-LATE0001'), '--json'], env);
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(t.p.posts(), 1);
    } finally {
      await t.close();
    }
  });
});

describe('a member stopped mid-batch holds nobody, and is told what became of its rows', { timeout: 180_000 }, () => {
  it("SIGSTOP inside its transaction after it sent rows: the other member's transfer goes through; its lease runs out; resumed, it stops before its next row; nothing is paid twice", async () => {
    const t = await team();
    try {
      const file = batchFile(t.p.home.root, 'stopped.csv', 4, '4400');
      // A long request timeout: its two POSTs stay unanswered while it is stopped, not timed out.
      const envA = { ...t.envA, FSAPI_TIMEOUT: '300' };
      t.p.proxy.options.gateTransferAnswers = true;
      const a = startCli(['transfer', 'batch', file, '--yes', '--concurrency', '2', '--json'], { env: envA });
      await whileRunning(a, () => t.p.proxy.heldAnswers() === 2, 'rows 1 and 2 at the API, their answers held');
      const run = (await leaseOf(t.db, a.child.pid)).run;

      // Row 1's answer comes while the test holds the writer lock: its outcome's transaction waits for it.
      const lock = await holdWriterLock('postgresql', t.db.url, postgres.server());
      let stopped = false;
      try {
        t.p.proxy.releaseAnswer();
        await whileRunning(a, async () => (await lock.waiters()) === 1, "row 1's outcome waiting for the writer lock");
        a.child.kill('SIGSTOP');
        stopped = true;
      } finally {
        // A's transaction now holds the writer lock, idle: its process answers nothing.
        await lock.release();
      }
      try {
        t.p.proxy.options.gateTransferAnswers = false;
        // Another member's transfer waits only until the server ends A's transaction (its idle bound). The
        // run's own deadline is the bound it must finish within.
        const other = await runCli([...send('500'), '--json'], { env: t.envB, timeoutMs: 45_000 });
        assert.equal(other.code, 0, other.stderr);

        // Stopped longer than its lease (moved on the server, as 30 s would): its rows in flight stay
        // protected by their window; the rows it never claimed are the team's to send.
        await t.db.sql("UPDATE run_leases SET expires_at = clock_timestamp() - interval '1 second' WHERE run = $1", run);
        const takeover = await runCli(['transfer', 'batch', file, '--yes', '--json'], { env: t.envB, timeoutMs: 60_000 });
        assert.deepEqual(
          rowsOf(takeover.stdout).map((row) => row.status),
          ['in flight', 'in flight', 'pending', 'pending'],
          takeover.stderr,
        );
      } finally {
        if (stopped) a.child.kill('SIGCONT');
      }
      // Resumed: its transaction is gone (row 1's outcome could not be written), its lease too: it sends
      // no new row; row 2's answer, let go now, is recorded.
      t.p.proxy.releaseAnswer();
      const end = await a.exited;
      assert.equal(end.code, 1, end.stderr);
      assert.equal(errorObject(end.stderr).code, 'store_lease_lost');
      assert.match(end.stderr, /was sent and the API took it \(pending\), but this could not be written to the journal .*sat idle past its bound/);
      assert.deepEqual(
        rowsOf(end.stdout).map((row) => row.status),
        ['pending', 'pending', 'not-sent', 'not-sent'],
      );
      assert.equal(t.p.posts(), 5, "A's rows 1 and 2, the other member's transfer and rows 3 and 4");

      // Once A's window has passed too, its file run again settles every row without sending one.
      await runOutLeases(t.db);
      const settled = await runCli(['transfer', 'batch', file, '--yes', '--json'], { env: envA, timeoutMs: 60_000 });
      assert.equal(settled.code, 0, settled.stderr);
      assert.deepEqual(
        rowsOf(settled.stdout).map((row) => /^(pending|successful)$/.test(row.status)),
        [true, true, true, true],
        settled.stdout,
      );
      assert.equal(t.p.posts(), 5, 'each row paid once');
    } finally {
      await t.close();
    }
  });
});

describe("fsapi mcp's lease", { timeout: 120_000 }, () => {
  it('lasts as long as the server, renewed between calls; taken away, the next call takes a new one and pays', async () => {
    const db = await postgres.database();
    const s = await setUpTransfers();
    const env = { ...s.env, ...teamEnv(db.url) };
    const policy = await s.run(['policy', 'set', '--max-per-day', '1000000', '--approval-above', '20000'], {
      env,
      tty: true,
      keys: [['Consumer secret of profile', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`]],
    });
    assert.equal(policy.code, 0, stripAnsi(policy.stdout));
    const server = await serveMcp(env);
    try {
      const first = await server.call('transfer_send', mcpPayment('1500', 'ACME-MCPLEASE1'));
      assert.equal(first.isError, undefined, resultText(first));
      const [lease] = await db.sql('SELECT run, renewals::int AS renewals, started_at FROM run_leases');
      assert.ok(lease);
      // Between calls (its stores closed after each) the server renews its lease.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [now] = await db.sql('SELECT renewals::int AS renewals FROM run_leases WHERE run = $1', lease.run);
        if (Number(now!.renewals) > Number(lease.renewals)) break;
        assert.ok(Date.now() < deadline, 'the lease was not renewed while the server served');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const second = await server.call('transfer_send', mcpPayment('1600', 'ACME-MCPLEASE2'));
      assert.equal(second.isError, undefined, resultText(second));
      const [same] = await db.sql('SELECT started_at FROM run_leases WHERE run = $1', lease.run);
      assert.deepEqual(same!.started_at, lease.started_at, 'the same lease');

      // Lost (a machine asleep longer than the lease): the next call takes a new one, and is checked afresh.
      await db.sql("UPDATE run_leases SET expires_at = clock_timestamp() - interval '1 second'");
      const third = await server.call('transfer_send', mcpPayment('1700', 'ACME-MCPLEASE3'));
      assert.equal(third.isError, undefined, resultText(third));
      assert.equal(structuredOf(third).reference, 'ACME-MCPLEASE3');
      const [renewed] = await db.sql('SELECT started_at, expires_at > clock_timestamp() AS live FROM run_leases WHERE run = $1', lease.run);
      assert.equal(renewed!.live, true);
      assert.ok((renewed!.started_at as Date) > (lease.started_at as Date), 'a new lease');
      assert.equal(s.posts(), 3);
    } finally {
      await server.close();
      await closeLocalStores();
      await s.close();
    }
  });
});
