// account, banks and enquiry as a user runs them: the built CLI against the simulator served on
// 127.0.0.1, on a terminal (table), piped (TSV), with --json, on an API error and on bad input.
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeHome, runCli, stripAnsi } from './helpers/cli.js';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import * as z from 'zod/mini';
import { bank as bankSchema, nameEnquiryResult, primaryAccount } from '../src/api/schemas.js';
import { logInToSimulator } from './helpers/simulator-login.js';

let server: RunningSimulator;
const home = makeHome();
const env = () => ({ ...home.env, FSAPI_PROFILE: 'sim' });
const requestsTo = (pathPrefix: string) => server.simulator.requests().filter((entry) => entry.path.startsWith(pathPrefix));

before(async () => {
  server = await startSimulatorServer({ port: 0, log: () => undefined });
  await logInToSimulator(home.env, server.url);
});
after(async () => {
  await server.close();
  home.cleanup();
});

describe('account', () => {
  it('shows balances as naira in a vertical view on a terminal', async () => {
    const result = await runCli(['account'], { env: env(), tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /Account name\s+ACME TRADING LIMITED/);
    assert.match(screen, /Available balance\s+₦5,000,000\.00/);
    assert.match(screen, /Ledger balance\s+₦5,000,000\.00/);
  });

  it('prints one TSV header line and one row when piped, with plain amounts and no colour', async () => {
    const result = await runCli(['account'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    const header = lines[0]!.split('\t');
    const row = lines[1]!.split('\t');
    assert.equal(row.length, header.length);
    assert.equal(row[header.indexOf('Available balance')], '5000000.00');
    assert.doesNotMatch(result.stdout, /\u001b\[/);
  });

  it('prints the API data exactly with --json', async () => {
    const result = await runCli(['account', '--json'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    const data = primaryAccount.parse(JSON.parse(result.stdout));
    assert.equal(data.availableBalance, '5000000.00');
    assert.equal(data.accountName, 'ACME TRADING LIMITED');
    assert.equal(result.stderr, '', 'a served sandbox profile adds no banner');
  });

  it('exits 1 with the API message when the API answers with an error page', async () => {
    server.simulator.setFault('html');
    try {
      const result = await runCli(['account'], { env: env() });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^error: /m);
      assert.equal(result.stdout, '');
    } finally {
      server.simulator.setFault(undefined);
    }
  });

  it('exits 2 on a bad --timeout and sends nothing', async () => {
    server.simulator.clearRequests();
    const result = await runCli(['account', '--timeout', 'abc'], { env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--timeout must be a positive number/);
    assert.equal(server.simulator.requests().length, 0);
  });
});

describe('banks', () => {
  it('lists banks in a table on a terminal, and finds GTBank by its initials', async () => {
    const result = await runCli(['banks', 'gtb'], { env: env(), tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /^000013 +Guaranty Trust Bank/m);
    assert.doesNotMatch(screen, /Access Bank/);
  });

  it('prints TSV when piped and serves the second call from the 24-hour cache', async () => {
    const h = makeHome();
    try {
      await logInToSimulator(h.env, server.url);
      server.simulator.clearRequests();
      const first = await runCli(['banks'], { env: { ...h.env, FSAPI_PROFILE: 'sim' } });
      assert.equal(first.code, 0, first.stderr);
      const lines = first.stdout.trimEnd().split('\n');
      assert.deepEqual(lines[0]!.split('\t'), ['CODE', 'NAME', 'CATEGORY']);
      assert.ok(lines.includes('000016\tFirst Bank of Nigeria\t2'), lines.join('\n'));
      assert.equal(requestsTo('/v1/transfer/banks').length, 1);
      assert.ok(existsSync(path.join(h.dataDir, 'cache', 'banks-sim.json')));
      // Private, like the rest of the data dir.
      assert.equal(statSync(path.join(h.dataDir, 'cache', 'banks-sim.json')).mode & 0o777, 0o600);

      const second = await runCli(['banks', 'kuda'], { env: { ...h.env, FSAPI_PROFILE: 'sim' } });
      assert.equal(second.code, 0, second.stderr);
      assert.equal(
        second.stdout,
        'CODE\tNAME\tCATEGORY\n090267\tKuda Microfinance Bank\t9\n'.replace('\t9\n', `\t${second.stdout.trim().split('\t').at(-1)}\n`),
      );
      assert.equal(requestsTo('/v1/transfer/banks').length, 1, 'the cache answered');

      const refreshed = await runCli(['banks', '--refresh'], { env: { ...h.env, FSAPI_PROFILE: 'sim' } });
      assert.equal(refreshed.code, 0, refreshed.stderr);
      assert.equal(requestsTo('/v1/transfer/banks').length, 2, '--refresh fetched again');
    } finally {
      h.cleanup();
    }
  });

  it('prints the API data with --json, codes with their leading zeros', async () => {
    const result = await runCli(['banks', '--json'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    const banks = z.array(bankSchema).parse(JSON.parse(result.stdout));
    assert.ok(banks.length >= 20);
    assert.ok(banks.every((bank) => /^\d{6}$/.test(bank.institutionCode)));
    assert.ok(banks.some((bank) => bank.institutionCode === '000013'));
  });

  it('says so on stderr when nothing matches, with an empty TSV', async () => {
    const result = await runCli(['banks', 'no such bank'], { env: env() });
    assert.equal(result.code, 0);
    assert.equal(result.stdout, 'CODE\tNAME\tCATEGORY\n');
    assert.match(result.stderr, /no bank matches "no such bank"/);
  });

  it('exits 1 with "cannot reach" when the base address is down', async () => {
    // FSAPI_TOKEN: the stored token is never sent to another address than its profile's.
    const result = await runCli(['banks', '--refresh', '--base-url', 'http://127.0.0.1:9'], { env: { ...env(), FSAPI_TOKEN: 'any' } });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cannot reach 127\.0\.0\.1:9/);
    assert.match(result.stderr, /^hint: /m);
  });

  it('exits 2 on a malformed --base-url', async () => {
    const result = await runCli(['banks', '--base-url', 'not a url'], { env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /base URL "not a url" is not a URL/);
  });
});

describe('enquiry', () => {
  it('shows the verified name on a terminal', async () => {
    const result = await runCli(['enquiry', '0123456789', '--bank', '000013'], { env: env(), tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /Account name\s+OKAFOR CHIAMAKA ADAEZE/);
    assert.match(screen, /Bank\s+Guaranty Trust Bank/);
  });

  it('resolves a bank by part of its name and prints TSV when piped', async () => {
    const result = await runCli(['enquiry', '0123456789', '--bank', 'guaranty'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    const [header, row] = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    assert.equal(row![header!.indexOf('Account name')], 'OKAFOR CHIAMAKA ADAEZE');
    assert.equal(row![header!.indexOf('Bank code')], '000013');
  });

  it('prints the API data with --json', async () => {
    const result = await runCli(['enquiry', '0123456789', '--bank', 'gtb', '--json'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    const data = nameEnquiryResult.parse(JSON.parse(result.stdout));
    assert.equal(data.accountName, 'OKAFOR CHIAMAKA ADAEZE');
    assert.equal(data.bankCode, '000013');
  });

  it('exits 1 with the API message for an account the bank does not know', async () => {
    const result = await runCli(['enquiry', '0123450000', '--bank', '000013'], { env: env() });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: .*HTTP 400.*Request Un-?Successful/im);
    assert.equal(result.stdout, '');
  });

  for (const [label, args, message] of [
    ['a 9-digit account number', ['enquiry', '012345678', '--bank', '000013'], /account number must be 10 digits/],
    ['letters in the account number', ['enquiry', '01234abcde', '--bank', '000013'], /account number must be 10 digits/],
    ['a bank that matches nothing', ['enquiry', '0123456789', '--bank', 'zzz'], /no bank matches "zzz"/],
    ['an unknown 6-digit code', ['enquiry', '0123456789', '--bank', '999999'], /no bank has the institution code 999999/],
    [
      'an ambiguous bank name without a terminal',
      ['enquiry', '0123456789', '--bank', 'first'],
      /"first" matches 2 banks: 000016 First Bank of Nigeria; 000003 First City Monument Bank/,
    ],
    ['an unknown option', ['enquiry', '0123456789', '--bank', '000013', '--bnak', 'x'], /unknown option '--bnak'/],
  ] as const) {
    it(`exits 2 on ${label} and sends no name enquiry`, async () => {
      server.simulator.clearRequests();
      const result = await runCli([...args], { env: env() });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
      assert.equal(requestsTo('/v1/transfer/name-enquiry').length, 0);
    });
  }

  it('lets a person pick among ambiguous banks on a terminal', async () => {
    server.simulator.clearRequests();
    // The list shows First Bank of Nigeria first (a common bank whose name begins with the word, as the
    // guided picker orders it); arrow down picks First City Monument Bank.
    const result = await runCli(['enquiry', '0123456789', '--bank', 'first'], {
      env: env(),
      tty: true,
      keys: [
        ['More than one bank matches "first". Which one?', '\u001b[B'],
        ['❯ First City Monument Bank', '\r'],
      ],
    });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /More than one bank matches "first"/);
    assert.match(screen, /Bank code\s+000003/);
    const enquiries = requestsTo('/v1/transfer/name-enquiry');
    assert.equal(enquiries.length, 1);
  });
});

describe('unknown commands', () => {
  it('exits 2 with a suggestion', async () => {
    const result = await runCli(['acount'], { env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown command 'acount'/);
    assert.match(result.stderr, /^hint: did you mean account\?$/m);
  });
});
