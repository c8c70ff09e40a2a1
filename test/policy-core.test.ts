// The payment policy's pure parts and its store: what counts towards the day, the daily check inside the
// journal's claim, why a transfer is held, and the store's one-decision-per-request rule.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { checkClaim } from '../src/core/claim.js';
import { TransferFold, type JournalRecord } from '../src/core/journal.js';
import { checkDailyLimit, dayWindow, holdReasons, PolicyLimitError, spentToday } from '../src/core/policy.js';
import { ControlsStore, type HeldTransfer } from '../src/store/controls.js';

const scope = { profile: 'sim', baseUrl: 'http://127.0.0.1:1' };
const now = new Date(2026, 10, 25, 12, 0, 0).getTime(); // local noon
const local = (hour: number, day = 25) => new Date(2026, 10, day, hour, 0, 0).toISOString();

function intent(reference: string, time: string, amountKobo: number, extra: Partial<Record<string, unknown>> = {}): JournalRecord {
  return {
    type: 'intent',
    reference,
    ...scope,
    time,
    env: 'sandbox',
    request: { beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456789', narration: 'n', amount: amountKobo / 100, reference },
    amountKobo,
    bankName: 'Guaranty Trust Bank',
    accountName: 'OKAFOR CHIAMAKA ADAEZE',
    pid: 999_999_999,
    ...extra,
  } as JournalRecord;
}
const fold = (records: JournalRecord[]) => {
  const result = new TransferFold();
  for (const record of records) result.add(record);
  return result;
};

describe('the day', () => {
  it('counts today, in flight and answered alike, not refused ones, other days or other accounts', () => {
    const records: JournalRecord[] = [
      intent('ACME-A', local(9), 10_000), // answered: accepted
      { type: 'accepted', reference: 'ACME-A', ...scope, time: local(9), status: 'pending', message: 'ok' },
      intent('ACME-B', local(10), 20_000), // in flight: no outcome yet
      intent('ACME-C', local(11), 40_000), // refused: nothing moved
      { type: 'rejected', reference: 'ACME-C', ...scope, time: local(11), httpStatus: 400, message: 'no' },
      intent('ACME-D', local(23, 24), 80_000), // yesterday
      intent('ACME-E', local(10), 160_000, { profile: 'other' }), // another profile
    ];
    assert.equal(spentToday(fold(records).transfers(), scope, now), 30_000);
    const { start, end } = dayWindow(now);
    assert.equal(new Date(start).getHours(), 0);
    assert.equal(end - start, 24 * 3600_000);
  });

  it('the daily check allows reaching the maximum exactly, refuses passing it, and says what is left', () => {
    const transfers = fold([intent('ACME-A', local(9), 60_000)]).transfers();
    assert.doesNotThrow(() => checkDailyLimit(transfers, { ...scope, amountKobo: 40_000 }, 100_000, now));
    assert.throws(
      () => checkDailyLimit(transfers, { ...scope, amountKobo: 40_001 }, 100_000, now),
      (error: unknown) => error instanceof PolicyLimitError && error.exitCode === 1 && /₦600\.00 was sent today.*₦400\.00 is left/.test(error.message),
    );
  });

  it('the claim refuses a transfer that would pass the maximum, counting another process in flight', () => {
    const journal = fold([intent('ACME-X', local(11), 20_000, { pid: process.pid })]);
    const candidate = { ...scope, reference: 'ACME-Y', accountNumber: '0234567891', bankCode: '000013', amountKobo: 10_000 };
    assert.doesNotThrow(() => checkClaim(journal, candidate, { earlierAttempts: 0, duplicates: undefined, dailyMaximumKobo: 30_000 }, now));
    assert.throws(() => checkClaim(journal, candidate, { earlierAttempts: 0, duplicates: undefined, dailyMaximumKobo: 29_999 }, now), PolicyLimitError);
    assert.doesNotThrow(() => checkClaim(journal, candidate, { earlierAttempts: 0, duplicates: undefined }, now), 'no maximum, no check');
  });
});

describe('holds', () => {
  const policy = { maxPerTransferKobo: undefined, maxPerDayKobo: undefined, approvalAboveKobo: 50_000, payeesOnly: true, updatedAt: '', updatedBy: '' };
  it('above the threshold (not at it), and to a non-payee under payees-only', () => {
    assert.deepEqual(holdReasons(policy, 50_000, true), []);
    assert.equal(holdReasons(policy, 50_001, true).length, 1);
    assert.match(holdReasons(policy, 100, false)[0]!, /not a saved payee/);
    assert.equal(holdReasons({ ...policy, payeesOnly: false, approvalAboveKobo: undefined }, 10 ** 12, false).length, 0);
  });
});

describe('the controls store', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-controls-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const held = (reference: string): HeldTransfer => ({
    reference,
    accountNumber: '0123456789',
    bankCode: '000013',
    bankName: 'Guaranty Trust Bank',
    accountName: 'OKAFOR CHIAMAKA ADAEZE',
    amountKobo: 100,
    narration: 'n',
    senderName: undefined,
    payee: undefined,
    origin: 'send',
    reasons: ['above the approval threshold of ₦0.50'],
  });

  it('keeps one decision per request, even from two connections; a reference is held once while open', () => {
    const a = ControlsStore.open(dir);
    const b = ControlsStore.open(dir);
    try {
      const request = a.hold({ ...scope, env: 'sandbox' }, [held('ACME-H1')], 'send', 'ada', new Date(now).toISOString());
      assert.throws(() => b.hold({ ...scope, env: 'sandbox' }, [held('acme-h1')], 'send', 'ada', new Date(now).toISOString()), /already held in request/);
      assert.equal(a.decide(scope, request.id, { decision: 'approved', by: 'ada', at: 'now', reason: undefined }), true);
      assert.equal(b.decide(scope, request.id, { decision: 'rejected', by: 'bola', at: 'later', reason: 'no' }), false);
      const stored = b.request(scope, request.id)!;
      assert.equal(stored.status, 'approved');
      assert.deepEqual(stored.decisions.map((d) => [d.decision, d.by]), [['approved', 'ada']]);
      // Another account does not see it.
      assert.equal(b.request({ ...scope, profile: 'other' }, request.id), undefined);
    } finally {
      a.close();
      b.close();
    }
  });

  it('payees are per account and their aliases compared without case', () => {
    const store = ControlsStore.open(dir);
    try {
      const payee = { alias: 'Landlord', accountNumber: '0123456789', bankCode: '000013', bankName: 'GTB', accountName: 'X', addedAt: 'now', addedBy: 'ada' };
      assert.equal(store.addPayee(scope, payee), true);
      assert.equal(store.addPayee(scope, { ...payee, alias: 'landlord' }), false);
      assert.equal(store.payee(scope, 'LANDLORD')?.alias, 'Landlord');
      assert.equal(store.payee({ ...scope, baseUrl: 'local' }, 'landlord'), undefined);
      assert.equal(store.removePayee(scope, 'landLORD'), true);
      assert.deepEqual(store.payees(scope), []);
    } finally {
      store.close();
    }
  });
});
