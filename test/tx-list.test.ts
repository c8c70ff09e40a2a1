// fsapi tx list against the simulator over HTTP: one page and --all (ending on a short page and on an
// empty page), on a terminal, piped, --json, the client-side filters (dates at the page edges, type,
// status), bad input refused with nothing sent, and an unreachable API. Build first: `npm run build`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorObject, stripAnsi } from './helpers/cli.js';
import { assertRefusedLocally, openBooks, pageOf, readAll, type Books } from './tx-support.js';
import type { TransactionRecordAsSpecified as TransactionRecord } from '../src/api/schemas.js';
import { formatNaira, parseApiAmount } from '../src/money/kobo.js';
import { zonedClockText } from '../src/common/time-zone.js';

// The child inherits TZ, which is not the business's: its times are shown in Lagos (WAT) all the same.
process.env.TZ = 'America/New_York';
const lagosTime = (ms: number) => zonedClockText(ms, 'Africa/Lagos');

const SEEDED = 45;
const TX = '/v1/transactions';
let books: Books;
let all: TransactionRecord[];

before(async () => {
  books = await openBooks({ seedTransactions: SEEDED });
  all = await readAll<TransactionRecord>(books, TX);
  assert.equal(all.length, SEEDED);
});
after(async () => books?.stop());

const iso = (ms: number) => new Date(ms).toISOString();
const pagesAsked = () => books.queries(TX).map(pageOf);
const counterpartyOf = (tx: TransactionRecord) =>
  tx.type === 'debit' ? `${tx.destinationAccountName}, ${tx.destinationBankName}` : `${tx.sourceAccountName}, ${tx.sourceBankName}`;

