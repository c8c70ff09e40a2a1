// transfer send / status / log against the simulator over real HTTP. Most runs are in this process
// (test/helpers/in-process.ts); the built CLI runs the happy path (the end-to-end check, also on Node 24),
// a send beside another process's unfinished one, and a --wait that waits on the real clock.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { errorObject, stripAnsi } from './helpers/cli.js';
import { journalLog, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { Journal } from '../src/transfers/journal.js';
import { holdRunLock, runId } from '../src/store/process-lock.js';

const ACCOUNT = '0123456789';
const send = (...extra: string[]) => ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '1,500.50', '--narration', 'Invoice 42', ...extra];

let setup: TransferSetup;
/**
 * Another fsapi home logged in as this one (its profiles copied), with `dataDir` as its data dir: a
 * profile knows its store, so another data dir needs a config dir of its own (docs/store.md).
 */
function otherHome(s: TransferSetup, dataDir: string): Record<string, string> {
  const configDir = `${dataDir}-config`;
  cpSync(s.home.configDir, configDir, { recursive: true });
  const file = path.join(configDir, 'profiles.json');
  const { stores: _stores, ...profiles } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify(profiles), { mode: 0o600 });
  return { FSAPI_CONFIG_DIR: configDir, FSAPI_DATA_DIR: dataDir };
}

beforeEach(async () => {
  setup = await setUpTransfers();
});
afterEach(async () => {
  await setup.close();
});

