// fsapi reconcile, run in process, against a served simulator whose clock the test moves: one journal entry of each
// finding (settled, still pending, missing from the API, a debit the journal does not know, an amount
// and a total that differ) is exit 1 with each finding in --json; a clean journal is exit 0. Failed and
// reversed transfers, which the simulator does not make, go through src/books/reconcile.ts with the
// listing injected (rows the simulator made, their status changed, and a reversal credit R-<reference>).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Journal } from '../src/transfers/journal.js';
import { holdRunLock, runId } from '../src/store/process-lock.js';
import { reconcile, type Finding } from '../src/books/reconcile.js';
import { transferScope } from '../src/transfers/transfer.js';
import type { TransactionRecord } from '../src/api/schemas.js';
import { createContext } from '../src/runtime.js';
import { zonedDay } from '../src/common/time-zone.js';
import { errorObject, stripAnsi } from './helpers/cli.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';

const send = (setup: TransferSetup, account: string, amount: string, extra: string[] = []) =>
  setup.runInProcess(['--json', 'transfer', 'send', account, '--bank', '000013', '--amount', amount, '--narration', 'reconcile test', '--yes', ...extra]);

function rawTransfer(setup: TransferSetup, body: Record<string, unknown>) {
  return setup.runInProcess([
    'api',
    'POST',
    '/v1/transfer',
    '--allow-transfer',
    '--data',
    JSON.stringify({ beneficiaryBankCode: '000013', beneficiaryAccountNumber: '2222222222', narration: 'sent by hand', ...body }),
  ]);
}

/** The scope the journal records carry for this setup's profile. */
function scopeOf(setup: TransferSetup): { profile: string; baseUrl: string } {
  const record = JSON.parse(setup.journalLines()[0]!) as { profile: string; baseUrl: string };
  return { profile: record.profile, baseUrl: record.baseUrl };
}

function intent(scope: { profile: string; baseUrl: string }, reference: string, amountKobo: number, minutesAgo = 0, account = '2222222222', pid?: number) {
  return {
    type: 'intent' as const,
    reference,
    ...scope,
    time: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    env: 'sandbox',
    ...(pid === undefined ? {} : { pid, run: runId() }),
    request: { beneficiaryBankCode: '000013', beneficiaryAccountNumber: account, narration: 'x', amount: amountKobo / 100, reference },
    amountKobo,
    bankName: 'Guaranty Trust Bank',
    accountName: 'ADEYEMI FUNMILAYO YETUNDE',
  };
}

