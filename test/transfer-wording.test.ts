// Transfers as people read them: fsapi's outcome first and the API's words after, labelled as its own (a
// failed or reversed transfer never sits beside the API's "Transfer successful" answer); a failed one with
// the reason the API gave (its record, or its verified payout notification), or that it gave none; and at
// 80 columns who was paid keeps room before the API's repeated status.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { childEnv, cliPath, makeHome, repoRoot, stripAnsi } from './helpers/cli.js';
import { setUpTransfers, storeRecords, until, type TransferSetup } from './helpers/transfer-setup.js';
import { startHostileApi } from './fixtures/hostile-api.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { reasonInNotifications, reasonInRecord } from '../src/notifications/failure-reason.js';
import { EventLogWriter, type EventState } from '../src/notifications/event-log.js';

describe('transfer log: what a failed or reversed row says', () => {
  let s: TransferSetup;
  let shiftMs = 0;
  before(async () => {
    // The simulator's clock is the test's: transfers settle when a test moves it, not after a sleep.
    s = await setUpTransfers({ settleSeconds: 600, now: () => Date.now() + shiftMs });
  });
  after(async () => s.close());

  it('the message column names the outcome, not the answer given while it was pending', async () => {
    // 4040 fails and 5050 is reversed when they would settle (docs/simulator.md); 6789 succeeds.
    for (const account of ['0123454040', '0123455050', '0123456789']) {
      const sent = await s.runInProcess(['transfer', 'send', account, '--bank', 'gtb', '--amount', '700', '--narration', 'Log view', '--yes']);
      assert.equal(sent.code, 0, sent.stderr);
    }
    shiftMs += 601_000;
    const refreshed = await s.runInProcess(['transfer', 'log', '--refresh']);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    const [header, ...rows] = refreshed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    const at = (name: string) => header!.indexOf(name);
    const byAccount = new Map(rows.map((cells) => [cells[at('ACCOUNT')], cells]));
    for (const [account, outcome] of [
      ['0123454040', 'failed'],
      ['0123455050', 'reversed'],
    ] as const) {
      const cells = byAccount.get(account)!;
      assert.equal(cells[at('OUTCOME')], outcome);
      assert.doesNotMatch(cells[at('MESSAGE')]!, /successful/i, `${outcome}: ${cells[at('MESSAGE')]}`);
      assert.match(cells[at('MESSAGE')]!, new RegExp(`^${outcome} .*not paid; fsapi transfer status ${cells[at('REFERENCE')]}`));
    }
    assert.equal(byAccount.get('0123456789')![at('OUTCOME')], 'successful');

    // JSON keeps the API's message as it came.
    const json = JSON.parse((await s.runInProcess(['transfer', 'log', '--json'])).stdout) as Array<{ accountNumber: string; message: string | null }>;
    assert.match(json.find((t) => t.accountNumber === '0123454040')!.message ?? '', /Transfer successful/);

    const narrow = await s.runInProcess(['transfer', 'log'], { tty: true, columns: 80, env: { FORCE_COLOR: '1' } });
    const screen = stripAnsi(narrow.stdout);
    assert.match(screen, /OUTCOME/);
    // STATUS repeats OUTCOME on every row here: left out, and its room goes to who was paid, whole.
    assert.doesNotMatch(screen, /^TIME \(WAT\) .*STATUS/m);
    assert.match(screen, /^TIME \(WAT\) +REFERENCE +NAME /m, `who was paid stays before the API's repeated status:\n${screen}`);
    assert.match(screen, /OKAFOR CHIAMAKA ADAEZE +₦700\.00/);
    for (const outcome of ['successful', 'failed', 'reversed']) assert.match(screen, new RegExp(`${outcome}\\s*$`, 'm'));
  });
});

