// A hostile API never gets a transfer reported paid: every observation of a transfer (the POST's answer, a
// lookup by reference, `transfer status`, a batch and its re-run) is checked against what was meant to be
// sent (src/transfers/lookup.ts). Run as the built CLI through a proxy (test/fixtures/hostile-api.ts) in front of
// the served simulator, over real HTTP on 127.0.0.1 (test/helpers/proxied-simulator.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { SimulatorOptions } from '../src/simulator/types.js';
import { checkObservation } from '../src/transfers/lookup.js';
import { cliPath, repoRoot } from './helpers/cli.js';
import { startProxiedSimulator, type ProxiedSimulator } from './helpers/proxied-simulator.js';
import { sendArgs } from './helpers/transfer-setup.js';

type Setup = ProxiedSimulator;

let setup: Setup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

const start = async (options: SimulatorOptions = {}): Promise<Setup> => (setup = await startProxiedSimulator({ simulator: options }));

const log = async (s: Setup) =>
  JSON.parse((await s.run(['transfer', 'log', '--json'])).stdout) as Array<{ reference: string; state: string; accountNumber: string }>;

describe('checkObservation: one check for every observation of a transfer', () => {
  const intent = { reference: 'ACME-ABC', amountKobo: 120000, accountNumber: '0123456781', bankCode: '000013' };
  const record = { reference: 'acme-abc', amount: '1200.00', destinationAccountNumber: '0123456781', destinationBankCode: '000013' };
  it('matches its own record: reference without regard to case, amount in kobo, account, bank', () => {
    assert.deepEqual(checkObservation(intent, record), { matches: true });
    assert.deepEqual(checkObservation(intent, { ...record, amount: 1200 }), { matches: true });
    assert.deepEqual(checkObservation(intent, { ...record, destinationBankCode: undefined }), { matches: true }, 'a record without a bank code');
  });
  it('names what differs and what came back', () => {
    const other = checkObservation(intent, { reference: 'ACME-OTHER', amount: '5000', destinationAccountNumber: '0123456789', destinationBankCode: '000013' });
    assert.equal(other.matches, false);
    assert.match(!other.matches ? other.detail : '', /reference ACME-OTHER, ₦5,000\.00 to account 0123456789 .*the reference, amount, account differ/);
    for (const changed of [
      { amount: '1200.01' },
      { destinationAccountNumber: '0123456780' },
      { destinationBankCode: '000004' },
      { amount: 'lots' },
      { destinationAccountNumber: undefined },
    ]) {
      assert.equal(checkObservation(intent, { ...record, ...changed }).matches, false, JSON.stringify(changed));
    }
  });
});

