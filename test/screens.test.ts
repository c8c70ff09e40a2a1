// The screens as a new user meets them at a terminal (colours on): each test drives one command the way a
// person does and checks what the screen shows. Where keys are typed, the built CLI runs under a real
// pseudo-terminal; the rest run in this process on a captured terminal (test/helpers/in-process.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extractText, getDocumentProxy } from 'unpdf';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { Command } from 'commander';
import { cliPath, homePool, repoRoot, spawnCliInTerminal, stripAnsi } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';
import { overWidth, shownLines, tableRows } from './helpers/screen.js';
import { sendArgs, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { defineEveryCommand } from '../src/program.js';
import { displayWidth } from '../src/common/text-width.js';
import type { ScriptedAnswer } from './helpers/context.js';

let setup: TransferSetup | undefined;
const homes = homePool();
afterEach(async () => {
  await setup?.close();
  setup = undefined;
  homes.cleanup();
});

describe('the guided send checks the flags it was given before its first question', () => {
  for (const [given, refusal] of [
    [['--bank', 'acess'], /no bank matches "acess"/],
    [['--amount', '12x'], /--amount: amount "12x" is not a number/],
    [['--narration', ' '], /--narration is empty/],
    [['--sender-name', ' '], /--sender-name is empty/],
  ] as const) {
    it(`transfer send ${given.join(' ')}: refused (exit 2) before the account number is asked`, async () => {
      setup = await setUpTransfers();
      const result = await setup.runInProcess(['transfer', 'send', ...given], { tty: true, columns: 80, env: { FORCE_COLOR: '1' } });
      const screen = stripAnsi(result.stdout);
      assert.equal(result.code, 2, screen);
      assert.match(screen, refusal);
      assert.doesNotMatch(screen, /Account number/);
      assert.equal(setup.posts(), 0);
    });
  }

  it('enquiry --bank acess: refused before the account number is asked', async () => {
    setup = await setUpTransfers();
    const result = await setup.runInProcess(['enquiry', '--bank', 'acess'], { tty: true, columns: 80 });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 2, screen);
    assert.match(screen, /hint: did you mean Access Bank\?/);
    assert.doesNotMatch(screen, /Account number/);
  });
});

describe('payees add with a wrong --expect-name', () => {
  it('says nothing was saved (not sent), and saves nothing', async () => {
    setup = await setUpTransfers();
    const result = await setup.runInProcess(['payees', 'add', 'bob', '0123456789', '--bank', 'gtb', '--expect-name', 'John Doe']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /not "John Doe"; nothing was saved/);
    assert.doesNotMatch(result.stderr, /nothing was sent/);
    const list = await setup.runInProcess(['payees', 'list', '--json']);
    assert.deepEqual(JSON.parse(list.stdout), []);
  });
});

describe('transfer receipt', () => {
  const send = ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '1500', '--narration', 'Invoice 42', '--yes', '--wait'];
  const receiptOf = async (extra: string[]) => {
    const sent = await setup!.runInProcess([...send, ...extra, '--json']);
    assert.equal(sent.code, 0, sent.stderr);
    const reference = String((JSON.parse(sent.stdout) as { reference: string }).reference);
    const receipt = await setup!.runInProcess(['transfer', 'receipt', reference], { tty: true, columns: 80 });
    assert.equal(receipt.code, 0, receipt.stdout);
    return stripAnsi(receipt.stdout);
  };

  it('names the sender name the payee saw: --sender-name when given', async () => {
    setup = await setUpTransfers();
    assert.match(await receiptOf(['--sender-name', 'ACME Payroll']), /^Sender name shown\s+ACME Payroll$/m);
  });

  it('names the sender name the payee saw: the business name when none was given', async () => {
    setup = await setUpTransfers();
    const screen = await receiptOf([]);
    const paidBy = /^Paid by\s+(.+)$/m.exec(screen)?.[1];
    assert.ok(paidBy, screen);
    assert.match(screen, new RegExp(`^Sender name shown\\s+${paidBy}$`, 'm'));
  });
});

