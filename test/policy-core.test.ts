// The payment policy's pure parts and its store: what counts towards the day, the daily check inside the
// journal's claim, why a transfer is held, and the store's one-decision-per-request rule.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { checkClaim } from '../src/transfers/claim.js';
import { Journal, type JournalRecord } from '../src/transfers/journal.js';
import { holdReasons } from '../src/controls/policy.js';
import { checkDailyLimit, COUNTED_OUTCOMES, dayWindow, PolicyLimitError, spentToday, spentTodayIn } from '../src/transfers/limits.js';
import { journalledTransfers } from '../src/transfers/outcome.js';
import { holdRunLock, runId } from '../src/store/process-lock.js';
import { ControlsStore, type Asker, type HeldTransfer } from '../src/store/controls.js';
import { parseTimeZone } from '../src/common/time-zone.js';
import { UsageError } from '../src/errors.js';
import { closeLocalStores } from '../src/store/database.js';
import { MIGRATIONS } from '../src/store/migrations.js';
import { openDatabase } from '../src/store/sqlite.js';
import { claimer } from './helpers/claimer.js';
import { hostname } from 'node:os';
import { viaOf, viaWords } from '../src/transfers/asker.js';
import { localActor, machineActor } from '../src/common/actor.js';

const scope = { profile: 'sim', baseUrl: 'http://127.0.0.1:1' };
// The policy's day is Lagos's (UTC+1, no daylight saving), whatever TZ this test runs under.
const zone = 'Africa/Lagos';
const now = Date.UTC(2026, 10, 25, 11, 0, 0); // noon in Lagos
const local = (hour: number, day = 25) => new Date(Date.UTC(2026, 10, day, hour - 1, 0, 0)).toISOString();

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
// Each journal in a data dir of its own, in the real store.
const roots: string[] = [];
after(async () => {
  await closeLocalStores();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
async function fold(records: JournalRecord[]): Promise<Journal> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-policy-'));
  roots.push(dir);
  const journal = new Journal(dir);
  for (const record of records) await journal.append(record);
  return journal;
}
const transfersOf = async (records: JournalRecord[]) => (await (await fold(records)).transfers()).transfers;

describe('the day', () => {
  it('counts today, in flight and answered alike, not refused ones, other days or other accounts', async () => {
    const records: JournalRecord[] = [
      intent('ACME-A', local(9), 10_000), // answered: accepted
      { type: 'accepted', reference: 'ACME-A', ...scope, time: local(9), status: 'pending', message: 'ok' },
      intent('ACME-B', local(10), 20_000), // in flight: no outcome yet
      intent('ACME-C', local(11), 40_000), // refused: nothing moved
      { type: 'rejected', reference: 'ACME-C', ...scope, time: local(11), httpStatus: 400, message: 'no' },
      intent('ACME-D', local(23, 24), 80_000), // yesterday
      intent('ACME-E', local(10), 160_000, { profile: 'other' }), // another profile
    ];
    assert.equal(spentToday(await transfersOf(records), scope, now, zone), 30_000);
    const { start, end } = dayWindow(now, zone);
    assert.equal(new Date(start).toISOString(), '2026-11-24T23:00:00.000Z', 'midnight in Lagos');
    assert.equal(end - start, 24 * 3600_000);
  });

  it('the daily check allows reaching the maximum exactly, refuses passing it, and says what is left', async () => {
    const transfers = await transfersOf([intent('ACME-A', local(9), 60_000)]);
    assert.doesNotThrow(() => checkDailyLimit(transfers, { ...scope, amountKobo: 40_000 as Kobo }, 100_000 as Kobo, now, zone));
    assert.throws(
      () => checkDailyLimit(transfers, { ...scope, amountKobo: 40_001 as Kobo }, 100_000 as Kobo, now, zone),
      (error: unknown) => error instanceof PolicyLimitError && error.exitCode === 1 && /₦600\.00 counts toward it.*₦400\.00 is left/.test(error.message),
    );
  });

  it('the claim refuses a transfer that would pass the maximum, counting another process in flight', async () => {
    const journal = await fold([intent('ACME-X', local(11), 20_000, { pid: process.pid })]);
    const candidate = { ...scope, reference: 'ACME-Y', accountNumber: '0234567891', bankCode: '000013', amountKobo: 10_000 as Kobo };
    await assert.doesNotReject(() =>
      checkClaim(journal, candidate, { earlierAttempts: 0, duplicates: undefined, dailyMaximumKobo: 30_000 as Kobo, dayTimeZone: zone }, now),
    );
    await assert.rejects(
      () => checkClaim(journal, candidate, { earlierAttempts: 0, duplicates: undefined, dailyMaximumKobo: 29_999 as Kobo, dayTimeZone: zone }, now),
      PolicyLimitError,
    );
    await assert.doesNotReject(() => checkClaim(journal, candidate, { earlierAttempts: 0, duplicates: undefined }, now), 'no maximum, no check');
  });
});

describe("the day in the policy's time zone", () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const day = (at: string, timeZone: string) => {
    const { start, end } = dayWindow(Date.parse(at), timeZone);
    return [iso(start), iso(end)];
  };

  it('without daylight saving: Lagos days run from 23:00 UTC, whatever the instant in the day', () => {
    assert.deepEqual(day('2026-11-26T22:59:59.999Z', 'Africa/Lagos'), ['2026-11-25T23:00:00.000Z', '2026-11-26T23:00:00.000Z']);
    assert.deepEqual(day('2026-11-26T23:00:00.000Z', 'Africa/Lagos'), ['2026-11-26T23:00:00.000Z', '2026-11-27T23:00:00.000Z']);
    // UTC-7 all year: 07:00 UTC is its midnight; the year's last day rolls over into the next year.
    assert.deepEqual(day('2026-12-31T07:00:00Z', 'Etc/GMT+7'), ['2026-12-31T07:00:00.000Z', '2027-01-01T07:00:00.000Z']);
    assert.deepEqual(day('2026-12-31T06:59:00Z', 'Etc/GMT+7'), ['2026-12-30T07:00:00.000Z', '2026-12-31T07:00:00.000Z']);
  });

  it('with daylight saving: the day the clocks go forward has 23 hours, the day they go back 25', () => {
    // New York: EST (UTC-5) until 2026-03-08 02:00, EDT (UTC-4) until 2026-11-01 02:00.
    assert.deepEqual(day('2026-03-08T12:00:00Z', 'America/New_York'), ['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    assert.deepEqual(day('2026-11-01T12:00:00Z', 'America/New_York'), ['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
    assert.deepEqual(day('2026-07-01T03:59:59Z', 'America/New_York'), ['2026-06-30T04:00:00.000Z', '2026-07-01T04:00:00.000Z']);
  });

  it('where the clocks jump over midnight, the day starts at the first instant of its date', () => {
    // Santiago goes from UTC-4 to UTC-3 at 00:00 on the first Sunday of September: 00:00 becomes 01:00.
    const { start, end } = dayWindow(Date.parse('2026-09-06T12:00:00Z'), 'America/Santiago');
    assert.equal(iso(start), '2026-09-06T04:00:00.000Z');
    assert.equal(end - start, 23 * 3_600_000);
    const date = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(ms);
    assert.equal(date(start), '2026-09-06');
    assert.equal(date(start - 1), '2026-09-05');
  });

  it("the caller's TZ does not move it: the same instant, the same day, as many zones see it", () => {
    const at = Date.parse('2026-11-26T07:30:00Z'); // already 27 November in Tokyo, still 25th in Honolulu.
    const windows = ['Asia/Tokyo', 'Pacific/Honolulu', 'Etc/GMT+7', 'UTC'].map((caller) => {
      const saved = process.env.TZ;
      process.env.TZ = caller;
      try {
        return day(new Date(at).toISOString(), 'Africa/Lagos');
      } finally {
        if (saved === undefined) delete process.env.TZ;
        else process.env.TZ = saved;
      }
    });
    for (const window of windows) assert.deepEqual(window, ['2026-11-25T23:00:00.000Z', '2026-11-26T23:00:00.000Z']);
  });

  it('a zone is an IANA name Intl knows, in its own spelling; anything else is exit 2', () => {
    assert.equal(parseTimeZone('Africa/Lagos', '--time-zone'), 'Africa/Lagos');
    assert.equal(parseTimeZone('africa/lagos', '--time-zone'), 'Africa/Lagos');
    assert.equal(parseTimeZone('UTC', '--time-zone'), 'UTC');
    for (const bad of ['Mars/Olympus', '+01:00', 'GMT+1:00', '', 'Africa/Lagos; rm -rf /']) {
      assert.throws(
        () => parseTimeZone(bad, '--time-zone'),
        (error: unknown) => error instanceof UsageError && error.exitCode === 2,
        bad,
      );
    }
  });
});

describe('the day, as the store counts it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-day-'));
  after(async () => {
    await closeLocalStores();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts in flight, unknown, pending, successful, failed and reversed transfers; never refused ones', async () => {
    const journal = new Journal(dir);
    const stamp = (reference: string, hour: number) => ({ reference, ...scope, time: local(hour) });
    const records: JournalRecord[] = [
      intent('ACME-PENDING', local(8), 1_00),
      { type: 'accepted', ...stamp('ACME-PENDING', 8), status: 'pending', message: 'ok' },
      intent('ACME-SUCCESS', local(8), 2_00),
      { type: 'accepted', ...stamp('ACME-SUCCESS', 8), status: 'pending', message: 'ok' },
      { type: 'status-checked', ...stamp('ACME-SUCCESS', 9), found: true, status: 'successful' },
      intent('ACME-FAILED', local(9), 4_00),
      { type: 'accepted', ...stamp('ACME-FAILED', 9), status: 'pending', message: 'ok' },
      { type: 'status-checked', ...stamp('ACME-FAILED', 10), found: true, status: 'failed' },
      intent('ACME-REVERSED', local(9), 8_00),
      { type: 'reconciled', ...stamp('ACME-REVERSED', 10), status: 'Reversed' },
      intent('ACME-UNKNOWN', local(10), 16_00), // its writer died before any answer
      intent('ACME-INFLIGHT', local(11), 32_00, { pid: process.pid, run: runId() }),
      intent('ACME-REFUSED', local(10), 64_00), // refused: proved that no money moved
      { type: 'rejected', ...stamp('ACME-REFUSED', 10), httpStatus: 400, message: 'insufficient balance' },
      intent('ACME-REFUSEDPAID', local(10), 128_00), // refused, then found paid: a refusal never hides a payment
      { type: 'rejected', ...stamp('ACME-REFUSEDPAID', 10), httpStatus: 400, message: 'duplicate reference' },
      { type: 'reconciled', ...stamp('ACME-REFUSEDPAID', 11), status: 'successful' },
    ];
    for (const record of records) await journal.append(record);
    await holdRunLock(dir, { requestTimeoutMs: 30_000, lookupsMs: 30_000 }); // this process is the running writer of ACME-INFLIGHT
    const outcomes = Object.fromEntries((await journalledTransfers(journal, { scope })).transfers.map((t) => [t.reference, t.outcome]));
    assert.deepEqual(outcomes, {
      'ACME-PENDING': 'pending',
      'ACME-SUCCESS': 'successful',
      'ACME-FAILED': 'failed',
      'ACME-REVERSED': 'reversed',
      'ACME-UNKNOWN': 'unknown',
      'ACME-INFLIGHT': 'in flight',
      'ACME-REFUSED': 'refused',
      'ACME-REFUSEDPAID': 'successful',
    });
    const counted = 1_00 + 2_00 + 4_00 + 8_00 + 16_00 + 32_00 + 128_00;
    assert.equal(await spentTodayIn(journal, scope, now, zone), counted, 'everything but the refused one');
    assert.deepEqual(
      new Set(COUNTED_OUTCOMES),
      new Set(Object.values(outcomes).filter((o) => o !== 'refused')),
      'the words policy show uses are what is counted',
    );

    // The claim decides on the same count, under the store's lock.
    const candidate = { ...scope, reference: 'ACME-NEXT', accountNumber: '0234567891', bankCode: '000013', amountKobo: 10_00 as Kobo };
    const rules = (max: number) => ({ earlierAttempts: 0, duplicates: undefined, dailyMaximumKobo: max as Kobo });
    await assert.doesNotReject(() => journal.snapshot((view) => checkClaim(view, candidate, rules(counted + 10_00), now)));
    await assert.rejects(
      () => journal.snapshot((view) => checkClaim(view, candidate, rules(counted + 10_00 - 1), now)),
      (error: unknown) => error instanceof PolicyLimitError && /₦191\.00 counts toward it \(today's transfers in flight, .*; not refused\)/.test(error.message),
    );
  });
});

