// The terminal experience of issue 14, as a person meets it: `transfer send` with nothing on the command
// line asks for each detail on a real pseudo-terminal (answered, then cancelled); without a terminal every
// missing detail is named in one exit-2 error; a batch file with one mistake of each kind is reported
// whole in one run; and the errors speak with one voice. What a terminal shows runs as the built CLI under a
// pseudo-terminal; what is piped runs in this process (test/helpers/in-process.ts).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { homePool, runCli, stripAnsi } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_LOGIN_ENV } from './helpers/simulator-login.js';

const pool = homePool();
after(() => pool.cleanup());

// The guided questions (src/ui/ask-transfer.ts): each answer is typed once the screen asks it. The bank
// picker's Enter waits for the typed word to show after the question: its list is then the word's.
const ACCOUNT = 'Account number (10 digits):';
const BANK = 'Bank (type a name, brand or code):';
const AMOUNT = 'Amount in naira (e.g. 1500 or 1,500.50):';
const NARRATION = 'Narration (what the transfer is for):';

async function journal(env: Record<string, string>): Promise<Array<Record<string, unknown>>> {
  const log = await runInProcess(['transfer', 'log', '--json'], { env });
  assert.equal(log.code, 0, log.stderr);
  return JSON.parse(log.stdout) as Array<Record<string, unknown>>;
}

