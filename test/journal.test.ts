// The transfer journal (src/transfers/journal.ts): the local store, concurrent writers, carrying over journal.jsonl, states.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DUPLICATE_WINDOW_MS, Journal, type JournalRecord } from '../src/transfers/journal.js';
import { CorruptFileError } from '../src/errors.js';
import { closeLocalStores } from '../src/store/database.js';
import { makeHome, repoRoot } from './helpers/cli.js';
import { storeRecords } from './helpers/transfer-setup.js';

const home = makeHome();
after(() => home.cleanup());
let counter = 0;
const freshJournal = () => {
  const dir = path.join(home.dataDir, `j${++counter}`);
  mkdirSync(dir, { recursive: true });
  return Journal.inDataDir(dir);
};

const scope = { profile: 'sim', baseUrl: 'http://127.0.0.1:4010' };
function intent(reference: string, time: string, overrides: Partial<{ accountNumber: string; amountKobo: number; profile: string }> = {}): JournalRecord {
  const amountKobo = overrides.amountKobo ?? 150000;
  return {
    type: 'intent',
    reference,
    profile: overrides.profile ?? scope.profile,
    baseUrl: scope.baseUrl,
    time,
    env: 'sandbox',
    request: {
      beneficiaryBankCode: '000013',
      beneficiaryAccountNumber: overrides.accountNumber ?? '0123456789',
      narration: 'Invoice 42',
      amount: amountKobo / 100,
      reference,
    },
    amountKobo,
    bankName: 'Guaranty Trust Bank',
    accountName: 'ADA OBI',
  };
}
const at = (reference: string, time: string) => ({ reference, ...scope, time });