describe('reconcile: one finding of each kind', () => {
  let setup: TransferSetup;
  let clock = Date.now();
  const since = new Date(clock - 8 * 60_000).toISOString();
  before(async () => {
    setup = await setUpTransfers({ seedTransactions: 30, settleSeconds: 60, now: () => clock });
  });
  after(async () => setup?.close());

  it('settles what it can, reports the rest, exit 1; --json gives each finding a kind', async () => {
    const settles = await send(setup, '0123456789', '1000');
    assert.equal(settles.code, 0, settles.stderr);
    const settlingRef = JSON.parse(settles.stdout).reference as string;
    const pendingForever = await send(setup, '3333331111', '700');
    assert.equal(pendingForever.code, 0, pendingForever.stderr);
    const pendingRef = JSON.parse(pendingForever.stdout).reference as string;

    // Pending beyond the API's 5-minute settlement window: sent (by hand, journalled as) 6 minutes ago.
    const late = await rawTransfer(setup, { amount: 650, reference: 'ACME-LATE0001', beneficiaryAccountNumber: '4444441111' });
    assert.equal(late.code, 0, late.stderr);

    const byHand = await rawTransfer(setup, { amount: 450, reference: 'ACME-BYHAND0001' });
    assert.equal(byHand.code, 0, byHand.stderr);
    const differs = await rawTransfer(setup, { amount: 300, reference: 'ACME-DIFFERS0001' });
    assert.equal(differs.code, 0, differs.stderr);

    const scope = scopeOf(setup);
    const journal = new Journal(setup.home.dataDir);
    await journal.append(intent(scope, 'ACME-NEVERARRIVED1', 99_00, 6));
    await journal.append(intent(scope, 'ACME-LATE0001', 650_00, 6, '4444441111'));
    await journal.append({ type: 'accepted', reference: 'ACME-LATE0001', ...scope, time: new Date().toISOString(), status: 'pending', message: 'ok' });
    // On its way: written a moment ago, or 6 minutes ago by a process still running. Neither is missing.
    await journal.append(intent(scope, 'ACME-ONITSWAY01', 50_00));
    await holdRunLock(setup.home.dataDir, { requestTimeoutMs: 30_000, lookupsMs: 30_000 }); // this test process is the running writer of the next intent
    await journal.append(intent(scope, 'ACME-STILLSENDING', 60_00, 6, '2222222222', process.pid));
    await journal.append(intent(scope, 'ACME-DIFFERS0001', 310_00));
    await journal.append({ type: 'accepted', reference: 'ACME-DIFFERS0001', ...scope, time: new Date().toISOString(), status: 'successful', message: 'ok' });
    clock += 61_000; // the first transfer is successful now; the one to ...1111 never is

    const result = await setup.runInProcess(['--json', 'reconcile', '--since', since]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /findings on fsapi's transfers need attention; and 1 debit on the account was not sent by fsapi from here/);
    assert.equal(errorObject(result.stderr).code, 'reconcile_differs');
    const report = JSON.parse(result.stdout);
    const findings = report.findings as Array<Record<string, unknown>>;
    const debits = report.notSentHere.debits as Array<Record<string, unknown>>;
    const of = (kind: string) => [...findings, ...debits].filter((finding) => finding.kind === kind);
    assert.ok(
      !findings.some((f) => f.kind === 'unjournalled-debit'),
      'the debit not sent from here is in its own section, not among the findings on fsapi’s transfers',
    );
    assert.deepEqual([report.notSentHere.count, report.notSentHere.total], [1, '450.00']);
    assert.equal(report.ownTransfersAgree, false);

    assert.deepEqual(
      of('settled').map((f) => [f.reference, f.was, f.status]),
      [[settlingRef, 'pending', 'successful']],
    );
    assert.deepEqual(
      of('still-pending').map((f) => [f.reference, f.amount]),
      [['ACME-LATE0001', '650.00']],
    );
    assert.deepEqual(
      of('in-transit')
        .map((f) => f.reference)
        .sort(),
      [pendingRef, 'ACME-ONITSWAY01', 'ACME-STILLSENDING'].sort(),
    );
    assert.match(String(of('in-transit').find((f) => f.reference === 'ACME-STILLSENDING')!.why), new RegExp(`running fsapi process \\(pid ${process.pid}\\)`));
    assert.deepEqual(
      of('missing-from-api').map((f) => [f.reference, f.amount, f.journalState]),
      [['ACME-NEVERARRIVED1', '99.00', 'unknown']],
    );
    assert.deepEqual(
      of('unjournalled-debit').map((f) => [f.reference, f.amount, f.accountNumber]),
      [['ACME-BYHAND0001', '450.00', '2222222222']],
    );
    assert.deepEqual(
      of('amount-differs').map((f) => [f.reference, f.journalAmount, f.apiAmount]),
      [['ACME-DIFFERS0001', '310.00', '300.00']],
    );
    assert.deepEqual(
      of('totals-differ').map((f) => [f.journalAmount, f.apiAmount, f.difference]),
      [['2759.00', '2650.00', '-109.00']],
    );
    assert.equal(report.agrees, false);
    assert.deepEqual(report.journal, { count: 5, total: '2759.00' });
    assert.match(String(report.since), /Z$/, '--json keeps ISO UTC');

    // The journal learned what the API said: the first transfer is successful there now.
    const log = JSON.parse((await setup.runInProcess(['--json', 'transfer', 'log'])).stdout) as Array<Record<string, unknown>>;
    assert.equal(log.find((t) => t.reference === settlingRef)!.status, 'successful');
    const lines = setup.journalLines().map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(lines.some((r) => r.type === 'status-checked' && r.reference === 'ACME-NEVERARRIVED1' && r.found === false));
    assert.ok(
      !lines.some((r) => r.type === 'status-checked' && (r.reference === 'ACME-ONITSWAY01' || r.reference === 'ACME-STILLSENDING')),
      'nothing journalled for those in transit',
    );

    // On a terminal: a heading per kind, the references under it; the debit not sent from here last,
    // under the one line that says what it is.
    const screen = await setup.runInProcess(['reconcile', '--since', since], { tty: true });
    assert.equal(screen.code, 1);
    const text = stripAnsi(screen.stdout);
    assert.match(text, /\n1 debit on the account was not sent by fsapi from here \(₦450\.00 left the account\): listed below\n\s+ACME-BYHAND0001 /);
    assert.ok(text.indexOf('ACME-BYHAND0001') > text.indexOf('totals that differ'), 'after every finding on fsapi’s transfers');
    assert.match(text, /journalled but not found at the API[^\n]*\n\s+ACME-NEVERARRIVED1/);
    assert.match(text, /in transit[^\n]*\n(\s+ACME-\S+ .*\n)*\s+ACME-ONITSWAY01 /);
    assert.doesNotMatch(text, /\d{4}-\d\d-\d\dT/, 'times in local form on a terminal');
    assert.doesNotMatch(text, new RegExp(`settled now[^\\n]*\\n\\s+${settlingRef}`), 'settled once, then it agrees');
  });

  it('refuses a bad --since with exit 2, nothing sent', async () => {
    const before = setup.server.simulator.requests().length;
    const result = await setup.runInProcess(['reconcile', '--since', '2026-02-30']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /not a calendar date/);
    assert.equal(setup.server.simulator.requests().length, before);
  });
});

describe('reconcile: a clean journal', () => {
  let setup: TransferSetup;
  let clock = Date.now();
  before(async () => {
    setup = await setUpTransfers({ seedTransactions: 0, settleSeconds: 60, now: () => clock });
  });
  after(async () => setup?.close());

  it('exit 0 when everything agrees, after settling what was pending', async () => {
    const sent = await send(setup, '0123456789', '2500');
    assert.equal(sent.code, 0, sent.stderr);
    // Right after a send: the pending transfer is in transit, nothing to fix (exit 0).
    const now = await setup.runInProcess(['--json', 'reconcile']);
    assert.equal(now.code, 0, now.stderr);
    assert.deepEqual(
      JSON.parse(now.stdout).findings.map((f: { kind: string }) => f.kind),
      ['in-transit'],
    );
    clock += 61_000;
    const first = await setup.runInProcess(['--json', 'reconcile']);
    assert.equal(first.code, 0, first.stderr);
    const report = JSON.parse(first.stdout);
    assert.equal(report.agrees, true);
    assert.deepEqual(
      report.findings.map((f: { kind: string }) => f.kind),
      ['settled'],
    );
    assert.deepEqual([report.journal, report.api.total], [{ count: 1, total: '2500.00' }, '2500.00']);

    const again = await setup.runInProcess(['reconcile'], { tty: true });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /everything agrees/);
    // Piped: the header of the rows alone on stdout, the totals and the verdict on stderr.
    const piped = await setup.runInProcess(['reconcile']);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout, 'SECTION\tKIND\tREFERENCE\tAMOUNT\tACCOUNT\tNAME\tBANK\tTIME\tSTATUS\tDETAIL\n');
    assert.match(piped.stderr, /^everything agrees$/m);
  });
});

