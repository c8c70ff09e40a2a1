// A team store's secrets and causes, against a real PostgreSQL (test/helpers/postgres.ts): a password in a
// store URL, in any form, is refused before anything connects and shown nowhere (the CLI's output, its
// errors with --verbose, profiles.json, the MCP server's answers); the password read from ~/.pgpass leaves
// no driver warning on stderr; each way a connection fails is named with its own code; `store migrate`
// records in the policy's audit log only what it applied. The marker password is the test server's real
// one, so a URL that fsapi let through would connect, and the test would see it.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { errorObject, makeHome, repoRoot, stripAnsi, type Home, type RunResult } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { mcpPayment, serveMcp } from './helpers/mcp-client.js';
import { connectTo, freePort, postgresForThisFile, type TestDatabase } from './helpers/postgres.js';
import { sendArgs as send, setPolicy, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { inspectTeamStore, parseStoreUrl } from '../src/store/postgres.js';

const postgres = postgresForThisFile('secrets');

/** The test server's password: no output may hold it, plain or percent-encoded. */
const marker = () => postgres.server().env.PGPASSWORD!;
/** A warning as Node prints it: `(node:1234) DeprecationWarning: pgpass support is deprecated ...`. */
const NODE_WARNING = /\(node:\d+\)|DeprecationWarning|pgpass support/;
const CONSUMER_KEY = { FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey };

function assertNoMarker(text: string, where: string): void {
  assert.ok(!text.includes(marker()) && !text.includes(encodeURIComponent(marker())), `the password is in ${where}: ${text}`);
}

/** A fsapi error on stderr: one JSON object, no stack trace. */
function cleanError(run: RunResult): ReturnType<typeof errorObject> {
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
  assertNoMarker(run.stdout + run.stderr, 'the output');
  return errorObject(run.stderr);
}

/** Every way a password can be put in a URL of the test server's database `url` (which has none). */
function passwordForms(url: string): string[] {
  const { username, host, pathname } = new URL(url);
  const pw = encodeURIComponent(marker());
  const at = `${username}@${host}${pathname}`;
  return [
    `postgres://${username}:${pw}@${host}${pathname}`,
    `postgresql://${username}:${pw}@${host}${pathname}`,
    `postgres://${at}?password=${pw}`,
    `postgres://${at}?sslmode=disable&password=${pw}`,
    `postgresql://${at}?PASSWORD=${pw}`,
    `postgres://${at}?Password=${pw}`,
    `postgres://${at}?pass%77ord=${pw}`,
    `postgres://${at}?password=not-it&password=${pw}`,
    `postgres://${at}?sslpassword=${pw}`,
    `postgres://${at}?options=-c%20password%3D${pw}`,
    `postgres://${at}?oauth_client_secret=${pw}`,
    `postgres://${at}#${pw}`,
  ];
}

/** Whether fsapi ever made its tables in the database: any URL it let through would have. */
async function fsapiTouched(db: TestDatabase): Promise<boolean> {
  return (await db.sql("SELECT to_regclass('fsapi_schema') IS NOT NULL AS made"))[0]!.made === true;
}

/** `work` on a served simulator and a fresh home (machine A), with a database of its own on the test server. */
async function onFreshDatabase(work: (s: TransferSetup, db: TestDatabase) => Promise<void>): Promise<void> {
  const s = await setUpTransfers();
  try {
    await work(s, await postgres.database());
  } finally {
    await s.close();
  }
}

describe('a password in a store URL is refused and shown nowhere', { timeout: 240_000 }, () => {
  it('every form, through store use, store migrate, store status and a send (--verbose): exit 2 before anything connects', () =>
    onFreshDatabase(async (s, db) => {
      for (const url of passwordForms(db.url)) {
        const runs: Array<[string, RunResult]> = [
          // At a terminal, no prompt answered: the URL is refused before the consumer secret is asked.
          ['store use', await s.runInProcess(['store', 'use', url], { tty: true, prompts: [] })],
          ['store migrate', await s.runInProcess(['store', 'migrate', url, '--json'], { env: CONSUMER_KEY })],
          ['store status', await s.runInProcess(['store', 'status', '--json'], { env: { FSAPI_STORE: url } })],
          ['transfer log', await s.runInProcess(['transfer', 'log', '--json'], { env: { FSAPI_STORE: url, ...CONSUMER_KEY } })],
          // A process of its own, as a person runs it: --verbose prints an error's cause.
          ['transfer send', await s.run([...send('700'), '--verbose'], { env: { FSAPI_STORE: url, ...CONSUMER_KEY } })],
        ];
        for (const [what, run] of runs) {
          assert.equal(run.code, 2, `${what} ${url}: ${run.stdout}${run.stderr}`);
          assertNoMarker(run.stdout + run.stderr, `${what}'s output for ${url}`);
          assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
          if (what !== 'store use' && what !== 'transfer send') assert.equal(errorObject(run.stderr).code, 'usage', `${what} ${url}`);
        }
        assert.match(stripAnsi(runs[0]![1].stdout + runs[0]![1].stderr), /the team store URL (carries a password|has parameter options|has a # part)/);
        assert.match(runs[2]![1].stderr, /FSAPI_STORE (carries a password|has parameter options|has a # part)/);
      }
      const profiles = path.join(s.home.configDir, 'profiles.json');
      assertNoMarker(readFileSync(profiles, 'utf8'), 'profiles.json');
      assert.doesNotMatch(readFileSync(profiles, 'utf8'), /teamStores/, 'no store kept');
      assert.equal(await fsapiTouched(db), false, 'nothing connected to the database and made the store');
      assert.equal(s.posts(), 0, 'nothing sent');
    }));

  it('the MCP server started with FSAPI_STORE holding a password: each tool that needs the records says so, exit 2, and no answer holds it', () =>
    onFreshDatabase(async (s, db) => {
      const forms = passwordForms(db.url);
      for (const url of [forms[0]!, forms[2]!, forms[6]!]) {
        const server = await serveMcp({ ...s.env, ...CONSUMER_KEY, FSAPI_STORE: url });
        try {
          for (const [tool, args] of [
            ['transfer_log', {}],
            ['policy_show', {}],
            ['approvals_list', {}],
            ['transfer_send', mcpPayment('700', 'ACME-SECRETS0001')],
          ] as const) {
            const result = await server.call(tool, args);
            assert.equal(result.isError, true, `${tool} with ${url}`);
            const error = (result.structuredContent as { error: { code: string; exitCode: number; message: string } }).error;
            assert.deepEqual([error.code, error.exitCode], ['usage', 2], `${tool}: ${error.message}`);
            assert.match(error.message, /FSAPI_STORE carries a password/);
          }
          // What needs no record still works.
          const account = await server.call('account');
          assert.notEqual(account.isError, true, JSON.stringify(account.content));
          assertNoMarker(JSON.stringify(server.results), `the MCP server's answers (${url})`);
          assertNoMarker(server.stderr(), "the MCP server's stderr");
          assert.deepEqual(server.errors, []);
        } finally {
          await server.close();
        }
      }
      assert.equal(s.posts(), 0, 'nothing sent');
      assert.equal(await fsapiTouched(db), false);
    }));

  it('a URL fsapi takes is shown as it is, everywhere, and the password given the documented way is in none of it', () =>
    onFreshDatabase(async (s, db) => {
      const env = { ...postgres.server().env, ...CONSUMER_KEY };
      const migrated = await s.run(['store', 'migrate', db.url], { env });
      assert.equal(migrated.code, 0, migrated.stderr);
      const used = await s.runInProcess(['store', 'use', db.url], {
        env,
        tty: true,
        prompts: [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }],
      });
      assert.equal(used.code, 0, stripAnsi(used.stdout));
      const status = await s.run(['store', 'status', '--json'], { env });
      assert.equal(status.code, 0, status.stderr);
      assert.equal((JSON.parse(status.stdout) as { store: string }).store, db.url);
      const sent = await s.run([...send('700'), '--verbose'], { env });
      assert.equal(sent.code, 0, sent.stderr);
      for (const [what, run] of [
        ['store migrate', migrated],
        ['store use', used],
        ['store status', status],
        ['transfer send --verbose', sent],
      ] as const)
        assertNoMarker(run.stdout + run.stderr, what);
      assertNoMarker(readFileSync(path.join(s.home.configDir, 'profiles.json'), 'utf8'), 'profiles.json');
    }));
});

describe('the password from ~/.pgpass leaves no driver warning on stderr', { timeout: 120_000 }, () => {
  it('--json runs write only JSON to stderr (here: nothing); the secret prompt shows no warning', () =>
    onFreshDatabase(async (s, db) => {
      const file = path.join(s.home.root, 'pgpass');
      writeFileSync(file, `127.0.0.1:${postgres.server().port}:*:postgres:${marker()}\n`, { mode: 0o600 });
      // The password from the file alone: no PGPASSWORD.
      const env = { FSAPI_STORE: db.url, PGPASSFILE: file, PGPASSWORD: undefined, ...CONSUMER_KEY };
      // A send says what it sends on stderr (talk); no warning among it.
      const sent = await s.run([...send('700'), '--json'], { env });
      assert.equal(sent.code, 0, sent.stderr);
      assert.doesNotMatch(sent.stderr, NODE_WARNING);
      assert.match(sent.stderr, /^Transfer\n/);
      const log = await s.run(['transfer', 'log', '--json'], { env });
      assert.equal(log.code, 0, log.stderr);
      assert.equal(log.stderr, '');
      assert.equal((JSON.parse(log.stdout) as unknown[]).length, 1, 'the transfer was recorded in the team store');
      const refused = await s.run([...send('700'), '--json'], { env });
      assert.equal(refused.code, 2, 'a possible duplicate, read from the team store');
      assert.match(errorObject(refused.stderr).message, /the same amount went to this account/);
      assert.doesNotMatch(refused.stderr, NODE_WARNING);
      // At a terminal, where the warning once came in the middle of the secret prompt.
      const set = await s.run(['policy', 'set', '--max-per-day', '5000'], {
        env,
        tty: true,
        keys: [['Consumer secret of profile', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`]],
      });
      assert.equal(set.code, 0, stripAnsi(set.stdout));
      assert.doesNotMatch(set.stdout + set.stderr, NODE_WARNING);
    }));

  it('only that warning is dropped: any other warning, of the driver or not, still goes through', async () => {
    // The driver loaded, as a run on a team store loads it (here: nothing listens there).
    const report = await inspectTeamStore(parseStoreUrl(`postgres://nobody@127.0.0.1:${await freePort()}/nothing`));
    assert.equal(report.reachable, false);
    const seen: string[] = [];
    const listener = (warning: Error) => seen.push(`${warning.name}: ${warning.message}`);
    process.on('warning', listener);
    try {
      process.emitWarning('pgpass support is deprecated and will be removed in pg@9.0.', 'DeprecationWarning');
      process.emitWarning('(test) a deprecation of another kind', 'DeprecationWarning');
      process.emitWarning('(test) pgpass support is deprecated, said by someone else', 'ExperimentalWarning');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
    }
    assert.deepEqual(seen, [
      'DeprecationWarning: (test) a deprecation of another kind',
      'ExperimentalWarning: (test) pgpass support is deprecated, said by someone else',
    ]);
  });
});

describe('each way a connection fails is named, with its code; nothing is sent', { timeout: 180_000 }, () => {
  it('no database, a wrong password, no such role, no password, no right to connect, nobody listening', () =>
    onFreshDatabase(async (s, db) => {
      const admin = await connectTo(postgres.server(), db.url);
      try {
        await admin.query(`CREATE ROLE secrets_lowly LOGIN PASSWORD 'lowly-pw'`);
        await admin.query('CREATE DATABASE secrets_locked');
        await admin.query('REVOKE CONNECT ON DATABASE secrets_locked FROM PUBLIC');
      } finally {
        await admin.end();
      }
      const base = new URL(db.url);
      const at = (user: string, database: string, port = base.port) => `postgres://${user}@127.0.0.1:${port}/${database}`;
      const cases: Array<[string, string, Record<string, string | undefined>, string, RegExp]> = [
        ['no such database', at('postgres', 'no_such_database'), postgres.server().env, 'store_database_missing', /has no such database.*no_such_database/],
        ['a wrong password', db.url, { PGPASSWORD: 'not-the-password' }, 'store_login_failed', /wrong password for role "postgres"/],
        ['no such role', at('ghost', db.name), postgres.server().env, 'store_login_failed', /role "ghost", or no such role/],
        [
          'no password',
          db.url,
          { PGPASSWORD: undefined, PGPASSFILE: path.join(s.home.root, 'none') },
          'store_login_failed',
          /asks role "postgres" for a password, and none was found/,
        ],
        [
          'no right to connect',
          at('secrets_lowly', 'secrets_locked'),
          { PGPASSWORD: 'lowly-pw' },
          'store_permission_denied',
          /permission denied for database "secrets_locked".*CONNECT privilege/,
        ],
        ['nobody listening', at('postgres', db.name, String(await freePort())), postgres.server().env, 'store_unreachable', /is unreachable/],
      ];
      for (const [what, url, env, code, words] of cases) {
        const run = await s.run([...send('700'), '--json'], { env: { FSAPI_STORE: url, ...CONSUMER_KEY, ...env } });
        assert.equal(run.code, 1, `${what}: ${run.stderr}`);
        const error = cleanError(run);
        assert.equal(error.code, code, `${what}: ${error.message}`);
        assert.match(error.message, words, what);
        assert.match(error.message, /nothing was sent or changed/);
        assert.ok(error.hint, `${what} has a hint`);
      }
      assert.equal(s.posts(), 0, 'nothing sent');
    }));

  it('TLS: a server without it, then a certificate this machine does not trust, are store_tls_failed; sslrootcert trusts it', () =>
    onFreshDatabase(async (s, db) => {
      const env = { ...postgres.server().env, ...CONSUMER_KEY };
      const withTls = `${db.url}?sslmode=require`;
      const none = await s.run([...send('700'), '--json'], { env: { ...env, FSAPI_STORE: withTls } });
      assert.equal(none.code, 1, none.stderr);
      assert.deepEqual([cleanError(none).code, /the server offers no TLS/.test(cleanError(none).message)], ['store_tls_failed', true]);

      await turnOnTls(db.url);
      const untrusted = await s.run([...send('700'), '--json'], { env: { ...env, FSAPI_STORE: withTls } });
      assert.equal(untrusted.code, 1, untrusted.stderr);
      const error = cleanError(untrusted);
      assert.equal(error.code, 'store_tls_failed');
      assert.match(error.message, /self-signed certificate/);
      assert.match(error.hint ?? '', /sslrootcert=/);
      assert.equal(s.posts(), 0, 'nothing sent');

      const trusted = `${db.url}?sslmode=verify-full&sslrootcert=${path.join(repoRoot, 'test/fixtures/tls/server.crt')}`;
      const sent = await s.run([...send('700'), '--json'], { env: { ...env, FSAPI_STORE: trusted } });
      assert.equal(sent.code, 0, sent.stderr);
      assert.doesNotMatch(sent.stderr, NODE_WARNING, 'no warning either (sslmode)');
      assert.equal(s.posts(), 1);
    }));
});

/** TLS on the test server, with the certificate of test/fixtures/tls (self-signed, for 127.0.0.1 and localhost). */
async function turnOnTls(url: string): Promise<void> {
  const admin = await connectTo(postgres.server(), url);
  try {
    const dataDir = String((await admin.query('SHOW data_directory')).rows[0].data_directory);
    const owner = statSync(dataDir);
    for (const file of ['server.crt', 'server.key']) {
      const to = path.join(dataDir, `fsapi-test-${file}`);
      copyFileSync(path.join(repoRoot, 'test/fixtures/tls', file), to);
      // The server reads its key only when no one else can.
      chownSync(to, owner.uid, owner.gid);
      chmodSync(to, 0o600);
    }
    await admin.query("ALTER SYSTEM SET ssl_cert_file = 'fsapi-test-server.crt'");
    await admin.query("ALTER SYSTEM SET ssl_key_file = 'fsapi-test-server.key'");
    await admin.query('ALTER SYSTEM SET ssl = on');
    await admin.query('SELECT pg_reload_conf()');
    // The reload is asynchronous: wait for the server to say it serves TLS (bounded).
    for (let tries = 0; (await admin.query('SHOW ssl')).rows[0].ssl !== 'on'; tries += 1) {
      if (tries > 200) assert.fail('the server did not turn TLS on');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await admin.end();
  }
}

describe('store migrate records only what it applied', { timeout: 180_000 }, () => {
  const homes: Home[] = [];
  after(() => {
    for (const home of homes) home.cleanup();
  });
  /** The policy's audit log of the team store, in order. */
  const auditLog = async (db: TestDatabase) => db.sql('SELECT policy, changed_by, origin FROM policy_changes ORDER BY id');

  it('a team store that has its own policy keeps it, and its audit log is unchanged, once and again', () =>
    onFreshDatabase(async (s, db) => {
      const env = { ...postgres.server().env, ...CONSUMER_KEY };
      // This machine's policy, changed twice, in its data dir.
      await setPolicy(s, '--max-per-day', '1000');
      await setPolicy(s, '--max-per-day', '2000');
      // The team's own policy, set on the team store from another machine.
      const other = makeHome();
      homes.push(other);
      const otherEnv: Record<string, string> = { ...other.env };
      await logInToSimulator(otherEnv, s.server.url);
      const teamSet = await s.runInProcess(['policy', 'set', '--max-per-day', '9000'], {
        env: { ...otherEnv, ...env, FSAPI_STORE: db.url, FSAPI_OPERATOR: 'team-owner' },
        tty: true,
        prompts: [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }],
      });
      assert.equal(teamSet.code, 0, stripAnsi(teamSet.stdout));
      const before = await auditLog(db);
      assert.equal(before.length, 1);

      for (const round of ['first', 'again']) {
        const migrated = await s.run(['store', 'migrate', db.url, '--json'], { env });
        assert.equal(migrated.code, 0, migrated.stderr);
        const result = JSON.parse(migrated.stdout) as Record<'copied' | 'present' | 'left', Record<string, number>>;
        assert.deepEqual([result.copied.policies, result.present.policies, result.copied.policyChanges, result.left.policyChanges], [0, 1, 0, 2], round);
        assert.deepEqual(await auditLog(db), before, `${round}: the audit log is unchanged`);
      }
      const shown = await s.run(['store', 'migrate', db.url], { env });
      assert.match(shown.stderr, /policy changes: 0 copied, 2 not copied \(the team store kept its own policy/);
      const policy = JSON.parse((await s.run(['policy', 'show', '--json'], { env: { ...otherEnv, ...env, FSAPI_STORE: db.url } })).stdout) as {
        maxPerDay: string;
      };
      assert.equal(policy.maxPerDay, '9000.00', "the team's policy is the one in force");
    }));

  it('a team store without a policy takes this machine’s, with the changes that made it, each once', () =>
    onFreshDatabase(async (s, db) => {
      const env = { ...postgres.server().env, ...CONSUMER_KEY };
      await setPolicy(s, '--max-per-day', '1000');
      await setPolicy(s, '--max-per-day', '2000');
      const first = JSON.parse((await s.run(['store', 'migrate', db.url, '--json'], { env })).stdout) as Record<string, Record<string, number>>;
      assert.deepEqual([first.copied!.policies, first.copied!.policyChanges, first.left!.policyChanges], [1, 2, 0]);
      const log = await auditLog(db);
      assert.deepEqual(
        log.map((change) => (JSON.parse(String(change.policy)) as { maxPerDayKobo: number }).maxPerDayKobo),
        [100_000, 200_000],
      );
      const again = JSON.parse((await s.run(['store', 'migrate', db.url, '--json'], { env })).stdout) as Record<string, Record<string, number>>;
      assert.deepEqual([again.copied!.policyChanges, again.present!.policyChanges, again.left!.policyChanges], [0, 2, 0]);
      assert.deepEqual(await auditLog(db), log, 'the same records: the audit log unchanged');
    }));
});