describe('journal: writing and reading (the local store)', () => {
  it('appends records to fsapi.db, mode 0600 with its WAL, and reads them back in order', async () => {
    const journal = freshJournal();
    await journal.append(intent('ACME-A1', '2026-01-01T10:00:00.000Z'));
    await journal.append({ type: 'accepted', ...at('ACME-A1', '2026-01-01T10:00:01.000Z'), status: 'pending', message: 'Transfer queued' });
    assert.equal(path.basename(journal.file), 'fsapi.db');
    for (const file of [journal.file, `${journal.file}-wal`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
    assert.equal(statSync(journal.dataDir).mode & 0o777, 0o700);
    const { records, warnings } = await journal.read();
    assert.deepEqual(
      records.map((r) => r.type),
      ['intent', 'accepted'],
    );
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      storeRecords(journal.dataDir, 'journal').map((line) => (JSON.parse(line) as JournalRecord).type),
      ['intent', 'accepted'],
    );
  });

  it('a missing journal is empty, not an error', async () => {
    const journal = freshJournal();
    assert.deepEqual(await journal.read(), { records: [], warnings: [] });
  });

  it('many appends in flight in one process lose nothing', async () => {
    const journal = freshJournal();
    await Promise.all(Array.from({ length: 200 }, (_, i) => journal.append(intent(`ACME-P${i}`, new Date(1_700_000_000_000 + i).toISOString()))));
    const { records } = await journal.read();
    assert.equal(records.length, 200);
    assert.equal(new Set(records.map((r) => (r.type === 'repaired' ? '' : r.reference))).size, 200);
  });

  it('two processes appending at once lose no record', { timeout: 60_000 }, async () => {
    const journal = freshJournal();
    const perWriter = 300;
    const writer = (tag: string) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', path.join(repoRoot, 'test/fixtures/journal-append.ts'), journal.dataDir, String(perWriter), tag],
          {
            cwd: repoRoot,
            stdio: ['ignore', 'ignore', 'inherit'],
          },
        );
        child.on('error', reject);
        child.on('close', (code) => resolve(code ?? 1));
      });
    const codes = await Promise.all([writer('one'), writer('two')]);
    assert.deepEqual(codes, [0, 0]);
    const { records, warnings } = await journal.read();
    assert.deepEqual(warnings, []);
    assert.equal(records.length, 2 * perWriter);
    for (const tag of ['one', 'two']) {
      const mine = records.filter((r) => r.type === 'intent' && r.profile === tag);
      assert.equal(mine.length, perWriter, `all ${perWriter} records of writer ${tag}`);
    }
    assert.equal((await journal.transfers()).transfers.length, 2 * perWriter);
  });

  it('the attempts of each reference are counted across cases, per profile, as the records are written', async () => {
    const journal = freshJournal();
    // A seeded mix of intents, resends and outcomes of every kind over a few references, two profiles.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const types = ['accepted', 'rejected', 'unknown', 'reconciled', 'status-checked'] as const;
    // What the claim must see, kept beside the records: per profile and upper-cased reference, the intents,
    // the last writer and whether an outcome (a status check is none) came after the last intent.
    const expected = new Map<string, { intents: number; lastPid: number | undefined; lastRun: string | undefined; lastIntentAt: string; answered: boolean }>();
    // Which transfers exist: one per profile and reference exactly as written, in order of first intent.
    const transfers: string[] = [];
    for (let i = 0; i < 400; i += 1) {
      const reference = `ACME-F${random(25)}`;
      const profile = random(4) === 0 ? 'other' : scope.profile;
      const time = new Date(1_767_000_000_000 + i * 1000).toISOString();
      const type = random(3) === 0 ? 'intent' : types[random(types.length)]!;
      const base = { reference: random(5) === 0 ? reference.toLowerCase() : reference, profile, baseUrl: scope.baseUrl, time };
      const key = `${profile} ${reference.toUpperCase()}`;
      let record: JournalRecord;
      if (type === 'intent') {
        const pid = 100 + random(3);
        const run = random(2) ? '0123456789abcdef' : undefined;
        record = { ...intent(base.reference, time, { profile, amountKobo: 100 * (1 + random(3)) }), pid, run };
        expected.set(key, { intents: (expected.get(key)?.intents ?? 0) + 1, lastPid: pid, lastRun: run, lastIntentAt: time, answered: false });
        if (!transfers.includes(`${profile} ${base.reference}`)) transfers.push(`${profile} ${base.reference}`);
      } else {
        if (type === 'accepted') record = { type, ...base, status: random(2) ? 'pending' : 'successful', message: 'ok' };
        else if (type === 'rejected') record = { type, ...base, httpStatus: 400, message: 'no' };
        else if (type === 'unknown') record = { type, ...base, error: 'timeout' };
        else if (type === 'reconciled') record = { type, ...base, status: 'successful' };
        else record = { type, ...base, found: random(2) === 0, status: random(2) ? 'successful' : undefined };
        const attempts = expected.get(key);
        if (attempts && type !== 'status-checked') attempts.answered = true;
      }
      await journal.append(record);
    }
    const plain = (value: unknown) => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown));
    assert.deepEqual(
      (await journal.transfers()).transfers.map((t) => `${t.profile} ${t.reference}`),
      transfers,
    );
    for (let i = 0; i < 25; i += 1) {
      for (const profile of [scope.profile, 'other']) {
        const ref = { profile, baseUrl: scope.baseUrl, reference: `acme-f${i}` };
        assert.deepEqual(plain(await journal.attempts(ref)), plain(expected.get(`${profile} ACME-F${i}`)), `attempts of ${ref.reference} (${profile})`);
        // The state of a reference in another case: the one written exactly so, else the first of any case.
        const exact = transfers.find((t) => t === `${profile} ${ref.reference}`);
        const first = exact ?? transfers.find((t) => t.toUpperCase() === `${profile} ACME-F${i}`.toUpperCase());
        assert.equal((await journal.stateOf(ref))?.reference, first?.split(' ')[1], `state of ${ref.reference} (${profile})`);
      }
    }
  });
});

