// clients create individual|corporate against the simulator over real HTTP: piped runs in this process
// (test/helpers/in-process.ts), the review and the questions at a terminal as the built CLI under a pty.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FieldError, parseNigerianPhone, parsePastDate, toIsoDate, toSlashDate } from '../src/clients/create.js';
import { stripAnsi } from './helpers/cli.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';

const individual = [
  'clients',
  'create',
  'individual',
  '--firstname',
  'Ada',
  '--lastname',
  'Obi',
  '--middlename',
  'Chioma',
  '--phone-number',
  '+234 803 123 4567',
  '--email-address',
  'ada@example.com',
  '--address',
  '1 Marina, Lagos',
  '--bvn',
  '22212345678',
  '--nin',
  '12345678901',
  '--gender',
  'female',
  '--date-of-birth',
  '1990-04-01',
  '--metadata',
  '{"customerId":"42"}',
  '--yes',
];
const corporate = [
  'clients',
  'create',
  'corporate',
  '--rc-number',
  'RC 1234567',
  '--business-name',
  'Kola Foods Ltd',
  '--email-address',
  'ops@kola.ng',
  '--phone-number',
  '08031234567',
  '--bvn',
  '22212345678',
  '--incorporation-date',
  '2015/06/01',
  '--date-of-birth',
  '1980-01-31',
  '--yes',
];
/** The args without one flag and its value. */
const without = (args: string[], ...flags: string[]) => args.filter((arg, i) => !flags.includes(arg) && !flags.includes(args[i - 1] ?? ''));
const replace = (args: string[], flag: string, value: string) => args.map((arg, i) => (args[i - 1] === flag ? value : arg));

/** The review's question at a terminal: each answer is typed once the screen asks it. */
const CONFIRM = 'Create this individual client account?';

let setup: TransferSetup;
before(async () => {
  setup = await setUpTransfers();
});
after(async () => {
  await setup.close();
});
beforeEach(() => setup.server.simulator.clearRequests());
const creates = () => setup.count('POST', '/v1/account/clients/individual') + setup.count('POST', '/v1/account/clients/corporate');

describe('clients create: dates, phones', () => {
  const now = Date.parse('2026-03-15T12:00:00Z');
  it('dates: both spellings, real calendar dates, not in the future, sent in the spec formats', () => {
    assert.equal(toSlashDate('1990-04-01', now), '1990/04/01');
    assert.equal(toSlashDate('1990/04/01', now), '1990/04/01');
    assert.equal(toIsoDate('2015-06-01', now), '2015-06-01T00:00:00.000Z');
    assert.equal(toSlashDate('2024-02-29', now), '2024/02/29');
    assert.equal(toSlashDate('2026-03-15', now), '2026/03/15', 'today is not the future');
    for (const bad of ['2023-02-29', '1990-13-01', '1990-04-31', '2026-03-16', '1899-12-31', '01/04/1990', '1990-04/01', '1990-4-1', '']) {
      assert.throws(() => parsePastDate(bad, now), FieldError, bad);
    }
  });

  it('phones: Nigerian mobile numbers, local or international, sent as 11 digits', () => {
    assert.equal(parseNigerianPhone('08031234567'), '08031234567');
    assert.equal(parseNigerianPhone('+234 803 123 4567'), '08031234567');
    assert.equal(parseNigerianPhone('2349031234567'), '09031234567');
    assert.equal(parseNigerianPhone('0701-234-5678'), '07012345678');
    for (const bad of ['0803123456', '080312345678', '+2340803123456', '01234567890', '+14155550100', 'phone']) {
      assert.throws(() => parseNigerianPhone(bad), FieldError, bad);
    }
  });
});