describe('guided transfer send at a terminal', () => {
  it('asks for account, bank (searchable), amount (checked as typed) and narration, then confirms and sends once', async () => {
    const home = pool.home();
    const result = await runCli(['transfer', 'send'], {
      env: home.env,
      tty: true,
      columns: 80,
      timeoutMs: 90_000,
      // account; a brand name in the picker; a bad amount, cleared (Ctrl-U), a good one; narration; yes.
      keys: [
        [ACCOUNT, '0123456789\r'],
        [BANK, 'gtbank'],
        [`${BANK} gtbank`, '\r'],
        [AMOUNT, '1e3\r'],
        ['"1e3" is not a number of naira', '\u0015'],
        [AMOUNT, '1,500.50\r'],
        [NARRATION, 'Invoice 42\r'],
        ['Send ₦1,500.50 to OKAFOR CHIAMAKA ADAEZE?', 'y\r'],
      ],
    });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 0, screen);
    assert.match(screen, /Guaranty Trust Bank \(000013\)/);
    assert.match(screen, /amount "1e3" is not a number of naira/);
    assert.match(screen, /OKAFOR CHIAMAKA ADAEZE\s+\(verified by name enquiry\)/);
    // The name enquiry ran as soon as account and bank were known: its answer comes before the amount is asked.
    const verified = screen.indexOf('✔ Account holder: OKAFOR CHIAMAKA ADAEZE (verified by name enquiry)');
    assert.ok(verified >= 0 && verified < screen.indexOf('Amount in naira'), screen);
    assert.match(screen, /Available\s+₦[\d,.]+/, 'the confirmation shows the available balance');
    assert.match(screen, /Send ₦1,500\.50 to OKAFOR CHIAMAKA ADAEZE\?/);
    const sent = await journal(home.env);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.amount, '1500.50');
    assert.equal(sent[0]!.bankCode, '000013');
    assert.equal(sent[0]!.narration, 'Invoice 42');
  });

  it('answering No at the confirmation sends nothing (exit 4); so does Ctrl-C in the bank picker', async () => {
    const home = pool.home();
    const declined = await runCli(['transfer', 'send', '0123456789', '--amount', '2500'], {
      env: home.env,
      tty: true,
      timeoutMs: 90_000,
      keys: [
        [BANK, 'opay'],
        [`${BANK} opay`, '\r'],
        [NARRATION, 'Refund\r'],
        ['Send ₦2,500.00 to', 'n\r'],
      ],
    });
    assert.equal(declined.code, 4, stripAnsi(declined.stdout));
    assert.match(stripAnsi(declined.stdout), /OPay \(Paycom\) \(100004\)/);
    assert.match(stripAnsi(declined.stdout), /cancelled; nothing was sent/);
    const interrupted = await runCli(['transfer', 'send'], {
      env: home.env,
      tty: true,
      timeoutMs: 90_000,
      keys: [
        [ACCOUNT, '0123456789\r'],
        [BANK, '\u0003'],
      ],
    });
    assert.equal(interrupted.code, 4, stripAnsi(interrupted.stdout));
    assert.deepEqual(await journal(home.env), []);
  });

  it('a wrong account is found before the amount is asked: exit 1, nothing sent', async () => {
    const home = pool.home();
    const result = await runCli(['transfer', 'send'], {
      env: home.env,
      tty: true,
      columns: 80,
      timeoutMs: 90_000,
      keys: [
        [ACCOUNT, '0123450000\r'],
        [BANK, 'gtbank'],
        [`${BANK} gtbank`, '\r'],
      ],
    });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 1, screen);
    // The error is wrapped at spaces to the 80 columns (src/ui/error-lines.ts).
    assert.match(screen, /the name enquiry for account 0123450000 at Guaranty Trust Bank was\s+refused/);
    assert.doesNotMatch(screen, /Amount in naira/);
    assert.deepEqual(await journal(home.env), []);
  });

  it('--expect-name is still checked against the name found early: a mismatch is exit 1, nothing sent', async () => {
    const home = pool.home();
    const result = await runCli(['transfer', 'send', '--narration', 'Rent', '--expect-name', 'Bello Ibrahim'], {
      env: home.env,
      tty: true,
      timeoutMs: 90_000,
      keys: [
        [ACCOUNT, '0123456789\r'],
        [BANK, 'gtbank'],
        [`${BANK} gtbank`, '\r'],
        [AMOUNT, '2500\r'],
      ],
    });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 1, screen);
    assert.match(screen, /belongs to "OKAFOR CHIAMAKA ADAEZE", not "Bello Ibrahim"; nothing was sent/);
    assert.deepEqual(await journal(home.env), []);
  });

  it('the picker reads a word as --bank does (first + Enter is First Bank), and offers the bank a typo means', async () => {
    const home = pool.home();
    const first = await runCli(['enquiry', '0123456789'], {
      env: home.env,
      tty: true,
      timeoutMs: 90_000,
      keys: [
        [BANK, 'first'],
        [`${BANK} first`, '\r'],
      ],
    });
    assert.equal(first.code, 0, stripAnsi(first.stdout));
    assert.match(stripAnsi(first.stdout), /Bank code\s+000016/);
    const typo = await runCli(['enquiry', '0123456789'], {
      env: home.env,
      tty: true,
      timeoutMs: 90_000,
      keys: [
        [BANK, 'acess'],
        [`${BANK} acess`, '\r'],
      ],
    });
    assert.equal(typo.code, 0, stripAnsi(typo.stdout));
    assert.match(stripAnsi(typo.stdout), /did you mean this one\?/);
    assert.match(stripAnsi(typo.stdout), /Bank code\s+000014/);
  });

  it('enquiry asks for the bank it lacks', async () => {
    const home = pool.home();
    const result = await runCli(['enquiry', '0123456789'], {
      env: home.env,
      tty: true,
      timeoutMs: 90_000,
      keys: [
        [BANK, 'fbn'],
        [`${BANK} fbn`, '\r'],
      ],
    });
    assert.equal(result.code, 0, stripAnsi(result.stdout));
    assert.match(stripAnsi(result.stdout), /Bank code\s+000016/);
  });
});

describe('without a terminal', () => {
  it('everything missing is named in one exit-2 error, and nothing is sent', async () => {
    const home = pool.home();
    const all = await runInProcess(['transfer', 'send'], { env: home.env });
    assert.equal(all.code, 2);
    assert.equal(
      all.stderr,
      'error: missing the account number, --bank, --amount and --narration; nothing was sent\n' +
        'hint: give them on the command line (fsapi transfer send <accountNumber> --bank <code|name> --amount <naira> --narration <text>), or run it at a terminal to be asked\n',
    );
    const some = await runInProcess(['transfer', 'send', '0123456789', '--bank', 'gtb', '-y'], { env: home.env });
    assert.equal(some.code, 2);
    assert.match(some.stderr, /^error: missing --amount and --narration; nothing was sent$/m);
    const enquiry = await runInProcess(['enquiry'], { env: home.env });
    assert.equal(enquiry.code, 2);
    assert.match(enquiry.stderr, /^error: missing the account number and --bank; nothing was sent$/m);
    assert.deepEqual(await journal(home.env), []);
  });
});

