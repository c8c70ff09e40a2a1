// The transfer journal (src/core/journal.ts): durable appends, concurrent writers, torn lines, states.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { findDuplicates, Journal, summarise, type JournalRecord } from '../src/core/journal.js';
import { CorruptFileError } from '../src/errors.js';
import { makeHome, repoRoot } from './helpers/cli.js';

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

describe('journal: writing and reading', () => {
  it('appends records as JSON lines, mode 0600, and reads them back in order', async () => {
    const journal = freshJournal();
    await journal.append(intent('ACME-A1', '2026-01-01T10:00:00.000Z'));
    await journal.append({ type: 'accepted', ...at('ACME-A1', '2026-01-01T10:00:01.000Z'), status: 'pending', message: 'Transfer queued' });
    const text = readFileSync(journal.file, 'utf8');
    assert.equal(text.split('\n').length, 3, 'two lines, each ending in a newline');
    assert.equal(statSync(journal.file).mode & 0o777, 0o600);
    const { records, warnings } = await journal.read();
    assert.deepEqual(records.map((r) => r.type), ['intent', 'accepted']);
    assert.deepEqual(warnings, []);
  });

  it('a missing journal is empty, not an error', async () => {
    const journal = freshJournal();
    assert.deepEqual(await journal.read(), { records: [], warnings: [] });
  });

  it('many appends in flight in one process lose nothing and keep whole lines', async () => {
    const journal = freshJournal();
    await Promise.all(Array.from({ length: 200 }, (_, i) => journal.append(intent(`ACME-P${i}`, new Date(1_700_000_000_000 + i).toISOString()))));
    const { records } = await journal.read();
    assert.equal(records.length, 200);
    assert.equal(new Set(records.map((r) => (r.type === 'repaired' ? '' : r.reference))).size, 200);
  });

  it('two processes appending at once lose no line and mix none', { timeout: 60_000 }, async () => {
    const journal = freshJournal();
    const perWriter = 300;
    const writer = (tag: string) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/fixtures/journal-append.ts'), journal.file, String(perWriter), tag], {
          cwd: repoRoot,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        child.on('error', reject);
        child.on('close', (code) => resolve(code ?? 1));
      });
    const codes = await Promise.all([writer('one'), writer('two')]);
    assert.deepEqual(codes, [0, 0]);
    const lines = readFileSync(journal.file, 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a newline');
    assert.equal(lines.length, 2 * perWriter);
    for (const line of lines) JSON.parse(line); // every line is one whole record
    const { records, warnings } = await journal.read();
    assert.deepEqual(warnings, []);
    for (const tag of ['one', 'two']) {
      const mine = records.filter((r) => r.type === 'intent' && r.profile === tag);
      assert.equal(mine.length, perWriter, `all ${perWriter} records of writer ${tag}`);
    }
  });
});

describe('journal: damaged files', () => {
  it('skips a torn last line with a warning, and the next append keeps the file readable', async () => {
    const journal = freshJournal();
    await journal.append(intent('ACME-T1', '2026-01-01T10:00:00.000Z'));
    appendFileSync(journal.file, '{"type":"accepted","reference":"ACME-T1","prof'); // killed mid-write
    const first = await journal.read();
    assert.equal(first.records.length, 1);
    assert.equal(first.warnings.length, 1);
    assert.match(first.warnings[0]!, /incomplete last line 2 of .*journal\.jsonl/);

    await journal.append(intent('ACME-T2', '2026-01-01T10:01:00.000Z'));
    const second = await journal.read();
    assert.deepEqual(
      second.records.filter((r) => r.type === 'intent').map((r) => (r.type === 'intent' ? r.reference : '')),
      ['ACME-T1', 'ACME-T2'],
    );
    assert.equal(second.warnings.length, 1);
    assert.match(second.warnings[0]!, /line 2 .*cut short/);
  });

  it('any other unreadable line is an error naming the file and the line', async () => {
    const journal = freshJournal();
    await journal.append(intent('ACME-C1', '2026-01-01T10:00:00.000Z'));
    appendFileSync(journal.file, 'garbage\n');
    await journal.append(intent('ACME-C2', '2026-01-01T10:01:00.000Z'));
    await assert.rejects(journal.read(), (error: unknown) => {
      assert.ok(error instanceof CorruptFileError);
      assert.match(error.message, /journal\.jsonl/);
      assert.match(error.message, /line 2 /);
      return true;
    });
  });

  it('a JSON line that is not a valid record is an error too', async () => {
    const journal = freshJournal();
    writeFileSync(journal.file, `${JSON.stringify({ type: 'accepted', reference: 'X' })}\n`);
    await assert.rejects(journal.read(), /line 1 is not a journal record/);
  });

  it('records of an unknown type (a newer fsapi) are ignored', async () => {
    const journal = freshJournal();
    writeFileSync(journal.file, `${JSON.stringify({ type: 'from-the-future', reference: 'X' })}\n`);
    await journal.append(intent('ACME-F1', '2026-01-01T10:00:00.000Z'));
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