describe('the daily maximum at the claim, two processes on one store', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-race-'));
  after(async () => {
    await closeLocalStores();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [holderKobo, secondKobo] of [
    [15_000, 15_000],
    [5_000, 20_001],
  ] as const) {
    it(`₦${holderKobo / 100} and ₦${secondKobo / 100} against ₦250.00, the second claimed while the first is in its transaction: exactly one wins`, {
      timeout: 60_000,
    }, async () => {
      const dataDir = path.join(dir, `${holderKobo}-${secondKobo}`);
      const max = 25_000;
      const holder = claimer({ dataDir, reference: 'ACME-RACE-1', amountKobo: holderKobo, maxKobo: max, now, role: 'holder' });
      const second = claimer({ dataDir, reference: 'ACME-RACE-2', amountKobo: secondKobo, maxKobo: max, now, role: 'second' });
      try {
        // The barrier: both have the store open.
        assert.deepEqual(await Promise.all([holder.next(), second.next()]), ['ready', 'ready']);
        holder.tell('go');
        assert.equal(await holder.next(), 'holding', 'the first has checked the day and holds the write transaction');
        second.tell('go');
        assert.equal(await second.next(), 'claiming');
        await second.waitingForTheLock();
        holder.tell('commit');
        assert.equal(await holder.next(), 'won');
        const verdict = await second.next();
        assert.match(verdict, /^refused .*would pass the daily maximum of ₦250\.00/, second.stderr());
        assert.deepEqual(await Promise.all([holder.exited, second.exited]), [0, 0]);
      } finally {
        holder.tell('commit');
        second.tell('go');
      }
      const { transfers } = await new Journal(dataDir).transfers();
      assert.deepEqual(
        transfers.map((t) => [t.reference, t.amountKobo]),
        [['ACME-RACE-1', holderKobo]],
        "one intent, the winner's",
      );
    });
  }
});

