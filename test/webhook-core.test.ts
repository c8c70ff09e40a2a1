// The verification logic (src/notifications/verify.ts) and what the listener does with events after answering
// (src/notifications/event-processor.ts, src/notifications/event-log.ts), driven in-process with a stand-in Api object (the
// Api interface, not HTTP) and a clock whose sleeps return at once and are recorded.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { Api } from '../src/api/types.js';
import type { CollectionNotification, TransactionRecord } from '../src/api/schemas.js';
import type { Clock } from '../src/context.js';
import { ApiError, AuthError, TransportError, UsageError } from '../src/errors.js';
import { EventLogWriter, eventLogPath, readEventLog, type EventRecord } from '../src/notifications/event-log.js';
import { MIGRATIONS } from '../src/store/migrations.js';
import { openDatabase } from '../src/store/sqlite.js';
import { createLimiter, EventProcessor, newReceivedRecord, type ShownEvent } from '../src/notifications/event-processor.js';
import { forwardEvent, parseForwardTarget, type ForwardResult } from '../src/notifications/forward.js';
import { nodeTransport } from '../src/api/node-transport.js';
import { systemClock } from '../src/common/clock.js';
import {
  compareWithTransaction,
  LISTEN_POLICY,
  parseNotification,
  VERIFY_ONCE_POLICY,
  forwardedEvent,
  NOTIFICATION_FIELDS,
  verifyNotification,
  type Verification,
} from '../src/notifications/verify.js';
import { makeHome } from './helpers/cli.js';
import { HttpStubs } from './helpers/http-stubs.js';
import { deliverNotification } from '../src/simulator/webhook.js';

function parseApiAmountOf(text: string): number {
  const parsed = parseNotification(JSON.stringify(notification({ amountReceived: text })));
  return parsed.ok && parsed.kind === 'collection' ? parsed.amount : NaN;
}

function notification(overrides: Partial<CollectionNotification> = {}): CollectionNotification {
  return {
    event: 'collection',
    reference: 'COL-0001',
    virtualAccount: '9900000011',
    externalReference: 'EXT-1',
    amountReceived: '25000.00',
    transactionFee: 50,
    netAmount: 24900,
    stampDuty: 50,
    sessionId: 'S1',
    sourceCurrency: 'NGN',
    sourceAccountNumber: '0123456789',
    sourceAccountName: 'ADA OBI',
    sourceBankCode: '000013',
    sourceBankName: 'GTBank',
    remarks: 'rent',
    destinationCurrency: 'NGN',
    status: 'successful',
    createdAt: 1_767_225_600_000,
    updatedAt: 1_767_225_600_000,
    ...overrides,
  };
}

function transaction(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    id: 1,
    userId: 1,
    accountId: null,
    netAmount: 24900,
    amount: '25000.00',
    charge: '50.00',
    stampDuty: 50,
    details: {},
    description: 'rent',
    destinationAccountNumber: '9900000011',
    destinationAccountName: 'KOLA FOODS / ADA',
    destinationBankCode: '999999',
    destinationBankName: 'Provider',
    sourceAccountNumber: '0123456789',
    sourceAccountName: 'ADA OBI',
    sourceBankCode: '000013',
    sourceBankName: 'GTBank',
    reference: 'COL-0001',
    transactionTypeName: 'collection',
    category: 'collection',
    utilityType: null,
    sessionId: 'S1',
    status: 'successful',
    reversedFlag: 0,
    type: 'credit',
    completedAt: 1_767_225_600_000,
    createdAt: 1_767_225_600_000,
    updatedAt: 1_767_225_600_000,
    ...overrides,
  };
}

/** An Api whose getTransaction answers from a script of results, one per call; the rest throws. */
function scriptedApi(script: Array<TransactionRecord | Error>): Api & { calls: number } {
  const api = {
    baseUrl: 'http://api.test',
    calls: 0,
    async getTransaction(): Promise<TransactionRecord> {
      const next = script[Math.min(api.calls, script.length - 1)];
      api.calls += 1;
      if (next instanceof Error) throw next;
      return next!;
    },
  };
  return api as unknown as Api & { calls: number };
}

function recordingClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => 1_767_225_600_000 + sleeps.reduce((sum, ms) => sum + ms, 0),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new Error('aborted');
      sleeps.push(ms);
    },
  };
}