describe('transfer send: a pending answer does not read as paid', () => {
  let s: TransferSetup;
  before(async () => {
    s = await setUpTransfers({ settleSeconds: 60 });
  });
  after(async () => s.close());

  it("fsapi's outcome comes first, the API's words after and labelled as its own; a terminal is told how to follow it", async () => {
    const args = ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '900', '--narration', 'Pending view', '--yes'];
    const shown = await s.runInProcess(args, { tty: true, columns: 80 });
    const screen = stripAnsi(shown.stdout);
    assert.equal(shown.code, 0, screen);
    const record = screen.slice(screen.indexOf('\nOutcome') + 1);
    assert.match(record, /^Outcome +pending \(taken by the API, not settled yet\)\r?\nReference /, screen);
    assert.match(screen, /^Status +pending/m);
    assert.match(screen, /^API message +Transfer successful/m);
    assert.ok(record.indexOf('Outcome') < record.indexOf('API message'), "the outcome before the bank's wording");
    assert.doesNotMatch(screen, /^Message /m);
    const reference = /^Reference +(ACME-\w+)/m.exec(screen)![1];
    assert.match(screen, new RegExp(`^pending: not settled yet; to follow it until it is:\\r?\\n  fsapi transfer status ${reference} --wait\\r?$`, 'm'));

    // Piped, the hint is left to the exit code and the record: stderr has no pending line.
    const piped = await s.runInProcess(args.concat('--allow-duplicate'));
    assert.equal(piped.code, 0, piped.stderr);
    assert.doesNotMatch(piped.stderr, /pending:/);
    const [header, row] = piped.stdout.trimEnd().split('\n');
    assert.match(header!, /^Outcome\tReference\tStatus\t/);
    assert.match(row!, /^pending\tACME-\w+\tpending\t/);

    // The journal's list and a batch's report say the same: the outcome, then what the API said, as its own.
    const log = await s.runInProcess(['transfer', 'log']);
    const [logHeader, ...logRows] = log.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    const message = logRows.at(-1)![logHeader!.indexOf('MESSAGE')]!;
    assert.match(message, /^not settled yet; the API said: Transfer successful/);
    const file = path.join(s.home.root, 'pending.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n0123456789,gtb,950,Pending batch\n');
    const batch = await s.runInProcess(['transfer', 'batch', file, '--yes']);
    assert.equal(batch.code, 0, batch.stderr);
    const [reported] = parse(readFileSync(`${file}.report.csv`), { columns: true }) as Array<{ status: string; message: string }>;
    assert.equal(reported!.status, 'pending');
    assert.match(reported!.message, /^pending: taken by the API, not settled yet; the API said: Transfer successful/);
  });
});

