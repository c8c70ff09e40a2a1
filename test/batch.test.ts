// transfer batch, run as the built CLI against the simulator over real HTTP on 127.0.0.1: every row
// verified, one confirmation, each row paid exactly once across runs, kills and interruptions.
import { holdRunLock, runId } from '../src/store/process-lock.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { derivedReference } from '../src/batch/file.js';
import { Journal } from '../src/transfers/journal.js';
import { holdProcessLock } from '../src/store/process-lock.js';
import { cliPath, repoRoot, stripAnsi } from './helpers/cli.js';
import { journalLog, setUpTransfers, until, type TransferSetup } from './helpers/transfer-setup.js';
import type { SimulatorOptions } from '../src/simulator/types.js';

const HEADER = 'account_number,bank,amount,narration';
/** The batch's question at a terminal: each answer is typed once the screen asks it. */
const CONFIRM = /Send \d+ transfers? totalling ₦[\d,.]+\?/;
/** Distinct accounts (none ending 0000 or 1111), amounts from ₦1,000.01 up. */
function rows(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return `30${String(n).padStart(6, '0')}57,${['gtb', '000004', 'Access Bank'][n % 3]},${1000 + n}.${String((n * 7) % 100).padStart(2, '0')},Payout ${n}`;
  });
}

interface ReportLine {
  line: string;
  account_number: string;
  bank: string;
  bank_code: string;
  amount: string;
  verified_name: string;
  reference: string;
  status: string;
  message: string;
}

let setup: TransferSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

async function start(options: SimulatorOptions = {}): Promise<TransferSetup> {
  setup = await setUpTransfers(options);
  return setup;
}

function writeCsv(s: TransferSetup, name: string, content: string | Buffer): string {
  const file = path.join(s.home.root, name);
  writeFileSync(file, content);
  return file;
}

const readReport = (file: string): ReportLine[] => parse(readFileSync(file), { columns: true }) as ReportLine[];
const batch = (file: string, ...extra: string[]) => ['transfer', 'batch', file, ...extra];
const requestsTo = (s: TransferSetup, method: string, p: string) => s.count(method, p);

/** Every transaction the simulator holds with one of these references, by reference. */
async function transactionsWith(s: TransferSetup, references: readonly string[]): Promise<Map<string, number>> {
  const list = await s.run(['tx', 'list', '--all', '--json']);
  assert.equal(list.code, 0, list.stderr);
  const wanted = new Set(references);
  const counts = new Map<string, number>();
  for (const tx of JSON.parse(list.stdout) as Array<{ reference: string }>) {
    if (wanted.has(tx.reference)) counts.set(tx.reference, (counts.get(tx.reference) ?? 0) + 1);
  }
  return counts;
}

