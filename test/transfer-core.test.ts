// src/transfers/transfer.ts, names.ts and reference.ts called directly with an injected Context (a fake clock
// where time matters), against the simulator over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock, Context } from '../src/context.js';
import { createContext } from '../src/runtime.js';
import { Journal } from '../src/transfers/journal.js';
import { parseNairaInput, type Kobo } from '../src/money/kobo.js';
import { namesMatch } from '../src/transfers/names.js';
import { checkReferencePrefix, makeReference, parseReferenceOption, referencePrefix } from '../src/api/reference.js';
import {
  executeTransfer,
  lookUpReference,
  parseSendRequest,
  reconcileSchedule,
  transferScope,
  waitForSettlement,
  type VerifiedTransfer,
} from '../src/transfers/transfer.js';
import { UsageError } from '../src/errors.js';
import { LOST_ANSWER_LOOKUPS } from '../src/common/retry.js';
import { outcomeOfJournalled, outcomeOfStatus } from '../src/transfers/outcome.js';
import { ReferenceTakenError } from '../src/transfers/claim.js';
import { setUpTransfers, storeRecords, type TransferSetup } from './helpers/transfer-setup.js';

describe('outcomes: one vocabulary', () => {
  it('reads API statuses without case; an unknown final word is failed, never successful', () => {
    const cases: Array<[string | undefined, string]> = [
      ['pending', 'pending'],
      ['PROCESSING', 'pending'],
      [undefined, 'pending'],
      ['', 'pending'],
      ['successful', 'successful'],
      ['SUCCESS', 'successful'],
      ['Completed', 'successful'],
      ['failed', 'failed'],
      ['Declined', 'failed'],
      ['REVERSED', 'reversed'],
      ['reversal', 'reversed'],
    ];
    for (const [status, outcome] of cases) assert.equal(outcomeOfStatus(status), outcome, String(status));
  });
  it('turns the journal states into outcomes: refused, unknown or in flight, else the status last seen', () => {
    assert.equal(outcomeOfJournalled({ state: 'rejected', status: undefined }), 'refused');
    assert.equal(outcomeOfJournalled({ state: 'unknown', status: undefined }), 'unknown');
    assert.equal(outcomeOfJournalled({ state: 'unknown', status: undefined }, true), 'in flight');
    assert.equal(outcomeOfJournalled({ state: 'accepted', status: undefined }), 'pending');
    assert.equal(outcomeOfJournalled({ state: 'accepted', status: 'Successful' }), 'successful');
    assert.equal(outcomeOfJournalled({ state: 'reconciled', status: 'reversed' }), 'reversed');
  });
});

describe('names: --expect-name comparison', () => {
  it('ignores case, spacing, punctuation and accents; keeps words and their order', () => {
    assert.ok(namesMatch('OKAFOR CHIAMAKA ADAEZE', 'okafor  chiamaka adaeze'));
    assert.ok(namesMatch('OKAFOR, CHIAMAKA-ADAEZE.', 'Okafor Chiamaka Adaeze'));
    assert.ok(namesMatch("O'NEIL ADEBAYO", 'oneil adébáyọ̀'));
    assert.ok(!namesMatch('OKAFOR CHIAMAKA ADAEZE', 'Chiamaka Okafor Adaeze'), 'word order matters');
    assert.ok(!namesMatch('OKAFOR CHIAMAKA ADAEZE', 'Okafor Chiamaka'), 'a missing word matters');
    assert.ok(!namesMatch('OKAFOR CHIAMAKA', 'OKAFOR CHIAMAKAA'));
    assert.ok(!namesMatch('', ''), 'an empty verified name never matches');
  });
});

