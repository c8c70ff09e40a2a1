// The pure parts of payout and reversal verification (src/notifications/payout-event.ts) and the signing secret
// (src/notifications/webhook-secret.ts): what a record says against a notification, what is forwarded, and how the
// secret file is kept.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { TransactionRecord } from '../src/api/schemas.js';
import type { Kobo } from '../src/money/kobo.js';
import {
  comparePayout,
  compareReversal,
  forwardedOutflow,
  type OutflowEvent,
  type PayoutNotification,
  type ReversalNotification,
} from '../src/notifications/payout-event.js';
import { parseNotification } from '../src/notifications/verify.js';
import { rotateWebhookSecret, signatureHeader, webhookSecret } from '../src/notifications/webhook-secret.js';
import { makeHome } from './helpers/cli.js';
import { debitRecord } from './helpers/payout-record.js';

const record = debitRecord;

/** A payout as read; `said` (the body as received) holds the same fields unless given. */
function payout(overrides: Partial<PayoutNotification> = {}): PayoutNotification {
  const read = {
    event: 'payout',
    reference: 'ACME-W1',
    status: 'failed',
    amount: 100_000 as Kobo,
    accountNumber: '0123454040',
    bankCode: '000013',
    failureReason: 'Beneficiary bank not available',
    message: undefined,
    ...overrides,
  };
  const said = {
    event: read.event,
    reference: read.reference,
    amount: read.amount === undefined ? undefined : read.amount / 100,
    destinationAccountNumber: read.accountNumber,
    destinationBankCode: read.bankCode,
    status: read.status,
    failureReason: read.failureReason,
    message: read.message,
  };
  return { ...read, said: overrides.said ?? said };
}

/** A notification read from its body, as the listener reads it. */
function readBody(body: Record<string, unknown>): OutflowEvent {
  const parsed = parseNotification(JSON.stringify(body));
  assert.ok(parsed.ok && (parsed.kind === 'payout' || parsed.kind === 'reversal'), JSON.stringify(parsed));
  return parsed.kind === 'payout' ? { kind: 'payout', notification: parsed.notification } : { kind: 'reversal', notification: parsed.notification };
}

describe('payout verification', () => {
  test("a failed payout the API shows failed verifies; the forward has the notification's fields, the API's values, the reason unverified", () => {
    const verdict = comparePayout(payout(), record());
    assert.equal(verdict.state, 'verified', verdict.detail);
    const event = readBody({
      event: 'payout.failed',
      reference: 'ACME-W1',
      amount: '1000.0',
      beneficiaryAccountNumber: 123454040,
      bankCode: '000013',
      sessionId: 'S-FROM-NOTE',
      status: 'FAILED',
      failureReason: 'Beneficiary bank not available',
      narration: 'withdrawal 881',
      updatedAt: 5,
    });
    assert.equal(event.kind, 'payout');
    assert.equal(
      comparePayout((event as { notification: PayoutNotification }).notification, record({ destinationAccountNumber: '123454040' })).state,
      'verified',
    );
    const forward = forwardedOutflow(event, record({ destinationAccountNumber: '123454040' }));
    assert.deepEqual(forward.body, {
      event: 'payout.failed',
      reference: 'ACME-W1',
      amount: 1000,
      beneficiaryAccountNumber: '123454040',
      bankCode: '000013',
      sessionId: 'S9',
      status: 'failed',
      failureReason: 'Beneficiary bank not available',
      narration: 'withdrawal 881',
      updatedAt: 1_767_225_605_000,
    });
    assert.deepEqual(
      Object.keys(forward.body),
      ['event', 'reference', 'amount', 'beneficiaryAccountNumber', 'bankCode', 'sessionId', 'status', 'failureReason', 'narration', 'updatedAt'],
      "the notification's fields, in its order, under its names",
    );
    assert.deepEqual(forward.unverified, ['failureReason', 'narration']);
    assert.equal(forward.status, 'failed');
  });

  test('a reversed payout that came without a reason is forwarded without one; a field the notification lacked is never added', () => {
    const reversed = readBody({ event: 'payout', reference: 'ACME-W1', status: 'reversed' });
    const forward = forwardedOutflow(reversed, record({ status: 'reversed', reversedFlag: 1 }));
    assert.deepEqual(forward.body, { event: 'payout', reference: 'ACME-W1', status: 'reversed' });
    assert.deepEqual(forward.unverified, []);
    // A record without the field: the notification's own value, named unverified; never a default.
    const sparse = forwardedOutflow(
      readBody({ event: 'payout', reference: 'ACME-W1', status: 'failed', sessionId: 'S-N', message: 'no' }),
      record({ sessionId: '' }),
    );
    assert.deepEqual(sparse.body, { event: 'payout', reference: 'ACME-W1', status: 'failed', sessionId: 'S-N', message: 'no' });
    assert.deepEqual(sparse.unverified, ['sessionId', 'message']);
    // A field named __proto__ is a field, never the prototype.
    const odd = forwardedOutflow(readBody(JSON.parse('{"event":"payout","reference":"ACME-W1","status":"failed","__proto__":{"polluted":true}}')), record());
    assert.equal(Object.getPrototypeOf(odd.body), Object.prototype);
    assert.deepEqual(Object.keys(odd.body), ['event', 'reference', 'status', '__proto__']);
    assert.deepEqual(odd.unverified, ['__proto__']);
  });

  test('forgeries: failed for a transfer that went through, another amount, account or bank, a credit', () => {
    const cases: Array<[PayoutNotification, TransactionRecord, string]> = [
      [payout(), record({ status: 'successful' }), 'status'],
      [payout({ amount: 100_001 as Kobo }), record(), 'amount'],
      [payout({ accountNumber: '0123450000' }), record(), 'destinationAccountNumber'],
      [payout({ bankCode: '000014' }), record(), 'destinationBankCode'],
      [payout(), record({ type: 'credit' }), 'event'],
      [payout({ reference: 'ACME-W2' }), record(), 'reference'],
    ];
    for (const [notification, truth, field] of cases) {
      const verdict = comparePayout(notification, truth);
      assert.deepEqual([verdict.state, verdict.field], ['mismatch', field], verdict.detail);
    }
  });

  test('pending is an earlier state: pending notified of a settled transfer verifies as pending; a final status the API does not show yet is pending', () => {
    const early = comparePayout(payout({ status: 'pending', failureReason: undefined }), record());
    assert.equal(early.state, 'verified');
    assert.equal(forwardedOutflow({ kind: 'payout', notification: payout({ status: 'pending' }) }, record()).status, 'pending');
    assert.equal(comparePayout(payout(), record({ status: 'pending' })).state, 'pending');
    // Read tolerantly: the API's case, a reversed flag, amounts as numbers, missing fields contradict nothing.
    assert.equal(comparePayout(payout({ status: 'reversed' }), record({ status: 'Successful', reversedFlag: 1 })).state, 'verified');
    assert.equal(
      comparePayout(payout({ amount: undefined, accountNumber: undefined, bankCode: undefined }), record({ amount: 1000 as unknown as string })).state,
      'verified',
    );
    // Too old to be news.
    assert.equal(comparePayout(payout(), record(), { now: 1_767_225_600_000 + 2 * 86_400_000, maxAgeMs: 86_400_000 }).state, 'stale');
  });
});

