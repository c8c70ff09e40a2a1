// `transfer log` over a history longer than a page: every output that gives the whole history (--json,
// --csv, TSV when piped, --jsonl) is read and written a page at a time, and must say exactly what the
// in-memory listing (--limit covering everything) says; a terminal's table of a long history shows its
// last rows with a note, and the closing notes still count every transfer. The history is of two profiles,
// neither the one in use: every run here asks for --all-profiles.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { cliPath, makeHome, runCli, stripAnsi } from './helpers/cli.js';
import { storeRecords } from './helpers/transfer-setup.js';
import { Journal, type JournalRecord } from '../src/transfers/journal.js';
import { closeLocalStores } from '../src/store/database.js';
import { TABLE_ROWS } from '../src/commands/transfer/log.js';

const home = makeHome();
const run = (args: string[], tty = false) => runCli(args, { env: home.env, tty, timeoutMs: 60_000 });

// More than TABLE_ROWS and more than two pages (500 rows) of the store's reads.
const COUNT = TABLE_ROWS + 250;
const BASE = Date.parse('2026-03-01T08:00:00.000Z');
const unknownAt = (i: number) => i % 97 === 0;

interface Seeded {
  reference: string;
  ms: number;
  seq: number;
}
const seeded: Seeded[] = [];

before(async () => {
  const journal = Journal.inDataDir(home.dataDir);
  const records: JournalRecord[] = [];
  for (let i = 0; i < COUNT; i += 1) {
    // Times out of journal order, with ties (i and i + 600 share one): the log orders by time, then as journalled.
    const ms = BASE + ((i * 7919) % 600) * 1000;
    const time = new Date(ms).toISOString();
    const reference = `ACME-LOG${String(i).padStart(6, '0')}`;
    const scope = { reference, profile: i % 3 === 0 ? 'ops' : 'sim', baseUrl: 'http://127.0.0.1:9', time };
    records.push({
      type: 'intent',
      ...scope,
      env: 'sandbox',
      request: {
        beneficiaryBankCode: '000013',
        beneficiaryAccountNumber: `30000${String(i).padStart(5, '0')}`,
        narration: `Log row ${i}`,
        amount: 10 + i,
        reference,
      },
      amountKobo: (10 + i) * 100,
      bankName: 'Guaranty Trust Bank',
      accountName: `PAYEE ${i}`,
      origin: 'seed',
      pid: 1,
      run: 'a-run-long-finished',
    });
    if (unknownAt(i)) continue; // no answer recorded: outcome unknown
    if (i % 50 === 1) records.push({ type: 'rejected', ...scope, httpStatus: 400, message: 'Insufficient balance' });
    else records.push({ type: 'accepted', ...scope, status: i % 4 === 0 ? 'pending' : 'successful', message: 'Transfer successful' });
    seeded.push({ reference, ms, seq: i });
  }
  for (let i = 0; i < COUNT; i += 97) seeded.push({ reference: `ACME-LOG${String(i).padStart(6, '0')}`, ms: BASE + ((i * 7919) % 600) * 1000, seq: i });
  await journal.appendMany(records);
  await closeLocalStores();
});
after(() => home.cleanup());

const unknownCount = Math.floor((COUNT - 1) / 97) + 1;

describe('transfer log over a long history, a page at a time', () => {
  it('--json, --csv and TSV stream every transfer, byte for byte what the in-memory listing says, by time then as journalled', async () => {
    const expected = [...seeded].sort((a, b) => a.ms - b.ms || a.seq - b.seq).map((t) => t.reference);
    for (const format of [['--json'], ['--csv'], []]) {
      const streamed = await run(['transfer', 'log', '--all-profiles', ...format]);
      const whole = await run(['transfer', 'log', '--all-profiles', ...format, '--limit', '1000000']);
      assert.equal(streamed.code, 0, streamed.stderr);
      assert.equal(whole.code, 0, whole.stderr);
      assert.ok(streamed.stdout === whole.stdout, `transfer log ${format.join(' ')}: streamed output differs from the whole listing`);
      assert.equal(streamed.stderr, whole.stderr);
    }
    const json = JSON.parse((await run(['transfer', 'log', '--all-profiles', '--json'])).stdout) as Array<{ reference: string; outcome: string }>;
    assert.deepEqual(
      json.map((t) => t.reference),
      expected,
    );
    assert.equal(json.filter((t) => t.outcome === 'unknown').length, unknownCount);
    const tsv = await run(['transfer', 'log', '--all-profiles']);
    assert.equal(tsv.stdout.trimEnd().split('\n').length, COUNT + 1);
    assert.match(tsv.stderr, new RegExp(`^${unknownCount} transfers have no known outcome: do not resend`, 'm'));
  });

  it('--jsonl writes every record as stored, oldest first', async () => {
    const exported = await run(['transfer', 'log', '--jsonl']);
    assert.equal(exported.code, 0, exported.stderr);
    const stored = storeRecords(home.dataDir, 'journal');
    assert.equal(stored.length, COUNT * 2 - unknownCount);
    assert.ok(exported.stdout === `${stored.join('\n')}\n`, 'the export is the stored records, one a line');
    assert.equal(exported.stderr, '');
  });

  it('a reader that goes away early (| head -n 1) ends the export quietly', async () => {
    for (const args of [['--jsonl'], ['--all-profiles', '--json'], ['--all-profiles']]) {
      const command = `set -o pipefail; ${[process.execPath, cliPath, 'transfer', 'log', ...args].map((a) => `'${a}'`).join(' ')} | head -n 1`;
      const child = spawn('bash', ['-c', command], { env: { ...process.env, ...home.env } });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, `transfer log ${args.join(' ')} | head: ${stderr}`);
      assert.equal(stdout.split('\n').length, 2);
      assert.doesNotMatch(stderr, /error|EPIPE|Warning/i);
    }
  });

  it('on a terminal: the last TABLE_ROWS transfers as one table, a note with the total, the notes counting every transfer', async () => {
    const tty = await run(['transfer', 'log', '--all-profiles'], true);
    assert.equal(tty.code, 0, tty.stdout);
    const lines = stripAnsi(tty.stdout).replace(/\r/g, '').trimEnd().split('\n');
    const rows = lines.filter((line) => /ACME-LOG\d{6}/.test(line));
    assert.equal(rows.length, TABLE_ROWS);
    // The last TABLE_ROWS journalled, by time: the earliest journalled are the ones left out.
    assert.ok(!rows.some((line) => line.includes('ACME-LOG000001 ')), 'the first transfers journalled are not shown');
    assert.ok(rows.some((line) => line.includes(`ACME-LOG${String(COUNT - 1).padStart(6, '0')}`)));
    assert.match(tty.stdout, new RegExp(`^showing the last 1,000 of ${COUNT.toLocaleString('en-US')} transfers \\(--limit <n>: more or fewer\\)\r?$`, 'm'));
    assert.match(tty.stdout, /^all of them: --json, --jsonl, --csv, or piped \(fsapi transfer log \| less -S\)\r?$/m);
    // Unknown transfers among the first journalled (i = 0, 97, 194) are outside the table, still counted.
    assert.match(tty.stdout, new RegExp(`${unknownCount} transfers have no known outcome: do not resend`));
    const limited = await run(['transfer', 'log', '--all-profiles', '--limit', '5'], true);
    assert.equal(
      stripAnsi(limited.stdout)
        .split('\n')
        .filter((line) => /ACME-LOG\d{6}/.test(line)).length,
      5,
    );
    assert.doesNotMatch(limited.stdout, /showing the last/);
  });
});
