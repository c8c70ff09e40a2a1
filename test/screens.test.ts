// The screens as a new user meets them at a terminal (colours on): each test drives one command the way a
// person does and checks what the screen shows. Where keys are typed, the built CLI runs under a real
// pseudo-terminal; the rest run in this process on a captured terminal (test/helpers/in-process.ts).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { extractText, getDocumentProxy } from 'unpdf';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { homePool, stripAnsi } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';

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
const onScreen = (output: string) =>
  stripAnsi(output)
    .split('\n')
    .map((line) => line.split('\r').at(-1))
    .join('\n');

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
