// Causes said as they are, under real conditions:
//   - a data dir, config dir or store file the OS user running fsapi may not use is a permission problem,
//     named with the path, its owner and the user; never a missing store (whose advice, restore a backup,
//     would lose the records that are still there). Run as a second OS user of the machine: root, which the
//     tests run as, passes every permission check;
//   - a transfer that left, whose outcome cannot be written (a full disk, a small tmpfs filled while its
//     answer is on the way), is said to have been sent, with its reference, never "nothing was sent";
//   - `simulator trigger` and `collect` refuse a profile that is not fsapi's simulator before any request.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { openProfileStore } from '../src/auth/profile-store.js';
import { SIMULATOR_CREDENTIALS, startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { childEnv, errorObject, homePool, stripAnsi } from './helpers/cli.js';
import { HttpStubs } from './helpers/http-stubs.js';
import { runInProcess } from './helpers/in-process.js';
import { packageForAnotherUser, testUserIds } from './helpers/os-user.js';
import { startProxiedSimulator, type ProxiedSimulator } from './helpers/proxied-simulator.js';
import { SIMULATOR_LOGIN_ENV } from './helpers/simulator-login.js';

const homes = homePool();
after(() => homes.cleanup());

// ---- permissions, as another OS user ---------------------------------------------------------------------

const CLERK = 'fsapi-test-clerk';
const clerk = testUserIds(CLERK);

describe('a dir or file the OS user running fsapi may not use', { skip: typeof clerk === 'string' ? clerk : false }, () => {
  const ids = clerk as { uid: number; gid: number };
  let server: RunningSimulator;
  let root: string;
  let home: string;
  let run: { node: string; cli: string };
  const dirs = { config: '', data: '' };

  /** fsapi as the clerk, with its own config and data dirs: exit code and output. */
  const asClerk = (args: string[], extra: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('setpriv', [`--reuid=${ids.uid}`, `--regid=${ids.gid}`, '--clear-groups', run.node, run.cli, ...args], {
        cwd: root,
        env: childEnv({ FSAPI_CONFIG_DIR: dirs.config, FSAPI_DATA_DIR: dirs.data, HOME: home, ...extra }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  const posts = () => server.simulator.requests().filter((r) => r.method === 'POST' && r.path === '/v1/transfer').length;
  const send = () => asClerk(['transfer', 'send', '0123456789', '--bank', '000013', '--amount', '100', '--narration', 'Permissions', '--yes', '--json']);
  /** What must never be said of a store that is there: it is missing, emptied, or to be restored. */
  const neverMissing = (stderr: string) => assert.doesNotMatch(stderr, /missing|emptied|no such file|restore it from|HTTP 500|Internal Server Error/i);
  /** A send refused for a permission, and so never sent: its error object. */
  const refusedSend = async () => {
    const before = posts();
    const sent = await send();
    assert.equal(sent.code, 1, sent.stderr);
    neverMissing(sent.stderr);
    assert.equal(posts(), before, 'nothing was sent');
    const error = errorObject(sent.stderr);
    assert.equal(error.code, 'permission_denied');
    return error;
  };

  before(async () => {
    server = await startSimulatorServer({ port: 0, log: () => undefined });
    root = mkdtempSync(path.join(tmpdir(), 'fsapi-permissions-'));
    chmodSync(root, 0o755);
    run = packageForAnotherUser(path.join(root, 'package'));
    home = path.join(root, 'clerk');
    mkdirSync(home, { mode: 0o700 });
    chownSync(home, ids.uid, ids.gid);
    Object.assign(dirs, { config: path.join(home, 'config'), data: path.join(home, 'data') });
    const login = await asClerk(['auth', 'login', '--profile', 'sim', '--env', 'sandbox', '--base-url', server.url], SIMULATOR_LOGIN_ENV);
    assert.equal(login.code, 0, login.stderr);
    // The profile has records now: its store is expected to be there.
    const first = await send();
    assert.equal(first.code, 0, first.stderr);
  });
  after(async () => {
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => {
    // Each test leaves the clerk's dirs as they were: theirs, private.
    spawnSync('chown', ['-R', `${ids.uid}:${ids.gid}`, home]);
    chmodSync(dirs.config, 0o700);
    chmodSync(dirs.data, 0o700);
    chmodSync(path.join(dirs.data, 'fsapi.db'), 0o600);
  });

  it('a data dir its owner closed (chmod 000): send, store status and the local simulator name the permission, the path and the user; nothing is sent or lost', async () => {
    chmodSync(dirs.data, 0o000);
    const error = await refusedSend();
    assert.equal(
      error.message,
      `permission denied: fsapi, running as OS user ${CLERK} (uid ${ids.uid}), may not enter ${dirs.data} (owned by ${CLERK}, mode 000), so it cannot read or write the store ${path.join(dirs.data, 'fsapi.db')}`,
    );
    assert.equal(
      error.hint,
      `${CLERK} owns it: chmod u+rwx ${dirs.data} gives the access back; the records are still there: do not restore a backup over them`,
    );

    const status = await asClerk(['store', 'status', '--json']);
    assert.equal(status.code, 1, status.stderr);
    neverMissing(status.stderr);
    assert.equal(errorObject(status.stderr).code, 'permission_denied');
    assert.equal(status.stdout, '');

    // The built-in simulator keeps its state in the data dir too: the same cause, not an API failure.
    const local = await asClerk(['--profile', 'local', 'account', '--json']);
    assert.equal(local.code, 1, local.stderr);
    neverMissing(local.stderr);
    const localError = errorObject(local.stderr);
    assert.equal(localError.code, 'permission_denied');
    assert.match(localError.message, new RegExp(`may not enter ${dirs.data} .*the simulator state ${path.join(dirs.data, 'simulator', 'state.db')}`));

    // Opened again: every record is where it was.
    chmodSync(dirs.data, 0o700);
    const back = await asClerk(['store', 'status', '--json']);
    assert.equal(back.code, 0, back.stderr);
    const report = JSON.parse(back.stdout) as { matches: boolean; counts: { transfers: number } };
    assert.deepEqual([report.matches, report.counts.transfers], [true, 1]);
  });

  it('a data dir owned by root, mode 700: the owner is named, and who can open it', async () => {
    spawnSync('chown', ['-R', '0:0', dirs.data]);
    chmodSync(dirs.data, 0o700);
    const error = await refusedSend();
    assert.match(error.message, new RegExp(`running as OS user ${CLERK} \\(uid ${ids.uid}\\), may not .*${dirs.data} \\(owned by root, mode 700\\)`));
    assert.equal(
      error.hint,
      `run fsapi as root, who owns it, or have root give ${CLERK} access; the records are still there: do not restore a backup over them`,
    );
    const status = await asClerk(['store', 'status']);
    assert.equal(status.code, 1);
    neverMissing(status.stderr);
    assert.match(status.stderr, /^error: permission denied: .*owned by root, mode 700/m);
  });

  it('a store file, and a config dir, the user may not read', async () => {
    const store = path.join(dirs.data, 'fsapi.db');
    chmodSync(store, 0o000);
    const log = await asClerk(['transfer', 'log', '--json']);
    assert.equal(log.code, 1, log.stderr);
    neverMissing(log.stderr);
    const error = errorObject(log.stderr);
    assert.equal(error.code, 'permission_denied');
    assert.match(error.message, new RegExp(`may not read and write the store ${store} \\(owned by ${CLERK}, mode 000\\)$`));
    chmodSync(store, 0o600);

    chmodSync(dirs.config, 0o000);
    const account = await asClerk(['account', '--json']);
    assert.equal(account.code, 1, account.stderr);
    const configError = errorObject(account.stderr);
    assert.equal(configError.code, 'permission_denied');
    assert.match(configError.message, new RegExp(`may not enter ${dirs.config} .*the profiles file ${path.join(dirs.config, 'profiles.json')}$`));
    assert.match(configError.hint ?? '', /the profiles are still there/);
  });
});

// ---- a transfer sent whose outcome cannot be written -----------------------------------------------------

const canMount = process.platform === 'linux' && process.getuid?.() === 0;

describe('a transfer sent whose outcome cannot be written', () => {
  let s: ProxiedSimulator | undefined;
  const mounts: string[] = [];
  afterEach(async () => {
    for (const mount of mounts.splice(0)) spawnSync('umount', ['-l', mount]);
    await s?.close();
    s = undefined;
  });

  /**
   * A proxied simulator, and config and data dirs on a small disk of their own (a 1 MB tmpfs) as on a machine
   * whose disk fills up; `fillOnTransferAnswer()` fills it once the API has taken the next transfer, before
   * its answer reaches fsapi; `free()` empties it again.
   */
  async function smallDisk() {
    const proxied = await startProxiedSimulator();
    s = proxied;
    const disk = path.join(proxied.home.root, 'small-disk');
    mkdirSync(disk);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', disk]);
    assert.equal(mounted.status, 0, `mount failed: ${mounted.stderr}`);
    mounts.push(disk);
    const config = path.join(disk, 'config');
    cpSync(proxied.home.configDir, config, { recursive: true });
    let filled = 0;
    const fill = async () => {
      for (const size of [64 * 1024, 4096]) {
        for (;;) {
          try {
            writeFileSync(path.join(disk, `filler-${filled}`), Buffer.alloc(size, 1));
            filled += 1;
          } catch {
            break;
          }
        }
      }
      proxied.proxy.options.beforeTransferAnswer = undefined;
    };
    return {
      disk,
      env: { FSAPI_CONFIG_DIR: config, FSAPI_DATA_DIR: path.join(disk, 'data') },
      fillOnTransferAnswer: () => {
        proxied.proxy.options.beforeTransferAnswer = fill;
      },
      filled: () => filled,
      free: () => {
        for (const name of readdirSync(disk)) if (name.startsWith('filler-')) rmSync(path.join(disk, name));
      },
    };
  }

  /** The outcome `transfer log` gives a reference. */
  async function outcomeOf(env: Record<string, string>, reference: string): Promise<string | undefined> {
    const log = await s!.run(['transfer', 'log', '--json'], env);
    assert.equal(log.code, 0, log.stderr);
    return (JSON.parse(log.stdout) as Array<{ reference: string; outcome: string }>).find((t) => t.reference === reference)?.outcome;
  }

  it('a disk that fills while the answer is on the way: the warning says it was sent, the exit is its outcome, and a status settles it', {
    skip: canMount ? false : 'needs root to mount a small tmpfs',
    timeout: 120_000,
  }, async () => {
    const d = await smallDisk();
    const send = (amount: string) =>
      s!.run(
        ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', amount, '--narration', 'Full disk', '--yes', '--allow-duplicate', '--json'],
        d.env,
      );
    const first = await send('21');
    assert.equal(first.code, 0, first.stderr);

    // The API has taken the transfer; before its answer reaches fsapi, the disk fills up.
    d.fillOnTransferAnswer();
    const sent = await send('22');
    assert.ok(d.filled() > 0, 'the disk was filled');
    // Its outcome is known from the answer (pending): exit 0, the record on stdout.
    assert.equal(sent.code, 0, sent.stderr);
    const reference = (JSON.parse(sent.stdout) as { reference: string }).reference;
    assert.match(
      sent.stderr,
      new RegExp(
        `^warning: transfer ${reference} was sent and the API took it \\(pending\\), but this could not be written to the journal .*the disk is full\\)`,
        'm',
      ),
    );
    assert.match(sent.stderr, new RegExp(`once the journal can be written, fsapi transfer status ${reference} records what became of it`));
    assert.match(sent.stderr, /^warning: the profile could not remember, in the config dir .*, how many records its store holds/m);
    assert.doesNotMatch(sent.stderr, /nothing (was|were) (sent|written|done|changed)/);
    assert.equal(await s!.held(reference), 1, 'the API holds it once');

    // Space again: the journal has it as sent, outcome unknown (never "refused", never gone) until a lookup settles it.
    d.free();
    assert.equal(await outcomeOf(d.env, reference), 'unknown');
    const status = await s!.run(['transfer', 'status', reference, '--json'], d.env);
    assert.equal(status.code, 0, status.stderr);
    assert.match(String(await outcomeOf(d.env, reference)), /^(pending|successful)$/);
    assert.equal(s!.posts(), 2, 'each transfer sent once');
  });

  it('a batch whose disk fills at its first row: that row is reported sent, the next one not sent, and the same file again sends only that one', {
    skip: canMount ? false : 'needs root to mount a small tmpfs',
    timeout: 120_000,
  }, async () => {
    const d = await smallDisk();
    // The file (and so its report) on the small disk too.
    const file = path.join(d.disk, 'suppliers.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n0123456789,000013,31,Supplier one\n0123456780,000013,32,Supplier two\n');
    const batch = () => s!.run(['transfer', 'batch', file, '--yes', '--concurrency', '1', '--json'], d.env);
    d.fillOnTransferAnswer();
    const run = await batch();
    assert.ok(d.filled() > 0, 'the disk was filled');
    const rows = JSON.parse(run.stdout) as Array<{ line: number; reference: string; status: string; message: string }>;
    assert.deepEqual(
      rows.map((row) => [row.line, row.status]),
      [
        [2, 'pending'],
        [3, 'not-sent'],
      ],
      run.stderr,
    );
    assert.equal(run.code, 1, run.stderr);
    const [paid, unsent] = rows as [(typeof rows)[0], (typeof rows)[0]];
    assert.match(run.stderr, new RegExp(`warning: transfer ${paid.reference} was sent and the API took it \\(pending\\), but this could not be written`));
    assert.match(unsent.message, /cannot write the journal .*: cannot write .*: the disk is full; nothing was sent$/, 'true of the row that did not leave');
    assert.equal(await s!.held(paid.reference), 1);
    assert.equal(await s!.held(unsent.reference), 0);

    d.free();
    const again = await batch();
    assert.equal(again.code, 0, again.stderr);
    const after = JSON.parse(again.stdout) as Array<{ line: number; status: string }>;
    // The first row as the lookup finds it now (the simulator settles within a second), the second just sent.
    assert.match(after[0]!.status, /^(pending|successful)$/);
    assert.equal(after[1]!.status, 'pending');
    assert.equal(await s!.held(paid.reference), 1, 'the first row, looked up again, not paid twice');
    assert.equal(await s!.held(unsent.reference), 1);
    assert.equal(s!.posts(), 2);
  });

  it('an approval of two held transfers whose disk fills at the first: the first is shown sent, the second not sent, never one error that hides the first', {
    skip: canMount ? false : 'needs root to mount a small tmpfs',
    timeout: 120_000,
  }, async () => {
    const d = await smallDisk();
    const inProcess = (args: string[], options: { tty?: boolean; secret?: boolean } = {}) =>
      runInProcess(args, {
        env: { ...d.env, FSAPI_RECONCILE_SCHEDULE_MS: '0,50,100' },
        ...(options.tty ? { tty: true } : {}),
        ...(options.secret ? { prompts: [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }] } : {}),
      });
    const policy = await inProcess(['policy', 'set', '--approval-above', '10'], { tty: true, secret: true });
    assert.equal(policy.code, 0, policy.stdout);
    const file = path.join(d.disk, 'held.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n0123456789,000013,41,Held one\n0123456780,000013,42,Held two\n');
    const held = await inProcess(['transfer', 'batch', file, '--yes', '--json']);
    assert.equal(held.code, 7, held.stderr);
    const list = await inProcess(['approvals', 'list', '--json']);
    const [request] = JSON.parse(list.stdout) as Array<{ id: string; transfers: Array<{ reference: string }> }>;
    assert.equal(request!.transfers.length, 2);
    const [first, second] = request!.transfers.map((t) => t.reference) as [string, string];

    d.fillOnTransferAnswer();
    const approved = await inProcess(['approvals', 'approve', request!.id], { tty: true, secret: true });
    assert.ok(d.filled() > 0, 'the disk was filled');
    assert.equal(approved.code, 1, approved.stdout);
    const screen = approved.stdout.replace(/\s+/g, ' ');
    assert.match(screen, new RegExp(`warning: transfer ${first} was sent and the API took it \\(pending\\), but this could not be written`));
    const row = (reference: string) =>
      stripAnsi(approved.stdout)
        .split('\n')
        .find((line) => line.startsWith(`${reference} `)) ?? '';
    assert.match(row(first), / pending /, 'the first is in the table as sent');
    assert.match(row(second), / not-sent +cannot write the journal /, 'the second, not sent, says why');
    assert.match(screen, /1 of 2 approved transfers were refused, failed, reversed or not sent/);
    assert.equal(await s!.held(first), 1);
    assert.equal(await s!.held(second), 0);
  });
});

// ---- simulator commands on a bank's API ------------------------------------------------------------------

describe('simulator trigger and collect on a profile that is not fsapi’s simulator', () => {
  const commands = [
    ['simulator', 'trigger', 'payout'],
    ['simulator', 'collect', '9900000011', '--amount', '500'],
  ];
  const profiles = [
    {
      name: 'live',
      env: 'production' as const,
      baseUrl: 'https://baas-api.bellmfb.com',
      why: /production profile \(https:\/\/baas-api\.bellmfb\.com\), where money is real/,
    },
    // A production profile is refused whatever its address says.
    { name: 'live-http', env: 'production' as const, baseUrl: 'http://127.0.0.1:9', why: /production profile/ },
    { name: 'bank-sandbox', env: 'sandbox' as const, baseUrl: 'https://sandbox-baas-api.bellmfb.com', why: /an API over https, not fsapi's simulator/ },
  ];
  for (const profile of profiles) {
    for (const command of commands) {
      it(`${command.slice(0, 2).join(' ')} with ${profile.name}: exit 2 before any request, the token sent nowhere`, async () => {
        const h = homes.home();
        await openProfileStore(h.configDir).save({
          name: profile.name,
          env: profile.env,
          baseUrl: profile.baseUrl,
          token: 'a-bearer-token-of-the-bank',
          tokenExpiresAt: Date.now() + 3_600_000,
        });
        const stubs = new HttpStubs();
        const result = await runInProcess([...command, '--profile', profile.name, '--json'], { env: h.env, transport: stubs.transport });
        assert.equal(result.code, 2, result.stderr);
        const error = errorObject(result.stderr);
        assert.equal(error.code, 'usage');
        assert.match(error.message, new RegExp(`^fsapi ${command.slice(0, 2).join(' ')} works only on fsapi's simulator, and `));
        assert.match(error.message, profile.why);
        assert.match(error.message, /; nothing was sent$/);
        assert.equal(result.stdout, '');
        assert.deepEqual(stubs.requests, []);
        stubs.verify();
      });
    }
  }

  it('the local profile sent to an https address by --base-url is refused the same way', async () => {
    const h = homes.home();
    const stubs = new HttpStubs();
    const result = await runInProcess(['simulator', 'trigger', 'collection', '--base-url', 'https://baas-api.bellmfb.com'], {
      env: h.env,
      transport: stubs.transport,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /goes to https:\/\/baas-api\.bellmfb\.com, an API over https/);
    assert.deepEqual(stubs.requests, []);
    stubs.verify();
  });
});