async function listJson(args: string[]): Promise<TransactionRecord[]> {
  books.clearRequests();
  const result = await books.run(['--json', 'tx', 'list', ...args]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as TransactionRecord[];
}

describe('tx list: one page', () => {
  it("shows a table on a terminal: money in naira, the business's times (WAT), counterparty, a hint about more pages", async () => {
    books.clearRequests();
    const result = await books.run(['tx', 'list', '--limit', '5'], { tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    for (const header of ['DATE (WAT)', 'REFERENCE', 'TYPE', 'AMOUNT', 'CHARGE', 'COUNTERPARTY', 'STATUS', 'DESCRIPTION'])
      assert.ok(screen.includes(header), header);
    for (const tx of all.slice(0, 5)) {
      assert.ok(screen.includes(tx.reference), tx.reference);
      assert.ok(screen.includes(formatNaira(parseApiAmount(tx.amount))), `amount of ${tx.reference}`);
      assert.ok(screen.includes(lagosTime(tx.createdAt)), `Lagos time of ${tx.reference}`);
      assert.ok(screen.includes(counterpartyOf(tx)), `counterparty of ${tx.reference}`);
    }
    assert.ok(!screen.includes(all[5]!.reference), 'a sixth row on a page of five');
    assert.match(screen, /more on --page 2, or use --all/);
    assert.deepEqual(pagesAsked(), ['1/5']);
  });

  it('writes TSV when piped: one header line, exact two-decimal amounts, ISO times, no colour', async () => {
    const result = await books.run(['tx', 'list']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines[0], 'DATE\tREFERENCE\tTYPE\tAMOUNT\tCHARGE\tCOUNTERPARTY\tSTATUS\tDESCRIPTION');
    assert.equal(lines.length, 1 + 20, 'the default page is 20 rows');
    assert.doesNotMatch(result.stdout, /\u001b\[/);
    lines.slice(1).forEach((line, i) => {
      const tx = all[i]!;
      assert.deepEqual(line.split('\t'), [
        iso(tx.createdAt),
        tx.reference,
        tx.type,
        String(tx.amount),
        String(tx.charge),
        counterpartyOf(tx),
        tx.status,
        tx.description,
      ]);
      assert.match(line.split('\t')[3]!, /^\d+\.\d{2}$/);
    });
  });

  it('prints the API rows exactly with --json, pretty-printed', async () => {
    books.clearRequests();
    const result = await books.run(['--json', 'tx', 'list', '--page', '3', '--limit', '15']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.startsWith('[\n  {\n    "'), 'pretty-printed');
    assert.deepEqual(JSON.parse(result.stdout), all.slice(30, 45));
    assert.deepEqual(pagesAsked(), ['3/15']);
  });

  it('prints [] for a page past the end', async () => {
    assert.deepEqual(await listJson(['--page', '9', '--limit', '15']), []);
  });

  it('filters only the page it reads without --all', async () => {
    const rows = await listJson(['--limit', '15', '--type', 'debit']);
    assert.deepEqual(
      rows,
      all.slice(0, 15).filter((tx) => tx.type === 'debit'),
    );
    assert.deepEqual(pagesAsked(), ['1/15']);
  });
});

describe('tx list --all', () => {
  it('reads every page until an empty one when the last full page was the end (45 rows, 15 a page)', async () => {
    assert.deepEqual(await listJson(['--all', '--limit', '15']), all);
    assert.deepEqual(pagesAsked(), ['1/15', '2/15', '3/15', '4/15']);
  });

  it('stops at a short page (45 rows, 20 a page), streaming TSV', async () => {
    books.clearRequests();
    const result = await books.run(['tx', 'list', '--all', '--limit', '20']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '', 'no progress line when stderr is not a terminal');
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.filter((line) => line.startsWith('DATE\t')).length, 1, 'one header line');
    assert.deepEqual(
      lines.slice(1).map((line) => line.split('\t')[1]),
      all.map((tx) => tx.reference),
    );
    assert.deepEqual(pagesAsked(), ['1/20', '2/20', '3/20']);
  });

  it('exports exactly the seeded count as one JSON array (what `| jq length` counts), 100 a page by default', async () => {
    const rows = await listJson(['--all']);
    assert.equal(rows.length, SEEDED);
    assert.deepEqual(pagesAsked(), ['1/100']);
  });

  it('refuses --page: every page means from the first', async () => {
    books.clearRequests();
    const result = await books.run(['tx', 'list', '--all', '--page', '2', '--limit', '15']);
    assertRefusedLocally(books, result, /option '--all' cannot be used with option '--page <n>'/);
    assert.deepEqual(pagesAsked(), []);
  });

  it('on a terminal: rows as they come and a progress line, cleared at the end', async () => {
    const result = await books.run(['tx', 'list', '--all', '--limit', '10'], { tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /fetched 10 transactions \(page 1\)/);
    assert.match(screen, /fetched 45 transactions \(page 5\)/);
    for (const tx of all) assert.ok(screen.includes(tx.reference), tx.reference);
    assert.ok(result.stdout.trimEnd().endsWith('\r\u001b[2K'), 'the progress line is cleared last');
  });
});

describe('tx list filters', () => {
  it('--type credit keeps credits only, across pages', async () => {
    const rows = await listJson(['--all', '--limit', '15', '--type', 'credit']);
    assert.deepEqual(
      rows,
      all.filter((tx) => tx.type === 'credit'),
    );
    assert.ok(rows.length > 0 && rows.length < SEEDED);
  });

  it('--status is case-insensitive; no match gives an empty array and a header-only TSV', async () => {
    assert.equal((await listJson(['--all', '--status', 'SUCCESSFUL'])).length, SEEDED);
    assert.deepEqual(await listJson(['--all', '--status', 'pending']), []);
    const tsv = await books.run(['tx', 'list', '--all', '--status', 'pending']);
    assert.equal(tsv.stdout, 'DATE\tREFERENCE\tTYPE\tAMOUNT\tCHARGE\tCOUNTERPARTY\tSTATUS\tDESCRIPTION\n');
  });

  it('--since the last row of page 2 includes it and stops after page 3, wholly older', async () => {
    assert.deepEqual(await listJson(['--all', '--limit', '15', '--since', iso(all[29]!.createdAt)]), all.slice(0, 30));
    assert.deepEqual(pagesAsked(), ['1/15', '2/15', '3/15']);
  });

  it('--since one millisecond after the last row of page 2 leaves that row out', async () => {
    assert.deepEqual(await listJson(['--all', '--limit', '15', '--since', iso(all[29]!.createdAt + 1)]), all.slice(0, 29));
    assert.deepEqual(pagesAsked(), ['1/15', '2/15', '3/15']);
  });

  it('--since the first row of page 3 keeps reading: page 3 is not wholly older', async () => {
    assert.deepEqual(await listJson(['--all', '--limit', '15', '--since', iso(all[30]!.createdAt)]), all.slice(0, 31));
    assert.deepEqual(pagesAsked(), ['1/15', '2/15', '3/15', '4/15']);
  });

  it('--until the first row of page 2 (inclusive) and one millisecond before it', async () => {
    assert.deepEqual(await listJson(['--all', '--limit', '15', '--until', iso(all[15]!.createdAt)]), all.slice(15));
    assert.deepEqual(await listJson(['--all', '--limit', '15', '--until', iso(all[15]!.createdAt - 1)]), all.slice(16));
  });

  it("a bare date is the whole day of the business's clock (Lagos), whatever TZ the machine has; --until inclusive", async () => {
    const dayOf = (tx: TransactionRecord) => new Date(tx.createdAt).toLocaleDateString('en-CA', { timeZone: 'Africa/Lagos' });
    const day = dayOf(all[20]!);
    const expected = all.filter((tx) => dayOf(tx) === day);
    assert.ok(expected.length > 0);
    for (const machine of ['UTC', 'America/New_York', 'Pacific/Kiritimati']) {
      books.clearRequests();
      const result = await books.run(['--json', 'tx', 'list', '--all', '--limit', '15', '--since', day, '--until', day], { env: { TZ: machine } });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), expected, `${day} with TZ=${machine}`);
    }
  });

  it('--since and --until together, across page edges', async () => {
    const since = all[40]!.createdAt;
    const until = all[10]!.createdAt;
    assert.deepEqual(await listJson(['--all', '--limit', '15', '--since', iso(since), '--until', iso(until)]), all.slice(10, 41));
  });
});

describe('tx list: bad input is refused before anything is sent', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--page', '0'], /--page must be a whole number from 1/],
    [['--limit', '-1'], /--limit must be a whole number from 1 to 100/],
    [['--limit', '0'], /--limit/],
    [['--limit', '101'], /--limit must be a whole number from 1 to 100/],
    [['--limit', '2.5'], /--limit/],
    [['--since', 'the day before'], /--since: cannot read "the day before"/],
    [['--since', '2026-02-30'], /not a calendar date/],
    [['--until', '2026-10-01T25:00'], /--until/],
    [['--since', '2026-10-02', '--until', '2026-10-01'], /--since 2026-10-02 is after --until 2026-10-01/],
    [['--type', 'cash'], /cash/],
    [['--status', ' '], /--status is empty/],
  ];
  for (const [args, message] of cases) {
    it(`tx list ${args.join(' ')}`, async () => {
      books.clearRequests();
      // --page is checked on one page; --all refuses it outright (see above).
      const all = args[0] === '--page' ? [] : ['--all'];
      assertRefusedLocally(books, await books.run(['tx', 'list', ...all, ...args]), message);
    });
  }
});

describe('tx list --csv --json', () => {
  it('is refused before anything is sent, as the error object --json asks for', async () => {
    books.clearRequests();
    const result = await books.run(['tx', 'list', '--all', '--csv', '--json']);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.deepEqual(errorObject(result.stderr), {
      code: 'usage',
      message: '--csv and --json cannot be used together',
      hint: 'choose one output format',
      exitCode: 2,
    });
    assert.deepEqual(books.server.simulator.requests(), [], 'a request reached the simulator');
  });
});

describe('tx list: the API cannot be reached', () => {
  it('exits 1 with the reason, nothing on stdout', async () => {
    // FSAPI_TOKEN: the stored token is never sent to another address than its profile's.
    const result = await books.run(['--base-url', 'http://127.0.0.1:9', 'tx', 'list', '--all'], { env: { FSAPI_TOKEN: 'any' } });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error: .*cannot reach 127\.0\.0\.1:9/m);
  });
});
