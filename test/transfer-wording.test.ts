// `transfer log` as people read it: a failed or reversed transfer never sits beside the API's "Transfer
// successful" answer, and at 80 columns who was paid keeps room before the API's repeated status.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stripAnsi } from './helpers/cli.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';

describe('transfer log: what a failed or reversed row says', () => {
  let s: TransferSetup;
  let shiftMs = 0;
  before(async () => {
    // The simulator's clock is the test's: transfers settle when a test moves it, not after a sleep.
    s = await setUpTransfers({ settleSeconds: 600, now: () => Date.now() + shiftMs });
  });
  after(async () => s.close());

  it('the message column names the outcome, not the answer given while it was pending', async () => {
    // 4040 fails and 5050 is reversed when they would settle (docs/simulator.md); 6789 succeeds.
    for (const account of ['0123454040', '0123455050', '0123456789']) {
      const sent = await s.runInProcess(['transfer', 'send', account, '--bank', 'gtb', '--amount', '700', '--narration', 'Log view', '--yes']);
      assert.equal(sent.code, 0, sent.stderr);
    }
    shiftMs += 601_000;
    const refreshed = await s.runInProcess(['transfer', 'log', '--refresh']);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    const [header, ...rows] = refreshed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    const at = (name: string) => header!.indexOf(name);
    const byAccount = new Map(rows.map((cells) => [cells[at('ACCOUNT')], cells]));
    for (const [account, outcome] of [
      ['0123454040', 'failed'],
      ['0123455050', 'reversed'],
    ] as const) {
      const cells = byAccount.get(account)!;
      assert.equal(cells[at('OUTCOME')], outcome);
      assert.doesNotMatch(cells[at('MESSAGE')]!, /successful/i, `${outcome}: ${cells[at('MESSAGE')]}`);
      assert.match(cells[at('MESSAGE')]!, new RegExp(`^${outcome} .*not paid; fsapi transfer status ${cells[at('REFERENCE')]}`));
    }
    assert.equal(byAccount.get('0123456789')![at('OUTCOME')], 'successful');

    // JSON keeps the API's message as it came.
    const json = JSON.parse((await s.runInProcess(['transfer', 'log', '--json'])).stdout) as Array<{ accountNumber: string; message: string | null }>;
    assert.match(json.find((t) => t.accountNumber === '0123454040')!.message ?? '', /Transfer successful/);

    const narrow = await s.runInProcess(['transfer', 'log'], { tty: true, columns: 80, env: { FORCE_COLOR: '1' } });
    const screen = stripAnsi(narrow.stdout);
    assert.match(screen, /OUTCOME/);
    // STATUS repeats OUTCOME on every row here: left out, and its room goes to who was paid, whole.
    assert.doesNotMatch(screen, /^TIME .*STATUS/m);
    assert.match(screen, /^TIME +REFERENCE +NAME /m, `who was paid stays before the API's repeated status:\n${screen}`);
    assert.match(screen, /OKAFOR CHIAMAKA ADAEZE +₦700\.00/);
    for (const outcome of ['successful', 'failed', 'reversed']) assert.match(screen, new RegExp(`${outcome}\\s*$`, 'm'));
  });
});

describe('transfer send: a pending answer does not read as paid', () => {
  let s: TransferSetup;
  before(async () => {
    s = await setUpTransfers({ settleSeconds: 60 });
  });
  after(async () => s.close());

  it("the API's words are labelled as its own, and a terminal is told how to follow the transfer", async () => {
    const args = ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '900', '--narration', 'Pending view', '--yes'];
    const shown = await s.runInProcess(args, { tty: true, columns: 80 });
    const screen = stripAnsi(shown.stdout);
    assert.equal(shown.code, 0, screen);
    assert.match(screen, /^Status +pending/m);
    assert.match(screen, /^API message +Transfer successful/m);
    assert.doesNotMatch(screen, /^Message /m);
    const reference = /^Reference +(ACME-\w+)/m.exec(screen)![1];
    assert.match(screen, new RegExp(`^pending: not settled yet; to follow it until it is:\\r?\\n  fsapi transfer status ${reference} --wait\\r?$`, 'm'));

    // Piped, the hint is left to the exit code and the record: stderr has no pending line.
    const piped = await s.runInProcess(args.concat('--allow-duplicate'));
    assert.equal(piped.code, 0, piped.stderr);
    assert.doesNotMatch(piped.stderr, /pending:/);
  });
});