describe('a batch file with one mistake of each kind', () => {
  let setup: TransferSetup | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  it('reports every bad row with its line in one run, before anything is sent', async () => {
    setup = await setUpTransfers();
    const file = path.join(setup.home.root, 'mistakes.csv');
    writeFileSync(
      file,
      [
        'account_number,bank,amount,narration',
        '0123456789,GTBank,1500,fine',
        '012345678,gtb,1500,nine digits',
        '0123456781,gtb,1.005,three decimals',
        '0123456782,Atlantis Savings,1500,unknown bank',
        '0123456783,bank,1500,ambiguous bank',
        '0123450000,OPay,1500,refused by name enquiry',
        '0123456784,FBN,2500,fine too',
        '',
      ].join('\n'),
    );
    const result = await setup.runInProcess(['transfer', 'batch', file, '--yes']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^line 3: account_number "012345678" is not 10 digits/m);
    assert.match(result.stderr, /^line 4: amount 1\.005 has more than 2 decimals$/m);
    assert.match(result.stderr, /^line 5: bank: no bank matches "Atlantis Savings"/m);
    assert.match(result.stderr, /^line 6: bank: "bank" matches \d+ banks/m);
    assert.match(result.stderr, /^7\t0123450000\tOPay \(Paycom\)\t.*the name enquiry was refused/m);
    assert.match(result.stderr, /^error: .*mistakes\.csv: 4 bad rows and 1 row that failed the name check; nothing was sent$/m);
    assert.doesNotMatch(result.stderr, /^line [28]:/m);
    assert.equal(setup.posts(), 0);
    assert.equal(setup.count('POST', '/v1/transfer/name-enquiry'), 3, 'the good rows and the refused one were name-checked');
  });
});

