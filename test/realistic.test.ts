// The main commands against the simulator's realistic mode (answers with nulls, numbers as text and back,
// statuses in other cases, a name enquiry with only accountName), served over real HTTP on 127.0.0.1, each run in process:
// on a terminal, piped and with --json. Then transfers that fail, with and without a reversal, and --wait
// until a final status (exit 1) or until its limit (exit 6).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NULLABLE_TRANSACTION_FIELDS } from '../src/simulator/realistic.js';
import { parseWaitTimeout, statusKind } from '../src/transfers/outcome.js';
import { errorObject, stripAnsi } from './helpers/cli.js';
import { sendArgs, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';

let s: TransferSetup;
let sent: string;

before(async () => {
  s = await setUpTransfers({ realistic: true, settleSeconds: 1 });
  // --wait: the transfer has settled before any listing, so no two listings see it in different states.
  const send = await s.runInProcess(sendArgs('1500', '--wait', '--json'));
  assert.equal(send.code, 0, send.stderr);
  sent = (JSON.parse(send.stdout) as { reference: string }).reference;
});
after(() => s.close());

/** The `data` of an answer as the API sent it, through `fsapi api` (which prints bodies untouched). */
async function rawData(path: string, method = 'GET', data?: string): Promise<unknown> {
  const args = ['api', method, path, ...(data ? ['--data', data] : [])];
  const result = await s.runInProcess(args);
  assert.equal(result.code, 0, result.stderr);
  return (JSON.parse(result.stdout) as { data: unknown }).data;
}

const commands: Array<{ name: string; args: () => string[]; raw?: () => Promise<unknown> }> = [
  { name: 'account', args: () => ['account'] },
  { name: 'banks', args: () => ['banks'], raw: () => rawData('/v1/transfer/banks') },
  { name: 'enquiry', args: () => ['enquiry', '0123456789', '--bank', '000013'] },
  { name: 'tx list', args: () => ['tx', 'list', '--limit', '30'], raw: () => rawData('/v1/transactions?page=1&limit=30') },
  { name: 'tx list --all', args: () => ['tx', 'list', '--all'] },
  { name: 'tx get', args: () => ['tx', 'get', sent], raw: () => rawData(`/v1/transactions/reference/${sent}`) },
  { name: 'transfer status', args: () => ['transfer', 'status', sent], raw: () => rawData(`/v1/transactions/reference/${sent}`) },
  { name: 'transfer log', args: () => ['transfer', 'log'] },
  { name: 'tsq', args: () => ['tsq', sent], raw: () => rawData(`/v1/transfer/tsq?transactionId=${sent}`) },
  { name: 'clients list', args: () => ['clients', 'list', '--all'], raw: () => rawData('/v1/account/clients?page=1&limit=100') },
  { name: 'clients get', args: () => ['clients', 'get', '9900000011'], raw: () => rawData('/v1/client-enquiry/9900000011') },
];

describe('every list and record command against the realistic simulator', () => {
  for (const command of commands) {
    it(`${command.name}: piped, on a terminal and with --json`, { timeout: 120_000 }, async () => {
      const piped = await s.runInProcess(command.args());
      assert.equal(piped.code, 0, piped.stderr);
      assert.doesNotMatch(piped.stderr, /unexpected answer|error:/);
      assert.ok(piped.stdout.split('\n').length >= 2, 'no header and rows');
      assert.doesNotMatch(piped.stdout, /\u001b\[/);

      const tty = await s.runInProcess(command.args(), { tty: true });
      const screen = stripAnsi(tty.stdout);
      assert.equal(tty.code, 0, screen);
      assert.doesNotMatch(screen, /unexpected answer|error:|undefined|\[object Object\]/);

      const json = await s.runInProcess([...command.args(), '--json']);
      assert.equal(json.code, 0, json.stderr);
      const printed = JSON.parse(json.stdout) as unknown;
      // --json prints the API's data exactly as it came, odd shapes included.
      if (command.raw) assert.deepEqual(printed, await command.raw());
    });
  }

  it('a page puts each optional field of a transaction to null in turn, and every row is still shown', { timeout: 60_000 }, async () => {
    const json = await s.runInProcess(['tx', 'list', '--all', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    for (const field of NULLABLE_TRANSACTION_FIELDS)
      assert.ok(
        rows.some((row) => row[field] === null),
        `no row with ${field} null`,
      );
    assert.ok(
      rows.some((row) => typeof row.id === 'string'),
      'no id as text',
    );
    assert.ok(rows.some((row) => typeof row.amount === 'number') && rows.some((row) => typeof row.amount === 'string'), 'amounts not both ways');
    assert.ok(
      rows.some((row) => row.status === 'SUCCESSFUL'),
      'no status in upper case',
    );

    const piped = await s.runInProcess(['tx', 'list', '--all']);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout.trim().split('\n').length, rows.length + 1);
    // A row whose amount came as a number shows the same money as one that came as text.
    for (const row of rows) assert.ok(piped.stdout.includes(String(row.reference)), String(row.reference));

    const filtered = await s.runInProcess(['tx', 'list', '--all', '--status', 'successful', '--json']);
    const successful = JSON.parse(filtered.stdout) as Array<{ status: string }>;
    assert.equal(successful.length, rows.filter((row) => String(row.status).toLowerCase() === 'successful').length);
    assert.ok(
      successful.some((row) => row.status !== 'successful'),
      'the filter ignored case',
    );
  });

  it('the name enquiry answers what integrations read (name, number, bank) and the bankCode of spec 2.8, and a transfer verified by it goes through', async () => {
    const json = await s.runInProcess(['enquiry', '2222222222', '--bank', '000013', '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), {
      accountName: 'ADEYEMI FUNMILAYO YETUNDE',
      bankCode: '000013',
      accountNumber: '2222222222',
      bank: 'Guaranty Trust Bank',
    });
    const send = await s.runInProcess([
      'transfer',
      'send',
      '2222222222',
      '--bank',
      '000013',
      '--amount',
      '700',
      '--narration',
      'x',
      '--expect-name',
      'Adeyemi Funmilayo Yetunde',
      '--yes',
    ]);
    assert.equal(send.code, 0, send.stderr);
  });
});

describe('bank list in realistic mode', () => {
  it('every bank field stays text, as an integration that trims them needs', async () => {
    const banks = (await rawData('/v1/transfer/banks')) as Array<Record<string, unknown>>;
    assert.ok(banks.length > 10);
    for (const bank of banks) {
      for (const field of ['institutionCode', 'institutionName', 'category']) {
        assert.equal(typeof bank[field], 'string', `${String(bank.institutionName)}.${field}`);
        (bank[field] as string).trim();
      }
    }
  });
});

describe('failed and reversed transfers, --wait and its limit', () => {
  async function sendAndWait(account: string, ...extra: string[]) {
    return s.runInProcess(['transfer', 'send', account, '--bank', '000013', '--amount', '1000', '--narration', 'test', '--yes', '--wait', ...extra]);
  }

  it('a transfer that fails: --wait shows failed, finds no reversal, exits 1; the journal and tx list --status know it', async () => {
    const available = async () => String((JSON.parse((await s.runInProcess(['account', '--json'])).stdout) as { availableBalance: unknown }).availableBalance);
    const before = await available();
    const result = await sendAndWait('0123454040', '--json');
    assert.equal(result.code, 1, result.stderr);
    const record = JSON.parse(result.stdout) as { reference: string; status: string };
    assert.equal(record.status.toLowerCase(), 'failed');
    // What fsapi says about the money and what the simulator did with it agree: it is back, with no credit.
    assert.match(
      result.stderr,
      new RegExp(`reversal: no credit R-${record.reference}: a failed transfer's money returns to the available balance without one`),
    );
    assert.equal(await available(), before, 'the money is back in the available balance');
    const error = errorObject(result.stderr);
    assert.equal(error.code, 'transfer_failed');
    assert.match(
      error.message,
      new RegExp(`^transfer ${record.reference} ended as failed(?: \\(the API's status: \\w+\\))?: the API gave no reason; the payee was not paid$`, 'i'),
    );

    const status = await s.runInProcess(['transfer', 'status', record.reference]);
    assert.equal(status.code, 1, status.stderr);
    assert.match(status.stderr, /reversal: no credit R-/);

    const log = JSON.parse((await s.runInProcess(['transfer', 'log', '--json'])).stdout) as Array<{ reference: string; status: string | null }>;
    assert.equal(log.find((t) => t.reference === record.reference)?.status?.toLowerCase(), 'failed');
    const failed = JSON.parse((await s.runInProcess(['tx', 'list', '--all', '--status', 'FAILED', '--json'])).stdout) as Array<{ reference: string }>;
    assert.deepEqual(
      failed.map((t) => t.reference),
      [record.reference],
    );
  });

  it('a transfer that is reversed: --wait shows the reversal credit R-<reference> with amount and time, exits 1', async () => {
    const result = await sendAndWait('0123455050');
    assert.equal(result.code, 1, result.stderr);
    const reference = /Reference\s+(ACME-\S+)/.exec(result.stderr)?.[1];
    assert.ok(reference, result.stderr);
    assert.match(result.stdout, /reversed/i);
    assert.match(result.stderr, new RegExp(`reversal: R-${reference} credited ₦1,010\\.75 on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d`));
    const reversal = await s.runInProcess(['tx', 'get', `R-${reference}`, '--json']);
    assert.equal(reversal.code, 0, reversal.stderr);
    assert.equal((JSON.parse(reversal.stdout) as { type: string }).type, 'credit');
  });

  it('--wait ends at --wait-timeout with exit 6 while still pending', async () => {
    const result = await sendAndWait('0123451111', '--wait-timeout', '2');
    assert.equal(result.code, 6, result.stderr);
    assert.match(result.stderr, /^error: ACME-\S+ is still pending after 2 s$/im);
    assert.match(result.stderr, /^hint: it may still succeed; check again later/m);
    const reference = /error: (ACME-\S+) is still/.exec(result.stderr)![1]!;
    const again = await s.runInProcess(['transfer', 'status', reference, '--wait', '--wait-timeout', '1']);
    assert.equal(again.code, 6, again.stderr);
    const plain = await s.runInProcess(['transfer', 'status', reference]);
    assert.equal(plain.code, 0, plain.stderr);
  });

  it('a bad --wait-timeout is exit 2 and nothing is sent', async () => {
    const before = s.posts();
    for (const value of ['0', '-1', '1.5', 'soon', '86401']) {
      const result = await s.runInProcess([
        'transfer',
        'send',
        '0123456789',
        '--bank',
        '000013',
        '--amount',
        '10',
        '--narration',
        'x',
        '--yes',
        '--wait',
        '--wait-timeout',
        value,
      ]);
      assert.equal(result.code, 2, `${value}: ${result.stderr}`);
      assert.match(result.stderr, /--wait-timeout must be a whole number of seconds/);
    }
    assert.equal(s.posts(), before);
  });

  it('reads statuses without case; pending-like words wait, every other word is final', () => {
    assert.equal(statusKind('SUCCESSFUL'), 'successful');
    assert.equal(statusKind('Pending'), 'pending');
    assert.equal(statusKind('processing'), 'pending');
    assert.equal(statusKind(undefined), 'pending');
    assert.equal(statusKind('FAILED'), 'final');
    assert.equal(statusKind('reversed'), 'final');
    assert.equal(statusKind('declined'), 'final');
    assert.equal(parseWaitTimeout(undefined), 300_000);
    assert.equal(parseWaitTimeout('45'), 45_000);
  });
});