describe('parseNotification', () => {
  test('a section-6 body is well formed, its amount read as integer kobo', () => {
    const parsed = parseNotification(JSON.stringify(notification({ amountReceived: '1500.10' })));
    assert.equal(parsed.ok, true);
    assert.equal(parsed.ok && parsed.kind === 'collection' && parsed.amount, 150010);
  });

  test('read tolerantly: a one-decimal amount, a numeric account, nulls and missing display fields', () => {
    const { sourceAccountName: _name, remarks: _remarks, ...rest } = notification();
    const body = {
      ...rest,
      amountReceived: '1000.0',
      virtualAccount: 9900000011,
      netAmount: '990.5',
      stampDuty: null,
      externalReference: null,
      sessionId: 12345,
    };
    const parsed = parseNotification(JSON.stringify(body));
    assert.ok(parsed.ok && parsed.kind === 'collection', JSON.stringify(parsed));
    assert.equal(parsed.amount, 100000, 'exact kobo, no float');
    assert.equal(parsed.notification.virtualAccount, '9900000011');
    assert.equal(parsed.notification.sessionId, '12345');
    assert.equal(parsed.notification.sourceAccountName, undefined);
    // ...and such a notification verifies against the same record.
    const tx = transaction({ amount: '1000.00', netAmount: 990.5, sessionId: '12345' });
    assert.equal(compareWithTransaction(parsed.notification, tx).state, 'verified');
    assert.equal(parseApiAmountOf('1000.0'), 100000);
  });

  test('an event of another kind is well formed, kept as such, never a collection', () => {
    for (const event of ['bill.paid', 'card', 'settlement']) {
      const parsed = parseNotification(JSON.stringify({ event, reference: 'R-ACME-1', amount: 5 }));
      assert.deepEqual(parsed, { ok: true, kind: 'other', event, reference: 'R-ACME-1' });
    }
    // An unusable reference is dropped, not carried into a URL or a log key.
    const odd = parseNotification(JSON.stringify({ event: 'bill.paid', reference: '../../v1/account' }));
    assert.deepEqual(odd, { ok: true, kind: 'other', event: 'bill.paid', reference: '' });
  });

  test('payout*, transfer* and revers* events are read tolerantly as payouts and reversals', () => {
    for (const [event, status] of [
      ['payout', 'FAILED'],
      ['transfer.failed', undefined],
      ['payout_reversed', undefined],
      ['Payout', 'success'],
    ] as const) {
      const parsed = parseNotification(
        JSON.stringify({ event, reference: 'ACME-1', amount: '1000.0', accountNumber: 123456789, ...(status ? { status } : {}), message: 'No route' }),
      );
      assert.ok(parsed.ok && parsed.kind === 'payout', `${event}: ${JSON.stringify(parsed)}`);
      assert.equal(parsed.notification.status, event === 'Payout' ? 'successful' : event.endsWith('reversed') ? 'reversed' : 'failed');
      assert.equal(parsed.notification.amount, 100_000);
      assert.equal(parsed.notification.accountNumber, '123456789');
      assert.equal(parsed.event, event);
    }
    const reversal = parseNotification(JSON.stringify({ event: 'reversal', reference: 'R-ACME-1', amount: 1010 }));
    assert.ok(reversal.ok && reversal.kind === 'reversal');
    assert.equal(reversal.notification.originalReference, 'ACME-1');
    // Unreadable ones are kept as events of an unknown kind (answered 200, shown), never acted on.
    const unreadable = parseNotification(JSON.stringify({ event: 'payout', reference: 'ACME-2' }));
    assert.ok(unreadable.ok && unreadable.kind === 'other', JSON.stringify(unreadable));
    const badReference = parseNotification(JSON.stringify({ event: 'payout', status: 'failed', reference: '../../v1/account' }));
    assert.deepEqual(badReference.ok && badReference.kind === 'other' && badReference.reference, '');
  });

  test('not JSON, wrong shape, another event, an unusable reference or amount are refused with a reason', () => {
    const cases: Array<[string, 'not-json' | 'wrong-shape', RegExp]> = [
      ['{"event":', 'not-json', /not JSON/],
      ['', 'not-json', /not JSON/],
      [JSON.stringify({ hello: 'world' }), 'wrong-shape', /no event field/],
      [JSON.stringify([notification()]), 'wrong-shape', /not a JSON object/],
      [JSON.stringify(notification({ amountReceived: true as unknown as string })), 'wrong-shape', /amountReceived/],
      [JSON.stringify({ ...notification(), virtualAccount: undefined }), 'wrong-shape', /missing virtualAccount/],
      [JSON.stringify(notification({ reference: '..' })), 'wrong-shape', /reference/],
      [JSON.stringify(notification({ reference: 'a/../../v1/account' })), 'wrong-shape', /reference/],
      [JSON.stringify(notification({ reference: 'has space' })), 'wrong-shape', /reference/],
      [JSON.stringify(notification({ amountReceived: 'lots' })), 'wrong-shape', /amountReceived "lots" is not an amount/],
    ];
    for (const [text, reason, detail] of cases) {
      const parsed = parseNotification(text);
      assert.equal(parsed.ok, false, text);
      if (!parsed.ok) {
        assert.equal(parsed.reason, reason, text);
        assert.match(parsed.detail, detail, text);
      }
    }
  });
});

describe('compareWithTransaction', () => {
  test('a successful credit of the same amount to the same account is verified (number and text amounts alike)', () => {
    assert.equal(compareWithTransaction(notification(), transaction()).state, 'verified');
    assert.equal(compareWithTransaction(notification({ amountReceived: '25000' }), transaction({ amount: 25000 })).state, 'verified');
  });

  test('each disagreement names the notification field', () => {
    const amount = compareWithTransaction(notification({ amountReceived: '25000.01' }), transaction());
    assert.deepEqual([amount.state, amount.field], ['mismatch', 'amountReceived']);
    assert.match(amount.detail, /₦25,000\.01.*₦25,000\.00/);
    const account = compareWithTransaction(notification({ virtualAccount: '9900000012' }), transaction());
    assert.deepEqual([account.state, account.field], ['mismatch', 'virtualAccount']);
    const debit = compareWithTransaction(notification(), transaction({ type: 'debit' }));
    assert.deepEqual([debit.state, debit.field], ['mismatch', 'event']);
    const reversed = compareWithTransaction(notification(), transaction({ reversedFlag: 1 }));
    assert.deepEqual([reversed.state, reversed.field], ['mismatch', 'status']);
    const failed = compareWithTransaction(notification(), transaction({ status: 'failed' }));
    assert.deepEqual([failed.state, failed.field], ['mismatch', 'status']);
  });

  test('a forged amount on a pending transaction is a mismatch, a genuine one is pending', () => {
    assert.equal(compareWithTransaction(notification({ amountReceived: '99000.00' }), transaction({ status: 'pending' })).state, 'mismatch');
    assert.equal(compareWithTransaction(notification(), transaction({ status: 'pending' })).state, 'pending');
  });
});

describe('compareWithTransaction: a forged notification with each shared field changed in turn', () => {
  const forgeries: Array<[string, Record<string, unknown>]> = [
    ['amountReceived', { amountReceived: '25000.01' }],
    ['netAmount', { netAmount: 24999 }],
    ['virtualAccount', { virtualAccount: '9900000012' }],
    ['sourceAccountNumber', { sourceAccountNumber: '0999999999' }],
    ['sourceAccountName', { sourceAccountName: 'MALLORY' }],
    ['sourceBankCode', { sourceBankCode: '000014' }],
    ['sourceBankName', { sourceBankName: 'Access Bank' }],
    ['sessionId', { sessionId: 'S2' }],
    ['status', { status: 'reversed' }],
    ['type', { type: 'debit' }],
  ];
  for (const [field, change] of forgeries) {
    test(`${field} changed: mismatch naming ${field}, whatever the other fields say`, () => {
      const verdict = compareWithTransaction({ ...notification(), ...change } as CollectionNotification, transaction());
      assert.deepEqual([verdict.state, verdict.field], ['mismatch', field], verdict.detail);
    });
  }

  test('names compare ignoring case and spacing; a field the notification leaves out contradicts nothing', () => {
    assert.equal(compareWithTransaction(notification({ sourceAccountName: '  ada   obi ', sourceBankName: 'gtbank' }), transaction()).state, 'verified');
    const { sessionId: _s, netAmount: _n, sourceAccountName: _a, status: _st, ...sparse } = notification();
    assert.equal(compareWithTransaction(sparse as CollectionNotification, transaction()).state, 'verified');
    // The record leaving a field empty ("may be empty strings") proves nothing either way.
    assert.equal(compareWithTransaction(notification(), transaction({ sourceAccountName: '', sessionId: '' })).state, 'verified');
  });

  test('a notified pending status on a successful record verifies (an earlier state), a final one that differs does not', () => {
    assert.equal(compareWithTransaction(notification({ status: 'pending' }), transaction()).state, 'verified');
    assert.equal(compareWithTransaction(notification({ status: 'SUCCESSFUL' }), transaction()).state, 'verified');
    assert.equal(compareWithTransaction(notification({ status: 'failed' }), transaction()).field, 'status');
  });

  test('older than the age limit: stale, not verified; no limit given: verified', () => {
    const day = 24 * 60 * 60 * 1000;
    const tx = { ...transaction(), createdAt: Number(transaction().createdAt) };
    const stale = compareWithTransaction(notification(), tx, { now: tx.createdAt + day + 1, maxAgeMs: day });
    assert.equal(stale.state, 'stale');
    assert.match(stale.detail, /older than 24 h/);
    assert.equal(compareWithTransaction(notification(), tx, { now: tx.createdAt + day - 1, maxAgeMs: day }).state, 'verified');
    // A record in epoch seconds is read as such.
    assert.equal(
      compareWithTransaction(notification(), transaction({ createdAt: tx.createdAt / 1000 }), { now: tx.createdAt + 1000, maxAgeMs: day }).state,
      'verified',
    );
    assert.equal(compareWithTransaction(notification(), tx, { now: tx.createdAt + 10 * day }).state, 'verified');
  });
});

