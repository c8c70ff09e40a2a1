// fsapi statement against a served simulator: totals checked against an independent sum of
// `tx list --all --json`, the business's days (the policy's zone, else Africa/Lagos) whatever the
// machine's TZ, the CSV read back with csv-parse, the terminal view, and bad input refused before
// anything is sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stripAnsi } from './helpers/cli.js';
import { openBooks, type Books } from './tx-support.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';

let books: Books;
before(async () => {
  books = await openBooks({ seedTransactions: 250 });
});
after(async () => books?.stop());

interface Row {
  reference: string;
  type: string;
  status: string;
  amount: string | number;
  charge: string | number;
  stampDuty: string | number | null;
  createdAt: number;
}

/** Kobo from the API's two-decimal text or number, written independently of src/money/kobo.ts. */
function kobo(value: string | number | null): number {
  if (value === null) return 0;
  const [whole, fraction = ''] = String(value).split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}
const decimal = (k: number) => `${k < 0 ? '-' : ''}${Math.floor(Math.abs(k) / 100)}.${String(Math.abs(k) % 100).padStart(2, '0')}`;

/** The calendar day of an instant in a time zone, by Intl rather than by the code under test. */
const dayIn = (tz: string, ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
const shiftDay = (day: string, by: number) => new Date(Date.parse(`${day}T12:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);

async function allTransactions(): Promise<Row[]> {
  const result = await books.runInProcess(['--json', 'tx', 'list', '--all']);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Row[];
}

/** What the statement should say, summed here from the rows. */
function expected(rows: Row[], tz: string, since: string, until: string) {
  const days = new Map<string, { credits: number; creditTotal: number; debits: number; debitTotal: number; charges: number; stampDuty: number }>();
  for (let day = since; day <= until; day = shiftDay(day, 1)) days.set(day, { credits: 0, creditTotal: 0, debits: 0, debitTotal: 0, charges: 0, stampDuty: 0 });
  for (const row of rows) {
    const day = days.get(dayIn(tz, row.createdAt));
    if (!day) continue;
    if (row.type === 'credit') {
      day.credits += 1;
      day.creditTotal += kobo(row.amount);
    } else {
      day.debits += 1;
      day.debitTotal += kobo(row.amount);
    }
    day.charges += kobo(row.charge);
    day.stampDuty += kobo(row.stampDuty);
  }
  return days;
}

/** `policy set` as a person does it: at a terminal, the consumer secret typed at its one prompt. */
async function setPolicy(...options: string[]): Promise<void> {
  const result = await books.runInProcess(['policy', 'set', ...options], {
    tty: true,
    prompts: [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }],
  });
  assert.equal(result.code, 0, stripAnsi(result.stdout));
}

/** Checks a `statement --json` over `since`..`until` against the rows summed by day of `zone` here. */
function assertAddsUp(statement: any, rows: Row[], zone: string, since: string, until: string): void {
  const days = expected(rows, zone, since, until);
  assert.equal(statement.timeZone, zone);
  assert.equal(statement.since, since);
  assert.equal(statement.until, until);
  assert.deepEqual(
    statement.days.map((day: { date: string }) => day.date),
    [...days.keys()],
  );
  let credits = 0,
    creditTotal = 0,
    debits = 0,
    debitTotal = 0,
    charges = 0,
    stampDuty = 0;
  for (const day of statement.days) {
    const want = days.get(day.date)!;
    // The day's balance is checked by test/documents.test.ts against the balance now.
    assert.match(day.balance, /^-?\d+\.\d{2}$/);
    assert.deepEqual(day, {
      balance: day.balance,
      date: day.date,
      credits: { count: want.credits, total: decimal(want.creditTotal) },
      debits: { count: want.debits, total: decimal(want.debitTotal) },
      charges: decimal(want.charges),
      stampDuty: decimal(want.stampDuty),
      net: decimal(want.creditTotal - want.debitTotal - want.charges - want.stampDuty),
    });
    credits += want.credits;
    creditTotal += want.creditTotal;
    debits += want.debits;
    debitTotal += want.debitTotal;
    charges += want.charges;
    stampDuty += want.stampDuty;
  }
  assert.ok(credits > 10 && debits > 10, `the seeded last week has both kinds (${credits} credits, ${debits} debits)`);
  assert.deepEqual(statement.credits, { count: credits, total: decimal(creditTotal) });
  assert.deepEqual(statement.debits, { count: debits, total: decimal(debitTotal) });
  assert.equal(statement.charges, decimal(charges));
  assert.equal(statement.stampDuty, decimal(stampDuty));
  assert.equal(statement.net, decimal(creditTotal - debitTotal - charges - stampDuty));
}

describe("statement: the business's days, whatever TZ the machine has", () => {
  // The policy's zone is the business's clock: each case sets it (or removes the policy) first.
  after(async () => setPolicy('--off'));

  for (const machine of ['Pacific/Kiritimati', 'America/New_York', 'UTC']) {
    it(`without a policy: Africa/Lagos days, with TZ=${machine}`, async () => {
      const rows = await allTransactions();
      const until = dayIn('Africa/Lagos', Date.now());
      const since = shiftDay(until, -9);
      const result = await books.runInProcess(['--json', 'statement', '--since', since, '--until', until], { env: { TZ: machine } });
      assert.equal(result.code, 0, result.stderr);
      assertAddsUp(JSON.parse(result.stdout), rows, 'Africa/Lagos', since, until);
    });
  }

  it("with a policy: the days of the policy's zone (Pacific/Kiritimati, UTC+14), with TZ=UTC", async () => {
    await setPolicy('--max-per-day', '100000000', '--time-zone', 'Pacific/Kiritimati');
    const rows = await allTransactions();
    const until = dayIn('Pacific/Kiritimati', Date.now());
    const since = shiftDay(until, -9);
    const result = await books.runInProcess(['--json', 'statement', '--since', since, '--until', until], { env: { TZ: 'UTC' } });
    assert.equal(result.code, 0, result.stderr);
    assertAddsUp(JSON.parse(result.stdout), rows, 'Pacific/Kiritimati', since, until);
  });

  it('puts a row on a different day in zones 25 hours apart (the policy moved from Kiritimati to Pago Pago)', async () => {
    const rows = await allTransactions();
    const moved = rows.filter((row) => dayIn('Pacific/Kiritimati', row.createdAt) !== dayIn('Pacific/Pago_Pago', row.createdAt));
    assert.ok(moved.length > 0);
    const count = (tz: string, day: string) => rows.filter((row) => dayIn(tz, row.createdAt) === day).length;
    // A day whose rows differ in the two zones, so that the test tells them apart.
    const day = [2, 3, 4, 5, 6, 7]
      .map((back) => dayIn('Pacific/Kiritimati', Date.now() - back * 86_400_000))
      .find((candidate) => count('Pacific/Kiritimati', candidate) !== count('Pacific/Pago_Pago', candidate));
    assert.ok(day, 'the seeded week has a day whose rows differ between the two zones');
    const ask = async (zone: string) => {
      await setPolicy('--time-zone', zone);
      // The machine's TZ is the other zone: it is not what decides.
      const result = await books.runInProcess(['--json', 'statement', '--since', day, '--until', day], {
        env: { TZ: zone === 'Pacific/Kiritimati' ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati' },
      });
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout);
    };
    const [east, west] = [await ask('Pacific/Kiritimati'), await ask('Pacific/Pago_Pago')];
    assert.equal(east.credits.count + east.debits.count, count('Pacific/Kiritimati', day));
    assert.equal(west.credits.count + west.debits.count, count('Pacific/Pago_Pago', day));
  });
});

describe('statement', () => {
  it('the table, the TSV and both CSVs are the same with TZ=UTC and TZ=America/New_York, their times in WAT', async () => {
    const outputs = async (tz: string) => {
      const forms = [['statement'], ['statement', '--csv'], ['statement', '--csv', '--transactions']];
      const results = await Promise.all(forms.map((args) => books.runInProcess(args, { env: { TZ: tz } })));
      const table = await books.runInProcess(['statement'], { tty: true, columns: 100, env: { TZ: tz } });
      for (const result of [...results, table]) assert.equal(result.code, 0, result.stderr);
      return [...results.map((result) => result.stdout), stripAnsi(table.stdout)];
    };
    const [utc, newYork] = [await outputs('UTC'), await outputs('America/New_York')];
    assert.deepEqual(newYork, utc);
    const [tsv, , lines, table] = utc as [string, string, string, string];
    // The last day is today in Lagos, which neither machine zone is.
    assert.equal(tsv.trimEnd().split('\n').at(-1)!.split('\t')[0], dayIn('Africa/Lagos', Date.now()));
    assert.match(table, /\(days in WAT, Africa\/Lagos\)/);
    const records = parse(lines, { columns: true }) as Array<Record<string, string>>;
    assert.ok(records.length > 10);
    for (const record of records) {
      const wat = new Date(Date.parse(record.time_utc!) + 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
      assert.equal(record.time_local, `${wat} WAT`);
    }
  });

  it('--csv: the fixed header, one row a day, read back with csv-parse', async () => {
    const until = dayIn('Africa/Lagos', Date.now());
    const since = shiftDay(until, -6);
    const [csv, json] = await Promise.all([
      books.runInProcess(['statement', '--since', since, '--until', until, '--csv'], { env: { TZ: 'Africa/Lagos' } }),
      books.runInProcess(['--json', 'statement', '--since', since, '--until', until], { env: { TZ: 'Africa/Lagos' } }),
    ]);
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout.split('\n')[0], 'date,credits,credit_total,debits,debit_total,charges,stamp_duty,net,balance');
    const records = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    const statement = JSON.parse(json.stdout);
    assert.equal(records.length, 7);
    assert.deepEqual(
      records.map((r) => [r.date, Number(r.credits), r.credit_total, Number(r.debits), r.debit_total, r.charges, r.stamp_duty, r.net, r.balance]),
      statement.days.map((d: any) => [d.date, d.credits.count, d.credits.total, d.debits.count, d.debits.total, d.charges, d.stampDuty, d.net, d.balance]),
    );
  });

  it('without --since: the last seven local days; piped: tab-separated with the same columns', async () => {
    const result = await books.runInProcess(['statement'], { env: { TZ: 'Africa/Lagos' } });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines[0], 'date\tcredits\tcredit_total\tdebits\tdebit_total\tcharges\tstamp_duty\tnet\tbalance');
    assert.equal(lines.length, 8);
    assert.equal(lines.at(-1)!.split('\t')[0], dayIn('Africa/Lagos', Date.now()));
    // --since 7d is that same week (today and the six days before), not eight days.
    const week = await books.runInProcess(['statement', '--since', '7d'], { env: { TZ: 'Africa/Lagos' } });
    assert.equal(week.code, 0, week.stderr);
    assert.deepEqual(
      week.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t')[0]),
      lines.map((line) => line.split('\t')[0]),
    );
  });

  it('on a terminal: a summary and a bar chart of each day', async () => {
    const result = await books.runInProcess(['statement'], { tty: true, env: { TZ: 'Africa/Lagos' } });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /Statement \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);
    for (const label of ['Opening balance', 'Credits', 'Debits', 'Charges', 'Stamp duty', 'Net', 'Closing balance'])
      assert.match(screen, new RegExp(`^${label}\\s`, 'm'));
    assert.match(screen, /^DATE\s+IN\s+OUT\s+CHARGES\s+NET\s+BALANCE$/m);
    assert.match(screen, /█/);
    assert.match(screen, /₦[\d,]+\.\d{2}/);
  });

  for (const [args, message] of [
    [['--since', 'last week'], /--since: cannot read/],
    [['--since', '2026-11-20', '--until', '2026-11-10'], /after --until/],
    [['--csv', '--json'], /--csv and --json/],
  ] as Array<[string[], RegExp]>) {
    it(`refuses statement ${args.join(' ')} with exit 2, nothing sent`, async () => {
      books.clearRequests();
      const result = await books.runInProcess(['statement', ...args]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
      assert.deepEqual(books.queries('/v1/transactions'), []);
    });
  }
});