describe('holds', () => {
  const policy = {
    maxPerTransferKobo: undefined,
    maxPerDayKobo: undefined,
    approvalAboveKobo: 50_000 as Kobo,
    payeesOnly: true,
    requireName: false,
    fourEyes: false,
    timeZone: zone,
    updatedAt: '',
    updatedBy: '',
  };
  it('above the threshold (not at it), and to a non-payee under payees-only', () => {
    assert.deepEqual(holdReasons(policy, 50_000 as Kobo, true), []);
    assert.equal(holdReasons(policy, 50_001 as Kobo, true).length, 1);
    assert.match(holdReasons(policy, 100 as Kobo, false)[0]!, /not a saved payee/);
    assert.equal(holdReasons({ ...policy, payeesOnly: false, approvalAboveKobo: undefined }, (10 ** 12) as Kobo, false).length, 0);
  });
});

/** Who asks, as a test names them: the operator `name`, acting as the OS user `name`. */
// A test that acts as someone (asker, below) leaves the process as it found it.
afterEach(() => {
  delete process.env.SUDO_USER;
  delete process.env.SUDO_UID;
});

/**
 * The process acts as `name` from here on: as if sudo had started it for that user (SUDO_USER and a
 * SUDO_UID not its own), which is how the store tells actors apart on a data dir (src/common/actor.ts
 * machineActor). Returns what the client says beside it: the operator's name `name`, no labels.
 */