describe('forwardedEvent', () => {
  const account = (overrides: Record<string, unknown> = {}) =>
    ({ accountName: 'KOLA FOODS / ADA', accountNumber: '9900000011', externalReference: 'EXT-API', currency: 'NGN', ...overrides }) as never;

  test("every section-6 field at the top level; the API's values where it gave one, the rest named unverified", () => {
    const forgedExtras = notification({ remarks: '=HYPERLINK("x")', externalReference: 'EXT-9', sourceAccountName: 'ada obi', updatedAt: 5 });
    const { body, unverified } = forwardedEvent(
      forgedExtras,
      transaction({ netAmount: '24900.5', charge: 49.5, stampDuty: null, sourceAccountName: 'ADA OBI', updatedAt: 1_767_225_700_000 }),
    );
    assert.deepEqual(body, {
      event: 'collection',
      reference: 'COL-0001',
      virtualAccount: '9900000011',
      externalReference: 'EXT-9',
      amountReceived: '25000.00',
      transactionFee: 49.5,
      netAmount: 24900.5,
      stampDuty: 50,
      sessionId: 'S1',
      sourceCurrency: 'NGN',
      sourceAccountNumber: '0123456789',
      sourceAccountName: 'ADA OBI',
      sourceBankCode: '000013',
      sourceBankName: 'GTBank',
      remarks: '=HYPERLINK("x")',
      destinationCurrency: 'NGN',
      status: 'successful',
      createdAt: 1_767_225_600_000,
      updatedAt: 1_767_225_700_000,
    });
    assert.deepEqual(Object.keys(body), [...NOTIFICATION_FIELDS], 'in the order of section 6');
    // No client account answer, no stamp duty on the record: those are the notification's.
    assert.deepEqual(unverified, ['externalReference', 'stampDuty', 'sourceCurrency', 'remarks', 'destinationCurrency']);
  });

  test("the client account supplies externalReference and the destination currency; a field the API does not give keeps the notification's value", () => {
    const { body, unverified } = forwardedEvent(
      notification({ externalReference: null as never, destinationCurrency: undefined, sessionId: 'S-FROM-NOTE', sourceCurrency: null as never }),
      transaction({ sessionId: '' }),
      account(),
    );
    assert.equal(body.externalReference, 'EXT-API');
    assert.equal('destinationCurrency' in body, false, 'not sent, so not forwarded');
    assert.equal(body.sessionId, 'S-FROM-NOTE', "the record left it empty: the notification's value, unchecked");
    assert.equal(body.sourceCurrency, null, 'sent as null: forwarded as null, not made up as ""');
    assert.deepEqual(unverified, ['sessionId', 'sourceCurrency', 'remarks']);
  });

  test('only what came: fields the notification lacked are not added; fields fsapi does not know pass, unverified', () => {
    const sent = {
      event: 'collection',
      reference: 'COL-0001',
      virtualAccount: 9900000011,
      amountReceived: '25000.0',
      status: 'successful',
      channel: 'NIP',
      meta: { a: 1 },
    };
    const parsed = parseNotification(JSON.stringify(sent));
    assert.ok(parsed.ok && parsed.kind === 'collection');
    const { body, unverified } = forwardedEvent(parsed.notification, transaction(), account());
    assert.deepEqual(body, {
      event: 'collection',
      reference: 'COL-0001',
      virtualAccount: '9900000011',
      amountReceived: '25000.00',
      status: 'successful',
      channel: 'NIP',
      meta: { a: 1 },
    });
    assert.deepEqual(Object.keys(body).sort(), Object.keys(sent).sort(), 'the same fields as the notification, no more, no fewer');
    assert.deepEqual(unverified, ['channel', 'meta']);
  });
});

describe('verifyNotification and the client account', () => {
  function apiWith(client: Record<string, unknown> | Error) {
    const calls: string[] = [];
    const api = {
      baseUrl: 'http://api.test',
      async getTransaction() {
        return transaction();
      },
      async getClient(accountNumber: string) {
        calls.push(accountNumber);
        if (client instanceof Error) throw client;
        return client as never;
      },
    };
    return { api, calls };
  }

  test('an externalReference or currency the client account contradicts is a mismatch', async () => {
    const { api, calls } = apiWith({ accountNumber: '9900000011', externalReference: 'EXT-1', currency: 'NGN' });
    const clock = recordingClock();
    const good = await verifyNotification({ api, clock }, notification(), VERIFY_ONCE_POLICY);
    assert.equal(good.state, 'verified');
    assert.equal(good.account?.externalReference, 'EXT-1');
    assert.deepEqual(calls, ['9900000011']);
    const forged = await verifyNotification({ api, clock }, notification({ externalReference: 'EXT-OTHER' }), VERIFY_ONCE_POLICY);
    assert.deepEqual([forged.state, forged.field], ['mismatch', 'externalReference']);
    const currency = await verifyNotification({ api, clock }, notification({ destinationCurrency: 'USD' }), VERIFY_ONCE_POLICY);
    assert.deepEqual([currency.state, currency.field], ['mismatch', 'destinationCurrency']);
  });

  test('a client account the API cannot show contradicts nothing: verified, its fields unchecked', async () => {
    const { api, calls } = apiWith(new ApiError('the API refused the request (HTTP 400): Request Unsuccessful', { status: 400 }));
    const result = await verifyNotification({ api, clock: recordingClock() }, notification(), LISTEN_POLICY);
    assert.equal(result.state, 'verified');
    assert.equal(result.account, undefined);
    assert.equal(calls.length, 1, 'an unknown account is not asked again');
    const unreachable = apiWith(new TransportError('network', 'cannot reach api.test'));
    const clock = recordingClock();
    assert.equal((await verifyNotification({ api: unreachable.api, clock }, notification(), LISTEN_POLICY)).state, 'verified');
    assert.equal(unreachable.calls.length, 3, 'an unreachable API is tried as often as the transaction lookup');
  });
});