describe('references', () => {
  it('the prefix is the first word of the business name, upper case, letters and digits only', () => {
    assert.equal(referencePrefix('ACME TRADING LIMITED'), 'ACME');
    assert.equal(referencePrefix("  o'brien & sons ltd"), 'OBRIEN');
    assert.equal(referencePrefix('Kola2Go Foods'), 'KOLA2GO');
    assert.throws(() => referencePrefix('  &&& Ltd'), UsageError);
  });

  it('made references are PREFIX-<12 Crockford base32 characters> from the CSPRNG, and do not repeat', () => {
    const made = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const reference = makeReference('ACME');
      assert.match(reference, /^ACME-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{12}$/);
      made.add(reference);
    }
    assert.equal(made.size, 2000);
    assert.equal(
      makeReference('ACME', (size) => new Uint8Array(size).fill(255)),
      'ACME-ZZZZZZZZZZZZ',
    );
  });

  it('a given reference: shape checked locally, prefix compared case-insensitively', () => {
    assert.equal(parseReferenceOption(' ACME-inv.42_a '), 'ACME-inv.42_a');
    for (const bad of ['', 'ACME', 'ACME-', '-X', 'ACME X-1', 'ACME-é', `ACME-${'x'.repeat(60)}`]) {
      assert.throws(() => parseReferenceOption(bad), UsageError, bad);
    }
    checkReferencePrefix('acme-42', 'ACME');
    assert.throws(() => checkReferencePrefix('ACMEX-42', 'ACME'), /must start with ACME-/);
    assert.throws(() => checkReferencePrefix('XYZ-42', 'ACME'), UsageError);
  });
});

describe('local validation and the reconciliation schedule', () => {
  it('parseSendRequest trims and bounds the narration and options', () => {
    const request = parseSendRequest(' 0123456789 ', {
      bank: 'gtb',
      amountKobo: parseNairaInput('1,500.50'),
      narration: '  Invoice 42 ',
      senderName: ' Acme ',
    });
    assert.equal(request.accountNumber, '0123456789');
    assert.equal(request.amountKobo, 150050);
    assert.equal(request.narration, 'Invoice 42');
    assert.equal(request.senderName, 'Acme');
    assert.equal(request.reference, undefined);
    assert.doesNotThrow(() => parseSendRequest('0123456789', { bank: 'gtb', amountKobo: parseNairaInput('1'), narration: 'x'.repeat(100) }));
    assert.throws(() => parseSendRequest('0123456789', { bank: 'gtb', amountKobo: parseNairaInput('1'), narration: 'x'.repeat(101) }), /at most 100/);
    assert.throws(() => parseSendRequest('0123456789', { bank: 'gtb', amountKobo: parseNairaInput('1'), narration: 'x', expectName: ' ' }), UsageError);
  });

  it('the default schedule is bounded (about 30 s) and FSAPI_RECONCILE_SCHEDULE_MS replaces it', () => {
    assert.deepEqual(reconcileSchedule({}), LOST_ANSWER_LOOKUPS);
    assert.equal(
      LOST_ANSWER_LOOKUPS.waitsMs.reduce((a, b) => a + b, LOST_ANSWER_LOOKUPS.firstWaitMs ?? 0),
      30_000,
    );
    assert.deepEqual(reconcileSchedule({ FSAPI_RECONCILE_SCHEDULE_MS: '0, 100,200' }), { firstWaitMs: 0, waitsMs: [100, 200] });
    for (const bad of ['x', '1,,2', '-1', '999999', Array(21).fill('1').join(',')]) {
      assert.throws(() => reconcileSchedule({ FSAPI_RECONCILE_SCHEDULE_MS: bad }), UsageError, bad);
    }
  });
});

/** A clock whose sleep returns at once and moves time forward: five minutes pass in milliseconds. */
function fakeClock(): Clock & { slept: number } {
  let now = Date.now();
  const clock = {
    slept: 0,
    now: () => now,
    sleep: async (ms: number) => {
      clock.slept += ms;
      now += ms;
    },
  };
  return clock;
}