/** Spawns the CLI without waiting, for kills and signals. */
function spawnCli(s: TransferSetup, args: string[], env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('FSAPI_') && key !== 'FORCE_COLOR') childEnv[key] = value;
  const child = spawn(process.execPath, [cliPath, ...args], { cwd: repoRoot, env: { ...childEnv, ...s.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  void exited.finally(() => clearTimeout(killer));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** The outcomes of a row whose money moved or is moving (src/transfers/outcome.ts). */
const isPaid = (status: string | undefined) => status === 'pending' || status === 'successful';

/** The lines left on a terminal: what follows the last carriage return of each (progress bars redraw). */
const visibleLines = (screen: string) => screen.split('\n').map((line) => line.split('\r').at(-1)!);
/** The lines of a table: its header and its rows (a line number first). */
const tableLines = (screen: string) => visibleLines(screen).filter((line) => /^ *(LINE {2}|\d+ {2}[A-Z0-9])/.test(line));

const journalTypes = (s: TransferSetup) => s.journalLines().map((line) => (JSON.parse(line) as { type: string }).type);

describe('transfer batch: rows of one file that repeat each other', () => {
  it('the same account, bank and amount twice (1,000 and 1000.00, gtb and 000013): flagged; --yes needs --allow-duplicate', async () => {
    const s = await start();
    const file = writeCsv(s, 'twice.csv', `${HEADER}\n0123456789,gtb,"1,000",Rent\n0123456780,gtb,20,Other\n0123456789,000013,1000.00,Rent again\n`);
    const refused = await s.runInProcess(batch(file, '--yes'));
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /2 rows of this file pay the same account, bank and amount as another of its rows/);
    assert.match(refused.stderr, /^error: .*twice\.csv: lines 2, 4 \(₦1,000\.00 to 0123456789\) pay the same account, bank and amount; nothing was sent$/m);
    assert.match(refused.stderr, /^hint: .*--allow-duplicate/m);
    assert.equal(s.posts(), 0);
    assert.deepEqual(s.journalLines(), []);

    const dry = await s.runInProcess(batch(file, '--dry-run'));
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stderr, /^2, 4\t0123456789\tGuaranty Trust Bank\t1000\.00$/m);

    const allowed = await s.runInProcess(batch(file, '--yes', '--allow-duplicate'));
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(s.posts(), 3);
  });
});

describe('transfer batch: paying a file, once', () => {
  it('200 rows with latency: every row paid once; the same file again sends nothing', async () => {
    // The simulator's clock is the test's: no row settles until the test moves it, whatever the machine's speed.
    let shiftMs = 0;
    const s = await start({ latencyMs: 5, settleSeconds: 600, now: () => Date.now() + shiftMs });
    const file = writeCsv(s, 'payroll.csv', `${HEADER}\n${rows(200).join('\n')}\n`);
    const first = await s.run(batch(file, '--yes', '--concurrency', '8', '--json'), { timeoutMs: 60_000 });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(s.posts(), 200);
    assert.equal(requestsTo(s, 'POST', '/v1/transfer/name-enquiry'), 200);

    const json = JSON.parse(first.stdout) as ReportLine[];
    const report = readReport(`${file}.report.csv`);
    assert.equal(report.length, 200);
    assert.deepEqual(
      json.map((r) => [String(r.line), r.reference, r.status]),
      report.map((r) => [r.line, r.reference, r.status]),
    );
    assert.ok(report.every((r) => isPaid(r.status)));
    assert.equal(report[0]!.line, '2');
    assert.equal(report[0]!.amount, '1000.00');
    assert.match(report[0]!.reference, /^ACME-[0-9A-HJKMNP-TV-Z]{16}$/);
    const references = report.map((r) => r.reference);
    assert.equal(new Set(references).size, 200);
    const counts = await transactionsWith(s, references);
    assert.equal(counts.size, 200, 'every reference is a transaction');
    assert.ok(
      [...counts.values()].every((n) => n === 1),
      'and only one',
    );
    assert.match(first.stderr, /^sent now: 200 pending \(₦[\d,.]+ \+ charges ₦[\d,.]+ paid or on its way\)$/m);
    assert.doesNotMatch(first.stderr, /accepted/);

    // Run again while every row is still pending: each lookup finds the status the journal holds (pending,
    // as accepted), which is nothing new and writes nothing.
    const rerun = async (expected: 'pending' | 'successful') => {
      const recordsBefore = s.journalLines().length;
      const again = await s.run(batch(file, '--yes', '--concurrency', '8', '--json'), { timeoutMs: 60_000 });
      assert.equal(again.code, 0, again.stderr);
      const report = JSON.parse(again.stdout) as ReportLine[];
      assert.deepEqual(
        report.map((r) => r.reference),
        references,
      );
      for (const r of report) {
        assert.equal(r.status, expected, r.message);
        assert.equal(r.message, `sent by an earlier run; not sent again; now ${expected}`);
      }
      assert.match(again.stderr, /200 rows were sent by an earlier run and looked up, not sent again/);
      assert.equal(s.posts(), 200, 'no new POST');
      assert.equal(requestsTo(s, 'POST', '/v1/transfer/name-enquiry'), 200, 'rows already paid are not verified again');
      return s.journalLines().length - recordsBefore;
    };
    assert.equal(await rerun('pending'), 0, 'a re-run that learns nothing writes nothing');
    // Every row settles; the next run learns that of each, once.
    shiftMs = 601_000;
    assert.equal(await rerun('successful'), 200, 'a re-run writes only what it learns: one record a settled row');

    const log = await journalLog(s);
    assert.equal(log.length, 200);
    assert.ok(log.every((t) => /^batch payroll\.csv line \d+$/.test(String(t.origin))));
  });

  it('killed with SIGKILL halfway, then run again: exactly 200 POSTs in all, every row paid once', async () => {
    const s = await start({ latencyMs: 10 });
    const file = writeCsv(s, 'kill.csv', `${HEADER}\n${rows(200).join('\n')}\n`);
    const intents = () => journalTypes(s).filter((type) => type === 'intent').length;
    const run = spawnCli(s, batch(file, '--yes', '--concurrency', '8'));
    await until(() => intents() >= 100, '100 intents in the journal', 45_000);
    run.child.kill('SIGKILL');
    const ended = await run.exited;
    assert.equal(ended.signal, 'SIGKILL');
    const atKill = intents();
    assert.ok(atKill < 200, `killed halfway (${atKill} intents)`);
    const postsAtKill = s.posts();
    assert.ok(postsAtKill >= 90 && postsAtKill < 200, `${postsAtKill} POSTs before the kill`);
    assert.ok(existsSync(path.join(s.home.dataDir, 'batches')), 'the dead run left its lock behind');

    const resumed = await s.run(batch(file, '--yes', '--concurrency', '8'), { env: { FSAPI_RECONCILE_SCHEDULE_MS: '0,100,200' }, timeoutMs: 60_000 });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(s.posts(), 200, 'exactly 200 POSTs in all');
    assert.match(resumed.stderr, /were sent by an earlier run and looked up, not sent again/);
    const report = readReport(`${file}.report.csv`);
    assert.equal(report.length, 200);
    assert.ok(
      report.every((r) => isPaid(r.status)),
      'every row accepted',
    );
    const counts = await transactionsWith(
      s,
      report.map((r) => r.reference),
    );
    assert.equal(counts.size, 200);
    assert.ok(
      [...counts.values()].every((n) => n === 1),
      'every row paid once',
    );
    const log = await journalLog(s);
    assert.equal(log.length, 200);
    assert.ok(
      log.every((t) => t.state === 'accepted' || t.state === 'reconciled'),
      'the journal agrees',
    );
  });

  it('Ctrl-C (SIGINT) stops starting rows, lets those in flight finish, writes the report, exit 1; the next run sends the rest', async () => {
    const s = await start({ latencyMs: 25 });
    const file = writeCsv(s, 'stop.csv', `${HEADER}\n${rows(40).join('\n')}\n`);
    const run = spawnCli(s, batch(file, '--yes', '--concurrency', '2'));
    await until(() => journalTypes(s).filter((type) => type === 'intent').length >= 6, '6 intents', 30_000);
    run.child.kill('SIGINT');
    const ended = await run.exited;
    const { stderr } = run.output();
    assert.equal(ended.code, 1, stderr);
    assert.match(stderr, /stopping: no new transfer starts/);
    assert.match(stderr, /not sent of 40/);
    const report = readReport(`${file}.report.csv`);
    assert.equal(report.length, 40);
    const accepted = report.filter((r) => isPaid(r.status));
    const notSent = report.filter((r) => r.status === 'not-sent');
    assert.equal(accepted.length + notSent.length, 40, 'no row left unknown: those in flight finished');
    assert.ok(notSent.length > 0 && accepted.length >= 6);
    assert.equal(s.posts(), accepted.length);
    assert.ok(notSent.every((r) => /interrupted; run the same file again/.test(r.message)));
    assert.equal(journalTypes(s).filter((type) => type === 'intent').length, accepted.length, 'rows not sent have no intent');

    const rest = await s.run(batch(file, '--yes', '--concurrency', '2'), { timeoutMs: 60_000 });
    assert.equal(rest.code, 0, rest.stderr);
    assert.equal(s.posts(), 40);
    assert.ok(readReport(`${file}.report.csv`).every((r) => isPaid(r.status)));
  });

  it('a second Ctrl-C quits at once: rows in flight are unknown (exit 5); the next run finds them and sends the rest', async () => {
    const s = await start();
    s.server.simulator.setFault('stall'); // transfers are made, their answers never come
    const file = writeCsv(s, 'quit.csv', `${HEADER}\n${rows(6).join('\n')}\n`);
    const run = spawnCli(s, batch(file, '--yes', '--concurrency', '2'));
    await until(() => s.posts() >= 2, 'two transfers in flight', 30_000);
    run.child.kill('SIGINT');
    // The second Ctrl-C once the first has been heard, not after a guess at how long that takes. The batch
    // ignores a press within REPEAT_PRESS_MS (500 ms) of the first (src/commands/transfer/batch.ts: a
    // library echoes SIGINT): counted from when this test saw the first heard, that is always past it.
    await until(() => /stopping: no new transfer starts/.test(run.output().stderr), 'the first Ctrl-C heard', 30_000);
    const heardAt = Date.now();
    await until(() => Date.now() - heardAt > 550, 'past the repeat-press window');
    run.child.kill('SIGINT');
    const ended = await run.exited;
    const { stderr } = run.output();
    assert.equal(ended.code, 5, stderr);
    assert.match(stderr, /quit with 2 transfers in flight; report: /);
    const report = readReport(`${file}.report.csv`);
    assert.deepEqual(
      report.map((r) => r.status),
      ['unknown', 'unknown', 'not-sent', 'not-sent', 'not-sent', 'not-sent'],
    );
    assert.equal(s.posts(), 2);

    s.server.simulator.setFault(undefined);
    const rest = await s.run(batch(file, '--yes', '--concurrency', '2'), { env: { FSAPI_RECONCILE_SCHEDULE_MS: '0,100,200' } });
    assert.equal(rest.code, 0, rest.stderr);
    assert.equal(s.posts(), 6, 'the two in flight were found, not resent');
    assert.ok(readReport(`${file}.report.csv`).every((r) => isPaid(r.status)));
  });

  it('resuming: accepted rows are looked up, unknown ones stay unknown (exit 5), refused and interrupted ones are sent again', async () => {
    const s = await start();
    const content = `${HEADER}\n${rows(5).join('\n')}\n`;
    const file = writeCsv(s, 'resume.csv', content);
    const hash = createHash('sha256').update(content).digest();
    const ref = (line: number) => derivedReference('ACME', hash, line);
    const [r2, r3, r4, , r6] = rows(5).map((row) => row.split(','));
    // Line 6 was paid by `transfer send` under the row's reference: a real transaction, found by lookup.
    const paid = await s.run(['transfer', 'send', r6![0]!, '--bank', r6![1]!, '--amount', r6![2]!, '--narration', 'x', '--reference', ref(6), '--yes']);
    assert.equal(paid.code, 0, paid.stderr);
    assert.equal(s.posts(), 1);
    // Lines 2 to 4: what crashed and failed runs leave behind (never at the simulator).
    const journal = Journal.inDataDir(s.home.dataDir);
    const scope = { profile: 'sim', baseUrl: s.server.url };
    const intent = (line: number, fields: string[], bankCode: string, minutesAgo: number) =>
      journal.append({
        type: 'intent',
        ...scope,
        reference: ref(line),
        time: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
        env: 'sandbox',
        request: {
          beneficiaryBankCode: bankCode,
          beneficiaryAccountNumber: fields[0]!,
          narration: fields[3]!,
          amount: Number(fields[2]),
          reference: ref(line),
        },
        amountKobo: Math.round(Number(fields[2]) * 100),
        bankName: 'x',
        accountName: 'x',
      });
    await intent(2, r2!, '000013', 5);
    await journal.append({ type: 'unknown', ...scope, reference: ref(2), time: new Date().toISOString(), error: 'timed out' });
    await intent(3, r3!, '000004', 60); // an hour ago: the reconciliation window has passed, one lookup
    await intent(4, r4!, '000014', 5); // Access Bank
    await journal.append({ type: 'rejected', ...scope, reference: ref(4), time: new Date().toISOString(), httpStatus: 400, message: 'insufficient balance' });
    const result = await s.run(batch(file, '--yes', '--json'));
    assert.equal(result.code, 5, result.stderr);
    assert.match(result.stderr, /1 of 5 transfers have an unknown outcome: do not resend them/);
    assert.equal(s.posts(), 1 + 3, 'lines 3, 4 and 5 sent; 2 and 6 not');
    const byLine = new Map((JSON.parse(result.stdout) as ReportLine[]).map((r) => [Number(r.line), r]));
    assert.equal(byLine.get(2)!.status, 'unknown');
    assert.match(byLine.get(2)!.message, /outcome unknown since an earlier run \(timed out\); not sent again/);
    for (const line of [3, 4, 5]) assert.ok(isPaid(byLine.get(line)!.status), `line ${line}`);
    assert.ok(isPaid(byLine.get(6)!.status));
    assert.match(byLine.get(6)!.message, /sent by an earlier run; not sent again/);
    assert.match(result.stderr, /line 3: sent again with the same reference: interrupted earlier/);
    assert.match(result.stderr, /line 4: sent again with the same reference: refused earlier \(insufficient balance\)/);
    const counts = await transactionsWith(s, [2, 3, 4, 5, 6].map(ref));
    assert.deepEqual([...counts.keys()].sort(), [3, 4, 5, 6].map(ref).sort());
  });

  it('a lost answer (the connection dropped after the transfer was made) is reconciled by lookup, never resent', async () => {
    const s = await start();
    s.server.simulator.setFault('drop');
    const file = writeCsv(s, 'drop.csv', `${HEADER}\n${rows(5).join('\n')}\n`);
    const result = await s.run(batch(file, '--yes', '--json'), { env: { FSAPI_RECONCILE_SCHEDULE_MS: '0,50,100' } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(s.posts(), 5, 'one POST per row');
    const report = JSON.parse(result.stdout) as ReportLine[];
    assert.ok(report.every((r) => isPaid(r.status) && /no answer to the transfer .*the lookup by reference found it/.test(r.message)));
    assert.match(result.stderr, /warning: line \d+: no answer to the transfer/);
  });

  it('a row refused at sending (charges took the balance) is reported, exit 1; the next run offers only that row', async () => {
    const s = await start();
    // ₦100 first, then a row that fits the balance only without the charge of the first.
    const file = writeCsv(s, 'refused.csv', `${HEADER}\n0123456789,gtb,100,first\n0123456781,gtb,"4,999,890.00",second\n`);
    const result = await s.run(batch(file, '--yes', '--concurrency', '1'));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /1 refused of 2 transfers \(1 pending or successful\)/);
    const report = readReport(`${file}.report.csv`);
    assert.deepEqual(
      report.map((r) => (isPaid(r.status) ? 'paid' : r.status)),
      ['paid', 'refused'],
    );
    // Piped stdout: the results as TSV, one header line.
    const [header, ...lines] = result.stdout.trimEnd().split('\n');
    assert.equal(header, 'LINE\tACCOUNT\tNAME\tBANK\tAMOUNT\tREFERENCE\tOUTCOME\tSENT\tMESSAGE');
    assert.deepEqual(
      lines.map((line) => line.split('\t').slice(0, 7)),
      [
        ['2', '0123456789', 'OKAFOR CHIAMAKA ADAEZE', 'Guaranty Trust Bank', '100.00', report[0]!.reference, report[0]!.status],
        ['3', '0123456781', 'EZE EMEKA SANI', 'Guaranty Trust Bank', '4999890.00', report[1]!.reference, 'refused'],
      ],
    );
    assert.match(report[1]!.message, /^HTTP 400: Request Un-?Successful/);
    assert.equal(s.posts(), 2);

    // Run again: the accepted row is looked up; the refused one is the only one left to send, and
    // now the balance check sees that it cannot be paid.
    const again = await s.run(batch(file, '--yes', '--concurrency', '1'));
    assert.equal(again.code, 1);
    assert.match(again.stderr, /1 row was sent by an earlier run and looked up, not sent again: 1 (pending|successful)$/m);
    assert.match(again.stderr, /the batch totals ₦4,999,890\.00 but the available balance is ₦4,999,889\.25; nothing was sent/);
    assert.equal(s.posts(), 2);
  });
});

describe('transfer batch: failed and reversed rows are never paid', () => {
  it('a re-run reports each earlier row as it stands now: failed and reversed are not paid, exit 1', async () => {
    // The simulator's clock is the test's: the rows settle when the test moves it, not after a sleep.
    let shiftMs = 0;
    const s = await start({ settleSeconds: 600, now: () => Date.now() + shiftMs });
    // 4040 fails when it would settle, 5050 is reversed (docs/simulator.md); 0057 succeeds.
    const file = writeCsv(s, 'mixed.csv', `${HEADER}\n3000000057,gtb,1000,ok\n3000004040,gtb,1000,fails\n3000005050,gtb,1000,reversed\n`);
    const first = await s.run(batch(file, '--yes', '--concurrency', '1'));
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /^sent now: 3 pending \(₦3,000\.00 \+ charges ₦[\d,.]+ paid or on its way\)$/m);
    shiftMs = 601_000;

    const again = await s.run(batch(file, '--yes', '--concurrency', '1'));
    assert.equal(again.code, 1, again.stderr);
    assert.equal(s.posts(), 3, 'nothing sent again');
    assert.match(again.stderr, /3 rows were sent by an earlier run and looked up, not sent again: 1 successful, 1 failed, 1 reversed$/m);
    assert.match(again.stderr, /^ +To send +nothing: no row is new$/m);
    assert.match(again.stderr, /^sent by earlier runs: 1 successful, 1 failed, 1 reversed \(₦1,000\.00 \+ charges ₦[\d,.]+ paid or on its way\)$/m);
    assert.doesNotMatch(again.stderr, /sent now|accepted|\bpaid\b(?! or on its way)/);
    assert.match(again.stderr, /^error: 1 failed, 1 reversed of 3 transfers \(1 pending or successful\)/m);
    const report = readReport(`${file}.report.csv`);
    assert.deepEqual(
      report.map((r) => r.status),
      ['successful', 'failed', 'reversed'],
    );
    // Piped: the outcome and whether this run sent it, in their own columns.
    const lines = again.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    assert.deepEqual(
      lines.slice(1).map((cells) => [cells[6], cells[7]]),
      [
        ['successful', 'earlier run'],
        ['failed', 'earlier run'],
        ['reversed', 'earlier run'],
      ],
    );

    // At an 80-column terminal the outcome column stays; names and banks go first.
    const narrow = await s.run(batch(file, '--yes'), { tty: true, columns: 80, env: { FORCE_COLOR: '1' } });
    const screen = stripAnsi(narrow.stdout);
    assert.equal(narrow.code, 1, screen);
    assert.match(screen, /OUTCOME/);
    for (const outcome of ['successful', 'failed', 'reversed']) assert.match(screen, new RegExp(`^ +\\d .*${outcome}`, 'm'));
    for (const line of tableLines(screen)) assert.ok([...line].length <= 80, `within 80 columns: ${line}`);
  });
});

describe('transfer batch: a row another process is sending', () => {
  it('is in flight: not looked up, not sent, exit 5', async () => {
    const s = await start();
    const content = `${HEADER}\n0123456789,gtb,100,one\n0123456781,gtb,200,two\n`;
    const file = writeCsv(s, 'inflight.csv', content);
    const reference = derivedReference('ACME', createHash('sha256').update(content).digest(), 2);
    // An intent without an answer, written by a process that is still running (this test's, which holds
    // its run lock in the data dir as every sending fsapi run does).
    await holdRunLock(s.home.dataDir);
    await Journal.inDataDir(s.home.dataDir).append({
      type: 'intent',
      profile: 'sim',
      baseUrl: s.server.url,
      reference,
      time: new Date().toISOString(),
      env: 'sandbox',
      request: { beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456789', narration: 'one', amount: 100, reference },
      amountKobo: 100_00,
      bankName: 'Guaranty Trust Bank',
      accountName: 'OKAFOR CHIAMAKA ADAEZE',
      pid: process.pid,
      run: runId(),
    });
    const result = await s.run(batch(file, '--yes', '--json'));
    assert.equal(result.code, 5, result.stderr);
    const report = JSON.parse(result.stdout) as ReportLine[];
    assert.deepEqual(
      report.map((r) => r.status).map((status, i) => (i === 1 && isPaid(status) ? 'paid' : status)),
      ['in flight', 'paid'],
    );
    assert.match(report[0]!.message, new RegExp(`being sent by another fsapi process \\(pid ${process.pid}\\)`));
    assert.equal(s.posts(), 1, 'only the other row');
  });
});

describe('transfer batch: the confirmation table in colour', () => {
  for (const columns of [80, 120]) {
    it(`at ${columns} columns with colour on, verified names are whole and no escape code is shown as text`, async () => {
      const s = await start();
      const file = writeCsv(s, 'colour.csv', `${HEADER}\n0123456789,gtb,100,first\n0123456781,gtb,200,second\n`);
      const result = await s.run(batch(file), { tty: true, columns, keys: [[CONFIRM, 'n\r']], env: { FORCE_COLOR: '1' } });
      assert.equal(result.code, 4, stripAnsi(result.stdout));
      assert.doesNotMatch(result.stdout, /\uFFFD/, 'no escape code replaced by U+FFFD');
      assert.match(result.stdout, /\u001b\[1mOKAFOR CHIAMAKA ADAEZE\u001b\[22m/, 'the name is bold and whole');
      const screen = stripAnsi(result.stdout);
      assert.match(screen, /EZE EMEKA SANI/);
      assert.ok(tableLines(screen).length >= 3, screen);
      for (const line of tableLines(screen)) assert.ok([...line].length <= columns, `within ${columns} columns: ${line}`);
      assert.equal(s.posts(), 0);
    });
  }
});

describe('transfer batch: nothing is sent unless every row can be', () => {
  it('bad rows: exit 2 with each line and reason, no transfer sent', async () => {
    const s = await start();
    for (const fixture of ['bad-rows.csv', 'duplicate-references.csv', 'missing-column.csv']) {
      const file = path.join(repoRoot, 'test/fixtures/batch', fixture);
      const result = await s.runInProcess(batch(file, '--yes'));
      assert.equal(result.code, 2, `${fixture}: ${result.stderr}`);
      assert.match(result.stderr, /nothing was sent|the header has no amount column/);
    }
    // The good rows are name-checked so that one run reports every problem; nothing is sent.
    assert.equal(s.posts(), 0);
    const bad = await s.runInProcess(batch(path.join(repoRoot, 'test/fixtures/batch/bad-rows.csv'), '--yes'));
    assert.match(bad.stderr, /^line 3: amount 1\.005 has more than 2 decimals$/m);
    assert.match(bad.stderr, /^line 8: narration is empty$/m);
    assert.match(bad.stderr, /^error: .*bad-rows\.csv: 6 bad rows; nothing was sent$/m);
    const duplicates = await s.runInProcess(batch(path.join(repoRoot, 'test/fixtures/batch/duplicate-references.csv'), '--yes'));
    assert.match(duplicates.stderr, /^line 4: reference acme-pay-1 is already used on line 2/m);
    const missing = await s.runInProcess(batch(path.join(repoRoot, 'test/fixtures/batch/missing-column.csv'), '--yes'));
    assert.match(missing.stderr, /^error: .*missing-column\.csv line 1: the header has no amount column$/m);
    const empty = await s.runInProcess(batch(writeCsv(s, 'empty.csv', ''), '--yes'));
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /is empty/);
    const headerOnly = await s.runInProcess(batch(writeCsv(s, 'header.csv', `\uFEFF${HEADER}\r\n`), '--yes'));
    assert.equal(headerOnly.code, 2);
    assert.match(headerOnly.stderr, /has a header but no rows/);
    const absent = await s.runInProcess(batch(path.join(s.home.root, 'nope.csv'), '--yes'));
    assert.equal(absent.code, 2);
    assert.equal(s.posts(), 0);
  });

  it('a BOM, CRLF, quoted commas and blank lines are read, and a bad row among them gets its physical line', async () => {
    const s = await start();
    const good = await s.runInProcess(batch(path.join(repoRoot, 'test/fixtures/batch/bom-crlf-quoted.csv'), '--dry-run'));
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stderr, /^2\tOKAFOR CHIAMAKA ADAEZE\t0123456789\tGuaranty Trust Bank\t1500\.00\tRent, March 2025\tACME-/m);
    assert.match(good.stderr, /^4\t.*\t20\.50\tSalary "bonus"\tACME-INV-42$/m);
    const text = readFileSync(path.join(repoRoot, 'test/fixtures/batch/bom-crlf-quoted.csv'), 'utf8').replace(',30000,', ',"30,000.5.0",');
    const bad = await s.runInProcess(batch(writeCsv(s, 'bad-bom.csv', text), '--dry-run'));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^line 7: amount "30,000\.5\.0" is not a number of naira/m);
  });

  it('unknown or ambiguous banks and references without the business prefix: exit 2, only the good rows name-checked', async () => {
    const s = await start();
    const file = writeCsv(
      s,
      'banks.csv',
      `${HEADER},reference\n0123456789,Atlantis Savings,10,a,\n0123456781,bank,10,b,\n0123456782,gtb,10,c,OTHER-1\n0123456783,999999,10,d,\n0123456784,gtb,10,e,\n`,
    );
    const result = await s.runInProcess(batch(file, '--yes'));
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^line 2: bank: no bank matches "Atlantis Savings"/m);
    assert.match(result.stderr, /^line 3: bank: "bank" matches \d+ banks: /m);
    assert.match(result.stderr, /^line 4: reference OTHER-1 must start with ACME-/m);
    assert.match(result.stderr, /^line 5: bank: no bank has the institution code 999999/m);
    assert.doesNotMatch(result.stderr, /^line 6/m);
    assert.equal(requestsTo(s, 'POST', '/v1/transfer/name-enquiry'), 1);
    assert.equal(s.posts(), 0);
  });

  it('a failed name check (enquiry refused, expect_name mismatch) lists the rows, exit 1, nothing sent', async () => {
    const s = await start();
    const file = writeCsv(
      s,
      'names.csv',
      `${HEADER},expect_name\n0123456789,gtb,10,a,"okafor, chiamaka-adaeze"\n0123450000,gtb,10,b,\n0123456781,gtb,10,c,Somebody Else\n`,
    );
    const result = await s.runInProcess(batch(file, '--yes'));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /2 rows failed the name check/);
    assert.match(result.stderr, /^3\t0123450000\tGuaranty Trust Bank\t10\.00\t\tthe name enquiry was refused \(HTTP 400\)/m);
    assert.match(result.stderr, /^4\t0123456781\t.*\tEZE EMEKA SANI\tthe account holder is "EZE EMEKA SANI", not "Somebody Else"$/m);
    assert.match(result.stderr, /error: 2 rows failed the name check; nothing was sent/);
    assert.equal(s.posts(), 0);
    assert.deepEqual(s.journalLines(), []);
    assert.equal(existsSync(`${file}.report.csv`), false);
  });

  it('a total above the available balance: exit 1, nothing sent', async () => {
    const s = await start();
    const file = writeCsv(s, 'big.csv', `${HEADER}\n0123456789,gtb,"3,000,000",a\n0123456781,gtb,"2,000,000.01",b\n`);
    const result = await s.runInProcess(batch(file, '--yes'));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /the batch totals ₦5,000,000\.01 but the available balance is ₦5,000,000\.00; nothing was sent/);
    assert.equal(s.posts(), 0);
  });

  it('--dry-run shows the summary and sends nothing (exit 0); --json prints the rows it would send', async () => {
    const s = await start();
    const file = path.join(s.home.root, 'sample.csv');
    writeFileSync(file, readFileSync(path.join(repoRoot, 'test/fixtures/batch/sample.csv')));
    const result = await s.runInProcess(batch(file, '--dry-run', '--json'));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /To send\s+3 transfers, total ₦247,500\.50/);
    assert.match(result.stderr, /Available\s+₦5,000,000\.00/);
    assert.match(result.stderr, /dry run: nothing was sent/);
    const rowsShown = JSON.parse(result.stdout) as ReportLine[];
    assert.deepEqual(
      rowsShown.map((r) => [r.line, r.verified_name, r.status]),
      [
        [2, 'OKAFOR CHIAMAKA ADAEZE', 'not-sent'],
        [3, 'EZE EMEKA SANI', 'not-sent'],
        [4, 'BELLO ADAEZE NGOZI', 'not-sent'],
      ],
    );
    assert.equal(s.posts(), 0);
    assert.deepEqual(s.journalLines(), []);
    assert.equal(existsSync(`${file}.report.csv`), false);
  });

  it('1,200 rows: the summary lists the first 1,000 and counts the rest; --json streams every row; each row paid once', async () => {
    const s = await start();
    const file = writeCsv(s, 'long.csv', `${HEADER}\n${rows(1200).join('\n')}\n`);
    // A process of its own: the batch's eight sends at a time and the simulator's answers are not one
    // event loop. 1,200 fsynced intents and outcomes: seconds on a quiet disk, a minute or more on a busy one. The
    // bound only stops a run that hangs; nothing here depends on how long it takes.
    const bound = { timeoutMs: 180_000 };
    const result = await s.run(batch(file, '--yes', '--json', '--concurrency', '8'), bound);
    assert.equal(result.code, 0, result.stderr.slice(-2000));
    assert.match(result.stderr, /Batch .*long\.csv: 1200 rows/);
    assert.match(result.stderr, /… and 200 more rows; --dry-run --json lists them all/);
    // The summary table's lines: the first 1,000 rows, not the 1,001st.
    assert.match(result.stderr, /^1001\t/m);
    assert.doesNotMatch(result.stderr, /^1002\t/m);
    const shown = JSON.parse(result.stdout) as ReportLine[];
    assert.deepEqual(
      shown.map((r) => Number(r.line)),
      Array.from({ length: 1200 }, (_, i) => i + 2),
    );
    assert.ok(
      shown.every((r) => r.status === 'pending' || r.status === 'successful'),
      'every row pending or successful',
    );
    assert.equal(new Set(shown.map((r) => r.reference)).size, 1200);
    assert.equal(s.posts(), 1200);
    const report = readReport(`${file}.report.csv`);
    assert.deepEqual(
      report.map((r) => r.reference),
      shown.map((r) => r.reference),
    );
    const again = await s.run(batch(file, '--yes'), bound);
    assert.equal(again.code, 0, again.stderr.slice(-2000));
    assert.equal(s.posts(), 1200, 'the same file again sends nothing');
  });

  it('more than 100,000 rows: refused while reading (exit 2), before any request', async () => {
    const s = await start();
    const file = writeCsv(s, 'huge.csv', `${HEADER}\n${rows(100_001).join('\n')}\n`);
    const result = await s.run(batch(file, '--yes'));
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /huge\.csv has more than 100,000 rows; at most 100,000 are paid in one run/);
    assert.equal(s.server.simulator.requests().length, 0);
  });

  it('no terminal and no --yes: exit 2 before any request; --concurrency outside 1..16: exit 2', async () => {
    const s = await start();
    const file = writeCsv(s, 'x.csv', `${HEADER}\n${rows(2).join('\n')}\n`);
    const result = await s.runInProcess(batch(file));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no terminal to confirm this batch on; nothing was sent/);
    for (const value of ['0', '17', 'four', '2.5']) {
      const bad = await s.runInProcess(batch(file, '--yes', '--concurrency', value));
      assert.equal(bad.code, 2, value);
      assert.match(bad.stderr, /--concurrency must be a whole number from 1 to 16/);
    }
    const self = await s.runInProcess(batch(file, '--yes', '--report', file));
    assert.equal(self.code, 2);
    assert.equal(s.server.simulator.requests().length, 0);
  });

  it('a file edited after a partial run (new references) is held: rows look already paid; --allow-duplicate sends', async () => {
    const s = await start();
    const first = writeCsv(s, 'v1.csv', `${HEADER}\n${rows(2).join('\n')}\n`);
    assert.equal((await s.runInProcess(batch(first, '--yes'))).code, 0);
    const edited = writeCsv(s, 'v1.csv', `${HEADER}\n${rows(3).join('\n')}\n`);
    const held = await s.runInProcess(batch(edited, '--yes'));
    assert.equal(held.code, 1, held.stderr);
    assert.match(held.stderr, /2 rows look already paid under another reference/);
    assert.match(held.stderr, /batch v1\.csv line 2/);
    assert.equal(s.posts(), 2);
    const allowed = await s.runInProcess(batch(edited, '--yes', '--allow-duplicate'));
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(s.posts(), 5);
  });

  it("one run of a file at a time: a live run refuses the second at once (exit 1); a killed run's lock is gone with it", async () => {
    const s = await start();
    const content = `${HEADER}\n${rows(1).join('\n')}\n`;
    const file = writeCsv(s, 'lock.csv', content);
    const lockFile = path.join(s.home.dataDir, 'batches', `${createHash('sha256').update(content).digest('hex').slice(0, 32)}.held`);
    // Held by a live process (this test's), as a running batch holds it.
    const held = holdProcessLock(lockFile);
    assert.ok(held);
    try {
      const locked = await s.run(batch(file, '--yes'), { timeoutMs: 60_000 });
      assert.equal(locked.code, 1, locked.stderr);
      assert.match(locked.stderr, /^error: .*lock\.csv is being paid by another fsapi run; nothing was sent$/m);
      assert.equal(s.posts(), 0);
    } finally {
      held.release();
    }
    // Left behind by a run that was killed: the file is there, nobody holds it; no wait, no stale time.
    writeFileSync(lockFile, '');
    const taken = await s.run(batch(file, '--yes'));
    assert.equal(taken.code, 0, taken.stderr);
    assert.equal(s.posts(), 1);
    assert.equal(existsSync(lockFile), false, 'released at exit');
  });
});

