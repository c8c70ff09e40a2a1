// The machine interface (docs/scripting.md): every command with --json against the simulator over HTTP,
// in fresh config and data dirs (successes in process, failures as the built CLI). On success stdout is JSON (NDJSON for the streaming
// ones) with no field named ...Kobo, and fsapi's own records give money as the API writes it, two-decimal
// naira text. On failure stdout is empty and stderr ends in the one-line error object whose exitCode is
// the process's exit status.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { errorObject, repoRoot } from './helpers/cli.js';
import { sendArgs as send, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';

let setup: TransferSetup;
/** A transfer sent and settled (successful), and one held for approval, made in before(). */
let paid: string;
let held: string;

const CLIENT = '9900000011';

before(async () => {
  setup = await setUpTransfers();
  // Transfers above ₦20,000 wait for a person: a held request to show.
  const policy = await setup.run(['policy', 'set', '--approval-above', '20000', '--max-per-day', '1000000'], {
    tty: true,
    keys: [['Consumer secret of profile', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`]],
  });
  assert.equal(policy.code, 0, policy.stdout);
  const sent = await setup.run(send('1500.50', '--wait', '--json'));
  assert.equal(sent.code, 0, sent.stderr);
  paid = (JSON.parse(sent.stdout) as { reference: string }).reference;
  const heldRun = await setup.run(send('30000', '--json'));
  assert.equal(heldRun.code, 7, heldRun.stderr);
  held = (JSON.parse(heldRun.stdout) as { id: string }).id;
  const added = await setup.run(['payees', 'add', 'landlord', '0123456789', '--bank', 'gtb']);
  assert.equal(added.code, 0, added.stderr);
});
after(async () => {
  await setup?.close();
});

/** Names of fsapi's money fields: in its own records each is two-decimal naira text (or null, or an object of such). */
const MONEY_KEY =
  /^(amount|total|charge|charges|stampDuty|net|balance|openingBalance|closingBalance|difference|journalAmount|apiAmount|maxPerTransfer|maxPerDay|approvalAbove|countedToday|leftToday)$/;
const NAIRA = /^-?\d+\.\d{2}$/;

/** Every problem of `value` as fsapi's machine output: ...Kobo names anywhere; with `own`, money not as naira text. */
function problems(value: unknown, own: boolean, where = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => problems(item, own, `${where}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const here = `${where}.${key}`;
    const found: string[] = [];
    if (/kobo$/i.test(key)) found.push(`${here}: a kobo field`);
    // The API's own record inside one of fsapi's (webhook verify) is as the API sent it.
    if (key === 'transaction') return [...found, ...problems(inner, false, here)];
    if (own && MONEY_KEY.test(key) && inner !== null && typeof inner !== 'object' && !(typeof inner === 'string' && NAIRA.test(inner))) {
      found.push(`${here}: ${JSON.stringify(inner)} is not two-decimal naira text`);
    }
    return [...found, ...problems(inner, own, here)];
  });
}

interface Case {
  name: string;
  args: () => string[];
  /** fsapi's own records (money as naira text), or the API's data as it came (only no kobo fields). */
  own: boolean;
  ndjson?: boolean;
  code?: number;
}

const file = (name: string, text: string) => {
  const target = path.join(setup.home.root, name);
  writeFileSync(target, text);
  return target;
};

// One representative run of every command that prints data. Long-running ones (webhook listen, tx watch,
// simulator serve) and the ones that need a person at a terminal are in the error table below.
const SUCCESSES: Case[] = [
  { name: '(overview)', args: () => [], own: true },
  { name: 'auth status', args: () => ['auth', 'status'], own: true },
  { name: 'profile list', args: () => ['profile', 'list'], own: true },
  { name: 'profile use sim', args: () => ['profile', 'use', 'sim'], own: true },
  { name: 'store status', args: () => ['store', 'status'], own: true },
  { name: 'store backup <file>', args: () => ['store', 'backup', path.join(setup.home.root, `backup-${Date.now()}.db`)], own: true },
  { name: 'account', args: () => ['account'], own: false },
  { name: 'banks gtb', args: () => ['banks', 'gtb'], own: false },
  { name: 'enquiry', args: () => ['enquiry', '0123456789', '--bank', '000013'], own: false },
  { name: 'transfer send', args: () => send('100', '--reference', `ACME-JSON${Date.now()}`), own: false },
  { name: 'transfer status', args: () => ['transfer', 'status', paid], own: false },
  { name: 'transfer receipt', args: () => ['transfer', 'receipt', paid], own: true },
  // Rows within the test's policy (approval above ₦20,000): a dry run of rows it would hold is exit 7, as the real run.
  {
    name: 'transfer batch within-policy.csv --dry-run',
    args: () => ['transfer', 'batch', path.join(repoRoot, 'test/fixtures/batch/within-policy.csv'), '--dry-run'],
    own: true,
  },
  { name: 'transfer log', args: () => ['transfer', 'log'], own: true },
  { name: 'payees list', args: () => ['payees', 'list'], own: true },
  { name: 'policy show', args: () => ['policy', 'show'], own: true },
  { name: 'approvals list --all', args: () => ['approvals', 'list', '--all'], own: true },
  { name: 'approvals show', args: () => ['approvals', 'show', held], own: true },
  { name: 'tsq', args: () => ['tsq', paid], own: false },
  { name: 'clients list', args: () => ['clients', 'list'], own: false },
  { name: 'clients list --all', args: () => ['clients', 'list', '--all'], own: false },
  { name: 'clients get', args: () => ['clients', 'get', CLIENT], own: false },
  { name: 'tx list', args: () => ['tx', 'list'], own: false },
  { name: 'tx list --all', args: () => ['tx', 'list', '--all'], own: false },
  { name: 'tx get', args: () => ['tx', 'get', paid], own: false },
  { name: 'statement', args: () => ['statement'], own: true },
  { name: 'collections', args: () => ['collections'], own: true },
  { name: 'reconcile', args: () => ['reconcile'], own: true },
  // The notification as the API would POST it: the API's data.
  { name: 'simulator collect', args: () => ['simulator', 'collect', CLIENT, '--amount', '25000'], own: false },
  { name: 'webhook secret', args: () => ['webhook', 'secret'], own: true },
  { name: 'webhook events list', args: () => ['webhook', 'events', 'list'], own: true },
  { name: 'simulator trigger', args: () => ['simulator', 'trigger', 'collection'], own: false },
  { name: 'api GET /v1/account', args: () => ['api', 'GET', '/v1/account'], own: false },
];

describe('--json on success', () => {
  for (const c of SUCCESSES) {
    it(`fsapi ${c.name} --json: JSON, no kobo fields${c.own ? ', naira text' : ''}`, async () => {
      const args = c.args();
      // In process: the shapes are the commands' own; the failures below run the built CLI, whose exit
      // status the error object must carry.
      const result = await setup.runInProcess([...args, '--json']);
      // reconcile exits 1 when something needs attention; its JSON is on stdout all the same.
      if (args[0] === 'reconcile') assert.ok(result.code === 0 || result.code === 1, result.stderr);
      else assert.equal(result.code, c.code ?? 0, result.stderr);
      const values = c.ndjson
        ? result.stdout
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as unknown)
        : [JSON.parse(result.stdout) as unknown];
      assert.ok(values.length > 0);
      assert.deepEqual(problems(values, c.own), []);
    });
  }

  it('webhook verify --json: the notification as naira text', async () => {
    const notification = await setup.server.simulator.collect(CLIENT, 1_500_050 as Kobo);
    const result = await setup.run(['webhook', 'verify', file('event.json', JSON.stringify(notification)), '--json']);
    assert.equal(result.code, 0, result.stderr);
    const shown = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual(problems(shown, true), []);
  });

  it('a held transfer: its request on stdout with naira amounts, the held error object on stderr (exit 7)', async () => {
    const result = await setup.run(send('25000', '--json'));
    assert.equal(result.code, 7, result.stderr);
    const request = JSON.parse(result.stdout) as { total: unknown; transfers: Array<{ amount: unknown }> };
    assert.equal(request.total, '25000.00');
    assert.deepEqual(
      request.transfers.map((t) => t.amount),
      ['25000.00'],
    );
    assert.deepEqual(problems(request, true), []);
    const error = errorObject(result.stderr);
    assert.equal(error.code, 'held_for_approval');
    assert.equal(error.exitCode, 7);
  });

  it("policy show --json: limits and today's count as naira text, null for none", async () => {
    const result = await setup.run(['policy', 'show', '--json']);
    const policy = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(policy.approvalAbove, '20000.00');
    assert.equal(policy.maxPerDay, '1000000.00');
    assert.equal(policy.maxPerTransfer, null);
    assert.equal(typeof policy.countedToday, 'string');
    assert.equal(typeof policy.leftToday, 'string');
  });
});

interface Failure {
  args: string[];
  code: string;
  exit: number;
  /** Text notes come first (a batch's `line N: ...` rows); the object is still the last line, the only JSON one. */
  notesBefore?: boolean;
}

// An error case of every command: the code and exit status a script sees.
const FAILURES: Failure[] = [
  { args: ['acount'], code: 'usage', exit: 2 },
  { args: ['--bogus'], code: 'usage', exit: 2 },
  { args: ['auth', 'login', '--validity', '0'], code: 'usage', exit: 2 },
  { args: ['auth', 'status', '--bogus'], code: 'usage', exit: 2 },
  { args: ['auth', 'logout', '--bogus'], code: 'usage', exit: 2 },
  { args: ['auth', 'token', '--profile', 'nope'], code: 'usage', exit: 2 },
  // A profile with a payment policy gives its token to a person at a terminal only.
  { args: ['auth', 'token'], code: 'usage', exit: 2 },
  { args: ['profile', 'list', 'extra', '--bogus'], code: 'usage', exit: 2 },
  { args: ['profile', 'use', 'nope'], code: 'usage', exit: 2 },
  { args: ['profile', 'remove', 'nope'], code: 'usage', exit: 2 },
  { args: ['store', 'status', '--bogus'], code: 'usage', exit: 2 },
  { args: ['store', 'backup'], code: 'usage', exit: 2 },
  { args: ['store', 'adopt'], code: 'usage', exit: 2 },
  { args: ['account', '--bogus'], code: 'usage', exit: 2 },
  { args: ['banks', '--csv'], code: 'usage', exit: 2 },
  { args: ['enquiry', '123', '--bank', 'gtb'], code: 'usage', exit: 2 },
  { args: ['enquiry', '0123450000', '--bank', '000013'], code: 'not_found', exit: 1 },
  { args: send('1e3'), code: 'usage', exit: 2 },
  { args: ['transfer', 'send', '--to', 'nobody', '--amount', '5', '--narration', 'x', '-y'], code: 'not_found', exit: 1 },
  { args: ['transfer', 'status', 'ACME-NOSUCHREF01'], code: 'not_found', exit: 1 },
  { args: ['transfer', 'receipt', 'ACME-NOSUCHREF01'], code: 'not_found', exit: 1 },
  { args: ['transfer', 'batch', 'no-such-file.csv', '--dry-run'], code: 'usage', exit: 2 },
  { args: ['transfer', 'batch', path.join(repoRoot, 'test/fixtures/batch/bad-rows.csv'), '--dry-run'], code: 'bad_rows', exit: 2, notesBefore: true },
  { args: ['transfer', 'log', '--limit', '0'], code: 'usage', exit: 2 },
  { args: ['payees', 'add', 'x', '123', '--bank', 'gtb'], code: 'usage', exit: 2 },
  { args: ['payees', 'list', '--bogus'], code: 'usage', exit: 2 },
  { args: ['payees', 'remove', 'nobody'], code: 'not_found', exit: 1 },
  { args: ['policy', 'show', '--bogus'], code: 'usage', exit: 2 },
  { args: ['policy', 'set', '--max-per-day', '10'], code: 'usage', exit: 2 },
  { args: ['approvals', 'list', '--bogus'], code: 'usage', exit: 2 },
  { args: ['approvals', 'show', 'AP-ZZZZZZZZ'], code: 'not_found', exit: 1 },
  // Approving needs a person at a terminal: that is checked first.
  { args: ['approvals', 'approve', 'AP-ZZZZZZZZ'], code: 'usage', exit: 2 },
  { args: ['approvals', 'reject', 'AP-ZZZZZZZZ'], code: 'not_found', exit: 1 },
  { args: ['tsq', 'ACME-NOSUCHREF01'], code: 'not_found', exit: 1 },
  { args: ['clients', 'list', '--page', '0'], code: 'usage', exit: 2 },
  { args: ['clients', 'get', '9999999999'], code: 'not_found', exit: 1 },
  { args: ['clients', 'create', 'individual'], code: 'usage', exit: 2 },
  { args: ['clients', 'create', 'corporate'], code: 'usage', exit: 2 },
  { args: ['tx', 'list', '--since', 'yesterdayish'], code: 'usage', exit: 2 },
  { args: ['tx', 'get', 'ACME-NOSUCHREF01'], code: 'not_found', exit: 1 },
  { args: ['tx', 'watch', '--interval', '0'], code: 'usage', exit: 2 },
  { args: ['statement', '--since', 'yesterdayish'], code: 'usage', exit: 2 },
  { args: ['collections', '123'], code: 'usage', exit: 2 },
  { args: ['reconcile', '--since', 'yesterdayish'], code: 'usage', exit: 2 },
  { args: ['webhook', 'listen', '--port', 'abc'], code: 'usage', exit: 2 },
  { args: ['webhook', 'verify', 'no-such-event.json'], code: 'usage', exit: 2 },
  { args: ['webhook', 'secret', '--bogus'], code: 'usage', exit: 2 },
  { args: ['webhook', 'events', 'list', '--since', 'yesterdayish'], code: 'usage', exit: 2 },
  { args: ['webhook', 'events', 'show', 'no-such-event'], code: 'not_found', exit: 1 },
  { args: ['webhook', 'events', 'resend', 'no-such-event', '--forward-to', 'http://127.0.0.1:9/hooks'], code: 'not_found', exit: 1 },
  { args: ['simulator', 'trigger', 'bogus'], code: 'usage', exit: 2 },
  { args: ['simulator', 'serve', '--port', 'abc'], code: 'usage', exit: 2 },
  { args: ['simulator', 'collect', '123', '--amount', '5'], code: 'usage', exit: 2 },
  { args: ['simulator', 'reset', '--bogus'], code: 'usage', exit: 2 },
  { args: ['api', 'FETCH', '/v1/account'], code: 'usage', exit: 2 },
  { args: ['completion', 'tcsh'], code: 'usage', exit: 2 },
];

describe('--json on failure: one error object on stderr, nothing on stdout', () => {
  for (const f of FAILURES) {
    it(`fsapi ${f.args.join(' ')} --json: ${f.code}, exit ${f.exit}`, async () => {
      const result = await setup.run([...f.args, '--json']);
      assert.equal(result.stdout, '');
      assert.equal(result.code, f.exit, result.stderr);
      // Exactly one line: the object, with the four keys, its exitCode the process's.
      const lines = result.stderr.split('\n').filter((line) => line !== '');
      if (f.notesBefore)
        assert.deepEqual(
          lines.filter((line) => line.startsWith('{')),
          [lines.at(-1)],
          result.stderr,
        );
      else assert.equal(lines.length, 1, result.stderr);
      const error = errorObject(result.stderr);
      assert.equal(error.exitCode, result.code);
      assert.equal(error.code, f.code, error.message);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    });
  }

  it('--verbose adds no stack and keeps the object last', async () => {
    const result = await setup.run(['tx', 'get', 'ACME-NOSUCHREF01', '--json', '--verbose']);
    assert.equal(result.code, 1);
    assert.equal(errorObject(result.stderr).code, 'not_found');
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });

  it('without --json the same failure is text: error: and hint: lines', async () => {
    const result = await setup.run(['tx', 'get', 'ACME-NOSUCHREF01']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: no transaction with reference ACME-NOSUCHREF01/m);
    assert.match(result.stderr, /^hint: /m);
    assert.doesNotMatch(result.stderr, /^\{/m);
  });
});