describe("transfer send: the balance and the API's refusals", () => {
  it('an amount above the available balance is refused before anything is sent (exit 1); the summary shows the balance', async () => {
    const result = await setup.runInProcess(['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '90,000,000', '--narration', 'too much', '--yes']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /Available\s+₦[\d,.]+ +\(less than the amount\)/);
    assert.match(result.stderr, /^error: ₦90,000,000\.00 is more than the available balance of ₦[\d,.]+; nothing was sent$/m);
    assert.equal(setup.posts(), 0);
    assert.deepEqual(setup.journalLines(), []);
  });

  it('a refusal by the API names the likely causes', async () => {
    // The whole balance: it fits, but its charge does not, so the API refuses it.
    const account = await setup.runInProcess(['account', '--json']);
    const available = String((JSON.parse(account.stdout) as { availableBalance: unknown }).availableBalance);
    const result = await setup.runInProcess(['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', available, '--narration', 'all of it', '--yes']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^error: the API refused transfer ACME-\w+ \(HTTP 400\)/m);
    assert.match(result.stderr, /^hint: no money moved; .*available balance .*limit .*destination account/m);
    assert.equal(setup.posts(), 1);
  });
});

describe('transfer send: the happy path', () => {
  it('--yes --json sends once and prints the API data with reference and status', async () => {
    const result = await setup.run(send('--yes', '--json'));
    assert.equal(result.code, 0, result.stderr);
    const data = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.match(String(data.reference), /^ACME-[0-9A-HJKMNP-TV-Z]{12}$/);
    assert.equal(data.status, 'pending');
    assert.equal(data.amount, 1500.5);
    assert.equal(data.destinationAccountNumber, ACCOUNT);
    assert.equal(setup.posts(), 1);
    // The summary went to stderr, with the verified name and the same reference.
    assert.match(result.stderr, /OKAFOR CHIAMAKA ADAEZE/);
    assert.match(result.stderr, new RegExp(String(data.reference)));
    assert.match(result.stderr, /₦1,500\.50/);
    // The journal: intent then accepted, fsync-ed, nothing secret.
    const lines = setup.journalLines();
    assert.deepEqual(
      lines.map((line) => (JSON.parse(line) as { type: string }).type),
      ['intent', 'accepted'],
    );
    assert.doesNotMatch(lines.join('\n'), /token|secret|Bearer/i);
    const [entry] = await journalLog(setup);
    assert.equal(entry?.reference, data.reference);
    assert.equal(entry?.state, 'accepted');
    assert.equal(entry?.status, 'pending');
    assert.equal(entry?.profile, 'sim');
    assert.equal(entry?.amount, '1500.50');
  });

  it('piped output is one TSV header and one line; --reference with the prefix in another case is sent upper-cased, and says so', async () => {
    const result = await setup.runInProcess(send('--yes', '--reference', 'acme-inv-42', '--sender-name', 'Acme Payroll'));
    assert.equal(result.code, 0, result.stderr);
    const [header, row, ...rest] = result.stdout.trimEnd().split('\n');
    assert.deepEqual(rest, []);
    assert.match(header!, /^Outcome\tReference\tStatus\tAmount/);
    assert.match(row!, /^pending\tACME-INV-42\tpending\t1500\.50\t/);
    assert.match(result.stderr, /^note: --reference acme-inv-42 is sent as ACME-INV-42: the API expects the prefix ACME- in capitals$/m);
    const status = await setup.runInProcess(['transfer', 'status', 'ACME-INV-42', '--json']);
    assert.equal(status.code, 0, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { reference: string }).reference, 'ACME-INV-42', 'the API holds it upper-cased');
    assert.equal(setup.posts(), 1);
  });

  it('--expect-name matching apart from case, spacing and punctuation sends', async () => {
    const result = await setup.runInProcess(send('--yes', '--expect-name', '  okafor, chiamaka-adaeze '));
    assert.equal(result.code, 0, result.stderr);
    assert.equal(setup.posts(), 1);
  });

  it('--wait polls until successful and prints the final transaction record', async () => {
    const result = await setup.runInProcess(send('--yes', '--wait', '--json'));
    assert.equal(result.code, 0, result.stderr);
    const data = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(data.status, 'successful');
    assert.equal(data.amount, '1500.50', 'the transaction record (amount as a two-decimal string)');
    assert.equal(setup.posts(), 1);
    const [entry] = await journalLog(setup);
    assert.equal(entry?.status, 'successful');
  });
});

describe('transfer send: refusals before anything is sent', () => {
  it('--expect-name that does not match: exit 1, both names shown, no POST', async () => {
    const result = await setup.runInProcess(send('--yes', '--expect-name', 'Chiamaka Okafor'));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /OKAFOR CHIAMAKA ADAEZE/);
    assert.match(result.stderr, /Chiamaka Okafor/);
    assert.match(result.stderr, /nothing was sent/);
    assert.equal(setup.posts(), 0);
    assert.deepEqual(setup.journalLines(), []);
  });

  it('no terminal and no --yes: exit 2, nothing asked of the API', async () => {
    const result = await setup.runInProcess(send());
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--yes/);
    assert.equal(setup.server.simulator.requests().length, 0);
  });

  const badInputs: Array<[string, string[]]> = [
    ['amount 1e3', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '1e3', '--narration', 'x']],
    ['amount -5', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount=-5', '--narration', 'x']],
    ['amount 0', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '0', '--narration', 'x']],
    ['amount 1.005', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '1.005', '--narration', 'x']],
    ['amount NaN', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', 'NaN', '--narration', 'x']],
    ['amount empty', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '', '--narration', 'x']],
    ['amount in Arabic-Indic digits', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '١٢٣', '--narration', 'x']],
    ['amount with 14 integer digits', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '12345678901234', '--narration', 'x']],
    ['9-digit account', ['transfer', 'send', '012345678', '--bank', 'gtb', '--amount', '100', '--narration', 'x']],
    ['empty narration', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '100', '--narration', '   ']],
    ['narration over 100 characters', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '100', '--narration', 'x'.repeat(101)]],
    ['reference with spaces', ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '100', '--narration', 'x', '--reference', 'ACME- 1']],
    [
      'reference without the business prefix',
      ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '100', '--narration', 'x', '--reference', 'ACMEX-123'],
    ],
    ['unknown bank name', ['transfer', 'send', ACCOUNT, '--bank', 'no such bank', '--amount', '100', '--narration', 'x']],
    ['unknown bank code', ['transfer', 'send', ACCOUNT, '--bank', '999999', '--amount', '100', '--narration', 'x']],
  ];
  for (const [what, args] of badInputs) {
    it(`${what}: exit 2, no name enquiry, no POST`, async () => {
      const result = await setup.runInProcess([...args, '--yes']);
      assert.equal(result.code, 2, `${what}: ${result.stderr}`);
      assert.match(result.stderr, /^error: /m);
      assert.equal(setup.count('POST', '/v1/transfer/name-enquiry'), 0, 'no name enquiry');
      assert.equal(setup.posts(), 0, 'no transfer');
      assert.deepEqual(setup.journalLines(), []);
    });
  }
});

