// What a burst of notifications costs the listener's memory, shown by bounds rather than by time: the
// events taken from the event log into memory never pass the window, whatever waits in the store (the API's
// lookups held by a gate meanwhile), and the notifications waiting to be recorded never pass the intake's
// bound: past it the sender is answered 503 with Retry-After, at once. In process, on a data dir's SQLite.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { systemClock } from '../src/common/clock.js';
import { EventLogWriter } from '../src/notifications/event-log.js';
import { DEFAULT_WINDOW, EventProcessor, newReceivedRecord, type ShownEvent } from '../src/notifications/event-processor.js';
import { Intake, ListenerBusyError } from '../src/notifications/intake.js';
import { startListener } from '../src/notifications/listen.js';
import type { ReceivedRecord } from '../src/store/events.js';
import type { Verification } from '../src/notifications/verify.js';
import { makeHome } from './helpers/cli.js';
import { until } from './helpers/until.js';

/** A gate the test opens: everything that waits on it goes on at once. */
function gate(): { wait(): Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open: () => open() };
}

function collection(reference: string): string {
  return JSON.stringify({ event: 'collection', reference, virtualAccount: '9900000011', amountReceived: '100.00' });
}

describe('a burst waits in the store, not in memory', () => {
  const home = makeHome();
  after(() => home.cleanup());

  test('while the lookups are held, no more events than the window are taken; the rest wait in the store, and all are processed once they go', async () => {
    const dir = path.join(home.root, 'burst');
    const log = await EventLogWriter.open(dir);
    const lookups = gate();
    const shown: ShownEvent[] = [];
    let verifying = 0;
    let mostVerifying = 0;
    let overTheWindow = 0;
    const processor: EventProcessor = new EventProcessor({
      log,
      clock: systemClock,
      verify: async (): Promise<Verification> => {
        verifying += 1;
        mostVerifying = Math.max(mostVerifying, verifying);
        if (processor.inWindow > DEFAULT_WINDOW) overTheWindow += 1;
        await lookups.wait();
        verifying -= 1;
        return { state: 'not-found', detail: 'the API knows no such transaction' };
      },
      forward: undefined,
      show: (event) => shown.push(event),
      warn: () => undefined,
    });
    const burst = 5 * DEFAULT_WINDOW;
    // Recorded as the listener records them, a batch at a time, the window told after each.
    const records: ReceivedRecord[] = Array.from({ length: burst }, (_, i) => {
      const text = collection(`COL-BURST${String(i).padStart(4, '0')}`);
      return newReceivedRecord(new Date(), `COL-BURST${String(i).padStart(4, '0')}`, Buffer.from(text), text);
    });
    for (let at = 0; at < burst; at += 50) {
      await log.appendMany(records.slice(at, at + 50));
      processor.wake();
    }

    await until('the window to fill', () => verifying === DEFAULT_WINDOW);
    // Told again and again that events wait: the window takes none while it is full.
    for (let i = 0; i < 5; i += 1) processor.wake();
    await until('the wakes to be answered', () => processor.inWindow === DEFAULT_WINDOW);
    assert.equal(processor.inWindow, DEFAULT_WINDOW);
    assert.equal(await log.openCount(), burst, 'every event is in the store, none finished, none lost');
    assert.equal(shown.length, 0);

    lookups.open();
    assert.equal(await processor.drain(30_000), 0);
    await processor.close();
    log.close();
    assert.equal(shown.length, burst, 'each event processed once');
    assert.equal(new Set(shown.map((event) => event.reference)).size, burst);
    assert.equal(processor.peakWindow, DEFAULT_WINDOW, 'the window filled, and never more');
    assert.equal(mostVerifying, DEFAULT_WINDOW);
    assert.equal(overTheWindow, 0);
  });

  test('notifications waiting to be recorded are bounded: past the bound one is refused at once (ListenerBusyError); the others are committed together', async () => {
    const disk = gate();
    const batches: number[] = [];
    let committed = 0;
    const intake = new Intake({
      maxWaiting: 4,
      write: async (records) => {
        batches.push(records.length);
        await disk.wait();
      },
      committed: () => (committed += 1),
    });
    const record = (i: number) => newReceivedRecord(new Date(), `COL-Q${i}`, Buffer.from(collection(`COL-Q${i}`)), collection(`COL-Q${i}`));
    const waiting = [1, 2, 3, 4].map((i) => intake.record(record(i)));
    assert.equal(intake.waiting, 4);
    await assert.rejects(intake.record(record(5)), ListenerBusyError);
    disk.open();
    await Promise.all(waiting);
    assert.deepEqual(batches, [1, 3], 'the first alone (nothing else waited), the three that came meanwhile in one transaction');
    assert.equal(committed, 2);
    assert.equal(intake.waiting, 0);
    await intake.record(record(6));
    assert.deepEqual(batches, [1, 3, 1], 'room again once committed');
  });

  test('webhook listen answers 503 with Retry-After when too many notifications wait to be recorded, 200 to those recorded', async () => {
    const disk = gate();
    const intake = new Intake({ maxWaiting: 4, write: () => disk.wait(), committed: () => undefined });
    const rejected: number[] = [];
    const listener = await startListener({
      host: '127.0.0.1',
      port: 0,
      path: '/',
      maxBodyBytes: 1024 * 1024,
      accept: (body, text, parsed) => intake.record(newReceivedRecord(new Date(), parsed.reference, body, text)),
      rejected: (rejection) => rejected.push(rejection.status),
    });
    try {
      const send = (i: number) => fetch(listener.url, { method: 'POST', body: collection(`COL-H${i}`) });
      const first = [1, 2, 3, 4].map(send);
      await until('four notifications to wait', () => intake.waiting === 4);
      const refused = await send(5);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.match((await refused.json()).message, /the event log is behind: 4 notification\(s\) are waiting to be recorded/);
      assert.deepEqual(rejected, [503]);
      disk.open();
      assert.deepEqual(
        (await Promise.all(first)).map((answer) => answer.status),
        [200, 200, 200, 200],
      );
    } finally {
      await listener.close();
    }
  });
});