describe('one voice for errors', () => {
  it('commander errors, refusals and environment values', async () => {
    const home = pool.home();
    const cases: Array<[string[], Record<string, string>, number, string]> = [
      [['tx', 'list', '--pgae', '2'], {}, 2, "error: unknown option '--pgae'\nhint: did you mean --page?\n"],
      [['tx', 'lst'], {}, 2, "error: unknown command 'lst'\nhint: did you mean list?\n"],
      // A mistyped option is named even when a required value is also missing.
      [['simulator', 'collect', '9900000011', '--amout', '5'], {}, 2, "error: unknown option '--amout'\nhint: did you mean --amount?\n"],
      [
        ['tx', 'list', '--all', '--page', '2'],
        {},
        2,
        "error: option '--all' cannot be used with option '--page <n>'\nhint: add --help to the command to see its usage\n",
      ],
      [
        ['clients', 'get', '9900000999'],
        {},
        1,
        'error: no client account 9900000999 (HTTP 400: Request Unsuccessful)\nhint: fsapi clients list shows the client accounts\n',
      ],
      [
        ['tx', 'get', 'ACME-NOPE'],
        {},
        1,
        'error: no transaction with reference ACME-NOPE (HTTP 400: Request Un-Successful)\nhint: check the reference; fsapi tx list shows recent ones\n',
      ],
      [
        ['account'],
        { FSAPI_TIMEOUT: 'soon' },
        2,
        'error: FSAPI_TIMEOUT must be a positive number of seconds (at most 3600), not "soon"\nhint: fix or unset FSAPI_TIMEOUT in the environment\n',
      ],
      [
        ['account'],
        { FSAPI_BASE_URL: 'nowhere' },
        2,
        'error: FSAPI_BASE_URL: base URL "nowhere" is not a URL\nhint: fix or unset FSAPI_BASE_URL in the environment\n',
      ],
    ];
    for (const [args, env, code, stderr] of cases) {
      const result = await runInProcess(args, { env: { ...home.env, ...env } });
      assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr.replace(/^local simulator: no real money moves\n/, ''), stderr, args.join(' '));
    }
    const profile = await runInProcess(['account'], { env: { ...home.env, FSAPI_PROFILE: 'nosuch' } });
    assert.equal(profile.code, 2);
    assert.match(profile.stderr, /^error: FSAPI_PROFILE: no profile named "nosuch"$/m);
  });

  it('on a terminal, long error and hint lines wrap at spaces under their text; piped, each stays one line', async () => {
    const home = pool.home();
    const screenLines = (screen: string) =>
      stripAnsi(screen)
        .replace(/\r/g, '')
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.startsWith('local simulator'));
    // A continuation line (indented) joined back to the line it continues: what the piped run prints.
    const unwrapped = (lines: string[]) =>
      lines.reduce<string[]>(
        (joined, line) => (/^ +\S/.test(line) && joined.length > 0 ? [...joined.slice(0, -1), `${joined.at(-1)} ${line.trimStart()}`] : [...joined, line]),
        [],
      );
    const longWord = `nowhere/${'x'.repeat(90)}`; // not a URL: refused before anything is asked
    const cases: Array<[string[], Record<string, string>, number]> = [
      [['tx', 'list', '--since', '7x'], {}, 80], // fsapi's own error, hint longer than the line
      [['tx', 'list', '--all', '--page', '2'], {}, 40], // commander's usage error
      [['account'], { FSAPI_BASE_URL: longWord }, 80], // a word longer than the line
    ];
    for (const [args, env, columns] of cases) {
      const piped = await runInProcess(args, { env: { ...home.env, ...env } });
      assert.equal(piped.code, 2, piped.stderr);
      const oneLineEach = piped.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('local simulator'));
      assert.deepEqual(
        oneLineEach.map((line) => line.split(':')[0]),
        ['error', 'hint'],
        piped.stderr,
      );
      const shown = await runCli(args, { env: { ...home.env, ...env, FORCE_COLOR: '1' }, tty: true, columns });
      assert.equal(shown.code, 2, shown.stdout);
      const lines = screenLines(shown.stdout);
      assert.ok(lines.length > oneLineEach.length, `wrapped at ${columns} columns:\n${lines.join('\n')}`);
      let label = '';
      for (const line of lines) {
        // Only a word longer than the line may pass the edge, and then it stands whole on its line.
        if (line.length > columns) assert.match(line, new RegExp(`^(error:|hint:|\\s+) "?${longWord}`), line);
        // A continuation lines up with the text after its label.
        if (/^\s/.test(line)) assert.equal(line.search(/\S/), label.length + 1, line);
        else label = line.split(' ')[0]!;
      }
      assert.deepEqual(unwrapped(lines), oneLineEach, 'the same words, none cut');
    }
  });

  it('help: fsapi help <command> <sub>, a group alone on stdout with exit 0, numbers as defaults, each option once', async () => {
    const home = pool.home();
    const help = await runInProcess(['help', 'transfer', 'send'], { env: home.env });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: fsapi transfer send \[options\] \[accountNumber\]/);
    const group = await runInProcess(['transfer'], { env: home.env });
    assert.equal(group.code, 0);
    assert.match(group.stdout, /^Usage: fsapi transfer \[options\] \[command\]/);
    assert.equal(group.stderr, '');
    const login = await runInProcess(['auth', 'login', '--help'], { env: home.env });
    assert.match(login.stdout, /\(default: 1440\)/);
    // Listed once among the options (the global --base-url is hidden here); the text and examples may name it.
    assert.equal(login.stdout.match(/^\s+--base-url <url>/gm)?.length, 1);
    const batch = await runInProcess(['transfer', 'batch', '--help'], { env: home.env });
    assert.match(batch.stdout, /-y, --yes/);
    assert.match(batch.stdout, /\(default: 4\)/);
  });
});

describe('auth login at a terminal', () => {
  let setup: TransferSetup | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  it('asks for the environment when only --base-url is given, instead of refusing', async () => {
    setup = await setUpTransfers();
    const home = pool.home();
    const env = { ...home.env, ...SIMULATOR_LOGIN_ENV };
    const asked = await runCli(['auth', 'login', '--profile', 'acme-test', '--base-url', setup.server.url], {
      env,
      tty: true,
      timeoutMs: 90_000,
      keys: [['Which environment do you want to log in to?', '\r']],
    });
    const screen = stripAnsi(asked.stdout);
    assert.equal(asked.code, 0, screen);
    assert.match(screen, /Which environment do you want to log in to\?/);
    assert.match(screen, /Logged in to sandbox \(.*\) as profile "acme-test"/);
    const refused = await runInProcess(['auth', 'login', '--profile', 'other', '--base-url', setup.server.url], { env });
    assert.equal(refused.code, 2, 'without a terminal it is still exit 2');
    assert.match(refused.stderr, /which environment is profile "other" for\?/);
  });
});