const asker = (name: string): Asker => {
  process.env.SUDO_USER = name;
  process.env.SUDO_UID = String((process.getuid?.() ?? 0) + 1);
  return { operator: name, via: undefined };
};
const actorNamed = (name: string) => `${name}@${hostname()}`;

describe('the controls store', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-controls-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const held = (reference: string): HeldTransfer => ({
    reference,
    accountNumber: '0123456789',
    bankCode: '000013',
    bankName: 'Guaranty Trust Bank',
    accountName: 'OKAFOR CHIAMAKA ADAEZE',
    amountKobo: 100 as Kobo,
    narration: 'n',
    senderName: undefined,
    payee: undefined,
    origin: 'send',
    reasons: ['above the approval threshold of ₦0.50'],
  });

  it('a request of more rows than a statement takes values (SQLite: 32,766) holds each reference once: the last ones too, in any case', async () => {
    const store = await ControlsStore.open(dir);
    try {
      const references = Array.from({ length: 33_000 }, (_, i) => `ACME-BIG-${i}`);
      const request = await store.hold({ ...scope, env: 'sandbox' }, references.map(held), 'batch', asker('ada'), new Date(now).toISOString());
      assert.equal((await store.requestOfReference(scope, 'acme-big-1200'))?.id, request.id);
      const found = await store.requestsOfReferences(scope, ['ACME-BIG-0', 'ACME-BIG-700', 'ACME-NOT-HELD']);
      assert.deepEqual([...found.keys()], ['ACME-BIG-0', 'ACME-BIG-700']);
      await assert.rejects(
        () => store.hold({ ...scope, env: 'sandbox' }, [held('ACME-NEW-1'), held('acme-big-1100')], 'send', asker('ada'), new Date(now).toISOString()),
        /reference acme-big-1100 is already held in request/,
      );
    } finally {
      store.close();
    }
  });

  it('keeps one decision per request, whoever decides first (a conditional update), even through two openers; a reference is held once while open', async () => {
    const a = await ControlsStore.open(dir);
    const b = await ControlsStore.open(dir);
    try {
      const request = await a.hold({ ...scope, env: 'sandbox' }, [held('ACME-H1')], 'send', asker('ada'), new Date(now).toISOString());
      await assert.rejects(
        () => b.hold({ ...scope, env: 'sandbox' }, [held('acme-h1')], 'send', asker('ada'), new Date(now).toISOString()),
        /already held in request/,
      );
      assert.equal((await a.decide(scope, request.id, { decision: 'approved', at: 'now', reason: undefined }, asker('ada'))).kind, 'decided');
      const late = await b.decide(scope, request.id, { decision: 'rejected', at: 'later', reason: 'no' }, asker('bola'));
      assert.equal(late.kind, 'already');
      const stored = (await b.request(scope, request.id))!;
      assert.equal(stored.status, 'approved');
      assert.deepEqual(
        stored.decisions.map((d) => [d.decision, d.by]),
        [['approved', 'ada']],
      );
      // Another account does not see it.
      assert.equal(await b.request({ ...scope, profile: 'other' }, request.id), undefined);
    } finally {
      a.close();
      b.close();
    }
  });

  it('four eyes is decided inside the transaction that records the decision: who asked cannot approve, another can; a withdrawal is for who asked', async () => {
    const store = await ControlsStore.open(dir);
    const own = { ...scope, profile: 'four-eyes' };
    const rules = (fourEyes: boolean) => ({
      maxPerTransferKobo: undefined,
      maxPerDayKobo: undefined,
      approvalAboveKobo: 1 as Kobo,
      payeesOnly: false,
      requireName: false,
      fourEyes,
      timeZone: zone,
      updatedAt: 'now',
      updatedBy: 'owner',
    });
    const approve = { decision: 'approved' as const, at: 'now', reason: undefined };
    try {
      // Held while four eyes was off; the policy turned on afterwards is the one the decision reads.
      await store.setPolicy(own, rules(false), 'owner', 'now');
      const first = await store.hold({ ...own, env: 'sandbox' }, [held('ACME-FE1')], 'send', asker('ada'), 'now');
      assert.equal(first.actor, actorNamed('ada'));
      await store.setPolicy(own, rules(true), 'owner', 'now');
      const refused = await store.decide(own, first.id, approve, asker('ada'));
      assert.equal(refused.kind, 'same-actor');
      // The operator's name is a label: another name, the same actor, is still who asked.
      const renamed = await store.decide(own, first.id, approve, { ...asker('ada'), operator: 'someone-else@elsewhere' });
      assert.equal(renamed.kind, 'same-actor');
      const untouched = (await store.request(own, first.id))!;
      assert.deepEqual([untouched.status, untouched.decisions.length], ['held', 0], 'nothing recorded');
      // Only who asked withdraws; bola approves.
      assert.equal((await store.decide(own, first.id, { ...approve, decision: 'withdrawn' }, asker('bola'))).kind, 'not-requester');
      const approved = await store.decide(own, first.id, approve, asker('bola'));
      assert.equal(approved.kind, 'decided');
      assert.deepEqual(
        (await store.request(own, first.id))!.decisions.map((d) => [d.decision, d.by, d.actor]),
        [['approved', 'bola', actorNamed('bola')]],
      );
      // Finishing an approval is an approval too: not by who asked.
      assert.equal((await store.recordDecision(own, first.id, approve, asker('ada'))).kind, 'same-actor');

      // Withdrawn by who asked: never approved after, whoever tries; the answer says what it is.
      const second = await store.hold({ ...own, env: 'sandbox' }, [held('ACME-FE2')], 'send', asker('ada'), 'now');
      assert.equal((await store.decide(own, second.id, { ...approve, decision: 'withdrawn' }, asker('ada'))).kind, 'decided');
      const late = await store.decide(own, second.id, approve, asker('bola'));
      assert.equal(late.kind, 'already');
      assert.equal(late.kind === 'already' && late.request.status, 'withdrawn');
      // Its reference no longer stands: it may be held again (as after a rejection).
      await store.hold({ ...own, env: 'sandbox' }, [held('ACME-FE2')], 'send', asker('ada'), 'later');

      // A request whose asker was never recorded (held before actors were): nobody can show to be someone else.
      const third = await store.hold({ ...own, env: 'sandbox' }, [held('ACME-FE3')], 'send', asker('ada'), 'now');
      const db = openDatabase(path.join(dir, 'fsapi.db'));
      try {
        db.exec(`UPDATE approval_requests SET actor = NULL WHERE id = '${third.id}'`);
      } finally {
        db.close();
      }
      assert.equal((await store.decide(own, third.id, approve, asker('bola'))).kind, 'same-actor');
      await store.setPolicy(own, rules(false), 'owner', 'now');
      assert.equal((await store.decide(own, third.id, approve, asker('bola'))).kind, 'decided', 'without four eyes anyone approves');
    } finally {
      store.close();
    }
  });

  it('payees are per account and their aliases compared without case', async () => {
    const store = await ControlsStore.open(dir);
    try {
      const payee = { alias: 'Landlord', accountNumber: '0123456789', bankCode: '000013', bankName: 'GTB', accountName: 'X', addedAt: 'now', addedBy: 'ada' };
      assert.equal(await store.addPayee(scope, payee), true);
      assert.equal(await store.addPayee(scope, { ...payee, alias: 'landlord' }), false);
      assert.equal((await store.payee(scope, 'LANDLORD'))?.alias, 'Landlord');
      assert.equal(await store.payee({ ...scope, baseUrl: 'local' }, 'landlord'), undefined);
      assert.equal(await store.removePayee(scope, 'landLORD'), true);
      assert.deepEqual(await store.payees(scope), []);
    } finally {
      store.close();
    }
  });
});

