// `fsapi` with no arguments, the first thing a new user runs, and `fsapi help`. The overview orients (what
// fsapi is, three commands, the simulator, how to log in), works where fsapi never ran, creates nothing and
// sends nothing.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeHome, stripAnsi } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';

describe('fsapi with no arguments, on a machine where it never ran', () => {
  const home = makeHome();
  after(() => home.cleanup());

  it('prints the overview: what it is, three commands, the simulator, how to log in', async () => {
    const result = await runInProcess([], { env: home.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, /bank transfers, balances, transactions and client accounts/);
    assert.match(result.stdout, /the built-in simulator \(profile local\).*no real money moves/);
    assert.match(result.stdout, /^ {2}fsapi account\b/m);
    assert.match(result.stdout, /^ {2}fsapi tx list\b/m);
    assert.match(result.stdout, /^ {2}fsapi transfer send {6}asks who/m);
    assert.match(result.stdout, /^ {2}fsapi statement /m);
    assert.match(result.stdout, /fsapi auth login --env sandbox/);
    assert.match(result.stdout, /fsapi --help/);
    assert.ok(result.stdout.split('\n').length <= 20, 'short');
  });

  it('at an 80-column terminal, long lines wrap between words, a description under itself', async () => {
    const result = await runInProcess([], { env: { ...home.env, FORCE_COLOR: '1' }, tty: true, columns: 80 });
    assert.equal(result.code, 0, result.stdout);
    const lines = stripAnsi(result.stdout).split(/\r?\n/);
    for (const line of lines) assert.ok([...line].length <= 80, `wider than 80 columns: ${line}`);
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    // Every word whole: the words of the wrapped screen are those of the piped overview.
    const piped = await runInProcess([], { env: home.env });
    assert.deepEqual(words(lines.join('\n')), words(piped.stdout));
    const send = lines.findIndex((line) => /^ {2}fsapi transfer send {6}asks who/.test(line));
    assert.ok(send >= 0 && /^ {27}\S/.test(lines[send + 1]!), `the description continues under itself:\n${lines.join('\n')}`);
  });

  it('creates no config or data directory', async () => {
    await runInProcess([], { env: home.env });
    assert.equal(existsSync(home.configDir), false, 'config dir');
    assert.equal(existsSync(home.dataDir), false, 'data dir');
    assert.deepEqual(readdirSync(home.root), []);
  });

  it('names a profile that is not saved yet and how to create it', async () => {
    const result = await runInProcess([], { env: { ...home.env, FSAPI_PROFILE: 'live' } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Profile live is not saved yet: fsapi auth login --profile live creates it/);
    assert.equal(existsSync(home.configDir), false);
  });

  it('is coloured on a terminal and plain when piped', async () => {
    const onTerminal = await runInProcess([], { env: home.env, tty: true });
    assert.equal(onTerminal.code, 0);
    assert.match(onTerminal.stdout, /\u001b\[/);
    assert.match(stripAnsi(onTerminal.stdout), /no real money moves/);
    const piped = await runInProcess([], { env: home.env });
    assert.doesNotMatch(piped.stdout, /\u001b\[/);
  });
});

describe('fsapi with no arguments, logged in to a sandbox', () => {
  let setup: TransferSetup;
  before(async () => {
    setup = await setUpTransfers({ log: () => undefined });
  });
  after(async () => {
    await setup.close();
  });

  it('shows the active profile and its login, without calling the API', async () => {
    const result = await setup.runInProcess([]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      new RegExp(`Now using profile sim: sandbox at ${setup.server.url.replaceAll('.', '\\.')}, logged in \\(the token expires in [^)]+\\)\\.`),
    );
    assert.doesNotMatch(result.stdout, /built-in simulator \(profile local\)/);
    assert.deepEqual(setup.server.simulator.requests(), []);
  });

  it('still works, with a warning, when the profiles file is damaged', async () => {
    const home = makeHome();
    try {
      mkdirSync(home.configDir, { recursive: true });
      writeFileSync(path.join(home.configDir, 'profiles.json'), '{not json');
      const result = await runInProcess([], { env: home.env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /^warning: .*profiles\.json is not valid JSON; fix or move it away$/m);
      assert.match(result.stdout, /Now using the built-in simulator/);
    } finally {
      home.cleanup();
    }
  });
});

describe('fsapi help', () => {
  const home = makeHome();
  after(() => home.cleanup());

  it("prints the full help, and `help <command>` that command's, with exit 0 and no files created", async () => {
    const root = await runInProcess(['help'], { env: home.env });
    assert.equal(root.code, 0, root.stderr);
    assert.match(root.stdout, /^Usage: fsapi \[options\] \[command\]/);
    assert.match(root.stdout, /^ {2}transfer +send money/m);
    const transfer = await runInProcess(['help', 'transfer'], { env: home.env });
    assert.equal(transfer.code, 0, transfer.stderr);
    assert.match(transfer.stdout, /^Usage: fsapi transfer \[options\] \[command\]/);
    assert.match(transfer.stdout, /^ {2}send \[options\] \[accountNumber\]/m);
    assert.equal(existsSync(home.configDir), false);
    assert.equal(existsSync(home.dataDir), false);
  });
});
