// fsapi tx get <reference>: one transaction by reference, on a terminal (label/value), piped (TSV), as
// JSON (the API's record exactly), an unknown reference (exit 1, the API's message) and bad input (exit 2,
// nothing sent).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stripAnsi } from './helpers/cli.js';
import { assertRefusedLocally, openBooks, readAll, type Books } from './tx-support.js';
import type { TransactionRecordAsSpecified as TransactionRecord } from '../src/api/schemas.js';
import { formatNaira, parseApiAmount } from '../src/money/kobo.js';

let books: Books;
let debit: TransactionRecord;
let credit: TransactionRecord;

before(async () => {
  books = await openBooks({ seedTransactions: 30 });
  const all = await readAll<TransactionRecord>(books, '/v1/transactions');
  debit = all.find((tx) => tx.type === 'debit')!;
  credit = all.find((tx) => tx.type === 'credit')!;
  assert.ok(debit && credit);
});
after(async () => books?.stop());

describe('tx get', () => {
  it('shows one transaction as labels and values on a terminal', async () => {
    books.clearRequests();
    const result = await books.runInProcess(['tx', 'get', debit.reference], { tty: true });
    assert.equal(result.code, 0, result.stdout);
    const lines = stripAnsi(result.stdout).split('\n');
    const valueOf = (label: string) =>
      lines
        .find((line) => line.startsWith(`${label} `))
        ?.slice(label.length)
        .trim();
    assert.equal(valueOf('Reference'), debit.reference);
    assert.equal(valueOf('Status'), debit.status);
    assert.equal(valueOf('Type'), 'debit');
    assert.equal(valueOf('Amount'), formatNaira(parseApiAmount(debit.amount)));
    assert.equal(valueOf('Charge'), formatNaira(parseApiAmount(debit.charge)));
    assert.equal(valueOf('To'), `${debit.destinationAccountName} · ${debit.destinationAccountNumber} · ${debit.destinationBankName}`);
    assert.equal(valueOf('Description'), debit.description);
    assert.deepEqual(books.queries(`/v1/transactions/reference/${debit.reference}`), ['']);
  });

  it('writes a header line and one TSV line when piped', async () => {
    const result = await books.runInProcess(['tx', 'get', credit.reference]);
    assert.equal(result.code, 0, result.stderr);
    const [header, line, ...rest] = result.stdout.trimEnd().split('\n');
    assert.deepEqual(rest, []);
    const fields = Object.fromEntries(header!.split('\t').map((label, i) => [label, line!.split('\t')[i]]));
    assert.equal(fields.Reference, credit.reference);
    assert.equal(fields.Amount, String(credit.amount));
    assert.equal(fields.From, `${credit.sourceAccountName} · ${credit.sourceAccountNumber} · ${credit.sourceBankName}`);
    assert.equal(fields.Created, new Date(credit.createdAt).toISOString());
  });

  it('prints the API record exactly with --json', async () => {
    const result = await books.runInProcess(['--json', 'tx', 'get', debit.reference]);
    assert.equal(result.code, 0, result.stderr);
    const { body } = await books.api<{ data: TransactionRecord }>(`/v1/transactions/reference/${debit.reference}`);
    assert.deepEqual(JSON.parse(result.stdout), body.data);
    assert.ok(result.stdout.startsWith('{\n  "'), 'pretty-printed');
  });

  it('exits 1 with the API message for a reference it does not know', async () => {
    const unknown = 'ACME-NOSUCHREF0001';
    const { status, body } = await books.api<{ message: string }>(`/v1/transactions/reference/${unknown}`);
    assert.notEqual(status, 200);
    const result = await books.runInProcess(['tx', 'get', unknown]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error: /m);
    assert.ok(result.stderr.includes(body.message), `stderr lacks the API message ${JSON.stringify(body.message)}: ${result.stderr}`);
  });

  for (const bad of ['', '   ', 'ACME REF', 'ACME-\nX', 'A'.repeat(129)]) {
    it(`refuses the reference ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 5)}...` : bad)} before sending`, async () => {
      books.clearRequests();
      assertRefusedLocally(books, await books.runInProcess(['tx', 'get', bad]));
    });
  }

  it('needs a reference', async () => {
    books.clearRequests();
    const result = await books.runInProcess(['tx', 'get']);
    assert.equal(result.code, 2);
    assert.deepEqual(books.server.simulator.requests(), []);
  });
});