describe('verifyNotification', () => {
  test('an unknown reference (API error 400) is not found, after one lookup', async () => {
    const api = scriptedApi([new ApiError('the API refused the request (HTTP 400): Request Unsuccessful', { status: 400 })]);
    const clock = recordingClock();
    const result = await verifyNotification({ api, clock }, notification(), LISTEN_POLICY);
    assert.equal(result.state, 'not-found');
    assert.equal(api.calls, 1);
    assert.deepEqual(clock.sleeps, []);
  });

  test('an unreachable API is tried a bounded number of times, then unverifiable', async () => {
    const api = scriptedApi([new TransportError('network', 'cannot reach api.test (connection refused)')]);
    const clock = recordingClock();
    const result = await verifyNotification({ api, clock }, notification(), LISTEN_POLICY);
    assert.equal(result.state, 'unverifiable');
    assert.match(result.detail, /after 3 tries: cannot reach api\.test/);
    assert.equal(api.calls, LISTEN_POLICY.retries.waitsMs.length + 1);
    assert.deepEqual(clock.sleeps, [...LISTEN_POLICY.retries.waitsMs]);
  });

  test('a blip then an answer verifies', async () => {
    const api = scriptedApi([new TransportError('bad-gateway', 'the API failed (HTTP 502)', { status: 502 }), transaction()]);
    const result = await verifyNotification({ api, clock: recordingClock() }, notification(), LISTEN_POLICY);
    assert.equal(result.state, 'verified');
    assert.equal(api.calls, 2);
  });

  test('refused credentials are not retried', async () => {
    const api = scriptedApi([new AuthError('the token was refused (HTTP 401)')]);
    const result = await verifyNotification({ api, clock: recordingClock() }, notification(), LISTEN_POLICY);
    assert.equal(result.state, 'unverifiable');
    assert.match(result.detail, /refused \(HTTP 401\) \(run fsapi auth login\)/);
    assert.equal(api.calls, 1);
    // webhook verify lets it through, for exit 3.
    await assert.rejects(verifyNotification({ api, clock: recordingClock() }, notification(), VERIFY_ONCE_POLICY), AuthError);
  });

  test('pending is looked at again until it settles (listen), or reported at once (verify)', async () => {
    const settles = scriptedApi([transaction({ status: 'pending' }), transaction({ status: 'pending' }), transaction()]);
    const clock = recordingClock();
    assert.equal((await verifyNotification({ api: settles, clock }, notification(), LISTEN_POLICY)).state, 'verified');
    assert.deepEqual(clock.sleeps, LISTEN_POLICY.pending.waitsMs.slice(0, 2));

    const never = scriptedApi([transaction({ status: 'pending' })]);
    const stuck = await verifyNotification({ api: never, clock: recordingClock() }, notification(), LISTEN_POLICY);
    assert.equal(stuck.state, 'pending');
    assert.equal(never.calls, LISTEN_POLICY.pending.waitsMs.length + 1);

    const once = scriptedApi([transaction({ status: 'pending' })]);
    assert.equal((await verifyNotification({ api: once, clock: recordingClock() }, notification(), VERIFY_ONCE_POLICY)).state, 'pending');
    assert.equal(once.calls, 1);
  });

  test('a stop signal cuts the waits short', async () => {
    const api = scriptedApi([new TransportError('network', 'down')]);
    const stop = new AbortController();
    stop.abort();
    const result = await verifyNotification({ api, clock: recordingClock() }, notification(), LISTEN_POLICY, stop.signal);
    assert.equal(result.state, 'unverifiable');
    assert.equal(api.calls, 1);
  });
});