describe('transfer batch: at a terminal', () => {
  it('shows the table and totals, asks once (default No); y sends every row with a progress bar', async () => {
    const s = await start();
    const file = writeCsv(s, 'tty.csv', `${HEADER}\n${rows(3).join('\n')}\n`);
    const result = await s.run(batch(file), { tty: true, keys: [[CONFIRM, 'y\r']] });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 0, screen);
    assert.match(screen, /LINE +VERIFIED NAME/);
    assert.match(screen, /Send 3 transfers totalling ₦3,003\.21\? \(y\/N\)/);
    assert.match(screen, /sending\s+\[█+\] 3\/3\s+(pending|successful) 3/);
    assert.match(screen, /sent now: 3 (pending|successful) \(₦3,003\.21 \+ charges ₦32\.25 paid or on its way\)/);
    assert.match(screen, /3 rows; report: /);
    assert.equal(s.posts(), 3);
  });

  it('answering n (or just Enter) cancels: exit 4, nothing sent, no report', async () => {
    const s = await start();
    const file = writeCsv(s, 'no.csv', `${HEADER}\n${rows(3).join('\n')}\n`);
    const no = await s.run(batch(file), { tty: true, keys: [[CONFIRM, 'n\r']] });
    assert.equal(no.code, 4, stripAnsi(no.stdout));
    assert.match(stripAnsi(no.stdout), /cancelled; nothing was sent/);
    const enter = await s.run(batch(file), { tty: true, keys: [[CONFIRM, '\r']] });
    assert.equal(enter.code, 4);
    assert.equal(s.posts(), 0);
    assert.equal(existsSync(`${file}.report.csv`), false);
  });
});
