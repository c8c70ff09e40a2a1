// fsapi tx list --csv: the export a finance person opens in a spreadsheet. Read back with csv-parse, it
// must say exactly what the JSON export says (amounts as exact two-decimal text, ISO times, the right
// counterparty), including a narration with a comma and quotes. 40 seeded rows plus one new transfer:
// 15 a page ends on a short page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { openBooks, pageOf, readAll, type Books } from './tx-support.js';
import type { TransactionRecordAsSpecified as TransactionRecord } from '../src/api/schemas.js';
import { BANKS, BUSINESS } from '../src/simulator/data.js';

process.env.TZ = 'Africa/Lagos';

const HEADER = [
  'date',
  'reference',
  'type',
  'amount',
  'charge',
  'counterparty_name',
  'counterparty_account_number',
  'counterparty_bank_name',
  'status',
  'description',
];
const NARRATION = 'Invoice 42, "final" part';
let books: Books;
let all: TransactionRecord[];

before(async () => {
  // The new transfer stays pending for the whole file: `all` is read once, and a busy machine may take
  // longer than the default 5 s settling time to run the commands below.
  books = await openBooks({ seedTransactions: 40, settleSeconds: 3600 });
  const bank = BANKS.find((candidate) => candidate.institutionCode !== BUSINESS.bankCode)!;
  const sent = await books.post('/v1/transfer', {
    beneficiaryBankCode: bank.institutionCode,
    beneficiaryAccountNumber: '0123456789',
    narration: NARRATION,
    amount: 1234.5,
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  all = await readAll<TransactionRecord>(books, '/v1/transactions');
  assert.equal(all.length, 41);
});
after(async () => books?.stop());

/** An account number as a spreadsheet keeps it as text: `="0123456789"` (written here, not by src/). */
const asText = (digits: string) => `="${digits}"`;

/** What a CSV row must hold for a transaction, worked out here from the JSON independently of src/. */
function expectedRow(tx: TransactionRecord): Record<string, string> {
  const twoDecimals = (value: number | string) => (typeof value === 'string' ? value : value.toFixed(2));
  const debit = tx.type === 'debit';
  return {
    date: new Date(tx.createdAt).toISOString(),
    reference: tx.reference,
    type: tx.type,
    amount: twoDecimals(tx.amount),
    charge: twoDecimals(tx.charge),
    counterparty_name: debit ? tx.destinationAccountName : tx.sourceAccountName,
    counterparty_account_number: asText(debit ? tx.destinationAccountNumber : tx.sourceAccountNumber),
    counterparty_bank_name: debit ? tx.destinationBankName : tx.sourceBankName,
    status: tx.status,
    description: tx.description,
  };
}

async function exportBoth(args: string[]) {
  books.clearRequests();
  const csv = await books.runInProcess(['tx', 'list', '--all', '--csv', ...args]);
  assert.equal(csv.code, 0, csv.stderr);
  const pages = books.queries('/v1/transactions').map(pageOf);
  const json = await books.runInProcess(['--json', 'tx', 'list', '--all', ...args]);
  assert.equal(json.code, 0, json.stderr);
  return {
    csvText: csv.stdout,
    records: parse(csv.stdout, { columns: true }) as Record<string, string>[],
    json: JSON.parse(json.stdout) as TransactionRecord[],
    pages,
  };
}

describe('tx list --csv', () => {
  it('read back with csv-parse, equals the JSON export row for row (ending on a short page)', async () => {
    const { csvText, records, json, pages } = await exportBoth(['--limit', '15']);
    assert.deepEqual(csvText.split('\n')[0]!.split(','), HEADER);
    assert.deepEqual(json, all);
    assert.deepEqual(records, json.map(expectedRow));
    assert.deepEqual(pages, ['1/15', '2/15', '3/15']);
    for (const record of records) assert.match(record.amount!, /^\d+\.\d{2}$/);
  });

  it('keeps a narration with a comma and quotes intact', async () => {
    const { records } = await exportBoth([]);
    const mine = records.find((record) => record.description === NARRATION);
    assert.ok(mine, 'the new transfer is in the export with its narration intact');
    assert.equal(mine.amount, '1234.50');
    // Kept as text: a spreadsheet keeps the leading zero.
    assert.equal(mine.counterparty_account_number, '="0123456789"');
  });

  it('exports one month, as a finance person would, and only that month', async () => {
    const month = new Date(all[20]!.createdAt).toLocaleDateString('en-CA', { timeZone: 'Africa/Lagos' }).slice(0, 7);
    const [year, monthNumber] = month.split('-').map(Number) as [number, number];
    const lastDay = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
    const { records } = await exportBoth(['--since', `${month}-01`, '--until', `${month}-${lastDay}`]);
    const inMonth = all.filter((tx) => new Date(tx.createdAt).toLocaleDateString('en-CA', { timeZone: 'Africa/Lagos' }).startsWith(month));
    assert.ok(inMonth.length > 0);
    assert.deepEqual(records, inMonth.map(expectedRow));
  });

  it('one page without --all, and a header alone when nothing matches', async () => {
    const page = await books.runInProcess(['tx', 'list', '--csv', '--limit', '3']);
    assert.equal(page.code, 0, page.stderr);
    assert.deepEqual(parse(page.stdout, { columns: true }), all.slice(0, 3).map(expectedRow));
    const none = await books.runInProcess(['tx', 'list', '--all', '--csv', '--status', 'reversed']);
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, `${HEADER.join(',')}\n`);
  });
});