describe('reconcile core: failed and reversed transfers with their reversal credits', () => {
  let setup: TransferSetup;
  before(async () => {
    setup = await setUpTransfers({ seedTransactions: 0, settleSeconds: 1 });
  });
  after(async () => setup?.close());

  it('reports both, with the R-<reference> credit of the reversed one and none for the failed one', async () => {
    const refs: string[] = [];
    for (const amount of ['1200', '800']) {
      const sent = await send(setup, '0123456789', amount);
      assert.equal(sent.code, 0, sent.stderr);
      refs.push(JSON.parse(sent.stdout).reference);
    }
    const ctx = createContext({}, { ...setup.env, FSAPI_PROFILE: 'sim' });
    const api = await ctx.api();
    const [reversedRow, failedRow] = await Promise.all(refs.map((ref) => api.getTransaction(ref)));
    // As the real API is reported to send them: statuses in another case, a reversal as its own credit.
    const reversal: TransactionRecord = {
      ...reversedRow!,
      reference: `R-${reversedRow!.reference}`,
      type: 'credit',
      status: 'successful',
      createdAt: Date.now(),
    };
    // And a failed debit fsapi did not send: a failure of someone else's, in its own section.
    const notOurs = { ...failedRow!, reference: 'ACME-NOTOURS0001', status: 'failed' };
    const rows = [reversal, { ...reversedRow!, status: 'Reversed' }, { ...failedRow!, status: 'FAILED' }, notOurs];
    const pages = (async function* () {
      yield { page: 1, rows, received: rows.length };
    })();
    const now = Date.now();
    const result = await reconcile(ctx, new Journal(setup.home.dataDir), await transferScope(ctx), { sinceMs: now - 3_600_000, untilMs: now + 60_000 }, pages);
    const pick = (kind: Finding['kind']) => result.findings.filter((f) => f.kind === kind);
    assert.deepEqual(
      pick('reversed').map((f) => f.kind === 'reversed' && [f.reference, f.journalled, f.reversal]),
      [[refs[0], true, { reference: `R-${refs[0]}`, amountKobo: 1200_00 }]],
    );
    assert.deepEqual(
      pick('failed').map((f) => f.kind === 'failed' && [f.reference, f.journalled, f.reversal]),
      [[refs[1], true, null]],
    );
    assert.deepEqual(pick('unjournalled-debit'), [], 'a reversal credit is not a debit, and failed ones are reported as failed');
    assert.deepEqual(
      result.notSentHere.map((f) => f.kind === 'failed' && [f.reference, f.journalled]),
      [['ACME-NOTOURS0001', false]],
      'a failed debit not sent from here is no finding on fsapi’s transfers',
    );
    assert.deepEqual(pick('totals-differ'), []);
  });
});

