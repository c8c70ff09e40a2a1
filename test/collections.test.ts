// fsapi collections against a served simulator: inflows grouped by client account (individual and
// corporate) checked against an independent grouping of `tx list --all --json`, names from the client
// list, one account's inflows, a new inflow made with the simulator, CSV read back, bad input.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stripAnsi } from './helpers/cli.js';
import { openBooks, readAll, type Books } from './tx-support.js';

let books: Books;
before(async () => {
  books = await openBooks({ seedTransactions: 300 });
});
after(async () => books?.stop());

interface Row {
  reference: string;
  type: string;
  amount: string;
  destinationAccountNumber: string;
  sourceAccountNumber: string;
  createdAt: number;
}
interface Client {
  accountNumber: string;
  accountName: string;
  accountType: string;
}
interface Group {
  accountNumber: string;
  accountName: string;
  count: number;
  total: string;
  first: string;
  last: string;
}

const kobo = (text: string) => Math.round(Number(text) * 100); // test-side only: two-decimal text, small sums
const decimal = (k: number) => `${Math.floor(k / 100)}.${String(k % 100).padStart(2, '0')}`;
const SINCE = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);

async function transactions(): Promise<Row[]> {
  const result = await books.runInProcess(['--json', 'tx', 'list', '--all']);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Row[];
}

describe('collections', () => {
  it('groups every inflow by receiving client account, both kinds, named from the client list', async () => {
    const [rows, clients] = [await transactions(), await readAll<Client>(books, '/v1/account/clients')];
    const result = await books.runInProcess(['--json', 'collections', '--since', SINCE]);
    assert.equal(result.code, 0, result.stderr);
    const groups = JSON.parse(result.stdout) as Group[];

    const want = new Map<string, { count: number; total: number; first: number; last: number }>();
    for (const row of rows.filter((r) => r.type === 'credit')) {
      const group = want.get(row.destinationAccountNumber) ?? { count: 0, total: 0, first: Infinity, last: 0 };
      group.count += 1;
      group.total += kobo(row.amount);
      group.first = Math.min(group.first, row.createdAt);
      group.last = Math.max(group.last, row.createdAt);
      want.set(row.destinationAccountNumber, group);
    }
    assert.equal(groups.length, want.size);
    const names = new Map(clients.map((client) => [client.accountNumber, client]));
    for (const group of groups) {
      const expected = want.get(group.accountNumber)!;
      assert.ok(expected, group.accountNumber);
      assert.deepEqual(group, {
        accountNumber: group.accountNumber,
        accountName: names.get(group.accountNumber)!.accountName,
        count: expected.count,
        total: decimal(expected.total),
        first: new Date(expected.first).toISOString(),
        last: new Date(expected.last).toISOString(),
      });
    }
    const kinds = new Set(groups.map((group) => names.get(group.accountNumber)!.accountType));
    assert.deepEqual([...kinds].sort(), ['corporate', 'individual']);
    const totals = groups.map((group) => kobo(group.total));
    assert.deepEqual(
      totals,
      [...totals].sort((a, b) => b - a),
      'largest total first',
    );
  });

  it("<accountNumber>: that account's inflows only, newest first; a new inflow shows at once", async () => {
    const account = '9900000033'; // Zenkwe Foods Limited, corporate
    const made = await books.server.simulator.collect(account, 1_234_500 as Kobo);
    const rows = (await transactions()).filter((row) => row.type === 'credit' && row.destinationAccountNumber === account);
    assert.equal(rows[0]!.reference, made.reference);
    const result = await books.runInProcess(['--json', 'collections', account, '--since', SINCE]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      (JSON.parse(result.stdout) as Row[]).map((row) => row.reference),
      rows.map((row) => row.reference),
    );

    const csv = await books.runInProcess(['collections', account, '--since', SINCE, '--csv']);
    assert.equal(csv.code, 0, csv.stderr);
    const records = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    const payerAccount = records[0]!.payer_account_number;
    assert.deepEqual(
      records.map((r) => r.reference),
      rows.map((row) => row.reference),
    );
    assert.deepEqual(records[0], {
      ...records[0],
      amount: '12345.00',
      charge: '61.73',
      stamp_duty: '50.00',
      net: '12233.27',
    });
    // The payer's account number kept as text: a spreadsheet keeps its leading zero.
    assert.match(rows[0]!.sourceAccountNumber, /^\d{10}$/);
    assert.equal(payerAccount, `="${rows[0]!.sourceAccountNumber}"`);
  });

  it('--csv summary read back with csv-parse; a terminal gets a table and a total line', async () => {
    const [csv, json] = await Promise.all([
      books.runInProcess(['collections', '--since', SINCE, '--csv']),
      books.runInProcess(['--json', 'collections', '--since', SINCE]),
    ]);
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout.split('\n')[0], 'account_number,account_name,collection_count,total_amount,first_collection_at,last_collection_at');
    const records = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    const groups = JSON.parse(json.stdout) as Group[];
    assert.deepEqual(
      records.map((r) => [r.account_number, r.account_name, Number(r.collection_count), r.total_amount, r.first_collection_at, r.last_collection_at]),
      // The account number kept as text (`="…"`): a spreadsheet keeps its leading zero.
      groups.map((g) => [`="${g.accountNumber}"`, g.accountName, g.count, g.total, g.first, g.last]),
    );

    const screen = await books.runInProcess(['collections', '--since', SINCE], { tty: true });
    assert.equal(screen.code, 0, screen.stdout);
    const text = stripAnsi(screen.stdout);
    assert.match(text, /ACCOUNT.*NAME.*COUNT.*TOTAL/);
    assert.match(text, /Zenkwe Foods Limited/);
    assert.match(text, /\d+ inflows to \d+ accounts, ₦[\d,]+\.\d{2} in all/);
  });

  it('refuses a malformed account number with exit 2, nothing sent', async () => {
    books.clearRequests();
    const result = await books.runInProcess(['collections', '99000000']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /must be 10 digits/);
    assert.deepEqual(books.queries('/v1/transactions'), []);
  });
});
