// The local store under local attack and failure, with real processes: a writer's pid reused (fsapi as
// pid 1 in a pid namespace), a writer stopped (SIGSTOP) past any stale time, a data dir open to others,
// a full disk under the store while `webhook listen` answers events.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { cliPath, repoRoot } from './helpers/cli.js';
import type { RowResult } from '../src/batch/payouts.js';
import { writeReport, writeReportSync } from '../src/batch/report.js';
import type { Kobo } from '../src/money/kobo.js';
import { setUpTransfers, storeRecords, until, type TransferSetup } from './helpers/transfer-setup.js';

let setup: TransferSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

const isRoot = process.getuid?.() === 0;
const canUnshare = process.platform === 'linux' && isRoot && spawnSync('unshare', ['-fp', '--kill-child', 'true']).status === 0;

/** Spawns a command with the setup's environment (FSAPI_* of this process left out). */
function spawnWith(s: TransferSetup, command: string, args: string[]) {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('FSAPI_') && key !== 'FORCE_COLOR') env[key] = value;
  const child = spawn(command, args, { cwd: repoRoot, env: { ...env, ...s.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  void exited.finally(() => clearTimeout(killer));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

const intents = (s: TransferSetup) =>
  s
    .journalLines()
    .map((line) => JSON.parse(line) as { type: string; reference: string; pid?: number })
    .filter((r) => r.type === 'intent');

describe('liveness that a reused pid cannot fool', () => {
  it('fsapi as pid 1 of a pid namespace, killed mid-send: the host resumes the batch, each row paid once', {
    skip: canUnshare ? false : 'needs root and unshare -p (a pid namespace); this machine does not allow it',
    timeout: 90_000,
  }, async () => {
    // Transfers settle after an hour here, so both rows are still pending when the resumed run looks, however
    // long the machine takes to get there.
    const s = (setup = await setUpTransfers({ settleSeconds: 3600 }));
    const file = path.join(s.home.root, 'ns.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n3000000157,gtb,110,Namespace 1\n3000000257,gtb,120,Namespace 2\n');
    s.server.simulator.setFault('stall'); // the first POST is carried out and never answered
    const inNamespace = spawnWith(s, 'unshare', ['-fp', '--kill-child', process.execPath, cliPath, 'transfer', 'batch', file, '--yes', '--concurrency', '1']);
    await until(() => intents(s).length === 1 && s.posts() === 1, 'the first intent and its POST', 30_000);
    assert.equal(intents(s)[0]!.pid, 1, 'fsapi ran as pid 1 in its namespace');
    inNamespace.child.kill('SIGKILL'); // unshare --kill-child takes fsapi (pid 1) with it
    await inNamespace.exited;
    s.server.simulator.setFault(undefined);

    // On the host pid 1 is init, alive: a pid check would call the row "being sent" for ever.
    const resumed = await s.run(['transfer', 'batch', file, '--yes', '--json'], { timeoutMs: 60_000 });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.doesNotMatch(resumed.stderr + resumed.stdout, /being sent by another fsapi process/);
    const rows = JSON.parse(resumed.stdout) as Array<{ line: number; status: string; message: string }>;
    assert.deepEqual(
      rows.map((r) => r.status),
      ['pending', 'pending'],
    );
    assert.match(rows[0]!.message, /sent by an earlier run; not sent again/);
    assert.equal(s.posts(), 2, 'one POST per row in all');
  });

  it('a batch stopped (SIGSTOP) past any stale time still owns its row: another run of it does not send it; resumed, it finishes; one POST', {
    timeout: 90_000,
  }, async () => {
    const s = (setup = await setUpTransfers());
    const file = path.join(s.home.root, 'stopped.csv');
    writeFileSync(file, 'account_number,bank,amount,narration,reference\n3000000357,gtb,321,Stopped,ACME-STOPPED0001\n');
    // The same row in other bytes: another file (its own run), the same reference.
    const copy = path.join(s.home.root, 'stopped-copy.csv');
    writeFileSync(copy, 'reference,account_number,bank,amount,narration\nACME-STOPPED0001,3000000357,gtb,321,Stopped\n');
    s.server.simulator.setFault('stall');
    const stopped = spawnWith(s, process.execPath, [cliPath, '--timeout', '3', 'transfer', 'batch', file, '--yes']);
    await until(() => intents(s).length === 1 && s.posts() === 1, 'the intent and its POST', 30_000);
    stopped.child.kill('SIGSTOP');
    try {
      // Longer than any stale time fsapi ever used (10 s): the stopped run still holds its locks.
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      s.server.simulator.setFault(undefined);
      const same = await s.run(['transfer', 'batch', file, '--yes']);
      assert.equal(same.code, 1, same.stderr);
      assert.match(same.stderr, /stopped\.csv is being paid by another fsapi run; nothing was sent/);
      const second = await s.run(['transfer', 'batch', copy, '--yes', '--json'], { timeoutMs: 60_000 });
      const rows = JSON.parse(second.stdout || '[]') as Array<{ status: string; message: string }>;
      assert.equal(rows.length, 1, second.stderr);
      assert.equal(rows[0]!.status, 'in flight');
      assert.match(rows[0]!.message, /being sent by another fsapi process \(pid \d+\); not sent again/);
      assert.equal(s.posts(), 1, 'the second run sent nothing');
    } finally {
      stopped.child.kill('SIGCONT');
    }
    await stopped.exited;
    assert.equal(s.posts(), 1, 'resumed, the first run looked its row up and sent nothing again');
    const types = s.journalLines().map((line) => (JSON.parse(line) as { type: string }).type);
    assert.equal(types.filter((type) => type === 'intent').length, 1);
    assert.ok(types.includes('reconciled'), types.join(','));
    assert.deepEqual(readdirSync(path.join(s.home.dataDir, 'runs')), [], 'each run removed its lock file at exit');
  });
});

describe('local files are private', () => {
  it('a data dir open to others (0777) is narrowed to 0700 before anything is written; the store is 0600', async () => {
    const s = (setup = await setUpTransfers());
    mkdirSync(s.home.dataDir, { recursive: true });
    chmodSync(s.home.dataDir, 0o777);
    const sent = await s.run(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '12', '--narration', 'Private', '--yes']);
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(statSync(s.home.dataDir).mode & 0o777, 0o700);
    for (const name of ['fsapi.db', 'fsapi.db-wal']) assert.equal(statSync(path.join(s.home.dataDir, name)).mode & 0o777, 0o600, name);
  });

  it('a data dir that belongs to another user is refused, nothing sent', {
    skip: isRoot ? false : 'needs root to give a directory to another user',
  }, async () => {
    const s = (setup = await setUpTransfers());
    const foreign = path.join(s.home.root, 'foreign');
    mkdirSync(foreign, { mode: 0o777 });
    chmodSync(foreign, 0o777);
    spawnSync('chown', ['65534:65534', foreign]);
    const sent = await s.run(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '12', '--narration', 'Foreign', '--yes'], {
      env: { FSAPI_DATA_DIR: foreign },
    });
    assert.equal(sent.code, 1, sent.stderr);
    assert.match(sent.stderr, /^error: refusing to use the data dir .*foreign: it belongs to another user \(uid 65534\)$/m);
    assert.equal(s.posts(), 0);
  });
});

describe('the batch report is written through a temporary file nobody can plant', () => {
  it('a symbolic link planted where the temporary file used to be (name by pid) is not followed; the report is 0600', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-report-'));
    try {
      const victim = path.join(dir, 'victim.txt');
      writeFileSync(victim, 'precious\n');
      const report = path.join(dir, 'pay.csv.report.csv');
      symlinkSync(victim, path.join(dir, `.pay.csv.report.csv.${process.pid}.tmp`));
      const row: RowResult = {
        line: 2,
        accountNumber: '0123456789',
        bankName: 'Guaranty Trust Bank',
        bankCode: '000013',
        amountKobo: 100_00 as Kobo,
        verifiedName: 'ADA',
        reference: 'ACME-R1',
        status: 'pending',
        apiStatus: 'pending',
        chargeKobo: undefined,
        message: 'ok',
        earlier: false,
      };
      await writeReport(report, [row]);
      writeReportSync(report, [row]);
      assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
      assert.match(readFileSync(report, 'utf8'), /ACME-R1/);
      assert.equal(statSync(report).mode & 0o777, 0o600);
      assert.deepEqual(
        readdirSync(dir).filter((name) => name.endsWith('.tmp') && !lstatSync(path.join(dir, name)).isSymbolicLink()),
        [],
        'no temporary file left',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every acknowledged record stays readable', () => {
  const canMount = process.platform === 'linux' && isRoot;

  it('a full disk (a small tmpfs) under the journal: a send that cannot record its intent sends nothing; what was recorded before stays', {
    skip: canMount ? false : 'needs root to mount a small tmpfs',
    timeout: 120_000,
  }, async () => {
    const s = (setup = await setUpTransfers());
    const mount = path.join(s.home.root, 'small-journal-disk');
    mkdirSync(mount);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', mount]);
    if (mounted.status !== 0) return void assert.fail(`mount failed: ${mounted.stderr}`);
    try {
      const env = { FSAPI_DATA_DIR: path.join(mount, 'data') };
      const send = (amount: string) =>
        s.run(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', amount, '--narration', 'Disk', '--yes', '--allow-duplicate', '--json'], { env });
      const first = await send('11');
      assert.equal(first.code, 0, first.stderr);
      const paid = (JSON.parse(first.stdout) as { reference: string }).reference;
      for (let i = 0; ; i += 1) {
        try {
          writeFileSync(path.join(mount, `filler-${i}`), Buffer.alloc(16 * 1024, 1));
        } catch {
          break;
        }
      }
      const postsBefore = s.posts();
      const full = await send('12');
      assert.equal(full.code, 1, full.stderr);
      assert.match(full.stderr, /nothing was sent/);
      assert.equal(s.posts(), postsBefore, 'no POST without its intent on disk');
      for (const name of readdirSync(mount)) if (name.startsWith('filler-')) rmSync(path.join(mount, name));
      const after = await send('13');
      assert.equal(after.code, 0, after.stderr);
      const log = await s.run(['transfer', 'log', '--json'], { env });
      const references = (JSON.parse(log.stdout) as Array<{ reference: string; state: string }>).map((t) => t.reference);
      assert.equal(references.length, 2);
      assert.equal(references[0], paid);
    } finally {
      spawnSync('umount', ['-l', mount]);
    }
  });

  it('a full disk (a small tmpfs) under webhook listen: no event is answered 200 unless it is stored; after space is freed it goes on', {
    skip: canMount ? false : 'needs root to mount a small tmpfs',
    timeout: 120_000,
  }, async () => {
    const s = (setup = await setUpTransfers());
    const mount = path.join(s.home.root, 'small-disk');
    mkdirSync(mount);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', mount]);
    if (mounted.status !== 0) return void assert.fail(`mount failed: ${mounted.stderr}`);
    const listener = { process: undefined as ReturnType<typeof spawnWith> | undefined };
    try {
      const dataDir = path.join(mount, 'data');
      const env = { FSAPI_DATA_DIR: dataDir };
      const port = 20000 + Math.floor(Math.random() * 20000);
      const started = spawnWith({ ...s, env: { ...s.env, ...env } }, process.execPath, [cliPath, 'webhook', 'listen', '--no-verify', '--port', String(port)]);
      listener.process = started;
      await until(() => started.output().stderr.includes('press Ctrl+C to stop'), 'the listener to start', 30_000);
      const post = async (reference: string) => {
        const body = JSON.stringify({
          event: 'collection',
          reference,
          virtualAccount: '9900000001',
          externalReference: 'x'.repeat(2000),
          amountReceived: '100.00',
          transactionFee: 0,
          netAmount: 100,
          stampDuty: 0,
          sessionId: '0'.repeat(30),
          sourceCurrency: 'NGN',
          sourceAccountNumber: '0123456789',
          sourceAccountName: 'PAYER',
          sourceBankCode: '000013',
          sourceBankName: 'GTBank',
          remarks: 'disk',
          destinationCurrency: 'NGN',
          status: 'successful',
          createdAt: Date.now(),
          updatedAt: Date.now(),
        });
        // A connection of its own for each event (agent: false): a kept-alive one could be closed by the
        // listener's idle timeout while the disk is being filled or emptied, and then reused at that
        // instant; the failure would be the test's connection pool, not the listener.
        return new Promise<number>((resolve) => {
          const request = httpRequest(
            { host: '127.0.0.1', port, path: '/', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
            (response) => {
              response.resume();
              response.on('end', () => resolve(response.statusCode ?? 0));
            },
          );
          request.on('error', () => resolve(0));
          request.end(body);
        });
      };
      assert.equal(await post('COL-DISK-FIRST'), 200);
      // Fill what is left of the disk.
      const filler = path.join(mount, 'filler');
      const chunk = Buffer.alloc(16 * 1024, 1);
      for (let i = 0; ; i += 1) {
        try {
          writeFileSync(`${filler}-${i}`, chunk);
        } catch {
          break;
        }
      }
      const acknowledged = ['COL-DISK-FIRST'];
      const refused: string[] = [];
      for (let i = 0; i < 60 && refused.length < 3; i += 1) {
        const reference = `COL-DISK-${String(i).padStart(4, '0')}`;
        const status = await post(reference);
        if (status === 200) acknowledged.push(reference);
        else refused.push(`${reference}:${status}`);
      }
      assert.ok(refused.length > 0, 'the full disk refused some events');
      assert.ok(
        refused.every((r) => r.endsWith(':500')),
        refused.join(', '),
      );
      // Space again: the listener goes on, nothing acknowledged is lost, nothing is glued to a fragment.
      for (const name of readdirSync(mount)) if (name.startsWith('filler-')) rmSync(path.join(mount, name), { force: true });
      assert.equal(await post('COL-DISK-AFTER'), 200);
      acknowledged.push('COL-DISK-AFTER');
      started.child.kill('SIGINT');
      await started.exited;
      const received = storeRecords(dataDir, 'events')
        .map((line) => JSON.parse(line) as { kind: string; reference: string })
        .filter((r) => r.kind === 'received')
        .map((r) => r.reference);
      for (const reference of acknowledged) assert.ok(received.includes(reference), `${reference} was answered 200 and is stored`);
      assert.equal(new Set(received).size, received.length, 'each stored once');
    } finally {
      listener.process?.child.kill('SIGKILL');
      await listener.process?.exited;
      spawnSync('umount', ['-l', mount]);
    }
  });
});
