// The transfer journal (src/transfers/journal.ts): the local store, concurrent writers, carrying over journal.jsonl, states.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { findDuplicates, Journal, summarise, TransferFold, type JournalRecord } from '../src/transfers/journal.js';
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
    assert.deepEqual(records.map((r) => r.type), ['intent', 'accepted']);
    assert.deepEqual(warnings, []);
    assert.deepEqual(storeRecords(journal.dataDir, 'journal').map((line) => (JSON.parse(line) as JournalRecord).type), ['intent', 'accepted']);
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
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/fixtures/journal-append.ts'), journal.dataDir, String(perWriter), tag], {
          cwd: repoRoot,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
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

  it('the folded states in the store are exactly what summarise makes of the same records', async () => {
    const journal = freshJournal();
    // A seeded mix of intents, resends and outcomes of every kind over a few references, two profiles.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const records: JournalRecord[] = [];
    const types = ['accepted', 'rejected', 'unknown', 'reconciled', 'status-checked'] as const;
    for (let i = 0; i < 400; i += 1) {
      const reference = `ACME-F${random(25)}`;
      const profile = random(4) === 0 ? 'other' : scope.profile;
      const time = new Date(1_767_000_000_000 + i * 1000).toISOString();
      const type = random(3) === 0 ? 'intent' : types[random(types.length)]!;
      const base = { reference: random(5) === 0 ? reference.toLowerCase() : reference, profile, baseUrl: scope.baseUrl, time };
      let record: JournalRecord;
      if (type === 'intent') record = { ...intent(base.reference, time, { profile, amountKobo: 100 * (1 + random(3)) }), pid: 100 + random(3), run: random(2) ? '0123456789abcdef' : undefined };
      else if (type === 'accepted') record = { type, ...base, status: random(2) ? 'pending' : 'successful', message: 'ok' };
      else if (type === 'rejected') record = { type, ...base, httpStatus: 400, message: 'no' };
      else if (type === 'unknown') record = { type, ...base, error: 'timeout' };
      else if (type === 'reconciled') record = { type, ...base, status: 'successful' };
      else record = { type, ...base, found: random(2) === 0, status: random(2) ? 'successful' : undefined };
      records.push(record);
      await journal.append(record);
    }
    const expected = new TransferFold();
    for (const record of records) expected.add(record);
    const plain = (value: unknown) => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown));
    assert.deepEqual(plain((await journal.transfers()).transfers), plain(expected.transfers()));
    for (let i = 0; i < 25; i += 1) {
      for (const profile of [scope.profile, 'other']) {
        const ref = { profile, baseUrl: scope.baseUrl, reference: `acme-f${i}` };
        assert.deepEqual(plain(journal.attempts(ref)), plain(expected.attempts(ref)), `attempts of ${ref.reference} (${profile})`);
        assert.deepEqual(plain(journal.stateOf(ref)), plain(expected.stateOf(ref)), `state of ${ref.reference} (${profile})`);
      }
    }
    const candidate = { ...scope, accountNumber: '0123456789', bankCode: '000013', amountKobo: 200 };
    const now = 1_767_000_000_000 + 200_000;
    assert.deepEqual(plain(journal.duplicates(candidate, now)), plain(findDuplicates(expected.transfers(), candidate, now)));
  });
});

