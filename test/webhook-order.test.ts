// The order in which the app hears of a reversed transfer (src/notifications/event-processor.ts): its payout's
// `reversed` event first, then the reversal (the money back), whichever arrives first, with the hold kept in the
// event log across a restart and bounded when the payout's event never comes. Driven in-process over a real
// event log (the local store) with stand-in lookups and a stand-in app; the clock's now() is moved on past a
// deadline, never waited out. End to end with real processes: test/webhook-payouts.test.ts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { TransactionRecord } from '../src/api/schemas.js';
import type { Clock } from '../src/context.js';
import { systemClock } from '../src/common/clock.js';
import { EventLogWriter, eventHistories, currentState, readEventLog, type EventRecord, type OutcomeRecord } from '../src/notifications/event-log.js';
import { EventProcessor, newReceivedRecord, REVERSAL_HOLD_MS, type ShownEvent } from '../src/notifications/event-processor.js';
import type { ForwardResult } from '../src/notifications/forward.js';
import type { OutflowVerification } from '../src/notifications/payout-event.js';
import { resendOutcome } from '../src/notifications/resend.js';
import { parseNotification } from '../src/notifications/verify.js';
import { makeHome } from './helpers/cli.js';
import { debitRecord } from './helpers/payout-record.js';

const REF = 'ACME-REV1';

/** The reversed transfer, as the API shows it now (recent: not stale). */
function record(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  const now = Date.now();
  return debitRecord({
    reference: REF,
    destinationAccountNumber: '0123455050',
    status: 'reversed',
    reversedFlag: 1,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  });
}

const bodies = {
  pending: { event: 'payout', reference: REF, amount: 1000, destinationAccountNumber: '0123455050', status: 'pending' },
  reversed: { event: 'payout', reference: REF, amount: 1000, destinationAccountNumber: '0123455050', status: 'reversed' },
  reversal: { event: 'reversal', reference: `R-${REF}`, originalReference: REF, amount: 1010, status: 'successful' },
};