describe('journal: carrying over journal.jsonl', () => {
  const lines = (...records: unknown[]) => records.map((r) => `${typeof r === 'string' ? r : JSON.stringify(r)}\n`).join('');

  it('imports every record once, keeps the file, and skips a torn last line with a warning', async () => {
    const journal = freshJournal();
    const old = path.join(journal.dataDir, 'journal.jsonl');
    const text =
      lines(intent('ACME-T1', '2026-01-01T10:00:00.000Z'), {
        type: 'accepted',
        ...at('ACME-T1', '2026-01-01T10:00:01.000Z'),
        status: 'pending',
        message: 'queued',
      }) + '{"type":"accepted","reference":"ACME-T2","prof';
    writeFileSync(old, text);
    const first = await journal.read();
    assert.deepEqual(
      first.records.map((r) => r.type),
      ['intent', 'accepted'],
    );
    assert.equal(first.warnings.length, 1);
    assert.match(first.warnings[0]!, /incomplete last line 3 of .*journal\.jsonl/);
    assert.equal(readFileSync(old, 'utf8'), text, 'the original is left as it was');

    // Once: what an old fsapi appends to the file afterwards is not read again, by this process or another.
    appendFileSync(old, lines(intent('ACME-T3', '2026-01-01T10:02:00.000Z')));
    await journal.append(intent('ACME-T4', '2026-01-01T10:03:00.000Z'));
    assert.deepEqual(
      (await Journal.inDataDir(journal.dataDir).transfers()).transfers.map((t) => t.reference),
      ['ACME-T1', 'ACME-T4'],
    );
  });

  it('a line in the middle that is not a record stops the import, naming the file and line; nothing is half imported', async () => {
    const journal = freshJournal();
    const old = path.join(journal.dataDir, 'journal.jsonl');
    writeFileSync(old, lines(intent('ACME-C1', '2026-01-01T10:00:00.000Z'), 'garbage', intent('ACME-C2', '2026-01-01T10:01:00.000Z')));
    await assert.rejects(journal.read(), (error: unknown) => {
      assert.ok(error instanceof CorruptFileError);
      assert.match(error.message, /journal\.jsonl/);
      assert.match(error.message, /line 2 /);
      return true;
    });
    assert.deepEqual(storeRecords(journal.dataDir, 'journal'), []);
    writeFileSync(old, lines(intent('ACME-C1', '2026-01-01T10:00:00.000Z'), intent('ACME-C2', '2026-01-01T10:01:00.000Z')));
    assert.equal((await Journal.inDataDir(journal.dataDir).read()).records.length, 2);
  });

  it('a long journal.jsonl (50,000 lines, a line longer than a read, UTF-8 across reads) is carried over whole, once', { timeout: 120_000 }, async () => {
    const journal = freshJournal();
    const old = path.join(journal.dataDir, 'journal.jsonl');
    const records: JournalRecord[] = [];
    for (let i = 0; i < 25_000; i += 1) {
      const reference = `ACME-L${String(i).padStart(6, '0')}`;
      const time = new Date(Date.parse('2026-01-01T00:00:00.000Z') + i * 1000).toISOString();
      const sent = intent(reference, time, { amountKobo: 100 + i });
      // Multi-byte text on every line, so some character straddles the boundary between two reads.
      (sent as { accountName: string }).accountName = `ỌLỌ́PÀ ₦ ${i} 🙂`;
      // One line far longer than a read of the file.
      if (i === 12_345) (sent as { origin?: string }).origin = `batch ${'é'.repeat(300_000)}`;
      records.push(sent, { type: 'accepted', ...at(reference, time), status: 'successful', message: 'ok' });
    }
    const text = `${records.map((r) => JSON.stringify(r)).join('\n')}\n{"type":"accepted","reference":"ACME-L`;
    writeFileSync(old, text);
    const first = await journal.read();
    assert.equal(first.records.length, 50_000);
    assert.deepEqual(first.records, records, 'every record, in order, as written');
    assert.equal(first.warnings.length, 1);
    assert.match(first.warnings[0]!, /incomplete last line 50001 of .*journal\.jsonl/);
    assert.equal(readFileSync(old, 'utf8'), text, 'the original is left as it was');

    await closeLocalStores();
    const again = Journal.inDataDir(journal.dataDir);
    assert.equal(await again.count(), 25_000, 'opened again: nothing imported twice');
    assert.equal(storeRecords(journal.dataDir, 'journal').length, 50_000);
  });

  it('records of an unknown type (a newer fsapi) are left out', async () => {
    const journal = freshJournal();
    writeFileSync(
      path.join(journal.dataDir, 'journal.jsonl'),
      lines({ type: 'from-the-future', reference: 'X' }, intent('ACME-F1', '2026-01-01T10:00:00.000Z')),
    );
    const { records, warnings } = await journal.read();
    assert.equal(records.length, 1);
    assert.deepEqual(warnings, []);
  });
});

