// fsapi tsq <transactionId>: the transfer requery, tried the way a user does: send a transfer, requery
// its fresh reference (pending, in yellow), let it settle, requery again (successful, in green). Also
// piped, --json, an unknown id and bad input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stripAnsi } from './helpers/cli.js';
import { assertRefusedLocally, openBooks, type Books } from './tx-support.js';
import type { TsqResult } from '../src/api/schemas.js';
import { BANKS, BUSINESS } from '../src/simulator/data.js';

let books: Books;
let clock = Date.now();
let reference: string;

before(async () => {
  books = await openBooks({ seedTransactions: 10, settleSeconds: 60, now: () => clock });
  const bank = BANKS.find((candidate) => candidate.institutionCode !== BUSINESS.bankCode)!;
  const sent = await books.post<{ data: { reference: string; status: string } }>('/v1/transfer', {
    beneficiaryBankCode: bank.institutionCode,
    beneficiaryAccountNumber: '0123456789',
    narration: 'tsq test',
    amount: 2500,
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sent.body.data.status, 'pending');
  reference = sent.body.data.reference;
});
after(async () => books?.stop());

const YELLOW = '\u001b[33m';
const GREEN = '\u001b[32m';

describe('tsq', () => {
  it('requeries a fresh transfer: PENDING in yellow with its feedback, then SUCCESSFUL in green once settled', async () => {
    books.clearRequests();
    const pending = await books.runInProcess(['tsq', reference], { tty: true });
    assert.equal(pending.code, 0, pending.stdout);
    assert.ok(pending.stdout.includes(`${YELLOW}PENDING`), `PENDING not in yellow: ${JSON.stringify(pending.stdout)}`);
    const screen = stripAnsi(pending.stdout);
    assert.match(screen, new RegExp(`Transaction\\s+${reference}`));
    assert.match(screen, /Feedback code\s+09/);
    assert.match(screen, /Feedback\s+Request processing in progress/);
    assert.deepEqual(books.queries('/v1/transfer/tsq'), [new URLSearchParams({ transactionId: reference }).toString()]);

    clock += 10 * 60_000;
    const settled = await books.runInProcess(['tsq', reference], { tty: true });
    assert.equal(settled.code, 0, settled.stdout);
    assert.ok(settled.stdout.includes(`${GREEN}SUCCESSFUL`), `SUCCESSFUL not in green: ${JSON.stringify(settled.stdout)}`);
    assert.match(stripAnsi(settled.stdout), /Feedback code\s+00/);
  });

  it('writes TSV when piped, without colour', async () => {
    const result = await books.runInProcess(['tsq', reference]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `Transaction\tStatus\tFeedback code\tFeedback\n${reference}\tSUCCESSFUL\t00\tApproved or completed successfully\n`);
  });

  it('prints the API data exactly with --json', async () => {
    const result = await books.runInProcess(['--json', 'tsq', reference]);
    assert.equal(result.code, 0, result.stderr);
    const { body } = await books.api<{ data: TsqResult }>(`/v1/transfer/tsq?transactionId=${encodeURIComponent(reference)}`);
    assert.deepEqual(JSON.parse(result.stdout), body.data);
  });

  it('exits 1 with the API message for an id it does not know', async () => {
    const { status, body } = await books.api<{ message: string }>('/v1/transfer/tsq?transactionId=ACME-UNKNOWN');
    assert.notEqual(status, 200);
    const result = await books.runInProcess(['tsq', 'ACME-UNKNOWN']);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.ok(result.stderr.includes(body.message), result.stderr);
  });

  for (const bad of ['', 'two words', 'tab\there']) {
    it(`refuses the id ${JSON.stringify(bad)} before sending`, async () => {
      books.clearRequests();
      assertRefusedLocally(books, await books.runInProcess(['tsq', bad]));
    });
  }
});