describe('EventProcessor', () => {
  const home = makeHome();
  after(() => home.cleanup());
  let counter = 0;

  /** A processor over a fresh (or given) data dir's event log; verify answers from `verdicts` by reference. */
  async function setUp(
    options: { dir?: string; verdicts?: Record<string, Verification>; verify?: boolean; forwardOk?: boolean; retryForMs?: number; answer?: number } = {},
  ) {
    const dir = options.dir ?? path.join(home.root, `run-${(counter += 1)}`);
    const log = await EventLogWriter.open(dir);
    const shown: ShownEvent[] = [];
    const forwarded: string[] = [];
    const unverified: Array<readonly string[]> = [];
    const warnings: string[] = [];
    const verifyCalls: string[] = [];
    const app = { up: options.forwardOk !== false };
    // Real time for drain()'s waits; now() can be moved on, so a backoff is passed over, not waited out.
    let offset = 0;
    const clock: Clock = { now: () => Date.now() + offset, sleep: (ms, signal) => systemClock.sleep(ms, signal) };
    const advance = (ms: number) => (offset += ms);
    const processor = new EventProcessor({
      log,
      clock,
      random: () => 0,
      ...(options.retryForMs === undefined ? {} : { retryForMs: options.retryForMs }),
      verify:
        options.verify === false
          ? undefined
          : async (n) => {
              verifyCalls.push(n.reference);
              return (
                options.verdicts?.[`${n.reference}:${n.amountReceived}`] ??
                options.verdicts?.[n.reference] ?? { state: 'verified', detail: 'ok', transaction: transaction({ reference: n.reference }) }
              );
            },
      forward: async (body, fields): Promise<ForwardResult> => {
        forwarded.push(Buffer.from(body).toString('utf8'));
        unverified.push(fields);
        if (app.up) return { ok: true, status: 200, tries: 1 };
        const answer = options.answer ?? 500;
        return answer === 500
          ? { ok: false, tries: 3, detail: 'HTTP 500 (after 3 tries)', status: 500 }
          : { ok: false, tries: 1, detail: `HTTP ${answer}`, status: answer };
      },
      show: (event) => shown.push(event),
      warn: (line) => warnings.push(line),
    });
    const deliver = async (n: CollectionNotification) => {
      const text = JSON.stringify(n);
      const body = Buffer.from(text);
      const record = newReceivedRecord(new Date(), n.reference, body, text);
      await log.append(record);
      processor.wake();
    };
    return { dir, log, processor, shown, forwarded, unverified, warnings, verifyCalls, deliver, app, advance };
  }

  const records_ = (dir: string) => records(dir);
  async function records(dir: string): Promise<EventRecord[]> {
    const all: EventRecord[] = [];
    for await (const record of readEventLog(dir, () => assert.fail('bad line'))) all.push(record);
    return all;
  }

  test('a resent event is shown once and forwarded once; every delivery is in the event log', async () => {
    const run = await setUp();
    for (let i = 0; i < 5; i += 1) await run.deliver(notification());
    assert.equal(await run.processor.drain(5000), 0);
    run.log.close();
    assert.equal(run.shown.length, 1);
    assert.equal(run.forwarded.length, 1);
    assert.equal(run.processor.tally.duplicate, 4);
    const all = await records(run.dir);
    assert.equal(all.filter((r) => r.kind === 'received').length, 5);
    assert.deepEqual(
      all
        .filter((r) => r.kind === 'outcome')
        .map((r) => r.kind === 'outcome' && r.state)
        .sort(),
      ['duplicate', 'duplicate', 'duplicate', 'duplicate', 'verified'],
    );
  });

  test('a forged copy that arrives first does not hide the genuine event', async () => {
    const run = await setUp({ verdicts: { 'COL-0001:99000.00': { state: 'mismatch', field: 'amountReceived', detail: 'forged' } } });
    await run.deliver(notification({ amountReceived: '99000.00' }));
    await run.deliver(notification());
    await run.deliver(notification({ amountReceived: '99000.00' }));
    await run.processor.drain(5000);
    run.log.close();
    // Only a verified event counts as seen: the forged bytes are looked at again each time they come.
    assert.deepEqual(
      run.shown.map((e) => e.state),
      ['mismatch', 'verified', 'mismatch'],
    );
    assert.equal(run.forwarded.length, 1);
    assert.match(run.forwarded[0]!, /"amountReceived":"25000.00"/);
  });

  test('only verified events are forwarded; a failed forward is reported', async () => {
    const run = await setUp({
      forwardOk: false,
      verdicts: { 'COL-2': { state: 'not-found', detail: 'no such' }, 'COL-3': { state: 'unverifiable', detail: 'down' } },
    });
    await run.deliver(notification());
    await run.deliver(notification({ reference: 'COL-2' }));
    await run.deliver(notification({ reference: 'COL-3' }));
    await run.processor.drain(5000);
    run.log.close();
    assert.equal(run.forwarded.length, 1);
    const verified = run.shown.find((e) => e.state === 'verified')!;
    assert.equal(verified.forwarded, false);
    assert.match(verified.forwardProblem ?? '', /HTTP 500/);
    assert.match(run.warnings.join('\n'), /forward of COL-0001 failed/);
  });

  test('a verified event the app did not take is kept and delivered by a later round, once', async () => {
    const run = await setUp({ forwardOk: false });
    await run.deliver(notification());
    await run.processor.drain(5000);
    assert.equal(run.processor.undeliveredCount, 1);
    assert.deepEqual(await run.processor.redeliver(), { delivered: 0, left: 1, lastProblem: undefined }, 'not due yet: it backs off');
    run.advance(10 * 60_000);
    assert.deepEqual(await run.processor.redeliver(), { delivered: 0, left: 1, lastProblem: 'HTTP 500 (after 3 tries)' });
    run.app.up = true;
    run.advance(10 * 60_000);
    assert.deepEqual(await run.processor.redeliver(), { delivered: 1, left: 0, lastProblem: undefined });
    assert.deepEqual(await run.processor.redeliver(), { delivered: 0, left: 0, lastProblem: undefined });
    run.log.close();
    assert.equal(run.forwarded.length, 3, 'the first try, the failed round, the delivery');
    assert.equal(run.shown.length, 1, 'one line for the event; the delivery is a note');
    assert.match(run.warnings.join('\n'), /COL-0001 delivered to the app on a later try \(HTTP 200\)/);
    const outcomes = (await records(run.dir)).filter((r) => r.kind === 'outcome');
    assert.deepEqual(
      outcomes.map((r) => r.kind === 'outcome' && [r.state, r.forwarded, r.undelivered ?? false]),
      [
        ['verified', false, true],
        ['verified', true, false],
      ],
    );
  });

  test('an undelivered event waits in the event log for the next run that forwards, and is not delivered twice', async () => {
    const first = await setUp({ forwardOk: false });
    await first.deliver(notification());
    await first.processor.drain(5000);
    first.log.close();

    const second = await setUp({ dir: first.dir });
    assert.equal(await second.processor.restore(() => assert.fail('bad line')), 0);
    assert.equal(second.processor.undeliveredCount, 1);
    assert.equal((await second.processor.redeliver()).delivered, 1);
    assert.deepEqual(second.unverified[0], first.unverified[0], 'a later run names the fields the first could not check, kept with the body');
    await second.deliver(notification()); // the sender resends it: a duplicate, not forwarded again
    await second.processor.drain(5000);
    second.log.close();
    assert.equal(second.forwarded.length, 1);

    const third = await setUp({ dir: first.dir });
    await third.processor.restore(() => assert.fail('bad line'));
    assert.equal(third.processor.undeliveredCount, 0, 'delivered, so not kept');
    third.log.close();
  });

  test('an app that keeps refusing is tried with backoff until --retry-for runs out, then the event is failed', async () => {
    const run = await setUp({ forwardOk: false, answer: 403, retryForMs: 60_000 });
    await run.deliver(notification());
    await run.processor.drain(5000);
    let rounds = 0;
    while (run.processor.undeliveredCount > 0 && rounds < 50) {
      run.advance(Math.max(0, (run.processor.nextDue ?? 0) - Date.now()) + 1);
      await run.processor.redeliver();
      rounds += 1;
    }
    assert.equal(run.processor.undeliveredCount, 0, 'given up');
    assert.ok(rounds >= 3 && rounds < 50, `${rounds} rounds`);
    assert.equal(run.processor.tally.failed, 1);
    const last = (await records(run.dir)).filter((r) => r.kind === 'outcome').at(-1)!;
    assert.ok(last.kind === 'outcome');
    assert.equal(last.state, 'failed');
    assert.equal(last.attempts, rounds + 1);
    assert.equal(last.lastAnswer, 'HTTP 403');
    assert.match(run.warnings.join('\n'), /gave up forwarding COL-0001/);
    run.log.close();
    // A later run does not take it up again, and the sender's resend is a duplicate.
    const next = await setUp({ dir: run.dir });
    assert.equal(await next.processor.restore(), 0);
    assert.equal(next.processor.undeliveredCount, 0);
    await next.deliver(notification());
    await next.processor.drain(5000);
    assert.equal(next.forwarded.length, 0);
    next.log.close();
  });

  test('410 Gone gives up at once', async () => {
    const run = await setUp({ forwardOk: false, answer: 410 });
    await run.deliver(notification());
    await run.processor.drain(5000);
    assert.equal(run.processor.undeliveredCount, 0);
    assert.equal(run.forwarded.length, 1);
    const outcomes = (await records(run.dir)).filter((r) => r.kind === 'outcome');
    assert.deepEqual(
      outcomes.map((r) => r.kind === 'outcome' && r.state),
      ['verified', 'failed'],
    );
    run.log.close();
  });

  test('--no-verify: events are unverified, never forwarded, shown once', async () => {
    const run = await setUp({ verify: false });
    await run.deliver(notification());
    await run.deliver(notification());
    await run.processor.drain(5000);
    run.log.close();
    assert.deepEqual(
      run.shown.map((e) => [e.state, e.forwarded]),
      [['unverified', false]],
    );
    assert.equal(run.forwarded.length, 0);
    assert.equal(run.verifyCalls.length, 0);
  });

  test('after a restart, resends of verified events are still recognised, and unverifiable ones are tried again', async () => {
    const first = await setUp({ verdicts: { 'COL-3': { state: 'unverifiable', detail: 'down' } } });
    await first.deliver(notification());
    await first.deliver(notification({ reference: 'COL-3' }));
    await first.processor.drain(5000);
    first.log.close();

    const second = await setUp({ dir: first.dir });
    const unfinished = await second.processor.restore(() => assert.fail('bad line'));
    assert.equal(unfinished, 0);
    await second.deliver(notification());
    await second.deliver(notification({ reference: 'COL-3' }));
    await second.processor.drain(5000);
    second.log.close();
    assert.deepEqual(
      second.shown.map((e) => [e.reference, e.state]),
      [['COL-3', 'verified']],
    );
    assert.equal(second.forwarded.length, 1);
  });

  test('an events.jsonl from before the store is carried over once: a torn last line left behind, an unfinished event taken up', async () => {
    const dir = path.join(home.root, 'unfinished');
    mkdirSync(dir, { recursive: true });
    const text = JSON.stringify(notification());
    // An older fsapi's log: one event received but never finished, then a write a crash cut short.
    const old = `${JSON.stringify(newReceivedRecord(new Date(), 'COL-0001', Buffer.from(text), text))}\n{"kind":"received","id":"torn`;
    writeFileSync(eventLogPath(dir), old);
    const run = await setUp({ dir });
    await run.log.append(newReceivedRecord(new Date(), 'COL-0001', Buffer.from(text), text));
    assert.equal(await run.processor.restore(() => assert.fail('bad record')), 2);
    await run.processor.drain(5000);
    run.log.close();
    // Both taken up, in the order received: the old file's, with its body as it was, is verified; the
    // second, the same bytes, is a resend.
    assert.deepEqual(run.verifyCalls, ['COL-0001']);
    assert.deepEqual(
      run.shown.map((e) => e.state),
      ['verified'],
    );
    assert.equal(run.processor.tally.duplicate, 1);
    assert.equal(readFileSync(eventLogPath(dir), 'utf8'), old, 'the old file is kept as it was');
    // Imported once: a second opening does not add the old records again (two received, two outcomes).
    (await EventLogWriter.open(dir)).close();
    assert.equal((await records(dir)).length, 4);
  });

  test('a forged copy with the genuine bytes, sent before the money arrived, cannot stop the genuine event later', async () => {
    const verdicts: Record<string, Verification> = { 'COL-0001': { state: 'not-found', detail: 'no such transaction yet' } };
    const run = await setUp({ verdicts });
    await run.deliver(notification());
    await run.deliver(notification());
    await run.processor.drain(5000);
    delete verdicts['COL-0001']; // now the API holds it
    await run.deliver(notification());
    await run.deliver(notification());
    await run.processor.drain(5000);
    run.log.close();
    assert.deepEqual(
      run.shown.map((e) => e.state),
      ['not-found', 'not-found', 'verified'],
    );
    assert.equal(run.forwarded.length, 1, 'forwarded once, after it verified');
    assert.equal(run.processor.tally.duplicate, 1, 'only the delivery after the verified one is a resend');
  });

  test('the body forwarded is the verified facts from the record, not the bytes received', async () => {
    const run = await setUp({
      verdicts: {
        'COL-0001': { state: 'verified', detail: 'ok', transaction: transaction({ sourceAccountName: 'ADA OBI', charge: '75.00' }) },
      },
    });
    await run.deliver(notification({ sourceAccountName: 'ada obi', transactionFee: 1, remarks: 'pay me twice' }));
    await run.processor.drain(5000);
    run.log.close();
    const forwarded = JSON.parse(run.forwarded[0]!) as Record<string, unknown>;
    assert.equal(forwarded.sourceAccountName, 'ADA OBI');
    assert.equal(forwarded.transactionFee, 75);
    assert.equal(forwarded.remarks, 'pay me twice');
    assert.equal(forwarded.externalReference, 'EXT-1');
    assert.deepEqual(run.unverified[0], ['externalReference', 'sourceCurrency', 'remarks', 'destinationCurrency']);
  });

  test('a stale event is shown as stale and not forwarded', async () => {
    const run = await setUp({ verdicts: { 'COL-0001': { state: 'stale', detail: 'old', transaction: transaction() } } });
    await run.deliver(notification());
    await run.processor.drain(5000);
    run.log.close();
    assert.deepEqual(
      run.shown.map((e) => [e.state, e.forwarded]),
      [['stale', false]],
    );
    assert.equal(run.forwarded.length, 0);
  });

  test('an event of another kind: recorded, shown as not verified: unknown kind, never looked up or forwarded', async () => {
    const run = await setUp();
    const text = JSON.stringify({ event: 'refund.created', reference: 'ACME-REFUND1', amount: '5000.0' });
    for (let i = 0; i < 2; i += 1) {
      const record = newReceivedRecord(new Date(), 'ACME-REFUND1', Buffer.from(text), text);
      await run.log.append(record);
      run.processor.wake();
    }
    await run.processor.drain(5000);
    run.log.close();
    assert.deepEqual(
      run.shown.map((e) => [e.state, e.forwarded, e.amount]),
      [['unknown-kind', false, null]],
    );
    assert.match(run.shown[0]!.detail, /not verified: unknown kind "refund.created"/);
    assert.deepEqual(run.verifyCalls, []);
    assert.equal(run.forwarded.length, 0);
    const outcomes = (await records(run.dir)).filter((r) => r.kind === 'outcome').map((r) => r.kind === 'outcome' && r.state);
    assert.deepEqual(outcomes, ['unknown-kind', 'duplicate']);
  });

  test('an undelivered event keeps its verified facts in the event log; the next run forwards those, not the received bytes', async () => {
    const first = await setUp({
      forwardOk: false,
      verdicts: { 'COL-0001': { state: 'verified', detail: 'ok', transaction: transaction({ sourceAccountName: 'ADA OBI' }) } },
    });
    await first.deliver(notification({ sourceAccountName: 'Ada  Obi' }));
    await first.processor.drain(5000);
    first.log.close();
    const second = await setUp({ dir: first.dir });
    await second.processor.restore(() => assert.fail('bad line'));
    assert.equal((await second.processor.redeliver()).delivered, 1);
    assert.deepEqual(second.unverified[0], first.unverified[0]);
    second.log.close();
    assert.equal((JSON.parse(second.forwarded[0]!) as { sourceAccountName: string }).sourceAccountName, 'ADA OBI');
    assert.equal(second.forwarded[0], first.forwarded[0]);
  });

  /**
   * A history of `references` verified events (each received, then its outcome), an event received and never
   * finished, and a verified one the app did not take: what a long-running listener leaves behind.
   */
  function history(references: number): { records: EventRecord[]; open: string; undelivered: string; seenText: (i: number) => string } {
    const records: EventRecord[] = [];
    const at = new Date('2026-03-01T08:00:00Z');
    const seenText = (i: number) => JSON.stringify(notification({ reference: `COL-H${i}` }));
    for (let i = 0; i < references; i += 1) {
      const text = seenText(i);
      const received = newReceivedRecord(at, `COL-H${i}`, Buffer.from(text), text);
      records.push(received, {
        kind: 'outcome',
        id: received.id,
        at: at.toISOString(),
        reference: received.reference,
        state: 'verified',
        field: null,
        detail: 'ok',
        forwarded: true,
      });
    }
    const openText = JSON.stringify(notification({ reference: 'COL-OPEN' }));
    const open = newReceivedRecord(at, 'COL-OPEN', Buffer.from(openText), openText);
    const undeliveredText = JSON.stringify(notification({ reference: 'COL-LATE' }));
    const late = newReceivedRecord(at, 'COL-LATE', Buffer.from(undeliveredText), undeliveredText);
    const forwardBody = JSON.stringify({ event: 'collection', reference: 'COL-LATE', verified: true });
    records.push(open, late, {
      kind: 'outcome',
      id: late.id,
      at: at.toISOString(),
      reference: 'COL-LATE',
      state: 'verified',
      field: null,
      detail: 'ok',
      forwarded: false,
      undelivered: true,
      forwardBody,
    });
    return { records, open: open.id, undelivered: forwardBody, seenText };
  }

  /** Resends after a restart over a long log: the same bytes, other bytes of a verified reference, a new one. */
  async function restartsOver(dir: string, seenText: (i: number) => string, open: string, undelivered: string) {
    const run = await setUp({ dir });
    assert.equal(await run.processor.restore(() => assert.fail('bad row')), 1, 'only the event never finished is taken up');
    assert.equal(run.processor.undeliveredCount, 1);
    const resend = async (text: string, reference: string) => {
      const record = newReceivedRecord(new Date(), reference, Buffer.from(text), text);
      await run.log.append(record);
      run.processor.wake();
    };
    await resend(seenText(7), 'COL-H7'); // the same bytes: a resend, not even looked up
    await resend(JSON.stringify({ ...notification({ reference: 'COL-H1234' }), sessionId: 'S-other' }), 'COL-H1234'); // other bytes, a verified reference
    await resend(JSON.stringify(notification({ reference: 'COL-NEW' })), 'COL-NEW');
    await run.processor.drain(5000);
    assert.equal((await run.processor.redeliver()).delivered, 1);
    run.log.close();
    // The event never finished is taken up with the new ones (references in any order, each once).
    assert.deepEqual([...run.verifyCalls].sort(), ['COL-H1234', 'COL-NEW', 'COL-OPEN']);
    assert.equal(run.processor.tally.duplicate, 2);
    assert.deepEqual(run.shown.map((e) => e.reference).sort(), ['COL-NEW', 'COL-OPEN']);
    assert.equal(run.shown.find((e) => e.reference === 'COL-OPEN')?.id, open);
    assert.deepEqual(run.forwarded.slice(-1), [undelivered]);
    assert.equal(run.forwarded.length, 3, 'the new event, the one never finished and the one the app had not taken; no resend');
  }

  test('a restart over a long event log finds what is open by index, and still recognises every resend', async () => {
    const dir = path.join(home.root, 'long-log');
    const { records, open, undelivered, seenText } = history(10_000);
    const seed = await EventLogWriter.open(dir);
    await seed.appendMany(records);
    seed.close();
    await restartsOver(dir, seenText, open, undelivered);
  });

  test('a long events.jsonl of an older fsapi is carried over a chunk at a time, every readable record, once; restarts over it recognise resends', {
    timeout: 120_000,
  }, async () => {
    const dir = path.join(home.root, 'long-jsonl');
    mkdirSync(dir, { recursive: true });
    const { records, open, undelivered, seenText } = history(10_000);
    // A line a crash cut short and the next glued to it, in the middle: left behind, as before.
    const lines = records.map((r) => JSON.stringify(r));
    lines.splice(5_000, 0, '{"kind":"received","id":"torn');
    const text = `${lines.join('\n')}\n{"kind":"outcome","id":"cut`;
    writeFileSync(eventLogPath(dir), text);
    await restartsOver(dir, seenText, open, undelivered);
    assert.equal(readFileSync(eventLogPath(dir), 'utf8'), text, 'the old file is kept as it was');
    const stored = await records_(dir);
    assert.equal(stored.length, records.length + 8, 'every readable record once, and what the restart added');
    assert.deepEqual(stored.slice(0, records.length), records);
    (await EventLogWriter.open(dir)).close();
    assert.equal((await records_(dir)).length, records.length + 8, 'opened again: nothing imported twice');
  });

  test('an event log stored before the event index is folded once when the store is migrated: nothing open or seen is lost', async () => {
    const dir = path.join(home.root, 'pre-index');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // What fsapi wrote before the index: the first schema step only, rows in the events table.
    const db = openDatabase(path.join(dir, 'fsapi.db'));
    db.exec(MIGRATIONS[0]!.sql);
    db.exec('PRAGMA user_version = 1');
    const { records, open, undelivered, seenText } = history(2_000);
    const insert = db.prepare('INSERT INTO events (kind, id, reference, record) VALUES (?, ?, ?, ?)');
    db.exec('BEGIN');
    for (const record of records) insert.run(record.kind, record.id, record.reference, JSON.stringify(record));
    db.exec('COMMIT');
    db.close();
    await restartsOver(dir, seenText, open, undelivered);
    const again = openDatabase(path.join(dir, 'fsapi.db'));
    try {
      assert.equal(Number(again.prepare('PRAGMA user_version').get()!.user_version), MIGRATIONS.length);
      assert.equal(
        Number(again.prepare('SELECT count(*) AS n FROM events').get()!.n),
        records.length + 3 * 2 + 2,
        'every record kept; three events, the outcome of the one never finished and one delivery added',
      );
    } finally {
      again.close();
    }
  });
});