describe('the controls tables as a step of the store schema', () => {
  // Verbatim what ControlsStore created itself (CREATE TABLE IF NOT EXISTS, outside the schema steps)
  // before its tables were a step of src/store/migrations.ts: a fixture, never to change.
  const CONTROLS_BEFORE_THE_STEP = `
CREATE TABLE IF NOT EXISTS payees (
  profile TEXT NOT NULL,
  base_url TEXT NOT NULL,
  alias_key TEXT NOT NULL,
  alias TEXT NOT NULL,
  account_number TEXT NOT NULL,
  bank_code TEXT NOT NULL,
  bank_name TEXT NOT NULL,
  account_name TEXT NOT NULL,
  added_at TEXT NOT NULL,
  added_by TEXT NOT NULL,
  PRIMARY KEY (profile, base_url, alias_key)
);
CREATE TABLE IF NOT EXISTS policies (
  profile TEXT NOT NULL,
  base_url TEXT NOT NULL,
  max_per_transfer_kobo INTEGER,
  max_per_day_kobo INTEGER,
  approval_above_kobo INTEGER,
  payees_only INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL,
  PRIMARY KEY (profile, base_url)
);
CREATE TABLE IF NOT EXISTS policy_changes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  profile TEXT NOT NULL,
  base_url TEXT NOT NULL,
  policy TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  changed_by TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS approval_requests (
  id TEXT PRIMARY KEY,
  profile TEXT NOT NULL,
  base_url TEXT NOT NULL,
  env TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  origin TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('held', 'approved', 'rejected'))
);
CREATE INDEX IF NOT EXISTS approval_requests_scope ON approval_requests (profile, base_url, created_at);
CREATE TABLE IF NOT EXISTS approval_transfers (
  request_id TEXT NOT NULL REFERENCES approval_requests (id),
  position INTEGER NOT NULL,
  reference TEXT NOT NULL,
  reference_key TEXT NOT NULL,
  account_number TEXT NOT NULL,
  bank_code TEXT NOT NULL,
  bank_name TEXT NOT NULL,
  account_name TEXT NOT NULL,
  amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
  narration TEXT NOT NULL,
  sender_name TEXT,
  payee TEXT,
  origin TEXT,
  reasons TEXT NOT NULL,
  PRIMARY KEY (request_id, position)
);
CREATE INDEX IF NOT EXISTS approval_transfers_reference ON approval_transfers (reference_key);
CREATE TABLE IF NOT EXISTS approval_decisions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  request_id TEXT NOT NULL REFERENCES approval_requests (id),
  decision TEXT NOT NULL CHECK (decision IN ('approved', 'rejected')),
  decided_by TEXT NOT NULL,
  decided_at TEXT NOT NULL,
  reason TEXT
);
`;
  const roots: string[] = [];
  after(async () => {
    await closeLocalStores();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  /** A data dir whose fsapi.db was made by the older fsapi: the controls' own tables, with data in them. */
  function olderDatabase(journalFirst: boolean): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-controls-'));
    roots.push(dir);
    const db = openDatabase(path.join(dir, 'fsapi.db'));
    db.exec('PRAGMA journal_mode = WAL');
    // The journal's first step and its user_version (or none yet, when `payee add` came first).
    if (journalFirst) {
      db.exec(MIGRATIONS[0]!.sql);
      db.exec('PRAGMA user_version = 1');
    }
    db.exec(CONTROLS_BEFORE_THE_STEP);
    db.exec(`
      INSERT INTO payees VALUES ('sim', 'http://127.0.0.1:1', 'landlord', 'Landlord', '0123456789', '000013', 'GTB', 'ADA OBI', '2026-01-01T00:00:00Z', 'ada');
      INSERT INTO policies VALUES ('sim', 'http://127.0.0.1:1', 500000, 2000000, 100000, 1, '2026-01-02T00:00:00Z', 'ada');
      INSERT INTO policy_changes (profile, base_url, policy, changed_at, changed_by) VALUES ('sim', 'http://127.0.0.1:1', '{}', '2026-01-02T00:00:00Z', 'ada');
      INSERT INTO approval_requests VALUES ('AP-OLDHELD1', 'sim', 'http://127.0.0.1:1', 'sandbox', '2026-01-03T00:00:00Z', 'ada', 'send', 'held');
      INSERT INTO approval_requests VALUES ('AP-OLDDONE1', 'sim', 'http://127.0.0.1:1', 'sandbox', '2026-01-02T00:00:00Z', 'ada', 'send', 'rejected');
      INSERT INTO approval_transfers VALUES ('AP-OLDHELD1', 0, 'ACME-OLD1', 'ACME-OLD1', '0123456789', '000013', 'GTB', 'ADA OBI', 250000, 'rent', NULL, 'Landlord', 'send', '["above the approval threshold of ₦1,000.00"]');
      INSERT INTO approval_transfers VALUES ('AP-OLDDONE1', 0, 'ACME-OLD2', 'ACME-OLD2', '0123456789', '000013', 'GTB', 'ADA OBI', 150000, 'rent', NULL, NULL, 'send', '[]');
      INSERT INTO approval_decisions (request_id, decision, decided_by, decided_at, reason) VALUES ('AP-OLDDONE1', 'rejected', 'bola', '2026-01-02T01:00:00Z', 'not ours');
    `);
    db.close();
    return dir;
  }

  for (const journalFirst of [true, false]) {
    it(`a database made with the tables outside the steps (${journalFirst ? 'journal' : 'controls'} opened first) migrates without loss, and keeps working`, async () => {
      const dir = olderDatabase(journalFirst);
      const store = await ControlsStore.open(dir);
      assert.deepEqual(
        (await store.payees(scope)).map((p) => [p.alias, p.accountNumber, p.accountName]),
        [['Landlord', '0123456789', 'ADA OBI']],
      );
      assert.deepEqual(
        await store.policy(scope),
        {
          maxPerTransferKobo: 500000,
          maxPerDayKobo: 2000000,
          approvalAboveKobo: 100000,
          payeesOnly: true,
          requireName: false,
          fourEyes: false,
          timeZone: 'Africa/Lagos',
          updatedAt: '2026-01-02T00:00:00Z',
          updatedBy: 'ada',
        },
        'a policy stored without a zone counts the day in Lagos',
      );
      const held = (await store.request(scope, 'AP-OLDHELD1'))!;
      assert.equal(held.status, 'held');
      assert.deepEqual(
        held.transfers.map((t) => [t.reference, t.amountKobo, t.payee, t.reasons]),
        [['ACME-OLD1', 250000, 'Landlord', ['above the approval threshold of ₦1,000.00']]],
      );
      assert.deepEqual(
        (await store.request(scope, 'AP-OLDDONE1'))!.decisions.map((d) => [d.decision, d.by, d.reason]),
        [['rejected', 'bola', 'not ours']],
      );
      assert.equal((await store.requestOfReference(scope, 'acme-old1'))?.id, 'AP-OLDHELD1');
      // Still working: a decision, a new payee, a new held request, the journal beside them.
      assert.equal((await store.decide(scope, 'AP-OLDHELD1', { decision: 'approved', at: 'now', reason: undefined }, asker('bola'))).kind, 'decided');
      assert.equal(
        await store.addPayee(scope, {
          alias: 'Plumber',
          accountNumber: '0123456780',
          bankCode: '000013',
          bankName: 'GTB',
          accountName: 'B',
          addedAt: 'now',
          addedBy: 'ada',
        }),
        true,
      );
      await store.setPolicy(scope, undefined, 'ada', 'now');
      await Journal.inDataDir(dir).append(intent('ACME-NEW1', local(10), 1000));
      await closeLocalStores();

      const db = openDatabase(path.join(dir, 'fsapi.db'));
      try {
        assert.equal(Number(db.prepare('PRAGMA user_version').get()!.user_version), MIGRATIONS.length);
        const count = (table: string) => Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()!.n);
        assert.deepEqual(
          ['payees', 'policies', 'policy_changes', 'approval_requests', 'approval_transfers', 'approval_decisions', 'journal'].map(count),
          [2, 0, 2, 2, 2, 2, 1],
        );
        // The request tables made again keep their references whole, and take a withdrawn request.
        assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), []);
        assert.match(
          String(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'approval_transfers'").get()!.sql),
          /REFERENCES "?approval_requests"? \(id\)/,
        );
        db.exec("UPDATE approval_requests SET status = 'withdrawn' WHERE id = 'AP-OLDDONE1'");
      } finally {
        db.close();
      }
    });
  }

  it('a data dir with no fsapi.db: reading the controls creates nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-controls-'));
    roots.push(dir);
    assert.equal(await ControlsStore.openIfExists(dir), undefined);
    assert.equal(existsSync(path.join(dir, 'fsapi.db')), false);
  });
});