describe('reversal verification', () => {
  const notification: ReversalNotification = {
    event: 'reversal',
    reference: 'R-ACME-W1',
    originalReference: 'ACME-W1',
    amount: 101_000 as Kobo,
    said: {
      event: 'reversal',
      reference: 'R-ACME-W1',
      originalReference: 'ACME-W1',
      amount: 1010,
      sessionId: 'S-N',
      status: 'successful',
      createdAt: 1,
      updatedAt: 2,
    },
  };
  const credit = record({ reference: 'R-ACME-W1', type: 'credit', status: 'successful', amount: '1010.00', destinationAccountNumber: '1000000001' });

  test('a credit R-<reference> and an original the API shows reversed verify', () => {
    const verdict = compareReversal(notification, credit, record({ status: 'reversed', reversedFlag: 1 }));
    assert.equal(verdict.state, 'verified', verdict.detail);
    const forward = forwardedOutflow({ kind: 'reversal', notification }, credit, record());
    assert.deepEqual(forward.body, {
      event: 'reversal',
      reference: 'R-ACME-W1',
      originalReference: 'ACME-W1',
      amount: 1010,
      sessionId: 'S9',
      status: 'successful',
      createdAt: 1_767_225_600_000,
      updatedAt: 1_767_225_605_000,
    });
    assert.deepEqual(forward.unverified, []);
    // Only what came: a reversal with a reference alone is forwarded with its reference alone (and its name).
    const bare = forwardedOutflow(readBody({ event: 'reversal', reference: 'R-ACME-W1' }), credit, record());
    assert.deepEqual(bare.body, { event: 'reversal', reference: 'R-ACME-W1' });
  });

  test('an original that was not reversed, another amount, a debit: mismatch', () => {
    assert.equal(compareReversal(notification, credit, record({ status: 'successful' })).field, 'originalReference');
    assert.equal(compareReversal({ ...notification, amount: 500_000 as Kobo }, credit, record({ status: 'reversed' })).field, 'amount');
    assert.equal(compareReversal(notification, { ...credit, type: 'debit' }, record({ status: 'reversed' })).field, 'event');
  });
});

describe('the signing secret', () => {
  const home = makeHome();
  after(() => home.cleanup());

  test('made once per profile, 0600 in a 0700 dir; the same on every read; rotate replaces it', () => {
    const first = webhookSecret(home.dataDir, 'sim');
    assert.match(first, /^fsapi_whsec_[0-9a-f]{64}$/);
    assert.equal(webhookSecret(home.dataDir, 'sim'), first);
    const file = path.join(home.dataDir, 'webhook-secrets', 'sim');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    assert.notEqual(webhookSecret(home.dataDir, 'other'), first, 'each profile its own');
    const rotated = rotateWebhookSecret(home.dataDir, 'sim');
    assert.notEqual(rotated, first);
    assert.equal(webhookSecret(home.dataDir, 'sim'), rotated);
    assert.equal(readFileSync(file, 'utf8').trim(), rotated);
  });

  test('a symbolic link in its place is refused, not followed; a profile name cannot be a path', () => {
    const dir = path.join(home.root, 'linked');
    mkdirSync(path.join(dir, 'webhook-secrets'), { recursive: true });
    const target = path.join(home.root, 'elsewhere');
    writeFileSync(target, 'fsapi_whsec_' + 'a'.repeat(64));
    symlinkSync(target, path.join(dir, 'webhook-secrets', 'sim'));
    assert.throws(() => webhookSecret(dir, 'sim'), /symbolic link/);
    assert.ok(lstatSync(path.join(dir, 'webhook-secrets', 'sim')).isSymbolicLink());
    assert.throws(() => webhookSecret(home.dataDir, '../x'), /cannot name a secret file/);
  });

  test('the header is t=<seconds>,v1=<HMAC-SHA256 of "<t>.<body>">', () => {
    const body = '{"event":"payout"}';
    const expected = createHmac('sha256', 'key').update(`1795352712.${body}`).digest('hex');
    assert.equal(signatureHeader('key', 1_795_352_712, Buffer.from(body)), `t=1795352712,v1=${expected}`);
  });
});
