// One owner per reference (src/transfers/claim.ts, the journal's fold): what the journal shows when attempts
// of one reference meet, and a refused resend, looked up and never called "no money moved". Core functions
// with an injected context, against a real store in a temporary data dir and the simulator served on
// 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkClaim, DuplicateClaimError, ReferenceTakenError, runId } from '../src/transfers/claim.js';
import { Journal, type JournalRecord } from '../src/transfers/journal.js';
import { closeLocalStores } from '../src/store/database.js';
import { ControlsStore } from '../src/store/controls.js';
import { dayWindow, PolicyLimitError } from '../src/transfers/limits.js';
import type { Kobo } from '../src/money/kobo.js';
import { executeTransfer, transferScope, type VerifiedTransfer } from '../src/transfers/transfer.js';
import { createContext } from '../src/runtime.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';

const scope = { profile: 'sim', baseUrl: 'http://127.0.0.1:1' };
const at = (second: number) => `2026-01-02T03:04:${String(second).padStart(2, '0')}.000Z`;
function intent(reference: string, second: number, extra: Partial<JournalRecord> = {}): JournalRecord {
  return {
    type: 'intent',
    reference,
    ...scope,
    time: at(second),
    env: 'sandbox',
    request: { beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456789', narration: 'n', amount: 100, reference },
    amountKobo: 10_000 as Kobo,
    bankName: 'Guaranty Trust Bank',
    accountName: 'OKAFOR CHIAMAKA ADAEZE',
    pid: 999_999_999, // not a running process
    ...extra,
  } as JournalRecord;
}
const outcome = (type: 'accepted' | 'rejected' | 'reconciled', reference: string, second: number): JournalRecord =>
  type === 'rejected'
    ? { type, reference, ...scope, time: at(second), httpStatus: 400, message: `reference ${reference} was already used` }
    : { type, reference, ...scope, time: at(second), status: 'pending', message: 'ok' };

// Each journal in a data dir of its own, in the real store.
const roots: string[] = [];
after(async () => {
  await closeLocalStores();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
async function journalOf(records: JournalRecord[]): Promise<Journal> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-claim-'));
  roots.push(dir);
  const journal = new Journal(dir);
  for (const record of records) await journal.append(record);
  return journal;
}
const statesOf = async (records: JournalRecord[]) => (await (await journalOf(records)).transfers()).transfers;

describe('the journal: a refusal never hides a payment', () => {
  it('four attempts of one reference, one accepted and three refused (in any order): accepted', async () => {
    const records = [
      intent('ACME-R1', 1),
      intent('ACME-R1', 1),
      intent('ACME-R1', 1),
      intent('ACME-R1', 1),
      outcome('rejected', 'ACME-R1', 2),
      outcome('accepted', 'ACME-R1', 3),
      outcome('rejected', 'ACME-R1', 4),
      outcome('rejected', 'ACME-R1', 5),
    ];
    const states = await statesOf(records);
    assert.deepEqual(
      states.map((s) => s.state),
      ['accepted'],
    );
    assert.deepEqual(
      (await statesOf([intent('ACME-R2', 1), outcome('reconciled', 'ACME-R2', 2), outcome('rejected', 'ACME-R2', 3)])).map((s) => s.state),
      ['reconciled'],
    );
  });

  it('a resend after a refusal is in flight again until its own outcome', async () => {
    const records = [intent('ACME-R3', 1), outcome('rejected', 'ACME-R3', 2), intent('ACME-R3', 3)];
    assert.deepEqual(
      (await statesOf(records)).map((s) => s.state),
      ['unknown'],
    );
    assert.deepEqual(
      (await statesOf([...records, outcome('accepted', 'ACME-R3', 4)])).map((s) => s.state),
      ['accepted'],
    );
  });
});

describe('checkClaim', () => {
  const fold = journalOf;
  const candidate = (reference: string, accountNumber = '0123456789') => ({
    ...scope,
    reference,
    accountNumber,
    bankCode: '000013',
    amountKobo: 10_000 as Kobo,
  });
  const now = Date.parse(at(30));
  const noGuard = { earlierAttempts: 0, duplicates: undefined };

  it('a new reference is claimed; one another process holds (any case) is refused', async () => {
    await checkClaim(await fold([]), candidate('ACME-NEW'), noGuard, now);
    const held = await fold([intent('ACME-HELD', 1, { pid: process.pid, run: runId() } as Partial<JournalRecord>)]);
    await assert.rejects(
      () => checkClaim(held, candidate('acme-held'), noGuard, now),
      (error: unknown) => {
        assert.ok(error instanceof ReferenceTakenError);
        assert.match(error.message, new RegExp(`is being sent by another fsapi process \\(pid ${process.pid}`));
        return true;
      },
    );
    const paid = await fold([intent('ACME-PAID', 1), outcome('accepted', 'ACME-PAID', 2)]);
    await assert.rejects(() => checkClaim(paid, candidate('ACME-PAID'), noGuard, now), /was already sent on .* \(pending\)/);
  });

  it('a refused reference may be sent again, unless another process sent it again first', async () => {
    const refused = [intent('ACME-REF', 1), outcome('rejected', 'ACME-REF', 2)];
    await checkClaim(await fold(refused), candidate('ACME-REF'), { earlierAttempts: 1, duplicates: undefined }, now);
    const resentMeanwhile = await fold([...refused, intent('ACME-REF', 3), outcome('rejected', 'ACME-REF', 4)]);
    await assert.rejects(() => checkClaim(resentMeanwhile, candidate('ACME-REF'), { earlierAttempts: 1, duplicates: undefined }, now), ReferenceTakenError);
  });

  it('an intent without an answer whose writer died may be resent; the same pid with another run id is a reused pid', async () => {
    await checkClaim(await fold([intent('ACME-DEAD', 1)]), candidate('ACME-DEAD'), { earlierAttempts: 1, duplicates: undefined }, now);
    await checkClaim(
      await fold([intent('ACME-REUSED', 1, { pid: process.pid, run: 'fedcba9876543210' } as Partial<JournalRecord>)]),
      candidate('ACME-REUSED'),
      { earlierAttempts: 1, duplicates: undefined },
      now,
    );
  });

  it('the duplicate guard counts unknown and accepted transfers in the window, not refused or ignored ones', async () => {
    const guard = (ignore: string[] = []) => ({ earlierAttempts: 0, duplicates: { windowMs: 600_000, ignore: new Set(ignore) } });
    const sent = await fold([intent('ACME-A', 1)]);
    await assert.rejects(() => checkClaim(sent, candidate('ACME-B'), guard(), now), DuplicateClaimError);
    await checkClaim(sent, candidate('ACME-B'), guard(['ACME-A']), now);
    await checkClaim(await fold([intent('ACME-A', 1), outcome('rejected', 'ACME-A', 2)]), candidate('ACME-B'), guard(), now);
    await checkClaim(sent, candidate('ACME-B', '0123456781'), guard(), now);
    await checkClaim(sent, candidate('ACME-B'), guard(), Date.parse(at(1)) + 600_000);
    // The reference being claimed is never its own duplicate (a resend after a refusal), in any case.
    await checkClaim(sent, candidate('acme-a'), { ...guard(), earlierAttempts: 1 }, now);
  });

  it('the duplicate guard names each earlier transfer by its outcome: in flight while its writer runs, else unknown or its status', async () => {
    const guard = { earlierAttempts: 0, duplicates: { windowMs: 600_000, ignore: new Set<string>() } };
    const refusal = async (records: JournalRecord[]) => {
      const journal = await fold(records);
      try {
        await checkClaim(journal, candidate('ACME-NEXT'), guard, now);
      } catch (error) {
        assert.ok(error instanceof DuplicateClaimError);
        return { outcome: error.duplicates[0]!.outcome, message: error.message };
      }
      assert.fail('the duplicate was claimed');
    };
    const running = await refusal([intent('ACME-RUNS', 1, { pid: process.pid, run: runId() } as Partial<JournalRecord>)]);
    assert.equal(running.outcome, 'in flight');
    assert.match(running.message, /under ACME-RUNS at .* \(less than 10 minutes ago, in flight\); nothing was sent/);
    assert.equal((await refusal([intent('ACME-DIED', 1)])).outcome, 'unknown');
    const answered = await refusal([intent('ACME-TOOK', 1), outcome('accepted', 'ACME-TOOK', 2)]);
    assert.equal(answered.outcome, 'pending');
    assert.doesNotMatch(answered.message, /accepted/, '"accepted" is an answer, not an outcome');
  });
});

describe('a refused resend is looked up and never called "no money moved"', () => {
  let setup: TransferSetup;
  before(async () => {
    setup = await setUpTransfers();
  });
  after(async () => {
    await setup.close();
  });
  const verified = (reference: string): VerifiedTransfer => ({
    reference,
    accountNumber: '0123456789',
    bankCode: '000013',
    bankName: 'Guaranty Trust Bank',
    accountName: 'OKAFOR CHIAMAKA ADAEZE',
    amountKobo: 100_00 as Kobo,
    narration: 'claim test',
    senderName: undefined,
  });

  it('found: reconciled (the earlier attempt went through), one transaction; absent: unknown', async () => {
    const ctx = createContext({}, { ...setup.env, FSAPI_PROFILE: 'sim' });
    const scopeNow = await transferScope(ctx);
    // The API holds ACME-CLAIM-PAID (sent from another journal), but this journal says it was refused.
    const elsewhere = new Journal(`${setup.home.dataDir}/elsewhere`);
    assert.equal((await executeTransfer(ctx, elsewhere, scopeNow, verified('ACME-CLAIM-PAID'))).kind, 'accepted');
    const journal = new Journal(`${setup.home.dataDir}/claim`);
    const stamp = { ...scopeNow, time: new Date().toISOString() };
    await journal.append({ ...intent('ACME-CLAIM-PAID', 1), ...stamp });
    await journal.append({ type: 'rejected', reference: 'ACME-CLAIM-PAID', ...stamp, message: 'refused (so it seemed)' });
    setup.server.simulator.clearRequests();

    const resent = await executeTransfer(ctx, journal, scopeNow, verified('ACME-CLAIM-PAID'), { claim: { earlierAttempts: 1, duplicates: undefined } });
    assert.equal(resent.kind, 'reconciled');
    assert.deepEqual(
      setup.server.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['POST /v1/transfer 400', 'GET /v1/transactions/reference/ACME-CLAIM-PAID 200'],
    );
    const { transfers } = await journal.transfers();
    assert.equal(transfers[0]!.state, 'reconciled');

    // A reference the API does not hold, refused on resend (an account the simulator refuses): a refusal
    // of a reference sent before is no proof, and the lookups found nothing: unknown, not "no money moved".
    await journal.append({ ...intent('ACME-CLAIM-NONE', 1), ...stamp });
    await journal.append({ type: 'rejected', reference: 'ACME-CLAIM-NONE', ...stamp, message: 'refused' });
    const refused = await executeTransfer(
      ctx,
      journal,
      scopeNow,
      { ...verified('ACME-CLAIM-NONE'), accountNumber: '0123450000' },
      { claim: { earlierAttempts: 1, duplicates: undefined }, schedule: { waitsMs: [10] } },
    );
    assert.equal(refused.kind, 'unknown');
    assert.match(refused.kind === 'unknown' ? refused.detail : '', /the resend was answered HTTP 400.*found nothing in 0 s \(2 lookups; last: not found\)/);
  });
});

// The daily maximum is decided in the claim (src/transfers/claim.ts): executeTransfer must hand the
// policy's maximum and its time zone to it. Sequential and in one process, so it holds on every run.
describe("executeTransfer hands the policy's daily maximum and its day to the claim", () => {
  let setup: TransferSetup;
  before(async () => {
    setup = await setUpTransfers();
  });
  after(async () => {
    await setup.close();
  });
  const verified = (reference: string, amountKobo: number): VerifiedTransfer => ({
    reference,
    accountNumber: '0123456789',
    bankCode: '000013',
    bankName: 'Guaranty Trust Bank',
    accountName: 'OKAFOR CHIAMAKA ADAEZE',
    amountKobo: amountKobo as Kobo,
    narration: 'daily maximum',
    senderName: undefined,
  });
  // The policy of the store the claim writes to: the claim reads it in its own transaction.
  const setPolicy = async (dataDir: string, scopeNow: { profile: string; baseUrl: string }, maxPerDayKobo: Kobo | undefined, timeZone: string) => {
    const controls = await ControlsStore.open(dataDir);
    try {
      const policy =
        maxPerDayKobo === undefined
          ? undefined
          : {
              maxPerTransferKobo: undefined,
              maxPerDayKobo,
              approvalAboveKobo: undefined,
              payeesOnly: false,
              requireName: false,
              fourEyes: false,
              timeZone,
              updatedAt: '',
              updatedBy: 'ada',
            };
      await controls.setPolicy(scopeNow, policy, 'ada', new Date().toISOString());
    } finally {
      controls.close();
    }
  };

  it('a transfer that would pass the maximum is refused by the claim: nothing journalled, nothing sent', async () => {
    const ctx = createContext({}, { ...setup.env, FSAPI_PROFILE: 'sim' });
    const scopeNow = await transferScope(ctx);
    const journal = new Journal(`${setup.home.dataDir}/max`);
    await setPolicy(`${setup.home.dataDir}/max`, scopeNow, 25_000 as Kobo, 'Africa/Lagos');
    try {
      assert.equal((await executeTransfer(ctx, journal, scopeNow, verified('ACME-MAX-1', 15_000))).kind, 'accepted');
      setup.server.simulator.clearRequests();
      await assert.rejects(executeTransfer(ctx, journal, scopeNow, verified('ACME-MAX-2', 10_001)), (error: unknown) => {
        assert.ok(error instanceof PolicyLimitError, String(error));
        assert.match(error.message, /would pass the daily maximum of ₦250\.00.*₦150\.00 counts toward it.*₦100\.00 is left/);
        return true;
      });
      assert.equal(setup.posts(), 0, 'nothing sent');
      assert.deepEqual(
        (await journal.transfers()).transfers.map((t) => t.reference),
        ['ACME-MAX-1'],
        'no intent for the refused one',
      );
      // Reaching it exactly is allowed.
      assert.equal((await executeTransfer(ctx, journal, scopeNow, verified('ACME-MAX-3', 10_000))).kind, 'accepted');
    } finally {
      await setPolicy(`${setup.home.dataDir}/max`, scopeNow, undefined, 'Africa/Lagos');
    }
  });

  it("the day counted is the policy's time zone's", async () => {
    const ctx = createContext({}, { ...setup.env, FSAPI_PROFILE: 'sim' });
    const scopeNow = await transferScope(ctx);
    const journal = new Journal(`${setup.home.dataDir}/zone`);
    // A zone whose day began at least an hour apart from Lagos's, and an earlier transfer a minute before
    // the later of the two midnights: today in one zone, yesterday in the other.
    const now = Date.now();
    const lagos = dayWindow(now, 'Africa/Lagos').start;
    const zones = Array.from({ length: 27 }, (_, i) => `Etc/GMT${i - 14 < 0 ? '' : '+'}${i - 14}`);
    const zone = zones.find((z) => Math.abs(dayWindow(now, z).start - lagos) >= 3_600_000)!;
    const other = dayWindow(now, zone).start;
    const earlier = Math.max(lagos, other) - 60_000;
    const countedByZone = other <= earlier; // the zone's day had begun when the earlier transfer was sent
    const stamp = { ...scopeNow, time: new Date(earlier).toISOString() };
    await journal.append({ ...intent('ACME-DAY-1', 1), ...stamp, amountKobo: 15_000 } as JournalRecord);
    await journal.append({ type: 'accepted', reference: 'ACME-DAY-1', ...stamp, status: 'successful', message: 'ok' });
    await setPolicy(`${setup.home.dataDir}/zone`, scopeNow, 25_000 as Kobo, zone);
    try {
      const sending = executeTransfer(ctx, journal, scopeNow, verified('ACME-DAY-2', 15_000));
      if (countedByZone) await assert.rejects(sending, PolicyLimitError, `${zone}: the earlier transfer is today's`);
      else assert.equal((await sending).kind, 'accepted', `${zone}: the earlier transfer is yesterday's`);
    } finally {
      await setPolicy(`${setup.home.dataDir}/zone`, scopeNow, undefined, 'Africa/Lagos');
    }
  });
});