describe('clients create individual', () => {
  it('creates the account: JSON is the API data, with the date and phone in the spec formats', async () => {
    const result = await setup.runInProcess([...individual, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const data = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.match(String(data.accountNumber), /^[0-9]{10}$/);
    assert.equal(data.accountName, 'Ada Chioma Obi');
    assert.equal(data.dateOfBirth, '1990/04/01');
    assert.equal(data.mobileNumber, '08031234567');
    assert.equal(data.gender, 'female');
    assert.deepEqual(data.metadata, { customerId: '42' });
    assert.equal(creates(), 1);
  });

  it('piped: one TSV record with the account number and name', async () => {
    const result = await setup.runInProcess(individual);
    assert.equal(result.code, 0, result.stderr);
    const [header, row] = result.stdout.trimEnd().split('\n');
    assert.match(header!, /^Account number\tAccount name\tType\tBank\t/);
    assert.match(row!, /^[0-9]{10}\tAda Chioma Obi\tindividual\tProvidus Bank \(000023\)\t/);
  });

  it('without a terminal and without --yes: exit 2, nothing sent', async () => {
    const result = await setup.runInProcess(without(individual, '--yes'));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: there is no terminal to review this client account on; nothing was sent\nhint: .*--yes/m);
    assert.equal(creates(), 0);
  });

  it('at a terminal, shows what will be sent and asks (default No): Enter creates nothing (exit 4), y creates it once', { timeout: 60_000 }, async () => {
    const declined = await setup.run(without(individual, '--yes'), { tty: true, keys: [[CONFIRM, '\r']], timeoutMs: 45_000 });
    const screen = stripAnsi(declined.stdout);
    assert.equal(declined.code, 4, screen);
    for (const shown of [
      /Individual client account/,
      /First name\s+Ada/,
      /Middle name\s+Chioma/,
      /BVN\s+22212345678/,
      /Date of birth\s+1990\/04\/01/,
      /Phone number\s+08031234567/,
    ]) {
      assert.match(screen, shown);
    }
    assert.match(screen, /Create this individual client account\? \(y\/N\)/);
    assert.equal(creates(), 0);
    const accepted = await setup.run(without(individual, '--yes'), { tty: true, keys: [[CONFIRM, 'y\r']], timeoutMs: 45_000 });
    assert.equal(accepted.code, 0, stripAnsi(accepted.stdout));
    assert.match(stripAnsi(accepted.stdout), /Bank\s+Providus Bank \(000023\)/);
    assert.equal(creates(), 1);
  });

  it('without a terminal, every missing flag is listed in one message: exit 2, no POST', async () => {
    const result = await setup.runInProcess(without(individual, '--lastname', '--bvn', '--gender', '--date-of-birth'));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /missing --lastname, --bvn, --gender, --date-of-birth/);
    assert.equal(creates(), 0);
  });

  const bad: Array<[string, string, string, RegExp]> = [
    ['a 10-digit BVN', '--bvn', '2221234567', /--bvn must be 11 digits/],
    ['a NIN with letters', '--nin', '1234567890A', /--nin must be 11 digits/],
    ['February 30th', '--date-of-birth', '1990-02-30', /not a calendar date/],
    ['a future date of birth', '--date-of-birth', '2999-01-01', /in the future/],
    ['a day-first date', '--date-of-birth', '01/04/1990', /YYYY-MM-DD/],
    ['an e-mail without a domain', '--email-address', 'ada@', /not an e-mail address/],
    ['a foreign phone number', '--phone-number', '+14155550100', /not a Nigerian mobile number/],
    ['metadata that is an array', '--metadata', '[1,2]', /must be a JSON object/],
    ['metadata that is not JSON', '--metadata', '{customerId: 42}', /not JSON/],
  ];
  for (const [what, flag, value, message] of bad) {
    it(`${what}: exit 2, no POST`, async () => {
      const result = await setup.runInProcess(replace(individual, flag, value));
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(creates(), 0);
    });
  }

  it('on a terminal, asks for each missing required field, validating as it goes', { timeout: 60_000 }, async () => {
    const backspaces = '\u007f'.repeat(12);
    const result = await setup.run(without(individual, '--address', '--gender', '--date-of-birth', '--middlename', '--yes'), {
      tty: true,
      keys: [
        ['Address', '1 Marina, Lagos\r'],
        ['Gender', '\u001b[B'],
        ['❯ female', '\r'],
        ['Date of birth (YYYY-MM-DD)', '2999-01-01\r'],
        ['is in the future', `${backspaces}1990-04-01\r`],
        [CONFIRM, 'y\r'],
      ],
      timeoutMs: 45_000,
    });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 0, screen);
    assert.match(screen, /Address/);
    assert.match(screen, /Gender/);
    assert.match(screen, /is in the future/, 'the wrong date was refused at the prompt');
    assert.match(screen, /Gender\s+female/);
    assert.match(screen, /Date of birth\s+1990\/04\/01/);
    assert.doesNotMatch(screen, /Middle name/, 'optional fields are not asked for');
    assert.equal(creates(), 1);
  });
});

describe('clients create corporate', () => {
  it('creates the account: rcNumber and bvn sent as numbers, incorporationDate as ISO', async () => {
    const result = await setup.runInProcess([...corporate, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const data = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.match(String(data.accountNumber), /^[0-9]{10}$/);
    assert.equal(data.accountName, 'Kola Foods Ltd');
    assert.equal(data.rcNumber, '1234567');
    assert.equal(data.bvn, '22212345678');
    assert.equal(data.incorporationDate, '2015-06-01T00:00:00.000Z');
    assert.equal(data.dateOfBirth, '1980/01/31');
    assert.equal(creates(), 1);
  });

  it('missing flags listed together: exit 2, no POST', async () => {
    const result = await setup.runInProcess(['clients', 'create', 'corporate', '--business-name', 'Kola Foods Ltd']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /missing --rc-number, --email-address, --phone-number, --bvn, --incorporation-date, --date-of-birth/);
    assert.equal(creates(), 0);
  });

  for (const [what, flag, value, message] of [
    ['a BVN starting with 0 (cannot be sent as a number)', '--bvn', '02212345678', /starts with 0/],
    ['an incorporation date that does not exist', '--incorporation-date', '2015-06-31', /not a calendar date/],
    ['an RC number with letters', '--rc-number', 'ABC', /registration number/],
  ] as const) {
    it(`${what}: exit 2, no POST`, async () => {
      const result = await setup.runInProcess(replace(corporate, flag, value));
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(creates(), 0);
    });
  }
});
