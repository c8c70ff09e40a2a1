// fsapi tx watch against a served simulator: a collection and a transfer made while it runs are printed
// once each (NDJSON), nothing older is replayed at the start, --type filters, --since replays, Ctrl-C
// ends it cleanly, and a failing poll is retried and reported on stderr. Every watcher is bounded by
// --count or a signal, and killed at a generous timeout if neither ends it.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { cliPath, repoRoot } from './helpers/cli.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { startSimulatorServer } from '../src/simulator/server.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { makeHome } from './helpers/cli.js';

interface Watcher {
  stdout(): string;
  stderr(): string;
  signal(name: NodeJS.Signals): void;
  exited: Promise<number>;
}

function watch(env: Record<string, string>, args: string[], timeoutMs = 60_000): Watcher {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('FSAPI_') && key !== 'NO_COLOR' && key !== 'FORCE_COLOR') childEnv[key] = value;
  const child = spawn(process.execPath, [cliPath, 'tx', 'watch', ...args], { cwd: repoRoot, env: { ...childEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    signal: (name) => child.kill(name),
    exited: new Promise((resolve) =>
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve(code ?? (signal === 'SIGKILL' ? -9 : 128));
      }),
    ),
  };
}

/** Polls `check` every 50 ms, at most `timeoutMs`. */
async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('tx watch', () => {
  let setup: TransferSetup;
  before(async () => {
    setup = await setUpTransfers({ seedTransactions: 30, settleSeconds: 1 });
  });
  after(async () => setup?.close());
  const polls = () => setup.count('GET', '/v1/transactions');

  /** Makes a collection and a transfer; returns their references in that order. */
  async function collectAndSend(amountKobo: Kobo): Promise<[string, string]> {
    const collection = await setup.server.simulator.collect('9900000022', amountKobo);
    const sent = await setup.run([
      '--json',
      'transfer',
      'send',
      '0123456789',
      '--bank',
      '000013',
      '--amount',
      '1500',
      '--narration',
      'watch test',
      '--yes',
      '--allow-duplicate',
    ]);
    assert.equal(sent.code, 0, sent.stderr);
    return [collection.reference, JSON.parse(sent.stdout).reference as string];
  }

  it('prints a collection and a transfer made while it runs, once each, and nothing from before', async () => {
    const seen = polls();
    const watcher = watch(setup.env, ['--interval', '1', '--json', '--count', '2']);
    await until(() => polls() > seen, 'the watcher to read its starting page');
    const [collectionRef, transferRef] = await collectAndSend(7_500_00 as Kobo);
    assert.equal(await watcher.exited, 0, watcher.stderr());
    const lines = watcher
      .stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { reference: string; type: string; amount: string });
    assert.deepEqual(
      lines.map((tx) => [tx.reference, tx.type]),
      [
        [collectionRef, 'credit'],
        [transferRef, 'debit'],
      ],
    );
    assert.equal(lines[0]!.amount, '7500.00');
  });

  it('--type debit shows the transfer and not the collection', async () => {
    const seen = polls();
    const watcher = watch(setup.env, ['--interval', '1', '--json', '--type', 'debit', '--count', '1']);
    await until(() => polls() > seen, 'the watcher to read its starting page');
    const [, transferRef] = await collectAndSend(3_000_00 as Kobo);
    assert.equal(await watcher.exited, 0, watcher.stderr());
    assert.deepEqual(
      watcher
        .stdout()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).reference),
      [transferRef],
    );
  });

  it('Ctrl-C ends it cleanly (exit 0) and a quiet account prints nothing: no replay at the start', async () => {
    const seen = polls();
    const watcher = watch(setup.env, ['--interval', '1']);
    await until(() => polls() >= seen + 2, 'a poll after the starting page');
    watcher.signal('SIGINT');
    assert.equal(await watcher.exited, 0, watcher.stderr());
    assert.equal(watcher.stdout(), '');
  });

  it('--since replays from that date, oldest first, then goes on', async () => {
    const list = await setup.run(['--json', 'tx', 'list', '--all']);
    const oldestFirst = (JSON.parse(list.stdout) as Array<{ reference: string }>).reverse();
    const since = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const watcher = watch(setup.env, ['--since', since, '--count', '3']);
    assert.equal(await watcher.exited, 0, watcher.stderr());
    const lines = watcher.stdout().trimEnd().split('\n');
    assert.equal(lines[0]!.split('\t')[0], 'date', 'piped: one header line');
    assert.deepEqual(
      lines.slice(1).map((line) => line.split('\t')[1]),
      oldestFirst.slice(0, 3).map((tx) => tx.reference),
    );
  });

  it('a pending transfer is shown again when it settles', async () => {
    const seen = polls();
    const watcher = watch(setup.env, ['--interval', '1', '--json', '--type', 'debit']);
    await until(() => polls() > seen, 'the watcher to read its starting page');
    const [, transferRef] = await collectAndSend(1_000_00 as Kobo);
    const ofTransfer = () =>
      watcher
        .stdout()
        .trimEnd()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { reference: string; status: string })
        .filter((tx) => tx.reference === transferRef);
    await until(() => ofTransfer().length >= 2, 'the transfer shown pending, then settled');
    watcher.signal('SIGINT');
    assert.equal(await watcher.exited, 0, watcher.stderr());
    assert.deepEqual(
      ofTransfer().map((tx) => tx.status),
      ['pending', 'successful'],
    );
  });

  it('refuses --interval 0 and a bad --since with exit 2 before polling', async () => {
    for (const args of [
      ['--interval', '0'],
      ['--since', 'last week'],
      ['--count', '0'],
    ]) {
      const seen = polls();
      const result = await setup.run(['tx', 'watch', ...args]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^error: /);
      assert.equal(polls(), seen);
    }
  });
});

describe('tx watch when polling fails', () => {
  it('retries with a growing delay and says so on stderr; Ctrl-C still ends it', async () => {
    const server = await startSimulatorServer({ port: 0, log: () => undefined });
    const home = makeHome();
    try {
      await logInToSimulator(home.env, server.url);
      await server.close(); // every poll now meets a closed port
      const watcher = watch({ ...home.env, FSAPI_PROFILE: 'sim' }, ['--interval', '1']);
      await until(() => (watcher.stderr().match(/polling failed/g) ?? []).length >= 2, 'two failed polls reported');
      const delays = [...watcher.stderr().matchAll(/trying again in (\d+) s/g)].map((match) => Number(match[1]));
      assert.deepEqual(delays.slice(0, 2), [2, 4]);
      watcher.signal('SIGINT');
      assert.equal(await watcher.exited, 0, watcher.stderr());
      assert.equal(watcher.stdout(), '');
    } finally {
      home.cleanup();
    }
  });
});
