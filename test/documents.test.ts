// Receipts and statements of account against a served simulator, each command run in process: the PDFs are read back with a PDF text
// extractor (unpdf) and compared with what the API says (`tx get --json`, `account --json`), the
// transaction CSV is read back with csv-parse, and a transfer that is not successful gets no receipt.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { extractText, extractTextItems, getDocumentProxy, getMeta } from 'unpdf';
import PDFDocument from 'pdfkit';
import type { Context } from '../src/context.js';
import type { TransactionRecord } from '../src/api/schemas.js';
import { amountInWords, integerInWords } from '../src/money/amount-words.js';
import { StatementChangedError, gatherStatement, statementLines, type GatheredStatement, type StatementLine } from '../src/books/statement.js';
import { errorObject, makeHome, stripAnsi, type Home } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { startHostileApi, type HostileApi } from './fixtures/hostile-api.js';
import { sendArgs, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { FONT_FILES, fontDir, setFont, type Pdf } from '../src/documents/pdf.js';
import { currentFont, fillColourOps, RowText } from '../src/documents/row-text.js';
import { SIMULATOR_LOGIN_ENV } from './helpers/simulator-login.js';

/** The text of every page of a PDF, one string a page, as a PDF reader extracts it. */
async function pdfPages(file: string): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(readFileSync(file)));
  const { text } = await extractText(pdf, { mergePages: false });
  return text as string[];
}

/** The PDF's document information (Title, Subject, Keywords, ...). */
async function pdfInfo(file: string): Promise<Record<string, string>> {
  return (await getMeta(new Uint8Array(readFileSync(file)))).info as Record<string, string>;
}

/** How many times `part` is in `text`. */
const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** Kobo from the API's two-decimal text or number, written independently of src/money/kobo.ts. */
function kobo(value: string | number | null): number {
  if (value === null) return 0;
  const [whole, fraction = ''] = String(value).split('.');
  const sign = whole!.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(whole)) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2)));
}
const naira = (k: number) => `${k < 0 ? '-' : ''}₦${Math.floor(Math.abs(k) / 100).toLocaleString('en-US')}.${String(Math.abs(k) % 100).padStart(2, '0')}`;

describe('amount in words', () => {
  it('writes naira and kobo in British English, from integer kobo', () => {
    assert.equal(amountInWords(500_000 as Kobo), 'Five thousand naira only');
    assert.equal(amountInWords(1_234_567 as Kobo), 'Twelve thousand, three hundred and forty-five naira, sixty-seven kobo');
    assert.equal(amountInWords(100_500 as Kobo), 'One thousand and five naira only');
    assert.equal(amountInWords(50 as Kobo), 'Fifty kobo only');
    assert.equal(amountInWords(123_456_789 as Kobo), 'One million, two hundred and thirty-four thousand, five hundred and sixty-seven naira, eighty-nine kobo');
    assert.equal(integerInWords(1_000_000_000_000), 'one trillion');
    assert.equal(integerInWords(2_000_000_019), 'two billion and nineteen');
    assert.throws(() => amountInWords(-1 as Kobo), RangeError);
    assert.throws(() => amountInWords(0.5 as Kobo), RangeError);
  });
});