describe('core with an injected context', () => {
  let setup: TransferSetup;
  let ctx: Context;
  let clock: ReturnType<typeof fakeClock>;
  before(async () => {
    setup = await setUpTransfers();
  });
  after(async () => {
    await setup.close();
  });
  const freshContext = () => {
    clock = fakeClock();
    ctx = createContext({}, { ...setup.env, FSAPI_PROFILE: 'sim' });
    ctx.clock = clock;
    return ctx;
  };
  const verified = (reference: string, accountNumber = '0123456789'): VerifiedTransfer => ({
    reference,
    accountNumber,
    bankCode: '000013',
    bankName: 'Guaranty Trust Bank',
    accountName: 'OKAFOR CHIAMAKA ADAEZE',
    amountKobo: 100_00 as Kobo,
    narration: 'core test',
    senderName: undefined,
  });

  it('lookUpReference keeps looking until the schedule ends, then says what it found', async () => {
    freshContext();
    setup.server.simulator.clearRequests();
    const result = await lookUpReference(ctx, 'ACME-NOTTHERE', LOST_ANSWER_LOOKUPS);
    assert.equal(result.found, undefined);
    assert.match(result.detail ?? '', /found nothing in 30 s \(6 lookups; last: not found\)/);
    assert.equal(clock.slept, 30_000);
    assert.equal(setup.count('GET', '/v1/transactions/reference/ACME-NOTTHERE'), 6);
  });

  it('waitForSettlement gives up after 5 minutes on a transfer that stays pending (account ending 1111)', async () => {
    freshContext();
    const journal = new Journal(`${setup.home.dataDir}/core-wait`);
    const scope = await transferScope(ctx);
    const outcome = await executeTransfer(ctx, journal, scope, verified('ACME-CORE-WAIT', '0123451111'));
    assert.equal(outcome.kind, 'accepted');
    const statuses: string[] = [];
    const result = await waitForSettlement(ctx, 'ACME-CORE-WAIT', { onStatus: (status) => statuses.push(status) });
    assert.equal(result.settled, false);
    assert.equal(result.transaction?.status, 'pending');
    assert.match(result.reason ?? '', /still pending after 5 minutes/);
    assert.ok(clock.slept >= 5 * 60_000 && clock.slept <= 5 * 60_000 + 2500, `waited ${clock.slept} ms`);
    assert.ok(statuses.length > 100 && statuses.length <= 122, `${statuses.length} polls`);
  });

  it('several transfers in flight in one process: one POST each, every record journalled whole', async () => {
    freshContext();
    const journal = new Journal(`${setup.home.dataDir}/core-parallel`);
    const scope = await transferScope(ctx);
    setup.server.simulator.clearRequests();
    const references = Array.from({ length: 8 }, (_, i) => `ACME-CORE-PAR-${i}`);
    const outcomes = await Promise.all(
      references.map((reference, i) => executeTransfer(ctx, journal, scope, verified(reference, `01234567${10 + i}`), { origin: `test ${i}` })),
    );
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      Array(8).fill('accepted'),
    );
    assert.equal(setup.posts(), 8);
    const lines = storeRecords(journal.dataDir, 'journal');
    assert.equal(lines.length, 16);
    const { transfers } = await journal.transfers();
    assert.deepEqual(transfers.map((t) => t.reference).sort(), [...references].sort());
    assert.ok(transfers.every((t) => t.state === 'accepted' && t.origin?.startsWith('test ')));
  });

  it('a lost answer is reconciled without a second POST; a refusal is rejected with the API message', async () => {
    freshContext();
    const journal = new Journal(`${setup.home.dataDir}/core-faults`);
    const scope = await transferScope(ctx);
    setup.server.simulator.clearRequests();
    setup.server.simulator.setFault('bad-gateway');
    const unknownSeen: string[] = [];
    const lost = await executeTransfer(ctx, journal, scope, verified('ACME-CORE-LOST'), { onUnknown: (detail) => void unknownSeen.push(detail) });
    setup.server.simulator.setFault(undefined);
    assert.equal(lost.kind, 'reconciled');
    assert.equal(unknownSeen.length, 1);
    assert.equal(setup.posts(), 1);

    // The same reference again is refused by the claim, before any POST: it was paid.
    await assert.rejects(executeTransfer(ctx, journal, scope, verified('ACME-CORE-LOST', '0123456788')), (error: unknown) => {
      assert.ok(error instanceof ReferenceTakenError);
      assert.match(error.message, /reference ACME-CORE-LOST was already sent on .* \((pending|successful)\); a reference pays once, so nothing was sent/);
      return true;
    });
    assert.equal(setup.posts(), 1);

    // An account the simulator refuses (ending in 0000): rejected, with the API's message.
    const refused = await executeTransfer(ctx, journal, scope, verified('ACME-CORE-REFUSED', '0123450000'));
    assert.equal(refused.kind, 'rejected');
    if (refused.kind === 'rejected') {
      assert.equal(refused.httpStatus, 400);
      assert.match(refused.message, /Request Un-?Successful/);
    }
    assert.equal(setup.posts(), 2);
  });
});