describe('reconcile: the default period', () => {
  let setup: TransferSetup;
  const realNow = Date.now();
  let clock = realNow;
  before(async () => {
    setup = await setUpTransfers({ seedTransactions: 0, settleSeconds: 60, now: () => clock });
  });
  after(async () => setup?.close());

  it('covers the last 7 days even when the first journalled send is today: earlier debits by hand are shown', async () => {
    const day = 24 * 3_600_000;
    // Paid by hand before fsapi sent anything: 10 days ago (outside the week), 3 days ago, and this morning.
    for (const [reference, agoMs] of [
      ['ACME-HANDTENDAYS', 10 * day],
      ['ACME-HANDTHREEDAYS', 3 * day],
      ['ACME-HANDEARLIER', 60_000],
    ] as const) {
      clock = realNow - agoMs;
      const byHand = await rawTransfer(setup, { amount: 450, reference });
      assert.equal(byHand.code, 0, byHand.stderr);
    }
    clock = realNow;
    const sent = await send(setup, '0123456789', '2500');
    assert.equal(sent.code, 0, sent.stderr);
    clock += 61_000; // settled: only the debits by hand are left to see

    const result = await setup.runInProcess(['--json', 'reconcile']);
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout);
    const unknown = (report.notSentHere.debits as Array<{ kind: string; reference: string }>)
      .filter((f) => f.kind === 'unjournalled-debit')
      .map((f) => f.reference);
    assert.equal(errorObject(result.stderr).code, 'not_sent_here', 'only debits not sent from here: their own code');
    assert.deepEqual(unknown.sort(), ['ACME-HANDEARLIER', 'ACME-HANDTHREEDAYS']);
    // The business's day (Africa/Lagos without a policy), whatever TZ this machine has.
    const todayStart = zonedDay(realNow, 'Africa/Lagos').start;
    assert.equal(
      Date.parse(report.since),
      zonedDay(todayStart - 6 * day + 12 * 3_600_000, 'Africa/Lagos').start,
      "from the start of the business's day 6 days ago",
    );
    assert.deepEqual(report.journal, { count: 1, total: '2500.00' });

    // --since still says where it starts: from today on, the debit of 3 days ago is out of the period.
    const today = await setup.runInProcess(['--json', 'reconcile', '--since', 'today']);
    const todays = (JSON.parse(today.stdout).notSentHere.debits as Array<{ kind: string; reference: string }>)
      .filter((f) => f.kind === 'unjournalled-debit')
      .map((f) => f.reference);
    assert.ok(!todays.includes('ACME-HANDTHREEDAYS'), today.stdout);
  });

  it('reaches back to the first journalled send when it is older than the week', async () => {
    const old = intent(scopeOf(setup), 'ACME-OLDSEND00001', 100_00, 9 * 24 * 60);
    await new Journal(setup.home.dataDir).append(old);
    const result = await setup.runInProcess(['--json', 'reconcile']);
    assert.equal(Date.parse(JSON.parse(result.stdout).since), Date.parse(old.time), result.stderr);
  });
});