describe('a reversal reaches the app after its payout\'s "reversed" event', () => {
  const home = makeHome();
  after(() => home.cleanup());
  let counter = 0;

  async function setUp(options: { dir?: string } = {}) {
    const dir = options.dir ?? path.join(home.root, `run-${(counter += 1)}`);
    const log = await EventLogWriter.open(dir);
    const received: string[] = [];
    const warnings: string[] = [];
    const shown: ShownEvent[] = [];
    const app = { up: true };
    let offset = 0;
    const clock: Clock = { now: () => Date.now() + offset, sleep: (ms, signal) => systemClock.sleep(ms, signal) };
    const processor = new EventProcessor({
      log,
      clock,
      random: () => 0,
      verify: undefined,
      verifyOutflow: async (event): Promise<OutflowVerification> =>
        event.kind === 'payout'
          ? { state: 'verified', detail: 'ok', transaction: record() }
          : {
              state: 'verified',
              detail: 'ok',
              transaction: record({ reference: `R-${REF}`, type: 'credit', status: 'successful', reversedFlag: 0, amount: '1010.00' }),
              original: record(),
            },
      forward: async (body): Promise<ForwardResult> => {
        const event = JSON.parse(Buffer.from(body).toString('utf8')) as { event: string; status?: string };
        if (!app.up) return { ok: false, tries: 3, detail: 'HTTP 503 (after 3 tries)', status: 503 };
        received.push(`${event.event} ${event.status}`);
        return { ok: true, status: 200, tries: 1 };
      },
      show: (event) => shown.push(event),
      warn: (line) => warnings.push(line),
    });
    const post = async (body: Record<string, unknown>) => {
      const text = JSON.stringify(body);
      const parsed = parseNotification(text);
      assert.ok(parsed.ok);
      const received = newReceivedRecord(new Date(clock.now()), parsed.reference, Buffer.from(text), text);
      await log.append(received);
      processor.wake();
      return received.id;
    };
    const advance = (ms: number) => (offset += ms);
    return { dir, log, processor, received, warnings, shown, app, post, advance, clock };
  }

  async function outcomes(dir: string): Promise<OutcomeRecord[]> {
    const all: EventRecord[] = [];
    for await (const one of readEventLog(dir, () => assert.fail('bad row'))) all.push(one);
    return all.filter((one): one is OutcomeRecord => one.kind === 'outcome');
  }

  test('arriving in order, the reversal goes at once, after the reversed payout', async () => {
    const run = await setUp();
    await run.post(bodies.pending);
    await run.post(bodies.reversed);
    await run.processor.drain(5000);
    await run.post(bodies.reversal);
    await run.processor.drain(5000);
    assert.deepEqual(run.received, ['payout pending', 'payout reversed', 'reversal successful']);
    assert.equal(run.processor.heldCount, 0);
    run.log.close();
  });

  test('arriving first, the reversal is held, recorded as held, and goes right after the reversed payout', async () => {
    const run = await setUp();
    await run.post(bodies.pending);
    const reversalId = await run.post(bodies.reversal);
    await run.processor.drain(5000);
    assert.deepEqual(run.received, ['payout pending'], 'the reversal waits');
    assert.equal(run.processor.heldCount, 1);
    assert.equal(run.processor.undeliveredCount, 0, 'held is not undelivered');
    const held = (await outcomes(run.dir)).find((one) => one.id === reversalId)!;
    assert.equal(held.heldFor, REF);
    assert.ok(Math.abs(Date.parse(held.heldUntil!) - (Date.now() + REVERSAL_HOLD_MS)) < 60_000);
    assert.equal(currentState((await eventHistories(run.dir)).find((one) => one.received.id === reversalId)!), 'held');
    const line = run.shown.find((one) => one.reference === `R-${REF}`)!;
    assert.equal(line.state, 'verified');
    assert.equal(line.forwarded, false);
    assert.match(line.detail, /held until payout ACME-REV1's reversed event reaches the app/);
    assert.equal(line.status, null, "a reversal's line carries no payout status");

    await run.post(bodies.reversed);
    await run.processor.drain(5000);
    assert.equal((await run.processor.redeliver()).delivered, 1);
    assert.deepEqual(run.received, ['payout pending', 'payout reversed', 'reversal successful']);
    assert.equal(run.processor.heldCount, 0);
    assert.match(run.warnings.join('\n'), /R-ACME-REV1 forwarded after payout ACME-REV1's reversed event \(HTTP 200\)/);
    const last = (await outcomes(run.dir)).filter((one) => one.id === reversalId).at(-1)!;
    assert.equal(last.forwarded, true);
    run.log.close();
  });

  test('no reversed payout ever comes: the reversal goes when the hold ends, no sooner', async () => {
    const run = await setUp();
    await run.post(bodies.reversal);
    await run.processor.drain(5000);
    assert.deepEqual(await run.processor.redeliver(), { delivered: 0, left: 0, lastProblem: undefined });
    assert.deepEqual(run.received, []);
    run.advance(REVERSAL_HOLD_MS - 5_000);
    await run.processor.redeliver();
    assert.deepEqual(run.received, [], 'still inside the hold');
    run.advance(10_000);
    assert.equal((await run.processor.redeliver()).delivered, 1);
    assert.deepEqual(run.received, ['reversal successful']);
    assert.match(run.warnings.join('\n'), /forwarded without payout ACME-REV1's reversed event, which did not reach the app within 5 min/);
    run.log.close();
  });

  test('a restart in between keeps holding it, to the same deadline; the reversed payout in the next run releases it', async () => {
    const first = await setUp();
    const reversalId = await first.post(bodies.reversal);
    await first.processor.drain(5000);
    const deadline = first.processor.nextDue!;
    first.log.close();

    const second = await setUp({ dir: first.dir });
    second.advance(60_000); // started a minute later: a new deadline would be a minute later too
    assert.equal(await second.processor.restore(), 0);
    assert.equal(second.processor.heldCount, 1);
    assert.equal(second.processor.nextDue, deadline, 'the deadline is the one recorded, not a new one');
    await second.processor.redeliver();
    assert.deepEqual(second.received, [], 'not forwarded by the restart');
    await second.post(bodies.reversed);
    await second.processor.drain(5000);
    await second.processor.redeliver();
    assert.deepEqual(second.received, ['payout reversed', 'reversal successful']);
    second.log.close();

    const third = await setUp({ dir: first.dir });
    await third.processor.restore();
    assert.equal(third.processor.heldCount + third.processor.undeliveredCount, 0, 'delivered, so nothing is kept');
    assert.equal(currentState((await eventHistories(first.dir)).find((one) => one.received.id === reversalId)!), 'verified');
    third.log.close();
  });

  test('a hold whose payout went before a crash is released by the next start', async () => {
    const first = await setUp();
    await first.post(bodies.reversal);
    await first.processor.drain(5000);
    first.log.close();
    // As if the payout's event had been delivered and recorded, and the process died before the reversal went.
    const writer = await EventLogWriter.open(first.dir);
    const text = JSON.stringify(bodies.reversed);
    const received = newReceivedRecord(new Date(), REF, Buffer.from(text), text);
    await writer.append(received);
    await writer.append({
      kind: 'outcome',
      id: received.id,
      at: new Date().toISOString(),
      reference: REF,
      state: 'verified',
      field: null,
      detail: 'ok; forwarded (HTTP 200)',
      forwarded: true,
      forwardBody: text,
      forwardUnverified: [],
      eventStatus: 'reversed',
    });
    writer.close();

    const second = await setUp({ dir: first.dir });
    await second.processor.restore();
    assert.ok(second.processor.nextDue! <= Date.now(), 'due at once');
    assert.equal((await second.processor.redeliver()).delivered, 1);
    assert.deepEqual(second.received, ['reversal successful']);
    assert.match(second.warnings.join('\n'), /forwarded after payout ACME-REV1's reversed event/);
    second.log.close();
  });

  test('while the reversed payout is still being tried, the reversal stays behind it, past the deadline', async () => {
    const run = await setUp();
    run.app.up = false;
    await run.post(bodies.reversed);
    await run.post(bodies.reversal);
    await run.processor.drain(5000);
    assert.equal(run.processor.undeliveredCount, 1);
    assert.equal(run.processor.heldCount, 1);
    run.advance(REVERSAL_HOLD_MS + 60_000);
    await run.processor.redeliver();
    assert.deepEqual(run.received, [], 'the app is down; the reversal did not jump the queue');
    run.app.up = true;
    run.advance(2 * 60 * 60_000);
    await run.processor.redeliver();
    await run.processor.redeliver();
    assert.deepEqual(run.received, ['payout reversed', 'reversal successful']);
    run.log.close();
  });

  test('a held or undelivered event that webhook events resend delivered is not sent again by the listener', async () => {
    const run = await setUp();
    const id = await run.post(bodies.reversal);
    await run.processor.drain(5000);
    const history = (await eventHistories(run.dir)).find((one) => one.received.id === id)!;
    const latest = history.outcomes.at(-1)!;
    // What the resend command writes after the app took it.
    const other = await EventLogWriter.open(run.dir);
    await other.append(resendOutcome(latest, latest, { ok: true, status: 200, tries: 1 }, 0, new Date()));
    other.close();
    run.advance(REVERSAL_HOLD_MS + 1_000);
    await run.processor.redeliver();
    assert.deepEqual(run.received, []);
    assert.equal(run.processor.heldCount, 0);
    assert.match(run.warnings.join('\n'), /R-ACME-REV1 was delivered by webhook events resend/);
    run.log.close();
  });
});
