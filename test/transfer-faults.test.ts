// When the answer to POST /v1/transfer is lost: never a second POST, the truth found by reference lookup,
// or exit 5 when nothing can be found. Also a process killed between its intent record and the answer.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { afterEach, describe, it } from 'node:test';
import { Journal } from '../src/transfers/journal.js';
import type { FaultMode } from '../src/simulator/types.js';
import { cliPath, repoRoot } from './helpers/cli.js';
import { journalLog, setUpTransfers, until, type TransferSetup } from './helpers/transfer-setup.js';

let setup: TransferSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

const sendArgs = (account: string, ...extra: string[]) => [
  'transfer',
  'send',
  account,
  '--bank',
  '000013',
  '--amount',
  '2500',
  '--narration',
  'fault test',
  '--yes',
  ...extra,
];

describe('transfer send: faults after the transfer was committed', () => {
  const cases: Array<[FaultMode, string[], RegExp]> = [
    ['drop', [], /no answer to the transfer \(the connection to .* dropped/],
    ['bad-gateway', [], /no answer to the transfer \(unreadable answer .*HTTP 502/],
    ['stall', ['--timeout', '1'], /no answer to the transfer \(no answer from .* within 1 s\)/],
  ];
  for (const [fault, globals, failure] of cases) {
    it(`${fault}: exactly one POST, the lookup finds it, exit 0 with a note`, async () => {
      setup = await setUpTransfers({ fault });
      const result = await setup.run([...globals, ...sendArgs('0123456780', '--json')]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(setup.posts(), 1, 'exactly one POST /v1/transfer');
      assert.ok(setup.count('GET', '/v1/transactions/reference/' + (JSON.parse(result.stdout) as { reference: string }).reference) >= 1, 'looked up');
      assert.match(result.stderr, failure);
      assert.match(result.stderr, /went through/);
      assert.match(result.stderr, /not sent again/);
      const data = JSON.parse(result.stdout) as { reference: string; status: string; amount: unknown };
      assert.match(data.reference, /^ACME-/);
      assert.match(data.status, /^(pending|successful)$/, 'settles after 1 s, which a 1 s stall may reach');
      assert.equal(data.amount, '2500.00', 'the looked-up transaction record');
      const lines = setup.journalLines().map((line) => (JSON.parse(line) as { type: string }).type);
      assert.deepEqual(lines, ['intent', 'unknown', 'reconciled']);
      const [entry] = await journalLog(setup);
      assert.equal(entry?.state, 'reconciled');
    });
  }

  it('html (nothing readable, nothing committed): exit 5 with the reference and no second POST', { timeout: 60_000 }, async () => {
    setup = await setUpTransfers();
    const current = setup;
    // Everything works up to the confirmation; then every answer becomes an HTML error page. The
    // confirmation on a terminal holds the CLI until the fault is in place: it is set as the question
    // shows, and only then is it answered.
    const faultThenYes = () => {
      current.server.simulator.setFault('html');
      return 'y\r';
    };
    const result = await current.run(
      sendArgs('0123456780').filter((arg) => arg !== '--yes'),
      {
        tty: true,
        keys: [[/Send ₦[\d,.]+ to .+\?/, faultThenYes]],
        env: { FSAPI_RECONCILE_SCHEDULE_MS: '0,200,400' },
        timeoutMs: 45_000,
      },
    );
    assert.equal(current.count('POST', '/v1/transfer/name-enquiry'), 1, 'the name enquiry answered before the fault');
    assert.equal(result.code, 5, result.stdout);
    assert.equal(current.posts(), 1, 'exactly one POST /v1/transfer');
    const reference = /outcome unknown for (ACME-[0-9A-Z]+)/.exec(result.stdout)?.[1];
    assert.ok(reference, result.stdout);
    assert.match(result.stdout, new RegExp(`hint: do not resend; run fsapi transfer status ${reference}`));
    assert.ok(current.count('GET', `/v1/transactions/reference/${reference}`) >= 3, 'looked up on the schedule');
    current.server.simulator.setFault(undefined);
    const [entry] = await journalLog(current);
    assert.equal(entry?.state, 'unknown');
    assert.match(String(entry?.message), /found nothing/);
  });
});

describe('a process killed after its intent record', () => {
  it('transfer log shows it as unknown; transfer status settles it', { timeout: 60_000 }, async () => {
    setup = await setUpTransfers({ fault: 'stall' });
    const current = setup;
    const child = spawn(process.execPath, [cliPath, '--timeout', '60', ...sendArgs('0123456780')], {
      cwd: repoRoot,
      env: { ...process.env, ...current.env, FSAPI_PROFILE: 'sim' },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      await until(() => current.journalLines().length === 1 && current.posts() === 1, 'the intent record and the POST');
    } finally {
      child.kill('SIGKILL');
    }
    assert.equal(await exited, 'SIGKILL');
    current.server.simulator.setFault(undefined);

    const [before] = await journalLog(current);
    assert.equal(before?.state, 'unknown');
    assert.equal(before?.message, 'no answer recorded');
    const reference = String(before?.reference);

    const status = await current.run(['transfer', 'status', reference]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stderr, /went through/);
    assert.match(status.stdout, new RegExp(`^(pending|successful)\\t${reference}\\t`, 'm'), 'the outcome first, then the reference');
    const [after] = await journalLog(current);
    assert.equal(after?.state, 'reconciled');
    assert.equal(current.posts(), 1, 'settled without sending again');
  });

  it('an intent whose POST never left: status says not found, and the log keeps it unknown', async () => {
    setup = await setUpTransfers();
    const journal = Journal.inDataDir(setup.home.dataDir);
    await journal.append({
      type: 'intent',
      reference: 'ACME-NEVERSENT01',
      profile: 'sim',
      baseUrl: setup.server.url,
      time: new Date().toISOString(),
      env: 'sandbox',
      request: { beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456780', narration: 'x', amount: 25, reference: 'ACME-NEVERSENT01' },
      amountKobo: 2500,
      bankName: 'Guaranty Trust Bank',
      accountName: 'SOMEONE',
    });
    const status = await setup.run(['transfer', 'status', 'ACME-NEVERSENT01']);
    assert.equal(status.code, 1);
    assert.match(status.stderr, /no transaction with reference ACME-NEVERSENT01/);
    assert.match(status.stderr, /do not resend while it may still arrive/);
    const [entry] = await journalLog(setup);
    assert.equal(entry?.state, 'unknown');
    assert.match(String(entry?.message), /not found by reference lookup/);
  });
});