describe('journal: the last known state of each transfer', () => {
  const statesOf = async (records: JournalRecord[]) => {
    const journal = freshJournal();
    for (const record of records) await journal.append(record);
    return (await journal.transfers()).transfers;
  };

  it('folds intent and outcomes into one state per transfer', async () => {
    const states = await statesOf([
      intent('ACME-S1', '2026-01-01T10:00:00.000Z'),
      intent('ACME-S2', '2026-01-01T10:01:00.000Z'),
      intent('ACME-S3', '2026-01-01T10:02:00.000Z'),
      intent('ACME-S4', '2026-01-01T10:03:00.000Z'),
      { type: 'accepted', ...at('ACME-S1', '2026-01-01T10:00:01.000Z'), status: 'pending', message: 'ok' },
      { type: 'status-checked', ...at('ACME-S1', '2026-01-01T10:05:00.000Z'), found: true, status: 'successful' },
      { type: 'rejected', ...at('ACME-S2', '2026-01-01T10:01:01.000Z'), httpStatus: 400, message: 'Request Unsuccessful' },
      { type: 'unknown', ...at('ACME-S3', '2026-01-01T10:02:30.000Z'), error: 'timed out' },
      { type: 'reconciled', ...at('ACME-S3', '2026-01-01T10:02:31.000Z'), status: 'pending' },
      // ACME-S4: killed after its intent
    ]);
    const byRef = Object.fromEntries(states.map((s) => [s.reference, s]));
    assert.equal(states.length, 4);
    assert.equal(byRef['ACME-S1']?.state, 'accepted');
    assert.equal(byRef['ACME-S1']?.status, 'successful');
    assert.equal(byRef['ACME-S2']?.state, 'rejected');
    assert.equal(byRef['ACME-S2']?.message, 'Request Unsuccessful');
    assert.equal(byRef['ACME-S3']?.state, 'reconciled');
    assert.equal(byRef['ACME-S4']?.state, 'unknown');
    assert.equal(byRef['ACME-S4']?.message, 'no answer recorded');
  });

  it('keeps profiles apart: the same reference under two profiles is two transfers', async () => {
    const states = await statesOf([
      intent('ACME-X', '2026-01-01T10:00:00.000Z'),
      intent('ACME-X', '2026-01-01T10:00:00.000Z', { profile: 'other' }),
      { type: 'accepted', ...at('ACME-X', '2026-01-01T10:00:01.000Z'), status: 'pending', message: 'ok' },
    ]);
    assert.equal(states.length, 2);
    assert.deepEqual(states.map((s) => `${s.profile}:${s.state}`).sort(), ['other:unknown', 'sim:accepted']);
  });

  it('an outcome of a reference with no intent changes nothing', async () => {
    const states = await statesOf([{ type: 'accepted', ...at('ACME-NONE', '2026-01-01T10:00:01.000Z'), status: 'pending', message: 'ok' }]);
    assert.deepEqual(states, []);
  });
});