describe('journal: carrying over journal.jsonl', () => {
  const lines = (...records: unknown[]) => records.map((r) => `${typeof r === 'string' ? r : JSON.stringify(r)}\n`).join('');

  it('imports every record once, keeps the file, and skips a torn last line with a warning', async () => {
    const journal = freshJournal();
    const old = path.join(journal.dataDir, 'journal.jsonl');
    const text = lines(intent('ACME-T1', '2026-01-01T10:00:00.000Z'), { type: 'accepted', ...at('ACME-T1', '2026-01-01T10:00:01.000Z'), status: 'pending', message: 'queued' }) + '{"type":"accepted","reference":"ACME-T2","prof';
    writeFileSync(old, text);
    const first = await journal.read();
    assert.deepEqual(first.records.map((r) => r.type), ['intent', 'accepted']);
    assert.equal(first.warnings.length, 1);
    assert.match(first.warnings[0]!, /incomplete last line 3 of .*journal\.jsonl/);
    assert.equal(readFileSync(old, 'utf8'), text, 'the original is left as it was');

    // Once: what an old fsapi appends to the file afterwards is not read again, by this process or another.
    appendFileSync(old, lines(intent('ACME-T3', '2026-01-01T10:02:00.000Z')));
    await journal.append(intent('ACME-T4', '2026-01-01T10:03:00.000Z'));
    assert.deepEqual((await Journal.inDataDir(journal.dataDir).transfers()).transfers.map((t) => t.reference), ['ACME-T1', 'ACME-T4']);
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

    closeLocalStores();
    const again = Journal.inDataDir(journal.dataDir);
    assert.equal(again.count(), 25_000, 'opened again: nothing imported twice');
    assert.equal(storeRecords(journal.dataDir, 'journal').length, 50_000);
  });

  it('records of an unknown type (a newer fsapi) are left out', async () => {
    const journal = freshJournal();
    writeFileSync(path.join(journal.dataDir, 'journal.jsonl'), lines({ type: 'from-the-future', reference: 'X' }, intent('ACME-F1', '2026-01-01T10:00:00.000Z')));
    const { records, warnings } = await journal.read();
    assert.equal(records.length, 1);
    assert.deepEqual(warnings, []);
  });
});

describe('journal: the last known state of each transfer', () => {
  it('folds intent and outcomes into one state per transfer', () => {
    const states = summarise([
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
    assert.equal(byRef['ACME-S1']?.state, 'accepted');
    assert.equal(byRef['ACME-S1']?.status, 'successful');
    assert.equal(byRef['ACME-S2']?.state, 'rejected');
    assert.equal(byRef['ACME-S2']?.message, 'Request Unsuccessful');
    assert.equal(byRef['ACME-S3']?.state, 'reconciled');
    assert.equal(byRef['ACME-S4']?.state, 'unknown');
    assert.equal(byRef['ACME-S4']?.message, 'no answer recorded');
  });

  it('keeps profiles apart: the same reference under two profiles is two transfers', () => {
    const states = summarise([
      intent('ACME-X', '2026-01-01T10:00:00.000Z'),
      intent('ACME-X', '2026-01-01T10:00:00.000Z', { profile: 'other' }),
      { type: 'accepted', ...at('ACME-X', '2026-01-01T10:00:01.000Z'), status: 'pending', message: 'ok' },
    ]);
    assert.equal(states.length, 2);
    assert.deepEqual(states.map((s) => `${s.profile}:${s.state}`).sort(), ['other:unknown', 'sim:accepted']);
  });

  it('the duplicate guard: same amount, account and bank within 10 minutes; refused ones do not count', () => {
    const now = Date.parse('2026-01-01T10:09:00.000Z');
    const states = summarise([
      intent('ACME-D1', '2026-01-01T10:00:00.000Z'), // 9 minutes before now: counts
      intent('ACME-D2', '2026-01-01T09:58:00.000Z'), // 11 minutes: too old
      intent('ACME-D3', '2026-01-01T10:05:00.000Z', { amountKobo: 150001 }), // another amount
      intent('ACME-D4', '2026-01-01T10:06:00.000Z', { accountNumber: '0123456788' }), // another account
      intent('ACME-D5', '2026-01-01T10:07:00.000Z'),
      { type: 'rejected', ...at('ACME-D5', '2026-01-01T10:07:01.000Z'), httpStatus: 400, message: 'no' },
      intent('ACME-D6', '2026-01-01T10:08:00.000Z', { profile: 'other' }), // another profile
    ]);
    const found = findDuplicates(states, { ...scope, accountNumber: '0123456789', bankCode: '000013', amountKobo: 150000 }, now);
    assert.deepEqual(found.map((s) => s.reference), ['ACME-D1']);
  });
});