describe('collections says its period', () => {
  it('without --since: the last 7 days, named as dates, before the totals', async () => {
    const result = await runInProcess(['collections'], { tty: true, columns: 80, env: homes.home().env });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 0, screen);
    const [, since, until] = /^inflows (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d) \(the last 7 days; --since, --until for others\)$/m.exec(screen) ?? [];
    assert.ok(since && until, screen);
    assert.equal((Date.parse(until) - Date.parse(since)) / 86_400_000, 6);
    assert.ok(screen.indexOf('inflows 20') < screen.indexOf('ACCOUNT'), screen);
  });

  it('with --since and --until (both days included), also for one account', async () => {
    const env = homes.home().env;
    for (const args of [['collections'], ['collections', '9900000066']]) {
      const result = await runInProcess([...args, '--since', '2026-11-01', '--until', '2026-11-10'], { tty: true, columns: 80, env });
      assert.equal(result.code, 0, result.stdout);
      assert.match(stripAnsi(result.stdout), /^inflows 2026-11-01 to 2026-11-10$/m);
    }
  });
});

describe('a send the policy holds, at a terminal', () => {
  const send = ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '25000', '--narration', 'Invoice 42'];
  const ASK = 'Ask for approval of ₦25,000.00 to OKAFOR CHIAMAKA ADAEZE?';
  const held = async () => {
    setup = await setUpTransfers();
    const policy = await setup.run(['policy', 'set', '--approval-above', '20000'], {
      tty: true,
      keys: [['Consumer secret of profile', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`]],
    });
    assert.equal(policy.code, 0, stripAnsi(policy.stdout));
    return setup;
  };
  const requests = async (s: TransferSetup) => JSON.parse((await s.runInProcess(['approvals', 'list', '--json'])).stdout) as Array<{ id: string }>;

  it('asks before making an approval request; no makes none (exit 4)', async () => {
    const s = await held();
    const result = await s.run(send, { tty: true, columns: 80, keys: [[ASK, 'n\r']] });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 4, screen);
    // The note wraps at 80 columns: read as one text.
    assert.match(screen.replace(/\s+/g, ' '), /holds this transfer for a person to approve: above the approval threshold of ₦20,000\.00/);
    assert.match(screen, /Ask for approval of ₦25,000\.00 to OKAFOR CHIAMAKA ADAEZE\?/);
    assert.match(screen, /no approval request was made/);
    assert.deepEqual(await requests(s), []);
    assert.equal(s.posts(), 0);
  });

  it('yes makes the request (exit 7), and sends nothing', async () => {
    const s = await held();
    const result = await s.run(send, { tty: true, columns: 80, keys: [[ASK, 'y\r']] });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 7, screen);
    const [request] = await requests(s);
    assert.ok(request, screen);
    assert.match(screen, new RegExp(`held: for approval as request ${request.id}`));
    assert.equal(s.posts(), 0);
  });
});

describe('transfer batch --dry-run ends with the exit code of the real run on the same state', () => {
  const csv = (s: TransferSetup, text: string) => {
    const file = path.join(s.home.root, 'pay.csv');
    writeFileSync(file, `account_number,bank,amount,narration\n${text}`);
    return file;
  };

  it('a row an earlier run saw fail: exit 1 both ways, nothing sent again', async () => {
    setup = await setUpTransfers();
    const file = csv(setup, '0123456789,gtb,1000,Rent\n1234564040,gtb,2000,Other\n');
    const first = await setup.runInProcess(['transfer', 'batch', file, '--yes', '--json']);
    assert.equal(first.code, 0, first.stderr);
    const failing = (JSON.parse(first.stdout) as Array<{ reference: string; account_number: string }>).find((row) => row.account_number === '1234564040')!;
    // Bounded wait for the simulator to settle it (as failed): its status, asked like a person asks.
    for (let tries = 0; ; tries += 1) {
      const status = await setup.runInProcess(['transfer', 'status', failing.reference, '--json']);
      if (/"failed"/i.test(status.stdout)) break;
      assert.ok(tries < 100, `never settled: ${status.stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const dry = await setup.runInProcess(['transfer', 'batch', file, '--dry-run']);
    const real = await setup.runInProcess(['transfer', 'batch', file, '--yes']);
    assert.equal(real.code, 1, real.stderr);
    assert.equal(dry.code, real.code, dry.stderr);
    assert.match(dry.stderr, /^error: earlier runs of this file: 1 failed of 2 transfers/m);
    assert.equal(setup.posts(), 2);
  });

  it('rows the policy would hold: exit 7 both ways', async () => {
    setup = await setUpTransfers();
    const policy = await setup.run(['policy', 'set', '--approval-above', '1500'], {
      tty: true,
      keys: [['Consumer secret of profile', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`]],
    });
    assert.equal(policy.code, 0, stripAnsi(policy.stdout));
    const file = csv(setup, '0123456789,gtb,1000,Rent\n0123456780,gtb,2000,Other\n');
    const dry = await setup.runInProcess(['transfer', 'batch', file, '--dry-run']);
    assert.equal(dry.code, 7, dry.stderr);
    assert.match(dry.stderr, /1 row would be held for approval/);
    assert.equal(setup.posts(), 0);
    const real = await setup.runInProcess(['transfer', 'batch', file, '--yes']);
    assert.equal(real.code, 7, real.stderr);
  });
});

describe('a batch confirmation shows each row whole', () => {
  for (const columns of [80, 120]) {
    it(`at ${columns} columns: each narration whole, each bank by its short name, within the width`, async () => {
      setup = await setUpTransfers();
      const file = path.join(setup.home.root, 'pay.csv');
      writeFileSync(file, `${BATCH_CSV}\n`);
      const result = await setup.runInProcess(['transfer', 'batch', file], {
        tty: true,
        columns,
        env: { FORCE_COLOR: '1' },
        prompts: [{ prompt: /Send 3 transfers/, answer: false }],
      });
      assert.equal(result.code, 4, result.stdout);
      const rows = tableRows(result.stdout, 'LINE', /^ {2}From /);
      assert.deepEqual(
        rows.map((row) => [row.LINE, row['VERIFIED NAME'], row.BANK, row.NARRATION]),
        [
          ['2', 'OKAFOR CHIAMAKA ADAEZE', 'FCMB', 'November supplies invoice 4411 cement and sand'],
          ['3', 'OKAFOR CHIAMAKA ADAEZE', 'UBA', 'November supplies invoice 4412 cement and rods'],
          ['4', 'BELLO IBRAHIM MUSA', 'Moniepoint', 'November supplies'],
        ],
      );
      assert.deepEqual(overWidth(result.stdout, columns), []);
      assert.equal(setup.posts(), 0);
    });
  }
});

describe('transfer log uses the room of a wide terminal', () => {
  it('at 120 columns the payee name is whole and STATUS, equal to OUTCOME on every row, is left out', async () => {
    setup = await setUpTransfers();
    const sent = await setup.runInProcess(['transfer', 'send', '1234564040', '--bank', 'gtb', '--amount', '1500', '--narration', 'Invoice 42', '--yes']);
    assert.equal(sent.code, 0, sent.stderr);
    const wide = stripAnsi((await setup.runInProcess(['transfer', 'log'], { tty: true, columns: 120 })).stdout);
    const header = wide.split('\n').find((line) => line.startsWith('TIME'));
    assert.ok(header, wide);
    assert.doesNotMatch(header, /STATUS/);
    assert.match(header, /OUTCOME/);
    assert.match(wide, /OYELARAN OLUWASEUN TEMITOPE/);
    for (const line of wide.split('\n')) assert.ok(line.length <= 120, line);
    // Piped, every column stays: scripts read them by position.
    const piped = await setup.runInProcess(['transfer', 'log']);
    assert.match(piped.stdout.split('\n')[0]!, /\tOUTCOME\tSTATUS\t/);
  });
});

describe("commander's own errors", () => {
  it('have a red error: label like fsapi errors, and none under NO_COLOR', async () => {
    const env = homes.home().env;
    const coloured = await runInProcess(['tx', 'list', '--pgae', '2'], { tty: true, columns: 80, env: { ...env, FORCE_COLOR: '1' } });
    assert.equal(coloured.code, 2, coloured.stdout);
    assert.match(coloured.stdout, /\u001b\[31merror:\u001b\[39m unknown option '--pgae'/);
    const plain = await runInProcess(['tx', 'list', '--pgae', '2'], { tty: true, columns: 80, env: { ...env, NO_COLOR: '1' } });
    assert.equal(plain.code, 2, plain.stdout);
    assert.match(plain.stdout, /^error: unknown option '--pgae'$/m);
    assert.doesNotMatch(plain.stdout, /\u001b\[/);
  });
});

/** What the terminal shows: colours removed, and of a line rewritten with \r (progress), its last text. */
const onScreen = (output: string) => shownLines(output).join('\n');

describe('long lines wrap at spaces within the terminal', () => {
  it('reconcile at 80 columns: every line within 80, words whole (on a terminal wide enough, each finding is one line)', async () => {
    const env = homes.home().env;
    const shown = await runInProcess(['reconcile'], { tty: true, columns: 80, env: { ...env, FORCE_COLOR: '1' } });
    const screen = onScreen(shown.stdout);
    const lines = screen.split('\n');
    for (const line of lines) assert.ok([...line].length <= 80, `over 80 columns: ${line}`);
    const wide = await runInProcess(['reconcile'], { tty: true, columns: 1000, env });
    assert.equal(wide.code, shown.code, wide.stderr);
    const findings = onScreen(wide.stdout)
      .split('\n')
      .filter((line) => line.startsWith('  ACME-'));
    assert.ok(
      findings.some((line) => line.length > 80),
      'the seeded findings include long lines',
    );
    // Each finding reads the same once its wrapped lines are joined: broken at spaces, never mid-word.
    // (Spacing is compared collapsed: a break may fall in the two spaces between a finding's parts.)
    const collapsed = (text: string) => text.replace(/ +/g, ' ');
    const joined = collapsed(screen.replace(/\n {4}/g, ' '));
    for (const finding of findings) assert.ok(joined.includes(collapsed(finding)), `not whole: ${finding}`);
  });
});

describe('the statement PDF', () => {
  it("shows a failed row's status whole and its narration, over the lines of the details column it needs", async () => {
    setup = await setUpTransfers();
    const narration = 'Invoice 4040 for the November delivery of cement';
    const sent = await setup.runInProcess(['transfer', 'send', '1234564040', '--bank', 'gtb', '--amount', '2500', '--narration', narration, '--yes', '--json']);
    assert.equal(sent.code, 0, sent.stderr);
    const reference = String((JSON.parse(sent.stdout) as { reference: string }).reference);
    // Bounded wait for the simulator to settle it as failed.
    for (let tries = 0; ; tries += 1) {
      const status = await setup.runInProcess(['transfer', 'status', reference, '--json']);
      if (/"failed"/i.test(status.stdout)) break;
      assert.ok(tries < 100, `never settled: ${status.stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const file = path.join(setup.home.root, 'statement.pdf');
    const made = await setup.runInProcess(['statement', '--since', 'today', '--pdf', file]);
    assert.equal(made.code, 0, made.stderr);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(readFileSync(file))), { mergePages: true });
    const flat = (text as string).replace(/\s+/g, ' ');
    assert.ok(flat.includes(`failed, not counted: Guaranty Trust Bank · ${narration}`), flat);
    assert.doesNotMatch(flat, /not count…/);
  });
});

// ---- every screen within 80 columns --------------------------------------------------------------------

/** What the sample runs make, for the runs after them. */
interface Made {
  reference: string;
  sessionId: string;
  heldIds: string[];
  eventId: string;
  notificationFile: string;
  batchFile: string;
  backupFile: string;
  /** The app that verified events are forwarded to: it answers 200 to every POST. */
  forwardTo: string;
}

/** A long-running command's screen, as it comes. */
interface LiveScreen {
  text(): string;
  /** Waits (bounded) until the screen shows `pattern`; returns what matched. */
  until(pattern: RegExp): Promise<RegExpExecArray>;
}

/** One run of a command at a terminal of 80 columns, colours on. */
interface SampleRun {
  /** The words after the command's path; a function reads what earlier runs made. */
  args: string[] | ((made: Made) => string[]);
  /** What the screen must show: a run that failed early cannot pass for a narrow screen. */
  shows: RegExp;
  /** Its exit code (0 unless given). */
  code?: number;
  prompts?: readonly ScriptedAnswer[];
  env?: Record<string, string>;
  /** Afterwards: what later runs need, read as a script reads it (not a screen). */
  after?: (made: Made) => Promise<void>;
  /** A long-running command: its own process under a pseudo-terminal of 80 columns, driven, then stopped. */
  live?: (screen: LiveScreen, made: Made) => Promise<void>;
  /** What stops it: Ctrl+C unless given (Ctrl+D ends the input of a command that reads it). */
  stop?: string;
  /** Lines that are one value a person copies whole (a token): never broken, so the terminal's to wrap. */
  whole?: RegExp;
}

const secretTyped = [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }];
const LOGIN_ENV = { FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey, FSAPI_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret };
/** Two rows whose narrations differ only past the twelfth character, and a bank the short names do not know. */
const BATCH_CSV = [
  'account_number,bank,amount,narration',
  '0123456789,first city monument bank,1750,November supplies invoice 4411 cement and sand',
  '0123456789,united bank for africa,1750,November supplies invoice 4412 cement and rods',
  '1234567890,Moniepoint Microfinance Bank,2500.50,November supplies',
].join('\n');

/**
 * Sample runs of every command of the tree, in the order they run (later runs use what earlier ones
 * made): its tables and records on the served simulator's sample data, the notes and warnings it writes,
 * its prompts. A command of the tree with no entry here fails the test, as does an entry for a command
 * the tree does not have: a new command is covered once it says how it is run.
 */
const SAMPLES: Record<string, SampleRun[]> = {
  'auth login': [{ args: () => loginArgs('spare'), env: LOGIN_ENV, shows: /Logged in/ }],
  'auth status': [{ args: [], shows: /sim/ }],
  'auth token': [{ args: [], shows: /\S{20}/, whole: /^[\w.-]+$/ }],
  'profile list': [{ args: [], shows: /spare/ }],
  'profile use': [{ args: ['sim'], shows: /sim/ }],
  'store status': [{ args: [], shows: /./ }],
  'store backup': [{ args: (made) => [made.backupFile], shows: /backup\.db/ }],
  'store adopt': [{ args: [], shows: /./, prompts: secretTyped }],
  'store use': [{ args: ['postgres://fsapi@127.0.0.1:9/fsapi'], shows: /./, code: 1, prompts: secretTyped }],
  'store migrate': [{ args: ['postgres://fsapi@127.0.0.1:9/fsapi'], shows: /./, code: 1 }],
  // Rights belong to a team store (test/team-rights.test.ts runs them on one): here the profile's is the data dir.
  'store grant': [{ args: ['bola', 'sender'], shows: /team store/, code: 2 }],
  'store revoke': [{ args: ['bola'], shows: /team store/, code: 2 }],
  account: [{ args: [], shows: /ACME TRADING LIMITED/ }],
  banks: [
    { args: [], shows: /Guaranty Trust Bank/ },
    { args: ['microfinance'], shows: /Moniepoint/ },
  ],
  enquiry: [{ args: ['0123456789', '--bank', 'gtb'], shows: /OKAFOR CHIAMAKA ADAEZE/ }],
  'transfer send': [
    {
      args: ['0123456789', '--bank', 'fcmb', '--amount', '1500', '--narration', 'November supplies invoice 4411 for cement, sand and rods'],
      prompts: [{ prompt: /Send ₦1,500\.00/, answer: true }],
      shows: /Reference/,
      after: async (made) => {
        const [last] = JSON.parse((await setup!.runInProcess(['transfer', 'log', '--json', '--limit', '1'])).stdout) as Array<{ reference: string }>;
        made.reference = last!.reference;
        // Settled (the served simulator's clock is the run's, so the wait costs no time): a receipt needs it.
        const settled = await setup!.runInProcess(['transfer', 'status', made.reference, '--wait', '--json']);
        made.sessionId = String((JSON.parse(settled.stdout) as { sessionId?: unknown }).sessionId);
      },
    },
  ],
  'transfer status': [{ args: (made) => [made.reference], shows: /Status/ }],
  'transfer receipt': [{ args: (made) => [made.reference], shows: /Sender name shown/ }],
  'transfer batch': [
    { args: (made) => [made.batchFile], prompts: [{ prompt: /Send 3 transfers/, answer: true }], shows: /VERIFIED NAME/ },
    { args: (made) => [made.batchFile, '--dry-run'], shows: /earlier run/ },
  ],
  'transfer log': [{ args: [], shows: /OUTCOME/ }],
  'payees add': [{ args: ['landlord', '1234567890', '--bank', 'moniepoint'], shows: /landlord/ }],
  'payees list': [{ args: [], shows: /landlord/ }],
  'payees remove': [{ args: ['landlord'], shows: /landlord/ }],
  'policy set': [
    {
      args: ['--approval-above', '20000', '--max-per-day', '5000000'],
      prompts: secretTyped,
      shows: /20,000/,
      after: async (made) => {
        for (const amount of ['25000', '30000', '35000']) {
          const held = await setup!.runInProcess(sendArgs(amount, '--json'));
          assert.equal(held.code, 7, held.stderr);
        }
        made.heldIds = (JSON.parse((await setup!.runInProcess(['approvals', 'list', '--json'])).stdout) as Array<{ id: string }>).map((r) => r.id);
      },
    },
  ],
  'policy show': [{ args: [], shows: /20,000/ }],
  'approvals list': [{ args: [], shows: /AP-/ }],
  'approvals show': [{ args: (made) => [made.heldIds[0]!], shows: /AP-/ }],
  'approvals approve': [{ args: (made) => [made.heldIds[0]!], prompts: secretTyped, shows: /./ }],
  'approvals reject': [{ args: (made) => [made.heldIds[1]!, '--reason', 'the invoice was paid by cheque last week'], shows: /./ }],
  'approvals withdraw': [{ args: (made) => [made.heldIds[2]!], shows: /withdrew AP-/ }],
  tsq: [{ args: (made) => [made.sessionId], shows: /./ }],
  'clients list': [{ args: [], shows: /9900000011/ }],
  'clients get': [{ args: ['9900000011'], shows: /9900000011/ }],
  'clients create individual': [
    {
      args: [
        ...['--firstname', 'Chiamaka', '--lastname', 'Okafor-Adebayo', '--phone-number', '08031234567'],
        ...['--email-address', 'chiamaka.okafor@example.com', '--address', '14 Admiralty Way, Lekki Phase 1, Lagos'],
        ...['--bvn', '22212345678', '--gender', 'female', '--date-of-birth', '1990-04-01'],
      ],
      prompts: [{ prompt: /Create/, answer: true }],
      shows: /Okafor/,
    },
  ],
  'clients create corporate': [
    {
      // What is missing is asked for, as a person is asked.
      args: ['--email-address', 'accounts@northwind-haulage.ng', '--phone-number', '08031234567', '--bvn', '22212345678'],
      prompts: [
        { prompt: 'RC number', answer: 'RC1234567' },
        { prompt: /name/i, answer: 'Northwind Logistics and Haulage Nigeria Limited' },
        { prompt: /incorporat/i, answer: '2015-06-01' },
        { prompt: /birth/i, answer: '1980-01-31' },
        { prompt: /Create/, answer: true },
      ],
      shows: /Northwind/,
    },
  ],
  'tx list': [{ args: [], shows: /REFERENCE/ }],
  'tx get': [{ args: (made) => [made.reference], shows: /Reference/ }],
  'tx watch': [{ args: ['--since', '7d', '--count', '3'], shows: /./ }],
  statement: [{ args: ['--since', '7d'], shows: /./ }],
  collections: [{ args: [], shows: /ACCOUNT/ }],
  reconcile: [{ args: [], shows: /./, code: 1 }],
  'simulator collect': [
    {
      args: ['9900000011', '--amount', '25000'],
      shows: /9900000011/,
      after: async (made) => {
        const sent = await setup!.runInProcess(['simulator', 'collect', '9900000011', '--amount', '12500', '--json']);
        assert.equal(sent.code, 0, sent.stderr);
        writeFileSync(made.notificationFile, sent.stdout);
      },
    },
  ],
  'simulator trigger': [{ args: ['payout.reversed'], shows: /./ }],
  'webhook listen': [
    {
      args: (made) => ['--port', '0', '--forward-to', made.forwardTo],
      shows: /stopped: /,
      live: async (screen, made) => {
        const [, url] = await screen.until(/listening on (http:\/\/\S+)/);
        const notification = JSON.parse(readFileSync(made.notificationFile, 'utf8')) as Record<string, unknown>;
        const forged = { ...notification, reference: 'COL-NOT-KNOWN-TO-THE-API-0001', sourceAccountName: 'MALLORY MALLORY-OKONKWO' };
        for (const body of [notification, forged]) {
          const answer = await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          assert.equal(answer.status, 200);
        }
        await screen.until(/COL-NOT-KNOWN-TO-THE-API-0001[\s\S]*not-found/);
        await screen.until(/verified +forwarded/);
      },
      after: async (made) => {
        const events = JSON.parse((await setup!.runInProcess(['webhook', 'events', 'list', '--json'])).stdout) as Array<{ id: string; state: string }>;
        made.eventId = events.find((event) => event.state === 'verified')!.id;
      },
    },
  ],
  'webhook secret': [{ args: [], shows: /./ }],
  'webhook events list': [{ args: [], shows: /COL-NOT-KNOWN/ }],
  'webhook events show': [{ args: (made) => [made.eventId], shows: /./ }],
  'webhook events resend': [{ args: (made) => [made.eventId, '--forward-to', made.forwardTo], shows: /./ }],
  'webhook verify': [{ args: (made) => [made.notificationFile], shows: /verified/ }],
  'simulator serve': [{ args: ['--port', '0'], shows: /stop with Ctrl-C/, live: async (screen) => void (await screen.until(/stop with Ctrl-C/)) }],
  'simulator reset': [{ args: ['--profile', 'local'], shows: /./ }],
  api: [{ args: ['GET', '/v1/account'], shows: /accountNumber/ }],
  mcp: [
    { args: [], shows: /serving/, live: async (screen) => void (await screen.until(/serving/)), stop: '\u0004' },
    // The set-up check: the sudoers line and the command continued with backslashes, within the width.
    { args: ['--check'], shows: /NOPASSWD: \\\n/ },
  ],
  completion: [{ args: ['bash'], shows: /complete/ }],
  'auth logout': [{ args: ['--profile', 'spare'], shows: /./ }],
  'profile remove': [{ args: ['spare'], shows: /./ }],
};

const loginArgs = (profile: string) => ['--profile', profile, '--env', 'sandbox', '--base-url', setup!.server.url];

/** The pages a run of `command` (with `run.args`) shows: in process, or its own process under a pseudo-terminal. */
async function showSample(words: string[], run: SampleRun, made: Made): Promise<{ code: number; screen: string }> {
  const args = [...words, ...(typeof run.args === 'function' ? run.args(made) : run.args)];
  if (!run.live) {
    const result = await setup!.runInProcess(args, { tty: true, columns: 80, prompts: run.prompts, env: { FORCE_COLOR: '1', ...run.env } });
    return { code: result.code, screen: result.stdout };
  }
  const child = spawnCliInTerminal(args, { ...setup!.env, ...run.env }, repoRoot, cliPath, 80);
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  let ended = false;
  const exited = new Promise<number>((resolve) =>
    child.on('exit', (code) => {
      ended = true;
      resolve(code ?? 1);
    }),
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const screen: LiveScreen = {
    text: () => stripAnsi(text),
    until: async (pattern) => {
      for (;;) {
        const found = pattern.exec(stripAnsi(text));
        if (found) return found;
        if (ended) throw new Error(`${args.join(' ')} ended before showing ${pattern}:\n${stripAnsi(text)}`);
        // The next output, or the end (the process dies, or is killed at the bound below).
        await new Promise<void>((resolve) => {
          const next = () => {
            child.stdout.off('data', next);
            child.off('exit', next);
            resolve();
          };
          child.stdout.on('data', next);
          child.on('exit', next);
        });
      }
    },
  };
  try {
    await run.live(screen, made);
    child.stdin.write(run.stop ?? '\u0003'); // through the terminal, as a person stops it
    return { code: await exited, screen: text.replaceAll('\r\n', '\n') };
  } finally {
    clearTimeout(killer);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe('every screen fits 80 columns', () => {
  const program = defineEveryCommand();
  const leaves = (command: Command): Command[] =>
    command.commands.length === 0 ? [command] : command.commands.filter((sub) => sub.name() !== '__complete' && sub.name() !== 'help').flatMap(leaves);
  const pathOf = (command: Command) => {
    const names: string[] = [];
    for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
    return names.join(' ');
  };
  const commandPaths = leaves(program).map(pathOf);

  it('the sample runs name every command of the tree, and no other', () => {
    assert.deepEqual(
      commandPaths.filter((path) => !(path in SAMPLES)),
      [],
      'commands with no sample runs: add them to SAMPLES in test/screens.test.ts',
    );
    assert.deepEqual(
      Object.keys(SAMPLES).filter((path) => !commandPaths.includes(path)),
      [],
      'sample runs of commands the tree does not have',
    );
  });

  it("every command's screens on sample data: no line over 80 columns", { timeout: 300_000 }, async () => {
    setup = await setUpTransfers();
    const app = createHttpServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const root = setup.home.root;
    const made: Made = {
      reference: '',
      sessionId: '',
      heldIds: [],
      eventId: '',
      notificationFile: path.join(root, 'notification.json'),
      batchFile: path.join(root, 'pay.csv'),
      backupFile: path.join(root, 'backup.db'),
      forwardTo: `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`,
    };
    writeFileSync(made.batchFile, `${BATCH_CSV}\n`);
    const wide: string[] = [];
    // Every run is tried, so that one failure shows all the others too.
    const failed: string[] = [];
    try {
      for (const [command, runs] of Object.entries(SAMPLES)) {
        for (const run of runs) {
          try {
            const { code, screen } = await showSample(command.split(' '), run, made);
            const shown = shownLines(screen).join('\n');
            if (code !== (run.code ?? 0) || !run.shows.test(shown))
              failed.push(`fsapi ${command}: exit ${code}, expected ${run.code ?? 0} and ${run.shows}\n${shown}`);
            for (const line of overWidth(screen).filter((long) => !run.whole?.test(long))) wide.push(`fsapi ${command} (${displayWidth(line)}): ${line}`);
            await run.after?.(made);
          } catch (error) {
            failed.push(`fsapi ${command}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      }
    } finally {
      await new Promise<void>((resolve) => app.close(() => resolve()));
    }
    assert.deepEqual({ failed, wide }, { failed: [], wide: [] }, 'sample runs that did not show what they are for, and lines over 80 columns');
  });
});