// The duplicate guard's one rule is a query (JournalStore.duplicates, src/store/journal.ts): tested here
// on the store itself, each condition on its own.
describe('journal: the duplicate rule', () => {
  const now = Date.parse('2026-01-01T10:10:00.000Z');
  const iso = (ms: number) => new Date(ms).toISOString();
  const candidate = { ...scope, accountNumber: '0123456789', bankCode: '000013', amountKobo: 150000 as Kobo };
  const found = async (records: JournalRecord[], query = candidate, windowMs?: number) => {
    const journal = freshJournal();
    for (const record of records) await journal.append(record);
    return (await journal.duplicates(query, now, windowMs)).map((t) => t.reference);
  };
  const otherBank = (record: JournalRecord): JournalRecord => {
    const sent = record as Extract<JournalRecord, { type: 'intent' }>;
    return { ...sent, request: { ...sent.request, beneficiaryBankCode: '000014' } };
  };

  it('the same amount to the same account at the same bank, in the same profile and base address, in the window', async () => {
    const time = iso(now - 60_000);
    assert.deepEqual(await found([intent('ACME-D1', time)]), ['ACME-D1']);
    assert.deepEqual(await found([intent('ACME-D1', time, { amountKobo: 150001 })]), [], 'another amount');
    assert.deepEqual(await found([intent('ACME-D1', time, { amountKobo: 149999 })]), [], 'another amount');
    assert.deepEqual(await found([intent('ACME-D1', time, { accountNumber: '0123456788' })]), [], 'another account');
    assert.deepEqual(await found([otherBank(intent('ACME-D1', time))]), [], 'another bank');
    assert.deepEqual(await found([intent('ACME-D1', time, { profile: 'other' })]), [], 'another profile');
    assert.deepEqual(await found([{ ...intent('ACME-D1', time), baseUrl: 'local' } as JournalRecord]), [], 'another base address');
    assert.deepEqual(await found([intent('ACME-D1', time)], { ...candidate, baseUrl: 'local' }), [], 'asked for another base address');
  });

  it('every earlier transfer of another reference counts, oldest first; the caller leaves out its own reference', async () => {
    assert.deepEqual(await found([intent('ACME-D2', iso(now - 120_000)), intent('ACME-D1', iso(now - 60_000)), intent('ACME-D3', iso(now - 30_000))]), [
      'ACME-D2',
      'ACME-D1',
      'ACME-D3',
    ]);
  });

  it('refused transfers do not count; in flight, unknown, accepted, reconciled and refused-then-found ones do', async () => {
    const time = iso(now - 60_000);
    const answer = (type: 'accepted' | 'rejected' | 'unknown' | 'reconciled', reference: string): JournalRecord =>
      type === 'rejected'
        ? { type, ...at(reference, time), httpStatus: 400, message: 'no' }
        : type === 'unknown'
          ? { type, ...at(reference, time), error: 'timeout' }
          : { type, ...at(reference, time), status: 'pending', message: 'ok' };
    const records: JournalRecord[] = [
      intent('ACME-INFLIGHT', time),
      intent('ACME-UNKNOWN', time),
      answer('unknown', 'ACME-UNKNOWN'),
      intent('ACME-ACCEPTED', time),
      answer('accepted', 'ACME-ACCEPTED'),
      intent('ACME-RECONCILED', time),
      answer('reconciled', 'ACME-RECONCILED'),
      intent('ACME-REFUSED', time),
      answer('rejected', 'ACME-REFUSED'),
      intent('ACME-REFUSEDPAID', time),
      answer('rejected', 'ACME-REFUSEDPAID'),
      answer('reconciled', 'ACME-REFUSEDPAID'),
      intent('ACME-RESENT', time), // refused, then sent again: in flight again
      answer('rejected', 'ACME-RESENT'),
      intent('ACME-RESENT', time),
    ];
    assert.deepEqual(await found(records), ['ACME-INFLIGHT', 'ACME-UNKNOWN', 'ACME-ACCEPTED', 'ACME-RECONCILED', 'ACME-REFUSEDPAID', 'ACME-RESENT']);
  });

  it(`the window (${DUPLICATE_WINDOW_MS / 60_000} minutes by default) is open at both ends, and a clock set back still counts`, async () => {
    const edge = DUPLICATE_WINDOW_MS;
    const records = [
      intent('ACME-OLDEST', iso(now - edge)), // exactly the window before: out
      intent('ACME-INSIDE', iso(now - edge + 1)), // a millisecond inside: in
      intent('ACME-NOW', iso(now)),
      intent('ACME-AHEAD', iso(now + edge - 1)), // written by a clock ahead of this one: in
      intent('ACME-FARAHEAD', iso(now + edge)), // out
      intent('ACME-NODATE', 'not a date'), // an intent time that is not a date is never a duplicate
    ];
    assert.deepEqual(await found(records), ['ACME-INSIDE', 'ACME-NOW', 'ACME-AHEAD']);
    assert.deepEqual(await found(records, candidate, 60_000), ['ACME-NOW'], 'a window of one minute');
    assert.deepEqual(await found([intent('ACME-HOUR', iso(now - 3_599_999))], candidate, 3_600_000), ['ACME-HOUR'], 'a window of an hour');
  });
});