/** `webhook listen` of this home, as its own process, on `port`: records every notification it verifies. */
function startListener(env: Record<string, string>, port: number): { stop(): Promise<void>; ready(): Promise<void>; stderr(): string } {
  const child = spawn(process.execPath, [cliPath, 'webhook', 'listen', '--port', String(port)], { cwd: repoRoot, env: childEnv(env) });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    ready: () => until(() => stderr.includes('press Ctrl+C to stop') || child.exitCode !== null, 'the listener to start'),
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGINT');
      await exited;
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The listener verified a payout notification of `reference` with this final status. */
function verifiedPayout(dataDir: string, reference: string, status: string): boolean {
  return storeRecords(dataDir, 'events')
    .map((line) => JSON.parse(line) as { kind: string; reference: string; state?: string; eventStatus?: string })
    .some((record) => record.kind === 'outcome' && record.reference === reference && record.state === 'verified' && record.eventStatus === status);
}

describe('a failed transfer shows the reason the API gave, never one made up', () => {
  it("the payout notification's failureReason, verified by webhook listen: transfer status, the batch re-run and transfer log", async () => {
    const port = await freePort();
    const s = await setUpTransfers({ settleSeconds: 0.2, webhookUrl: `http://127.0.0.1:${port}/` });
    const listener = startListener(s.env, port);
    try {
      await listener.ready();
      // 4040 fails when it settles (docs/simulator.md); its payout notification says why.
      const file = path.join(s.home.root, 'fails.csv');
      writeFileSync(file, 'account_number,bank,amount,narration\n0123454040,gtb,300,Fails later\n');
      const first = await s.runInProcess(['transfer', 'batch', file, '--yes']);
      assert.equal(first.code, 0, first.stderr);
      const [sent] = parse(readFileSync(`${file}.report.csv`), { columns: true }) as Array<{ reference: string }>;
      const reference = sent!.reference;
      await until(() => verifiedPayout(s.home.dataDir, reference, 'failed'), 'the failed payout notification, verified', 20_000);

      const status = await s.runInProcess(['transfer', 'status', reference]);
      assert.equal(status.code, 1, status.stderr);
      const [header, row] = status.stdout.trimEnd().split('\n');
      assert.match(header!, /^Outcome\tReason\tReference\tStatus\t/);
      assert.match(row!, new RegExp(`^failed\tBeneficiary bank not available\t${reference}\tfailed\t`));
      assert.match(
        status.stderr,
        new RegExp(
          `^error: transfer ${reference} ended as failed: Beneficiary bank not available \\(the payout notification of \\S+\\); the payee was not paid$`,
          'm',
        ),
      );

      const tty = await s.runInProcess(['transfer', 'status', reference], { tty: true, columns: 80 });
      const screen = stripAnsi(tty.stdout);
      assert.match(screen, /^Outcome +failed \(the payee was not paid\)\r?\nReason +Beneficiary bank not available \(the payout notification of/m);
      for (const line of screen.split(/\r?\n/)) assert.ok(line.length <= 80, `wider than 80 columns: ${line}`);

      const again = await s.runInProcess(['transfer', 'batch', file, '--yes']);
      assert.equal(again.code, 1, again.stderr);
      const [reported] = parse(readFileSync(`${file}.report.csv`), { columns: true }) as Array<{ status: string; message: string }>;
      assert.equal(reported!.status, 'failed');
      assert.match(
        reported!.message,
        /now failed: the payee was not paid; reason: Beneficiary bank not available \(the payout notification of \S+\); check the reversal/,
      );

      const log = await s.runInProcess(['transfer', 'log']);
      const [logHeader, ...logRows] = log.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t'));
      const logged = logRows.find((cells) => cells[logHeader!.indexOf('REFERENCE')] === reference)!;
      assert.match(
        logged[logHeader!.indexOf('MESSAGE')]!,
        /^failed after it was taken: Beneficiary bank not available \(the payout notification of \S+\); the payee was not paid/,
      );
      const json = JSON.parse((await s.runInProcess(['transfer', 'log', '--json'])).stdout) as Array<{ reference: string; reason: string | null }>;
      assert.match(json.find((t) => t.reference === reference)!.reason ?? '', /^Beneficiary bank not available/);
    } finally {
      await listener.stop();
      await s.close();
    }
  });

  it("the record's own reason field, else that the API gave none: send --wait", async () => {
    const s = await setUpTransfers({ settleSeconds: 60 });
    // A record that names why (a field the spec does not show, read where the API gives one), through a proxy.
    const proxy = await startHostileApi(s.server.url, {
      rewriteLookupAnswer: (data) =>
        data.status === 'failed' ? { ...data, details: { ...(data.details as object), responseMessage: 'Beneficiary account is dormant' } } : data,
    });
    const home = makeHome();
    try {
      await logInToSimulator(home.env, proxy.url);
      const send = (narration: string, env: Record<string, string>) =>
        s.runInProcess(
          ['transfer', 'send', '0123454040', '--bank', 'gtb', '--amount', '400', '--narration', narration, '--yes', '--wait', '--allow-duplicate'],
          { env },
        );
      const withReason = await send('Dormant', home.env);
      assert.equal(withReason.code, 1, withReason.stderr);
      assert.match(withReason.stdout, /^Outcome\tReason\t/);
      assert.match(withReason.stdout, /\nfailed\tBeneficiary account is dormant\t/);
      assert.match(withReason.stderr, /ended as failed: Beneficiary account is dormant \(the record's details\.responseMessage\); the payee was not paid/);

      // Straight to the simulator: its record names no reason, and no notification came; fsapi says so.
      const without = await send('No reason', s.env);
      assert.equal(without.code, 1, without.stderr);
      assert.match(without.stdout, /\nfailed\t\t/, 'the Reason column is empty, not filled in');
      assert.match(without.stderr, /ended as failed: the API gave no reason; the payee was not paid/);
      // The narration (the record's description) is never taken for a reason.
      assert.doesNotMatch(without.stderr, /No reason \(/);
    } finally {
      await proxy.close();
      home.cleanup();
      await s.close();
    }
  });
});

describe('which texts count as the reason (the decision alone)', () => {
  const record = (fields: Record<string, unknown>) => ({ reference: 'ACME-R1', status: 'failed', description: 'Invoice 42', ...fields }) as never;

  it('a field of the record that names a reason, in any case, at its top or in details; never the narration', () => {
    assert.equal(reasonInRecord(record({})), undefined, 'description is the narration, not a reason');
    assert.deepEqual(reasonInRecord(record({ ResponseMessage: ' Account dormant ' })), { text: 'Account dormant', source: "the record's ResponseMessage" });
    assert.deepEqual(reasonInRecord(record({ message: 'm', failureReason: 'f' })), { text: 'f', source: "the record's failureReason" });
    assert.deepEqual(reasonInRecord(record({ details: { statusDescription: 'Limit exceeded' } })), {
      text: 'Limit exceeded',
      source: "the record's details.statusDescription",
    });
    assert.equal(reasonInRecord(record({ reason: '   ', message: 42 })), undefined, 'blank or not text: none');
    assert.equal(reasonInRecord(record({ reason: 'bell\u0007 \u001b[31mred' }))?.text, 'bell\uFFFD \uFFFD[31mred', 'made safe for a terminal');
  });

  it('a payout notification counts only when webhook listen verified it with a final status', async () => {
    const home = makeHome();
    try {
      const writer = await EventLogWriter.open(home.dataDir);
      let n = 0;
      const add = async (reference: string, state: EventState, eventStatus: string | undefined, body: Record<string, unknown>) => {
        const id = `ev-${(n += 1)}`;
        const at = new Date(Date.UTC(2026, 4, 1, 9, 0, n)).toISOString();
        await writer.append({ kind: 'received', id, receivedAt: at, reference, sha256: String(n).padStart(64, '0'), body: JSON.stringify(body) });
        await writer.append({ kind: 'outcome', id, at, reference, state, field: null, detail: '', forwarded: false, ...(eventStatus ? { eventStatus } : {}) });
      };
      // A forged "failed" for a transfer the API shows paid is a mismatch: its text is nobody's reason.
      await add('ACME-PAID', 'mismatch', undefined, { event: 'payout', reference: 'ACME-PAID', status: 'failed', failureReason: 'Made up' });
      assert.equal(await reasonInNotifications(home.dataDir, 'ACME-PAID'), undefined);
      // Verified while pending: no reason yet.
      await add('ACME-F', 'verified', 'pending', { event: 'payout', reference: 'ACME-F', status: 'pending', message: 'Queued' });
      assert.equal(await reasonInNotifications(home.dataDir, 'ACME-F'), undefined);
      // Verified failed: its failureReason, else its message.
      await add('ACME-F', 'verified', 'failed', { event: 'payout', reference: 'ACME-F', status: 'failed', message: 'Beneficiary bank not available' });
      assert.deepEqual(await reasonInNotifications(home.dataDir, 'ACME-F'), {
        text: 'Beneficiary bank not available',
        source: 'the payout notification of 2026-05-01T09:00:03.000Z',
      });
      writer.close();
    } finally {
      home.cleanup();
    }
  });
});