describe('forwardEvent (real HTTP on 127.0.0.1)', () => {
  /** An app that answers with the given statuses in turn (the last one repeats) and records each request. */
  async function app(statuses: number[]) {
    const seen: Array<{ headers: Record<string, unknown>; body: string }> = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(statuses[Math.min(seen.length - 1, statuses.length - 1)]!).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
    return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  const quick = { tries: { waitsMs: [10, 10] }, timeoutMs: 5000 };
  const body = Buffer.from('{"event":"collection","reference":"R","remarks":"rent"}');

  test('retries a 5xx, then delivers the same bytes with the verification header', async () => {
    const target = await app([503, 500, 200]);
    try {
      // sourceCurrency is not in the body: neither header names it.
      const result = await forwardEvent(target.url, body, ['remarks', 'sourceCurrency'], {
        clock: systemClock,
        policy: quick,
        secret: 'test-secret',
        transport: nodeTransport,
      });
      assert.deepEqual(result, { ok: true, status: 200, tries: 3 });
      assert.equal(target.seen.length, 3);
      for (const request of target.seen) {
        assert.equal(request.body, body.toString('utf8'));
        assert.equal(request.headers['x-fsapi-verification'], 'verified');
        assert.equal(request.headers['x-fsapi-unverified-fields'], 'remarks');
        // The fields of the body itself, those not named unverified.
        assert.equal(request.headers['x-fsapi-verified-fields'], 'event,reference');
        assert.equal(request.headers['content-type'], 'application/json');
        // Signed with the secret, checked here by an HMAC of our own.
        const signature = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-fsapi-signature']));
        assert.ok(signature, `signature header: ${String(request.headers['x-fsapi-signature'])}`);
        const expected = createHmac('sha256', 'test-secret').update(`${signature[1]}.${request.body}`).digest('hex');
        assert.equal(signature[2], expected);
        assert.equal(request.headers['x-fsapi-resend'], undefined);
      }
    } finally {
      await target.close();
    }
  });

  test('a 4xx or a redirect is final; 3 failures in a row are reported', async () => {
    for (const status of [404, 302]) {
      const target = await app([status]);
      try {
        const result = await forwardEvent(target.url, body, ['remarks'], {
          clock: systemClock,
          policy: quick,
          secret: 'test-secret',
          transport: nodeTransport,
        });
        assert.equal(result.ok, false);
        assert.equal(target.seen.length, 1, `HTTP ${status} is not retried`);
        assert.match(!result.ok ? result.detail : '', new RegExp(`HTTP ${status}`));
      } finally {
        await target.close();
      }
    }
    const down = await app([500]);
    try {
      const result = await forwardEvent(down.url, body, [], { clock: systemClock, policy: quick, secret: 'test-secret', transport: nodeTransport });
      assert.equal(result.ok, false);
      assert.equal(down.seen.length, 3);
      assert.match(!result.ok ? result.detail : '', /HTTP 500 \(after 3 tries\)/);
    } finally {
      await down.close();
    }
  });

  test("through the run's transport (stubbed answers): the signed bytes, a 503 tried again, a stalled app timed out", async () => {
    const stubs = new HttpStubs().register('POST', '/hooks', { status: 503 }).register('POST', '/hooks', (request) => {
      assert.deepEqual(request.json, JSON.parse(body.toString('utf8')));
      const signature = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request.headers['X-Fsapi-Signature'] ?? '');
      assert.ok(signature, 'signed');
      assert.equal(
        signature[2],
        createHmac('sha256', 'test-secret')
          .update(`${signature[1]}.${body.toString('utf8')}`)
          .digest('hex'),
      );
      assert.equal(request.headers['content-type'], 'application/json');
      return { status: 204 };
    });
    const target = new URL('http://app.test/hooks');
    const result = await forwardEvent(target, body, [], { clock: systemClock, policy: quick, secret: 'test-secret', transport: stubs.transport });
    assert.deepEqual(result, { ok: true, status: 204, tries: 2 });
    assert.deepEqual(stubs.requests, ['POST /hooks', 'POST /hooks']);
    stubs.verify();

    // A transport that never answers: the forward's own time-out ends each try.
    const never = () => new Promise<never>(() => undefined);
    const stalled = await forwardEvent(target, body, [], {
      clock: systemClock,
      policy: { tries: { waitsMs: [] }, timeoutMs: 20 },
      secret: 's',
      transport: never,
    });
    assert.deepEqual(stalled, { ok: false, tries: 1, detail: 'http://app.test did not answer within 0.02 s (after 1 tries)' });
  });

  test("the simulator's notifications go through the transport too", async () => {
    const stubs = new HttpStubs().register('POST', '/notify', { failure: 'ECONNREFUSED' }).register('POST', '/notify', { status: 200 });
    const lines: string[] = [];
    const result = await deliverNotification(
      'http://receiver.test/notify',
      { reference: 'R-1', event: 'collection' },
      {
        transport: stubs.transport,
        schedule: { waitsMs: [1, 1] },
        log: (line) => lines.push(line),
      },
    );
    assert.deepEqual(result, { delivered: true, attempts: 2, status: 200 });
    assert.deepEqual(lines, ['simulator: webhook http://receiver.test/notify attempt 1/3 for R-1 failed: ECONNREFUSED']);
    stubs.verify();
  });

  test('parseForwardTarget takes http(s) URLs only (exit 2 otherwise)', () => {
    assert.equal(parseForwardTarget('http://127.0.0.1:3000/hooks').href, 'http://127.0.0.1:3000/hooks');
    for (const bad of ['127.0.0.1:3000', 'ftp://host/x', 'nonsense', '']) {
      assert.throws(
        () => parseForwardTarget(bad),
        (error: unknown) => error instanceof UsageError && error.exitCode === 2,
      );
    }
  });
});

describe('createLimiter', () => {
  test('never runs more than max tasks at once, runs them all, and drops a waiter whose signal aborts', async () => {
    const limit = createLimiter(3);
    let running = 0;
    let peak = 0;
    const task = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return 'done';
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => limit(task)));
    assert.equal(results.length, 20);
    assert.equal(peak, 3);

    const stop = new AbortController();
    let ran = false;
    const busy = Array.from({ length: 3 }, () => limit(task));
    const waiting = limit(async () => {
      ran = true;
      return 'ran';
    }, stop.signal);
    stop.abort(new Error('stopped'));
    await assert.rejects(waiting, /stopped/);
    await Promise.all(busy);
    assert.equal(ran, false);
    assert.equal(await limit(async () => 'after'), 'after');
  });
});

describe('createLimiter under a burst', () => {
  test('50 waiters on one signal add one abort listener, not 50 (no MaxListenersExceededWarning)', async () => {
    const limit = createLimiter(2);
    const stop = new AbortController();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tasks = Array.from({ length: 50 }, () => limit(() => gate, stop.signal));
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(getEventListeners(stop.signal, 'abort').length <= 1, `${getEventListeners(stop.signal, 'abort').length} listeners`);
    release();
    await Promise.all(tasks);
  });
});