describe('transfer send: the API refuses', () => {
  it('a 400 on the POST is a refusal: exit 1 with the API message, journalled as rejected, not retried', async () => {
    // The simulator refuses a reference it has already seen. Use one from another fsapi home (so this
    // journal does not know it) to get a real HTTP 400 on the POST.
    const other = await setup.runInProcess(send('--yes', '--reference', 'ACME-SHARED-1'), { env: otherHome(setup, `${setup.home.root}/other-data`) });
    assert.equal(other.code, 0, other.stderr);
    setup.server.simulator.clearRequests();

    const result = await setup.runInProcess([
      'transfer',
      'send',
      ACCOUNT,
      '--bank',
      'gtb',
      '--amount',
      '99',
      '--narration',
      'again',
      '--reference',
      'ACME-SHARED-1',
      '--yes',
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /refused transfer ACME-SHARED-1 \(HTTP 400\): Request Un-?Successful/);
    assert.equal(setup.posts(), 1);
    const [entry] = await journalLog(setup);
    assert.equal(entry?.state, 'rejected');
    assert.equal(entry?.httpStatus, 400);
  });

  it('a reference already in the journal is refused locally: exit 2, no POST', async () => {
    assert.equal((await setup.runInProcess(send('--yes', '--reference', 'ACME-ONCE'))).code, 0);
    setup.server.simulator.clearRequests();
    const again = await setup.runInProcess([
      'transfer',
      'send',
      ACCOUNT,
      '--bank',
      'gtb',
      '--amount',
      '7',
      '--narration',
      'x',
      '--reference',
      'ACME-ONCE',
      '--yes',
    ]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already used/);
    assert.equal(setup.posts(), 0);
  });
});

describe('transfer send: the duplicate guard', () => {
  it('an earlier transfer whose writer still runs is "in flight" in the warning, as transfer log says', async () => {
    assert.equal((await setup.run(['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '9', '--narration', 'scope', '--yes'])).code, 0);
    const { profile, baseUrl } = JSON.parse(setup.journalLines()[0]!) as { profile: string; baseUrl: string };
    // This test process is the running writer of an intent with no answer yet.
    await holdRunLock(setup.home.dataDir, { requestTimeoutMs: 30_000, lookupsMs: 30_000 });
    await new Journal(setup.home.dataDir).append({
      type: 'intent',
      reference: 'ACME-STILLRUNNING',
      profile,
      baseUrl,
      time: new Date().toISOString(),
      env: 'sandbox',
      pid: process.pid,
      run: runId(),
      request: { beneficiaryBankCode: '000013', beneficiaryAccountNumber: ACCOUNT, narration: 'Invoice 42', amount: 1500.5, reference: 'ACME-STILLRUNNING' },
      amountKobo: 150_050,
      bankName: 'Guaranty Trust Bank',
      accountName: 'OKAFOR CHIAMAKA ADAEZE',
    });
    const log = await journalLog(setup);
    assert.equal(log.find((t) => t.reference === 'ACME-STILLRUNNING')!.outcome, 'in flight');
    const second = await setup.run(send('--yes'));
    assert.equal(second.code, 2, second.stderr);
    assert.match(
      second.stderr,
      /^warning: ₦1,500\.50 to 0123456789 at Guaranty Trust Bank was already sent less than a minute ago \(ACME-STILLRUNNING, in flight\)$/m,
    );
    assert.doesNotMatch(second.stderr, /unknown/);
    assert.equal(setup.posts(), 1);
  });

  it('the same amount to the same account within 10 minutes: exit 2 without --allow-duplicate, sent with it', async () => {
    assert.equal((await setup.runInProcess(send('--yes'))).code, 0);
    const second = await setup.runInProcess(send('--yes'));
    assert.equal(second.code, 2);
    assert.match(second.stderr, /already sent/);
    assert.match(second.stderr, /--allow-duplicate/);
    assert.equal(setup.posts(), 1);

    // Another amount is not a duplicate.
    const other = await setup.runInProcess(['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '1500.51', '--narration', 'x', '--yes']);
    assert.equal(other.code, 0, other.stderr);
    assert.equal(setup.posts(), 2);

    const third = await setup.runInProcess(send('--yes', '--allow-duplicate'));
    assert.equal(third.code, 0, third.stderr);
    assert.equal(setup.posts(), 3);
  });
});

describe('transfer status and log', () => {
  it('status of a sent transfer prints the transaction and records the check in the journal', async () => {
    // The transfer must still be pending at the first lookup, however slow the machine: the simulator's
    // clock is held until that lookup has reached it, then runs on.
    await setup.close();
    let heldAt: number | undefined = Date.now();
    setup = await setUpTransfers({ now: () => heldAt ?? Date.now() });
    const sent = JSON.parse((await setup.runInProcess(send('--yes', '--json'))).stdout) as { reference: string };
    const lookups = () => setup.count('GET', `/v1/transactions/reference/${sent.reference}`);
    const before = lookups();
    const running = setup.run(['transfer', 'status', sent.reference, '--wait', '--json']);
    for (let tries = 0; tries < 1200 && lookups() === before; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    heldAt = undefined;
    const status = await running;
    assert.equal(status.code, 0, status.stderr);
    const data = JSON.parse(status.stdout) as Record<string, unknown>;
    assert.equal(data.reference, sent.reference);
    assert.equal(data.status, 'successful');
    const lines = setup.journalLines().map((line) => JSON.parse(line) as { type: string; status?: string });
    // Only what is new is recorded: a lookup that finds `pending` again (as the answer said) writes
    // nothing; the end of the wait, `successful`, is one record.
    assert.deepEqual(
      lines.map((l) => l.type),
      ['intent', 'accepted', 'status-checked'],
    );
    assert.equal(lines.at(-1)?.status, 'successful');

    const table = await setup.runInProcess(['transfer', 'status', sent.reference]);
    assert.match(table.stdout, /^Outcome\tReference\tStatus\tType\tAmount\tCharge\tTo name/);
    assert.equal(setup.journalLines().length, 3, 'a second look that learns nothing writes nothing');
    assert.match(table.stdout, /successful\tdebit\t1500\.50\t/);

    const tty = await setup.runInProcess(['transfer', 'status', sent.reference], { tty: true });
    assert.equal(tty.code, 0);
    assert.match(stripAnsi(tty.stdout), /Status\s+successful/);
    assert.match(stripAnsi(tty.stdout), /Amount\s+₦1,500\.50/);
  });

  it('status of a reference nobody sent: exit 1 with the reference', async () => {
    const result = await setup.runInProcess(['transfer', 'status', 'ACME-NOSUCHTHING']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /ACME-NOSUCHTHING/);
    assert.equal(result.stdout, '');
  });

  it('log: TSV with a PROFILE column, a table on a terminal, and an empty journal', async () => {
    const empty = await setup.runInProcess(['transfer', 'log']);
    assert.equal(empty.code, 0);
    assert.equal(empty.stdout, 'TIME\tPROFILE\tREFERENCE\tACCOUNT\tNAME\tBANK\tAMOUNT\tOUTCOME\tSTATUS\tMESSAGE\tVIA\n');
    await setup.runInProcess(send('--yes'));
    const tsv = await setup.runInProcess(['transfer', 'log']);
    const [, row] = tsv.stdout.trimEnd().split('\n');
    assert.match(row!, /\tsim\tACME-\w+\t0123456789\tOKAFOR CHIAMAKA ADAEZE\tGuaranty Trust Bank\t1500\.50\tpending\tpending\t/);
    const tty = await setup.runInProcess(['transfer', 'log'], { tty: true });
    assert.equal(tty.code, 0);
    assert.match(tty.stdout, /₦1,500\.50/);
    assert.match(tty.stdout, /PROFILE/);
  });

  it('log: the profile in use only; --all-profiles shows every profile with a PROFILE column kept at 80 columns', async () => {
    assert.equal((await setup.runInProcess(send('--yes'))).code, 0);
    const { baseUrl } = JSON.parse(setup.journalLines()[0]!) as { baseUrl: string };
    const journal = new Journal(setup.home.dataDir);
    const other = (reference: string, profile: string, address: string, env: string) =>
      journal.append({
        type: 'intent',
        reference,
        profile,
        baseUrl: address,
        time: new Date().toISOString(),
        env,
        request: { beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456780', narration: 'x', amount: 2500, reference },
        amountKobo: 250_000,
        bankName: 'Guaranty Trust Bank',
        accountName: 'ADEYEMI FUNMILAYO YETUNDE',
        pid: 999_999_999,
      });
    await other('ACME-REALMONEY01', 'live', 'https://api.example.ng', 'production');
    await other('ACME-OTHERADDR01', 'sim', 'http://127.0.0.1:9', 'sandbox'); // this profile at another address

    const mine = JSON.parse((await setup.runInProcess(['transfer', 'log', '--json'])).stdout) as Array<{ profile: string; baseUrl: string }>;
    assert.deepEqual(
      mine.map((t) => [t.profile, t.baseUrl]),
      [['sim', baseUrl]],
    );
    const tsv = await setup.runInProcess(['transfer', 'log']);
    assert.equal(tsv.stdout.trimEnd().split('\n').length, 2, tsv.stdout);
    assert.match(tsv.stderr, /^2 other transfers \(other profiles or addresses\) not shown: --all-profiles$/m);

    const all = JSON.parse((await setup.runInProcess(['transfer', 'log', '--all-profiles', '--json'])).stdout) as Array<{ profile: string; reference: string }>;
    assert.deepEqual(all.map((t) => t.profile).sort(), ['live', 'sim', 'sim']);
    const allTsv = await setup.runInProcess(['transfer', 'log', '--all-profiles']);
    const [header, ...rows] = allTsv.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    assert.equal(header![1], 'PROFILE');
    assert.deepEqual(
      rows
        .map((cells) => [cells[1], cells[2]])
        .filter(([, ref]) => ref!.endsWith('01'))
        .sort(),
      [
        ['live', 'ACME-REALMONEY01'],
        ['sim', 'ACME-OTHERADDR01'],
      ],
    );
    assert.doesNotMatch(allTsv.stderr, /not shown/);

    // At 80 columns some columns drop; PROFILE is never one of them when several profiles are shown.
    const narrow = await setup.runInProcess(['transfer', 'log', '--all-profiles'], { tty: true, columns: 80 });
    assert.equal(narrow.code, 0, narrow.stdout);
    const lines = stripAnsi(narrow.stdout).replace(/\r/g, '').split('\n');
    assert.match(lines.find((line) => /REFERENCE/.test(line))!, /^TIME \(WAT\) +PROFILE +REFERENCE/);
    assert.match(lines.find((line) => line.includes('ACME-REALMONEY01'))!, / live +ACME-REALMONEY01 /);
    assert.ok(
      lines.every((line) => [...line].length <= 80),
      stripAnsi(narrow.stdout),
    );
    assert.match(narrow.stdout, /not shown at this width/);
    assert.doesNotMatch(narrow.stdout.match(/not shown at this width:[^\n]*/)![0], /PROFILE/);
  });

  it('log: a data dir from before the store is carried over once: journal.jsonl imported, a torn last line skipped with a warning, the file kept', async () => {
    await setup.runInProcess(send('--yes'));
    const exported = await setup.runInProcess(['transfer', 'log', '--jsonl']);
    assert.equal(exported.code, 0, exported.stderr);
    const dataDir = mkdtempSync(path.join(setup.home.dataDir, 'old-'));
    const file = path.join(dataDir, 'journal.jsonl');
    // The audit export is journal.jsonl's own format: an older fsapi's file is the same text.
    writeFileSync(file, `${exported.stdout}{"type":"accepted","refer`);
    const torn = await setup.runInProcess(['transfer', 'log', '--json'], { env: otherHome(setup, dataDir) });
    assert.equal(torn.code, 0, torn.stderr);
    assert.equal((JSON.parse(torn.stdout) as unknown[]).length, 1);
    assert.match(torn.stderr, /warning: skipped the incomplete last line 3 of .*journal\.jsonl/);
    assert.match(torn.stderr, /^note: carrying 2 records of .*journal\.jsonl over into .*fsapi\.db \(once; the file is kept\)$/m);
    const again = await setup.runInProcess(['transfer', 'log', '--jsonl'], { env: otherHome(setup, dataDir) });
    assert.equal(again.stdout, exported.stdout, 'every record carried over as it was');
    assert.equal(again.stderr, '', 'imported once: no second warning');
    assert.equal(readFileSync(file, 'utf8'), `${exported.stdout}{"type":"accepted","refer`);

    const broken = mkdtempSync(path.join(setup.home.dataDir, 'old-'));
    writeFileSync(path.join(broken, 'journal.jsonl'), `not json at all\n${exported.stdout}`);
    const refused = await setup.runInProcess(['transfer', 'log'], { env: otherHome(setup, broken) });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^error: cannot read .*journal\.jsonl: line 1 is not a journal record/m);
    assert.equal(refused.stdout, '');
  });

  it('log --limit shows the last n transfers, oldest first; --jsonl refuses the other formats', async () => {
    for (const amount of ['10', '20', '30'])
      assert.equal((await setup.runInProcess(['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', amount, '--narration', 'limit', '--yes'])).code, 0);
    const all = JSON.parse((await setup.runInProcess(['transfer', 'log', '--json'])).stdout) as Array<{ reference: string }>;
    assert.equal(all.length, 3);
    const last = await setup.runInProcess(['transfer', 'log', '--json', '--limit', '2']);
    assert.equal(last.code, 0, last.stderr);
    assert.deepEqual(
      (JSON.parse(last.stdout) as Array<{ reference: string }>).map((t) => t.reference),
      all.slice(-2).map((t) => t.reference),
    );
    const mixed = await setup.runInProcess(['transfer', 'log', '--jsonl', '--json']);
    assert.equal(mixed.code, 2);
    assert.match(errorObject(mixed.stderr).message, /^--jsonl/);
    const zero = await setup.runInProcess(['transfer', 'log', '--limit', '0']);
    assert.equal(zero.code, 2);
  });
});