describe('reconcile on a fresh simulator: fsapi’s own transfers first, the debits it did not send after', () => {
  let setup: TransferSetup;
  const clock = Date.now();
  before(async () => {
    // The seeded history of a new simulator: debits of the last week that fsapi did not send.
    setup = await setUpTransfers({ settleSeconds: 600, now: () => clock });
  });
  after(async () => setup?.close());

  it('lists the one transfer that matters above the seeded debits, says in one line what those are, and exits 1 for them', async () => {
    const sent = await send(setup, '0123456789', '1500');
    assert.equal(sent.code, 0, sent.stderr);
    const reference = JSON.parse(sent.stdout).reference as string;

    const json = await setup.runInProcess(['--json', 'reconcile']);
    assert.equal(json.code, 1, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.deepEqual(
      (report.findings as Array<{ kind: string; reference: string }>).map((f) => [f.kind, f.reference]),
      [['in-transit', reference]],
    );
    const debits = report.notSentHere.debits as Array<{ kind: string; reference: string; time: string; amount: string }>;
    assert.ok(debits.length > 5, `the seeded week has debits: ${debits.length}`);
    assert.equal(report.notSentHere.count, debits.length);
    assert.ok(!debits.some((d) => d.reference === reference));
    const times = debits.map((d) => d.time);
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    assert.deepEqual([report.agrees, report.ownTransfersAgree], [false, true]);
    const error = errorObject(json.stderr);
    assert.equal(error.code, 'not_sent_here');
    assert.equal(error.message, `${debits.length} debits on the account were not sent by fsapi from here`);

    // At a terminal: the transfer first; then the one line; then the debits.
    const screen = await setup.runInProcess(['reconcile'], { tty: true, columns: 80 });
    assert.equal(screen.code, 1);
    const text = stripAnsi(screen.stdout);
    const line = `${debits.length} debits on the account were not sent by fsapi from here`;
    assert.ok(text.indexOf(reference) > 0 && text.indexOf(reference) < text.indexOf(line), text);
    assert.ok(text.indexOf(line) < text.indexOf(debits[0]!.reference), 'the line comes before the debits it announces');
    assert.equal(text.split('\nerror:')[0]!.split(line).length, 2, 'said once in the report (and once more by the error line)');
    // (A progress line rewritten with \r: what stays on screen is its last text.)
    for (const row of text.split('\n').map((shown) => shown.split('\r').at(-1)!)) assert.ok([...row].length <= 80, `over 80 columns: ${row}`);

    // Piped: tab-separated rows under one header, fsapi's own first; the talk on stderr.
    const piped = await setup.runInProcess(['reconcile']);
    assert.equal(piped.code, 1);
    const [header, ...rows] = piped.stdout
      .trimEnd()
      .split('\n')
      .map((row) => row.split('\t'));
    assert.deepEqual(header, ['SECTION', 'KIND', 'REFERENCE', 'AMOUNT', 'ACCOUNT', 'NAME', 'BANK', 'TIME', 'STATUS', 'DETAIL']);
    assert.deepEqual(rows[0]!.slice(0, 5), ['ours', 'in-transit', reference, '1500.00', '0123456789']);
    assert.equal(rows.length, 1 + debits.length);
    assert.deepEqual(
      rows.slice(1).map((row) => [row[0], row[2], row[3]]),
      debits.map((d) => ['not-sent-here', d.reference, d.amount]),
    );
    assert.match(piped.stderr, new RegExp(`^${line} \\(₦[0-9,.]+ left the account\\): the rows of SECTION not-sent-here$`, 'm'));
  });
});