describe('transfer receipt', () => {
  let setup: TransferSetup;
  let dir: string;
  before(async () => {
    setup = await setUpTransfers({ settleSeconds: 1 });
    dir = mkdtempSync(path.join(tmpdir(), 'fsapi-receipt-'));
  });
  after(async () => {
    await setup?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function send(account: string, amount: string, wait: boolean): Promise<string> {
    const result = await setup.runInProcess([
      'transfer',
      'send',
      account,
      '--bank',
      'gtb',
      '--amount',
      amount,
      '--narration',
      'Invoice 7 for Adébáyọ̀',
      '--yes',
      '--json',
      ...(wait ? ['--wait'] : []),
    ]);
    assert.ok(result.code === 0 || result.code === 1, result.stderr);
    return (JSON.parse(result.stdout) as { reference: string }).reference;
  }

  it('writes a one-page PDF of a successful transfer whose text is the API record, the verified payee and the amount in words', async () => {
    const reference = await send('0123456789', '12345.67', true);
    const record = JSON.parse((await setup.runInProcess(['tx', 'get', reference, '--json'])).stdout) as Record<string, string>;
    const file = path.join(dir, 'receipt.pdf');
    // The reference typed in lower case finds the same transfer.
    const result = await setup.runInProcess(['transfer', 'receipt', reference.toLowerCase(), '--pdf', file]);
    assert.equal(result.code, 0, result.stderr);
    const pages = await pdfPages(file);
    assert.equal(pages.length, 1);
    const text = pages[0]!;
    for (const expected of [
      '₦12,345.67',
      'Twelve thousand, three hundred and forty-five naira, sixty-seven kobo',
      record.destinationAccountName!,
      record.destinationAccountNumber!,
      record.destinationBankName!,
      record.sessionId!,
      reference,
      'ACME TRADING LIMITED',
      'Invoice 7 for Adébáyọ̀',
      'This receipt was made by fsapi on',
    ]) {
      assert.ok(text.normalize('NFC').includes(expected.normalize('NFC')), `receipt lacks ${expected}:\n${text}`);
    }
    assert.ok(record.sessionId!.length > 10);
  });

  it('prints the same facts as --json and, piped, as tab-separated fields', async () => {
    const reference = await send('0123456789', '5000', true);
    const json = await setup.runInProcess(['transfer', 'receipt', reference, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const receipt = JSON.parse(json.stdout);
    const record = JSON.parse((await setup.runInProcess(['tx', 'get', reference, '--json'])).stdout);
    assert.equal(receipt.amount, '5000.00');
    assert.equal(receipt.amountInWords, 'Five thousand naira only');
    assert.equal(receipt.sessionId, record.sessionId);
    assert.equal(receipt.payee.name, record.destinationAccountName);
    assert.equal(receipt.status, 'successful');
    const piped = await setup.runInProcess(['transfer', 'receipt', reference]);
    const [header, row] = piped.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    assert.equal(row![header!.indexOf('Amount')], '5000.00');
    assert.equal(row![header!.indexOf('Session ID')], record.sessionId);
  });

  it('at a terminal: one labelled line a fact, within 80 columns', async () => {
    const reference = await send('0123456789', '100500', true);
    const result = await setup.runInProcess(['transfer', 'receipt', reference], { tty: true, columns: 80 });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /^Amount\s+₦100,500\.00\s*$/m);
    assert.match(screen, /^Amount in words\s+One hundred thousand, five hundred naira only\s*$/m);
    assert.match(screen, /^Paid to\s+OKAFOR CHIAMAKA ADAEZE\s*$/m);
    assert.match(screen, /^Session ID\s+\d{20,}\s*$/m);
    assert.match(screen, /^Time\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} WAT\s*$/m);
    for (const line of screen.split(/\r?\n/)) assert.ok(line.length <= 80, `wider than 80 columns: ${line}`);
  });

  it('gives no receipt of success for a pending, a failed or a reversed transfer, nor for one not sent from here (exit 1, no file)', async () => {
    const cases: Array<[string, RegExp]> = [
      [await send('0123451111', '100', false), /is pending: not yet paid/],
      [await send('0123454040', '100', true), /ended as failed: it did not reach the payee/],
      [await send('0123455050', '100', true), /ended as reversed: it did not reach the payee/],
      ['ACME-NEVERSENT0001', /was not sent from here/],
    ];
    for (const [reference, message] of cases) {
      const file = path.join(dir, `${reference}.pdf`);
      const result = await setup.runInProcess(['transfer', 'receipt', reference, '--pdf', file]);
      assert.equal(result.code, 1, `${reference}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(existsSync(file), false);
    }
  });

  it('refuses a --pdf in a folder that does not exist before asking the API (exit 2)', async () => {
    setup.server.simulator.clearRequests();
    const result = await setup.runInProcess(['transfer', 'receipt', 'ACME-ANY', '--pdf', path.join(dir, 'missing', 'r.pdf')]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: --pdf: the folder .* does not exist/m);
    assert.equal(setup.server.simulator.requests().length, 0);
  });

  it('transfer send and transfer status show the session id', async () => {
    const sent = await setup.runInProcess(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '10', '--narration', 'x', '--yes']);
    assert.equal(sent.code, 0, sent.stderr);
    const [header, row] = sent.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    const reference = row![header!.indexOf('Reference')]!;
    const record = JSON.parse((await setup.runInProcess(['tx', 'get', reference, '--json'])).stdout);
    assert.equal(row![header!.indexOf('Session ID')], record.sessionId);
    const status = await setup.runInProcess(['transfer', 'status', reference]);
    const [statusHeader, statusRow] = status.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    assert.equal(statusRow![statusHeader!.indexOf('Session ID')], record.sessionId);
  });
});

describe('transfer receipt: only for a debit of the account', () => {
  // The API's record of a sent transfer comes back with every fact matching (reference, amount, account)
  // but as another type of transaction: a credit into the account is no proof that money left it.
  let setup: TransferSetup;
  let proxy: HostileApi;
  let home: Home;
  let dir: string;
  before(async () => {
    setup = await setUpTransfers({ settleSeconds: 1 });
    proxy = await startHostileApi(setup.server.url);
    home = makeHome();
    await logInToSimulator(home.env, proxy.url);
    dir = mkdtempSync(path.join(tmpdir(), 'fsapi-receipt-type-'));
  });
  after(async () => {
    await proxy?.close();
    await setup?.close();
    home?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[]) => setup.runInProcess(args, { env: home.env });

  it('gives a receipt for the debit, and none when the same record says credit or fee (exit 1, no file)', async () => {
    const sent = await run(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '2500', '--narration', 'Invoice 12', '--yes', '--wait', '--json']);
    assert.equal(sent.code, 0, sent.stderr);
    const { reference } = JSON.parse(sent.stdout) as { reference: string };
    // The honest record, its type in the API's capitals: a receipt.
    proxy.options.rewriteLookupAnswer = (data) => ({ ...data, type: 'DEBIT' });
    const honest = await run(['transfer', 'receipt', reference, '--json']);
    assert.equal(honest.code, 0, honest.stderr);
    assert.equal((JSON.parse(honest.stdout) as { status: string }).status, 'successful');
    for (const type of ['credit', 'Credit', 'fee']) {
      proxy.options.rewriteLookupAnswer = (data) => ({ ...data, type });
      const file = path.join(dir, `${type}.pdf`);
      const result = await run(['transfer', 'receipt', reference, '--pdf', file]);
      assert.equal(result.code, 1, `${type}: ${result.stderr}`);
      assert.match(
        result.stderr,
        new RegExp(`^error: the API's record of ${reference} is not what was sent \\(a ${type} of the account, not a transfer out of it\\): no receipt$`, 'm'),
      );
      assert.equal(existsSync(file), false, `${type}: a receipt was written`);
    }
  });
});

describe('statement of account', () => {
  let setup: TransferSetup;
  let dir: string;
  before(async () => {
    setup = await setUpTransfers({ settleSeconds: 1, seedTransactions: 150 });
    dir = mkdtempSync(path.join(tmpdir(), 'fsapi-statement-'));
  });
  after(async () => {
    await setup?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Row {
    reference: string;
    type: string;
    status: string;
    amount: string;
    charge: string;
    stampDuty: number | null;
    createdAt: number;
    sourceAccountNumber: string;
    destinationAccountNumber: string;
  }

  /** Every row of the list with the balance now: the ground truth the statement is checked against. */
  async function truth() {
    const rows = JSON.parse((await setup.runInProcess(['tx', 'list', '--all', '--json'])).stdout) as Row[];
    const account = JSON.parse((await setup.runInProcess(['account', '--json'])).stdout) as { availableBalance: string };
    return { rows, balance: kobo(account.availableBalance) };
  }
  const moved = (row: Row) => !['failed', 'reversed'].includes(row.status.toLowerCase()) && !row.reference.startsWith('R-');
  const effect = (row: Row) => (moved(row) ? (row.type === 'credit' ? 1 : -1) * kobo(row.amount) - kobo(row.charge) - kobo(row.stampDuty) : 0);

  it('derives opening and closing balance from the balance now; each day adds up and ends at its balance', async () => {
    const { rows, balance } = await truth();
    const dayMs = 86_400_000;
    const untilMs = Date.now() - 2 * dayMs; // a period that ends before the last two days
    // Days in West Africa Time (UTC+1, no daylight saving), the business's clock, on a machine in UTC.
    const lagosDay = (ms: number) => new Date(ms + 3_600_000).toISOString().slice(0, 10);
    const until = lagosDay(untilMs);
    const since = lagosDay(untilMs - 6 * dayMs);
    const result = await setup.runInProcess(['statement', '--since', since, '--until', until, '--json'], { env: { TZ: 'UTC' } });
    assert.equal(result.code, 0, result.stderr);
    const s = JSON.parse(result.stdout);
    const endMs = Date.parse(`${until}T00:00:00+01:00`) + dayMs;
    const startMs = Date.parse(`${since}T00:00:00+01:00`);
    const after = rows.filter((row) => row.createdAt >= endMs).reduce((sum, row) => sum + effect(row), 0);
    const inPeriod = rows.filter((row) => row.createdAt >= startMs && row.createdAt < endMs).reduce((sum, row) => sum + effect(row), 0);
    assert.equal(kobo(s.closingBalance), balance - after);
    assert.equal(kobo(s.openingBalance), balance - after - inPeriod);
    let running = kobo(s.openingBalance);
    for (const day of s.days) {
      assert.equal(kobo(day.net), kobo(day.credits.total) - kobo(day.debits.total) - kobo(day.charges) - kobo(day.stampDuty));
      running += kobo(day.net);
      assert.equal(kobo(day.balance), running);
    }
    assert.equal(running, kobo(s.closingBalance));
  });

  it('--csv --transactions: one row per transaction, oldest first, UTC and local time, account numbers kept as text, a balance that adds up', async () => {
    const result = await setup.runInProcess(['statement', '--csv', '--transactions'], { env: { TZ: 'America/New_York' } });
    assert.equal(result.code, 0, result.stderr);
    const records = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    const summary = JSON.parse((await setup.runInProcess(['statement', '--json'], { env: { TZ: 'Africa/Lagos' } })).stdout);
    assert.ok(records.length > 20);
    let balance = kobo(summary.openingBalance);
    let previous = '';
    for (const record of records) {
      assert.ok(record.time_utc! >= previous, 'oldest first');
      previous = record.time_utc!;
      // The local column is the same instant in West Africa Time (UTC+1, no daylight saving), the
      // business's clock, on a machine in New York.
      const local = new Date(Date.parse(record.time_utc!) + 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
      assert.equal(record.time_local, `${local} WAT`);
      assert.match(record.counterparty_account!, /^="\d{10}"$/);
      if (record.counted === 'yes') balance += kobo(record.money_in || '0') - kobo(record.money_out || '0') - kobo(record.charges!);
      assert.equal(kobo(record.balance!), balance);
    }
    assert.equal(balance, kobo(summary.closingBalance));
  });

  it('--pdf: the totals, the balances and every transaction of the period, read back from the PDF', async () => {
    const file = path.join(dir, 'statement.pdf');
    const result = await setup.runInProcess(['statement', '--pdf', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /wrote .*statement\.pdf: \d+ transaction\(s\) on \d+ page\(s\)/);
    const summary = JSON.parse((await setup.runInProcess(['statement', '--json'])).stdout);
    const lines = JSON.parse((await setup.runInProcess(['tx', 'list', '--all', '--json'])).stdout) as Row[];
    const pages = await pdfPages(file);
    const text = pages.join('\n');
    for (const expected of [
      'Statement of account',
      'ACME TRADING LIMITED',
      naira(kobo(summary.openingBalance)),
      naira(kobo(summary.closingBalance)),
      naira(kobo(summary.credits.total)),
      naira(kobo(summary.debits.total)),
      'Money in and out per day',
    ]) {
      assert.ok(text.includes(expected), `statement lacks ${expected}`);
    }
    const startMs = Date.parse(`${summary.since}T00:00:00+01:00`);
    const inPeriod = lines.filter((row) => row.createdAt >= startMs);
    assert.ok(inPeriod.length > 20);
    for (const row of inPeriod) assert.ok(text.includes(row.reference), `statement lacks ${row.reference}`);
    // Every page carries the footer with its number.
    pages.forEach((page, i) => assert.match(page, new RegExp(`page ${i + 1} · made by fsapi on \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} WAT`)));
  });

  it('refuses --pdf with --json, and --transactions without --csv (exit 2, nothing sent)', async () => {
    setup.server.simulator.clearRequests();
    for (const args of [
      ['statement', '--pdf', path.join(dir, 'x.pdf'), '--json'],
      ['statement', '--transactions'],
    ]) {
      const result = await setup.runInProcess(args);
      assert.equal(result.code, 2, result.stderr);
      if (args.includes('--json')) assert.equal(errorObject(result.stderr).code, 'usage');
      else assert.match(result.stderr, /^error: /m);
    }
    assert.equal(setup.server.simulator.requests().length, 0);
  });
});

describe('statement: the second reading, oldest first', () => {
  const HOUR = 3_600_000;
  const untilMs = Date.UTC(2026, 10, 23);
  const period = { sinceMs: untilMs - 13 * 24 * HOUR, untilMs };

  /** An API whose list is `rows` (newest first), paged as the real one is. */
  function fakeContext(rows: TransactionRecord[], balance: string): Context {
    const api = {
      getAccount: async () => ({ availableBalance: balance, accountName: 'ACME TRADING LIMITED', accountNumber: '1100084217' }),
      listTransactions: async ({ page, limit }: { page: number; limit: number }) => rows.slice((page - 1) * limit, page * limit),
    };
    return { api: async () => api } as unknown as Context;
  }
  const tx = (i: number, type: 'credit' | 'debit', createdAt: number): TransactionRecord =>
    ({
      reference: `REF-${i}`,
      type,
      status: 'successful',
      amount: `${100 + i}.00`,
      charge: '1.50',
      stampDuty: null,
      createdAt,
      description: '',
    }) as unknown as TransactionRecord;
  /** 270 rows in the period and 30 after it, newest first: three full pages of 100. */
  const history = () => Array.from({ length: 300 }, (_, i) => tx(i, i % 4 === 0 ? 'debit' : 'credit', untilMs + 30 * HOUR - i * HOUR - 1));

  async function readAll(ctx: Context, gathered: GatheredStatement) {
    const lines: StatementLine[] = [];
    for await (const batch of statementLines(ctx, gathered, period)) lines.push(...batch);
    return lines;
  }

  it('hands every row of the period out once, oldest first, the balance after the last being the closing balance', async () => {
    const rows = history();
    const ctx = fakeContext(rows, '50000.00');
    const gathered = await gatherStatement(ctx, period, 'Africa/Lagos');
    const lines = await readAll(ctx, gathered);
    const inPeriod = rows.filter((row) => (row.createdAt as number) < untilMs);
    assert.equal(lines.length, inPeriod.length);
    assert.deepEqual(
      lines.map((line) => line.tx.reference),
      inPeriod.map((row) => row.reference).reverse(),
    );
    assert.equal(lines.at(-1)!.balanceKobo, gathered.statement.closingKobo);
    // Closing: the balance now less what the 30 rows after the period did.
    const after = rows
      .filter((row) => (row.createdAt as number) >= untilMs)
      .reduce((sum, row) => sum + (row.type === 'credit' ? 1 : -1) * kobo(row.amount) - 150, 0);
    assert.equal(gathered.statement.closingKobo, 5_000_000 - after);
  });

  it('still adds up when new transactions arrive at the top between the readings (the last page was full)', async () => {
    const rows = history();
    const ctx = fakeContext(rows, '50000.00');
    const gathered = await gatherStatement(ctx, period, 'Africa/Lagos');
    assert.deepEqual(gathered.pages, { first: 1, last: 3, lastFull: true });
    rows.unshift(tx(900, 'credit', untilMs + 40 * HOUR), tx(901, 'credit', untilMs + 41 * HOUR), tx(902, 'debit', untilMs + 42 * HOUR));
    const lines = await readAll(ctx, gathered);
    assert.equal(lines.length, gathered.rows);
    assert.equal(new Set(lines.map((line) => line.tx.reference)).size, lines.length);
  });

  it('refuses to finish when a row of the period changed between the readings', async () => {
    const rows = history();
    const ctx = fakeContext(rows, '50000.00');
    const gathered = await gatherStatement(ctx, period, 'Africa/Lagos');
    const changed = rows.find((row) => (row.createdAt as number) < untilMs)!;
    changed.status = 'failed';
    await assert.rejects(readAll(ctx, gathered), StatementChangedError);
  });
});

describe('documents say where they come from', () => {
  let setup: TransferSetup;
  let dir: string;
  // One served simulator under three profiles: logged in as sandbox (the set-up's default), logged in as
  // production, and the built-in `local` profile pointed at it: the simulator however it is reached.
  const profiles = [
    { environment: 'sandbox', args: () => [] as string[] },
    { environment: 'production', args: () => ['--profile', 'live'] },
    { environment: 'simulator', args: () => ['--profile', 'local', '--base-url', setup.server.url] },
  ] as const;
  const references = new Map<string, string>();
  before(async () => {
    setup = await setUpTransfers({ settleSeconds: 1, seedTransactions: 150 });
    dir = mkdtempSync(path.join(tmpdir(), 'fsapi-origin-'));
    const login = await setup.runInProcess(['auth', 'login', '--profile', 'live', '--env', 'production', '--base-url', setup.server.url], {
      env: SIMULATOR_LOGIN_ENV,
    });
    assert.equal(login.code, 0, login.stderr);
    for (const { environment, args } of profiles) {
      const sent = await setup.runInProcess([...args(), ...sendArgs('2500', '--wait', '--json')]);
      assert.equal(sent.code, 0, sent.stderr);
      references.set(environment, (JSON.parse(sent.stdout) as { reference: string }).reference);
    }
  });
  after(async () => {
    await setup?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The mark a document of this environment carries, or undefined for production. */
  const markOf = (environment: string) =>
    environment === 'production' ? undefined : `${environment.toUpperCase()}: no real money moved, not proof of payment`;

  for (const { environment, args } of profiles) {
    const mark = markOf(environment);
    it(`${environment}: the receipt ${mark ? 'is marked on its page, beside the amount and in its metadata' : 'carries no mark'}; --json says ${environment}`, async () => {
      const reference = references.get(environment)!;
      const file = path.join(dir, `receipt-${environment}.pdf`);
      const made = await setup.runInProcess([...args(), 'transfer', 'receipt', reference, '--pdf', file]);
      assert.equal(made.code, 0, made.stderr);
      const [page] = await pdfPages(file);
      const info = await pdfInfo(file);
      if (mark) {
        // The top band, the bottom band and the amount's band; the name across the page besides.
        assert.ok(occurrences(page!, mark) >= 3, page);
        assert.ok(occurrences(page!, environment.toUpperCase()) >= 4, page);
        assert.match(info.Title!, new RegExp(`^${environment.toUpperCase()}: Transfer receipt ${reference} \\(no real money moved, not proof of payment\\)$`));
        assert.ok(info.Subject!.endsWith(mark), info.Subject);
        assert.equal(info.Keywords, `${environment.toUpperCase()}, no real money moved, not proof of payment`);
      } else {
        for (const word of ['SIMULATOR', 'SANDBOX', 'no real money', 'not proof of payment'])
          assert.ok(!page!.includes(word), `${word} on a production receipt`);
        assert.equal(info.Title, `Transfer receipt ${reference}`);
        assert.equal(info.Keywords, undefined);
      }
      const json = await setup.runInProcess([...args(), 'transfer', 'receipt', reference, '--json']);
      assert.equal(json.code, 0, json.stderr);
      assert.equal(JSON.parse(json.stdout).environment, environment);
      // At a terminal, a receipt of no real money says so too (on stderr, the talk).
      const shown = await setup.runInProcess([...args(), 'transfer', 'receipt', reference]);
      assert.equal(shown.stderr.includes(mark ?? 'no real money moved'), mark !== undefined, shown.stderr);
    });

    it(`${environment}: ${mark ? 'every page of a statement is marked, top and bottom' : 'no page of a statement is marked'}; --json says ${environment}`, async () => {
      const file = path.join(dir, `statement-${environment}.pdf`);
      const made = await setup.runInProcess([...args(), 'statement', '--since', '30d', '--pdf', file]);
      assert.equal(made.code, 0, made.stderr);
      const pages = await pdfPages(file);
      assert.ok(pages.length >= 3, `a statement of several pages (${pages.length})`);
      const info = await pdfInfo(file);
      pages.forEach((page, i) => {
        if (mark) assert.ok(occurrences(page, mark) >= 2, `page ${i + 1} lacks the mark twice:\n${page}`);
        else
          for (const word of ['SIMULATOR', 'SANDBOX', 'no real money']) assert.ok(!page.includes(word), `${word} on page ${i + 1} of a production statement`);
      });
      if (mark) {
        assert.ok(info.Title!.startsWith(`${environment.toUpperCase()}: Statement of account`), info.Title);
        assert.equal(info.Keywords, `${environment.toUpperCase()}, no real money moved, not proof of payment`);
      } else {
        assert.match(info.Title!, /^Statement of account \d+, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/);
        assert.equal(info.Keywords, undefined);
      }
      const json = await setup.runInProcess([...args(), 'statement', '--json']);
      assert.equal(json.code, 0, json.stderr);
      const statement = JSON.parse(json.stdout);
      assert.equal(statement.environment, environment);
      assert.equal(statement.timeZone, 'Africa/Lagos');
    });
  }

  it("receipts and statements read the same with TZ=UTC and TZ=America/New_York: the business's clock, WAT", async () => {
    const reference = references.get('sandbox')!;
    // The time each was made differs between two runs: it is the one part left out of the comparison.
    const madeAt = /(made by fsapi on) \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} WAT/g;
    const documents = async (tz: string) => {
      const receipt = path.join(dir, `receipt-${tz.replace('/', '-')}.pdf`);
      const statement = path.join(dir, `statement-${tz.replace('/', '-')}.pdf`);
      const env = { TZ: tz };
      for (const args of [
        ['transfer', 'receipt', reference, '--pdf', receipt],
        ['statement', '--since', '30d', '--pdf', statement],
      ]) {
        const result = await setup.runInProcess(args, { env });
        assert.equal(result.code, 0, result.stderr);
      }
      const json = JSON.parse((await setup.runInProcess(['transfer', 'receipt', reference, '--json'], { env })).stdout);
      const shown = await setup.runInProcess(['transfer', 'receipt', reference], { env, tty: true, columns: 80 });
      const pages = [...(await pdfPages(receipt)), ...(await pdfPages(statement))].map((page) => {
        assert.match(page, madeAt);
        return page.replace(madeAt, '$1 (time)');
      });
      return { pages, timeLocal: json.timeLocal, timeZone: json.timeZone, shown: stripAnsi(shown.stdout) };
    };
    const [utc, newYork] = [await documents('UTC'), await documents('America/New_York')];
    assert.deepEqual(newYork, utc);
    // WAT is UTC+1: the receipt's time is its UTC time an hour on.
    const record = JSON.parse((await setup.runInProcess(['tx', 'get', reference, '--json'])).stdout) as { completedAt: number };
    const wat = new Date(record.completedAt + 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
    assert.equal(utc.timeLocal, `${wat} WAT`);
    assert.equal(utc.timeZone, 'Africa/Lagos');
    assert.match(utc.shown, new RegExp(`^Time\\s+${wat} WAT\\s*$`, 'm'));
    assert.ok(utc.pages[0]!.includes(`${wat} WAT`), utc.pages[0]);
    // The statement's rows: times in WAT, named once in the table's header.
    assert.ok(utc.pages.slice(1).every((page) => page.includes('Date and time (WAT)')));
  });
});

describe("the statement's rows, written straight into the page", () => {
  /** A one-page PDF in memory, drawn by `draw`. */
  async function pdfOf(draw: (doc: Pdf) => void): Promise<Uint8Array> {
    const doc = new PDFDocument({ size: 'A4', margin: 48, autoFirstPage: false, font: path.join(fontDir(), FONT_FILES.regular), compress: false });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => doc.on('end', resolve));
    doc.addPage();
    draw(doc);
    doc.end();
    await ended;
    return new Uint8Array(Buffer.concat(chunks));
  }
  const lines = [
    { face: 'mono', text: '2026-11-22 14:05                            ₦1,234,567.89  ₦10.75 …' },
    { face: 'mono', text: 'ACME-0A1B2C3D4E Ọ̀ mixed in' },
    { face: 'regular', text: 'Adébáyọ̀ Ọlátúnjí Stores' },
    { face: 'regular', text: 'AVAWAY To Ta Wa Yo · Guaranty Trust Bank · Invoice 7' },
  ] as const;

  it('draws the same glyphs at the same places as pdfkit, marks and kerning included', async () => {
    const viaPdfkit = await pdfOf((doc) => {
      lines.forEach(({ face, text }, i) => {
        setFont(doc, face).fontSize(6.6).fillColor('#555555');
        doc.text(text, 50, 100 + 10 * i, { lineBreak: false });
      });
    });
    const direct = await pdfOf((doc) => {
      const mono = currentFont(setFont(doc, 'mono'));
      const regular = currentFont(setFont(doc, 'regular'));
      const rows = new RowText(doc).monospaced(mono).colour(fillColourOps('#555555'));
      lines.forEach(({ face, text }, i) => rows.use(face === 'mono' ? mono : regular, 6.6).line(text, 50, 100 + 10 * i));
      rows.flush();
    });
    const items = async (bytes: Uint8Array) =>
      (await extractTextItems(bytes)).items[0]!.filter((item) => item.str.trim() !== '').map((item) => [
        item.str,
        item.x.toFixed(2),
        item.y.toFixed(2),
        item.width.toFixed(2),
      ]);
    const [expected, actual] = [await items(viaPdfkit), await items(direct)];
    assert.ok(expected.length >= lines.length);
    assert.deepEqual(actual, expected);
  });

  it('the monospaced face lays out its plain characters one by one: no kerning, no ligature, one width', async () => {
    await pdfOf((doc) => {
      const mono = currentFont(setFont(doc, 'mono'));
      let plain = '';
      for (let code = 0x20; code <= 0x7e; code += 1) plain += String.fromCharCode(code);
      plain += '\u20a6\u2026\u2212 fi ffl -- == ->';
      const [codes, positions] = mono.encode(plain);
      assert.equal(codes.join(''), [...plain].map((character) => mono.encode(character)[0].join('')).join(''));
      const widths = new Set(positions.map((position) => position.xAdvance));
      assert.equal(widths.size, 1);
      for (const position of positions) {
        assert.equal(position.xAdvance, position.advanceWidth);
        assert.equal(position.xOffset, 0);
        assert.equal(position.yOffset, 0);
      }
    });
  });
});