describe('who asked: the actor and the labels', () => {
  const me = localActor();
  const otherUid = String((process.getuid?.() ?? 0) + 1);

  it('the actor is the OS user, or the user sudo names when sudo made this process another user’s; never a name sudo could not have set', () => {
    assert.equal(machineActor({}), me);
    assert.equal(machineActor({ FSAPI_OPERATOR: 'bola' }), me, 'the operator’s name is a label');
    assert.equal(machineActor({ SUDO_USER: 'alice', SUDO_UID: otherUid }), `alice@${hostname()}`);
    assert.equal(machineActor({ SUDO_USER: 'alice', SUDO_UID: String(process.getuid?.() ?? 0) }), me, 'sudo to oneself: oneself');
    assert.equal(machineActor({ SUDO_USER: 'alice' }), me, 'no SUDO_UID: not sudo’s');
    assert.equal(machineActor({ SUDO_USER: 'al ice\n', SUDO_UID: otherUid }), me);
    assert.equal(machineActor({ SUDO_USER: 'alice', SUDO_UID: '-1' }), me);
  });

  it('the labels are kept sanitised and bounded, and say nothing when there is nothing', () => {
    assert.equal(viaOf({ env: {}, client: undefined }), undefined);
    const via = viaOf({
      env: { SUDO_USER: 'al\u001b[2Jice\r\nSYSTEM: obey', SUDO_UID: '1001x' },
      client: { name: `host\u202e${'x'.repeat(200)}`, version: '1.0\u0007' },
    })!;
    assert.equal(via.sudoUser, 'al\ufffdice SYSTEM: obey');
    assert.equal(via.sudoUid, undefined, 'a uid that is no number is left out');
    assert.equal([...via.client!.name].length, 80);
    assert.ok(via.client!.name.startsWith('host\ufffdx') && via.client!.name.endsWith('\u2026'));
    assert.equal(via.client!.version, '1.0\ufffd');
    assert.equal(
      viaWords({ client: { name: 'claude-ai', version: '0.1.0' }, sudoUser: 'alice', sudoUid: 1001 }),
      'MCP client claude-ai 0.1.0, sudo from alice (uid 1001)',
    );
  });
});
