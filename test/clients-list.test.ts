// fsapi clients list / clients get against the simulator over HTTP: the seeded client accounts plus one
// created through the API, on a terminal, piped, --json, filters sent as query parameters, --all ending on
// an empty and on a short page, bad input refused with nothing sent, unknown account (exit 1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stripAnsi } from './helpers/cli.js';
import { assertRefusedLocally, openBooks, pageOf, readAll, type Books } from './tx-support.js';
import type {
  ClientEnquiryAsSpecified as ClientEnquiry,
  ClientListItemAsSpecified as ClientListItem,
  IndividualClientAsSpecified as IndividualClient,
} from '../src/api/schemas.js';
import { epochToMillis } from '../src/common/time.js';
import { zonedClockText } from '../src/common/time-zone.js';

// The machine's zone is not the business's: times are shown in Africa/Lagos (WAT) all the same.
process.env.TZ = 'America/New_York';

const LIST = '/v1/account/clients';
let books: Books;
let all: ClientListItem[];
let created: IndividualClient;

before(async () => {
  books = await openBooks({ seedTransactions: 10 });
  const made = await books.post<{ data: IndividualClient }>('/v1/account/clients/individual', {
    firstname: 'Ngozi',
    lastname: 'Eze',
    phoneNumber: '08035550101',
    emailAddress: 'ngozi.eze@example.com',
    address: '4 Broad Street, Lagos',
    bvn: '22298765432',
    gender: 'female',
    dateOfBirth: '1991/05/14',
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  created = made.body.data;
  all = await readAll<ClientListItem>(books, LIST);
  assert.equal(all.length, 11, 'ten seeded accounts and the new one');
});
after(async () => books?.stop());

const pagesAsked = () => books.queries(LIST).map(pageOf);

describe('clients list', () => {
  it('shows a table on a terminal with names, tiers and creation times read as seconds', async () => {
    books.clearRequests();
    const result = await books.run(['clients', 'list'], { tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    for (const header of ['NUMBER', 'NAME', 'TYPE', 'TIER', 'EMAIL', 'PHONE', 'CREATED']) assert.ok(screen.includes(header), header);
    for (const client of all) {
      const row = screen.split('\n').find((line) => line.includes(client.accountNumber));
      assert.ok(row, client.accountNumber);
      assert.ok(row.includes(client.accountName), client.accountName);
      assert.ok(row.includes(client.emailAddress));
      assert.ok(row.includes(zonedClockText(epochToMillis(client.createdAt), 'Africa/Lagos')), `created time of ${client.accountNumber}`);
    }
    assert.doesNotMatch(screen, /1970-01-/, 'a seconds timestamp read as milliseconds');
    assert.deepEqual(pagesAsked(), ['1/20']);
  });

  it('writes TSV when piped: ISO creation times in the right year', async () => {
    const result = await books.run(['clients', 'list']);
    assert.equal(result.code, 0, result.stderr);
    const [header, ...lines] = result.stdout.trimEnd().split('\n');
    assert.equal(header, 'NUMBER\tNAME\tTYPE\tTIER\tEMAIL\tPHONE\tCREATED');
    assert.equal(lines.length, all.length);
    lines.forEach((line, i) => {
      const client = all[i]!;
      assert.deepEqual(line.split('\t'), [
        client.accountNumber,
        client.accountName,
        client.accountType,
        client.accountTier === null ? '' : String(client.accountTier),
        client.emailAddress,
        client.mobileNumber,
        new Date(client.createdAt * 1000).toISOString(),
      ]);
    });
  });

  it('--csv names its columns for what they hold: account_number, account_name, ...', async () => {
    const result = await books.run(['clients', 'list', '--all', '--csv']);
    assert.equal(result.code, 0, result.stderr);
    const [header] = result.stdout.trimEnd().split('\n');
    assert.equal(header, 'account_number,account_name,account_type,account_tier,email_address,mobile_number,created_at');
    // The account number and the phone number kept as text: a spreadsheet keeps their leading zeros.
    const rows = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    const row = rows.find((candidate) => candidate.account_number === `="${created.accountNumber}"`);
    assert.ok(row, result.stdout);
    assert.equal(row.account_name, 'Ngozi Eze');
    assert.equal(row.account_type, 'individual');
    assert.equal(row.mobile_number, '="08035550101"');
  });

  it('prints the API list exactly with --json', async () => {
    const result = await books.run(['--json', 'clients', 'list']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), all);
  });

  it('sends the filters to the API as query parameters', async () => {
    books.clearRequests();
    const result = await books.run(['--json', 'clients', 'list', '--type', 'corporate', '--validity-type', 'permanent', '--status', 'active']);
    assert.equal(result.code, 0, result.stderr);
    const query = new URLSearchParams(books.queries(LIST)[0]);
    assert.equal(query.get('accountType'), 'corporate');
    assert.equal(query.get('validityType'), 'permanent');
    assert.equal(query.get('status'), 'active');
    const rows = JSON.parse(result.stdout) as ClientListItem[];
    assert.ok(rows.length > 0);
    assert.ok(rows.every((client) => client.accountType === 'corporate'));
  });

  it('--all reads to an empty page (11 accounts, 11 a page) and to a short page (3 a page)', async () => {
    books.clearRequests();
    const exact = await books.run(['--json', 'clients', 'list', '--all', '--limit', '11']);
    assert.equal(exact.code, 0, exact.stderr);
    assert.deepEqual(JSON.parse(exact.stdout), all);
    assert.deepEqual(pagesAsked(), ['1/11', '2/11']);

    books.clearRequests();
    const short = await books.run(['clients', 'list', '--all', '--limit', '3']);
    assert.equal(short.code, 0, short.stderr);
    assert.deepEqual(
      short.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t')[0]),
      all.map((client) => client.accountNumber),
    );
    assert.deepEqual(pagesAsked(), ['1/3', '2/3', '3/3', '4/3']);
  });

  it('--all on a terminal shows progress on stderr', async () => {
    const result = await books.run(['clients', 'list', '--all', '--limit', '2'], { tty: true });
    assert.equal(result.code, 0, result.stdout);
    assert.match(stripAnsi(result.stdout), /fetched 11 client accounts \(page 6\)/);
  });

  const bad: Array<[string[], RegExp]> = [
    [['--page', '0'], /--page/],
    [['--limit', '0'], /--limit must be a whole number from 1 to 100/],
    [['--limit', '101'], /--limit must be a whole number from 1 to 100/],
    [['--type', 'business'], /business/],
    [['--status', ''], /--status is empty/],
  ];
  for (const [args, message] of bad) {
    it(`refuses clients list ${args.join(' ')} before sending`, async () => {
      books.clearRequests();
      assertRefusedLocally(books, await books.run(['clients', 'list', ...args]), message);
    });
  }

  it('exits 1 when the API cannot be reached', async () => {
    // FSAPI_TOKEN: the stored token is never sent to another address than its profile's.
    const result = await books.run(['--base-url', 'http://127.0.0.1:9', 'clients', 'list'], { env: { FSAPI_TOKEN: 'any' } });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: .*cannot reach/m);
  });
});

describe('clients get', () => {
  it('finds a client account created a moment ago, shown as labels and values on a terminal', async () => {
    const result = await books.run(['clients', 'get', created.accountNumber], { tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, new RegExp(`Account number\\s+${created.accountNumber}`));
    assert.match(screen, new RegExp(`Account name\\s+${created.accountName}`));
    assert.match(screen, new RegExp(`External reference\\s+${created.externalReference}`));
  });

  it('shows the NUBAN text as the API sent it, piped as TSV', async () => {
    const { body } = await books.api<{ data: ClientEnquiry }>(`/v1/client-enquiry/${all[0]!.accountNumber}`);
    const result = await books.run(['clients', 'get', all[0]!.accountNumber]);
    assert.equal(result.code, 0, result.stderr);
    const [header, line] = result.stdout.trimEnd().split('\n');
    const fields = Object.fromEntries(header!.split('\t').map((label, i) => [label, line!.split('\t')[i]]));
    assert.equal(fields['NUBAN account number'], body.data.nubanAccountNumber);
    assert.equal(fields['Account number'], all[0]!.accountNumber);
  });

  it('prints the API data exactly with --json', async () => {
    const { body } = await books.api<{ data: ClientEnquiry }>(`/v1/client-enquiry/${created.accountNumber}`);
    const result = await books.run(['--json', 'clients', 'get', created.accountNumber]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), body.data);
  });

  it('exits 1 with the API message for an account it does not know', async () => {
    const unknown = '9900000019';
    const { status, body } = await books.api<{ message: string }>(`/v1/client-enquiry/${unknown}`);
    assert.notEqual(status, 200);
    const result = await books.run(['clients', 'get', unknown]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.ok(result.stderr.includes(body.message), result.stderr);
  });

  for (const bad of ['12345', '99000000111', 'abcdefghij', '']) {
    it(`refuses the account number ${JSON.stringify(bad)} before sending`, async () => {
      books.clearRequests();
      assertRefusedLocally(books, await books.run(['clients', 'get', bad]), /10 digits/);
    });
  }
});