describe('a proxy that drops the POST and answers every lookup with another transaction', () => {
  it('transfer send: exit 5, the other transaction named, never "went through"; status says the same', async () => {
    const s = await start();
    const other = await s.run(sendArgs('5000', '--reference', 'ACME-OTHER-1'));
    assert.equal(other.code, 0, other.stderr);
    Object.assign(s.proxy.options, { dropTransfers: true, lookupsAnswerWith: 'ACME-OTHER-1' });

    const sent = await s.run(['transfer', 'send', '0123456781', '--bank', 'gtb', '--amount', '1200', '--narration', 'mine', '--yes']);
    assert.equal(sent.code, 5, sent.stderr);
    assert.match(sent.stderr, /named another transaction \(reference ACME-OTHER-1, ₦5,000\.00 to account 0123456789/);
    assert.doesNotMatch(sent.stderr, /went through|successful/);
    assert.equal(sent.stdout, '');
    const mine = (await log(s)).find((t) => t.accountNumber === '0123456781')!;
    assert.equal(mine.state, 'unknown');
    assert.equal(s.posts(), 1, 'the proxy passed on only the honest transfer');
    assert.equal(await s.held(mine.reference), 0, 'the API holds no such transfer');

    const status = await s.run(['transfer', 'status', mine.reference]);
    assert.equal(status.code, 5, status.stderr);
    assert.match(status.stderr, /ACME-OTHER-1/);
    assert.equal(status.stdout, '');
    assert.equal((await log(s)).find((t) => t.reference === mine.reference)!.state, 'unknown', 'the journal learnt nothing false');
  });

  it('transfer batch and its re-run: every row unknown (exit 5), none paid, nothing sent twice', async () => {
    const s = await start();
    const other = await s.run(sendArgs('5000', '--reference', 'ACME-OTHER-2'));
    assert.equal(other.code, 0, other.stderr);
    Object.assign(s.proxy.options, { dropTransfers: true, lookupsAnswerWith: 'ACME-OTHER-2' });
    const file = path.join(s.home.root, 'pay.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n0123456781,gtb,100,one\n0123456782,gtb,200,two\n');

    for (const run of ['first', 'again']) {
      const result = await s.run(['transfer', 'batch', file, '--yes', '--concurrency', '1']);
      assert.equal(result.code, 5, `${run}: ${result.stderr}`);
      const report = parse(readFileSync(`${file}.report.csv`), { columns: true }) as Array<{ status: string; message: string }>;
      assert.deepEqual(
        report.map((r) => r.status),
        ['unknown', 'unknown'],
        run,
      );
      assert.ok(
        report.every((r) => /ACME-OTHER-2/.test(r.message)),
        `${run}: the other transaction is named`,
      );
      assert.doesNotMatch(result.stderr, /successful|pending|paid or on its way|accepted/, run);
    }
    assert.equal(s.posts(), 1, 'no row reached the API, and no row was sent twice by the proxy');
  });
});

describe('a proxy that rewrites the answer to the POST', () => {
  const rewrite = (data: Record<string, unknown>) => ({ ...data, reference: 'ACME-SOMEONE-ELSE', amount: '999999.00', destinationAccountNumber: '9999999999' });

  it("the mismatch is reported and settled by a lookup of fsapi's own reference", async () => {
    const s = await start();
    s.proxy.options.rewriteTransferAnswer = rewrite;
    const sent = await s.run(['transfer', 'send', '0123456781', '--bank', 'gtb', '--amount', '1200', '--narration', 'mine', '--yes', '--json']);
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(
      sent.stderr,
      /the answer to the transfer was not about it: it named another transaction \(reference ACME-SOMEONE-ELSE, ₦999,999\.00 to account 9999999999/,
    );
    const record = JSON.parse(sent.stdout) as { reference: string; destinationAccountNumber: string; amount: unknown };
    assert.equal(record.destinationAccountNumber, '0123456781', 'the looked-up record of our own reference');
    const mine = (await log(s)).find((t) => t.reference === record.reference)!;
    assert.equal(mine.state, 'reconciled');
    assert.equal(s.posts(), 1);
  });

  it('with lookups answered by another transaction too: exit 5, never paid', async () => {
    const s = await start();
    const other = await s.run(sendArgs('5000', '--reference', 'ACME-OTHER-3'));
    assert.equal(other.code, 0, other.stderr);
    Object.assign(s.proxy.options, { rewriteTransferAnswer: rewrite, lookupsAnswerWith: 'ACME-OTHER-3' });
    const sent = await s.run(['transfer', 'send', '0123456781', '--bank', 'gtb', '--amount', '1200', '--narration', 'mine', '--yes']);
    assert.equal(sent.code, 5, sent.stderr);
    assert.match(sent.stderr, /ACME-SOMEONE-ELSE/);
    assert.match(sent.stderr, /do not resend/);
    assert.equal(sent.stdout, '');
  });
});

describe('reconcile while a transfer is on its way', () => {
  it('an intent whose POST is still out is in transit: shown, not missing, exit 0, nothing journalled', async () => {
    // No seeded history: reconcile's default week would list its debits as unknown to the journal.
    const s = await start({ seedTransactions: 0 });
    s.proxy.options.holdTransfers = true;
    const child = spawn(
      process.execPath,
      [cliPath, 'transfer', 'send', '0123456781', '--bank', 'gtb', '--amount', '1200', '--narration', 'on its way', '--yes', '--timeout', '60'],
      {
        cwd: repoRoot,
        env: { ...cleanEnv(), ...s.home.env },
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => child.on('close', resolve));
    try {
      // The intent is written before the POST; the proxy holds the POST.
      const deadline = Date.now() + 30_000;
      while (!(await log(s)).some((t) => t.accountNumber === '0123456781')) {
        assert.ok(Date.now() < deadline, 'the intent was never written');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const result = await s.run(['--json', 'reconcile']);
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as { agrees: boolean; findings: Array<{ kind: string; why: string }> };
      assert.equal(report.agrees, true);
      assert.deepEqual(
        report.findings.map((f) => f.kind),
        ['in-transit'],
      );
      assert.match(report.findings[0]!.why, new RegExp(`being sent by a running fsapi process \\(pid ${child.pid}\\)`));
      const mine = (await log(s)).find((t) => t.accountNumber === '0123456781') as { state: string; outcome?: string };
      assert.equal(mine.state, 'unknown', 'reconcile journalled nothing');
      assert.equal(mine.outcome, 'in flight');
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });
});

/** The environment without the runner's FSAPI_ settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('FSAPI_') && key !== 'FORCE_COLOR') env[key] = value;
  return env;
}
