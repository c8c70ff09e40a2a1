// Every example in every `--help` runs as shown against the built-in simulator. The examples come from
// the command tree itself (src/program.ts records each one as it builds the help texts); each one that
// moves no money runs through bash, with `fsapi` on PATH, in a directory holding the files the examples
// name (payroll.csv, event.json), and must exit 0.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defineEveryCommand, helpExamples } from '../src/program.js';

// Every group defined, so that every help text, and so every example, exists.
defineEveryCommand();
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { cliPath, makeHome, runCli } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';

/** Examples not run here, each with the reason. Everything else must run. */
function whyNotRun(example: string): string | undefined {
  if (/fsapi transfer send/.test(example)) return 'moves money';
  if (/fsapi transfer batch/.test(example) && !/--dry-run/.test(example)) return 'moves money';
  if (/fsapi simulator collect/.test(example)) return 'moves (simulated) money into a client account';
  if (/fsapi simulator trigger/.test(example)) return 'moves (simulated) money and posts to a receiver (test/webhook-payouts.test.ts)';
  if (/fsapi webhook events (show|resend)/.test(example)) return 'names an event the log holds once one was received (test/webhook-payouts.test.ts)';
  if (/fsapi transfer receipt/.test(example)) return 'needs a transfer sent from this machine (test/documents.test.ts makes receipts)';
  if (/fsapi (webhook listen|simulator serve)/.test(example)) return 'a server that runs until stopped';
  if (/fsapi tx watch/.test(example)) return 'watches until stopped (Ctrl-C)';
  if (/fsapi (--profile \S+ )?mcp/.test(example)) return 'a server for an MCP client on stdin (test/mcp.test.ts)';
  if (/fsapi auth login/.test(example)) return 'asks for the consumer key and secret';
  if (/^fsapi clients create (individual|corporate)$/.test(example)) return 'asks for each field at a terminal';
  if (/\$\{fpath/.test(example)) return 'zsh syntax';
  if (/fsapi (policy set|store adopt|store use)/.test(example)) return 'needs a person at a terminal and the consumer secret';
  if (/fsapi store (migrate|grant|revoke)/.test(example)) return 'needs a PostgreSQL (test/team-store.test.ts, test/team-rights.test.ts start one)';
  if (/fsapi approvals (approve|reject|show|withdraw) AP-/.test(example)) return 'names a request that exists once a transfer is held';
  return undefined;
}

const hasJq = spawnSync('sh', ['-c', 'command -v jq'], { encoding: 'utf8' }).status === 0;

describe('help examples', () => {
  const home = makeHome();
  const work = path.join(home.root, 'work');
  const bin = path.join(home.root, 'bin');
  let server: RunningSimulator;
  let env: Record<string, string>;

  before(async () => {
    mkdirSync(work, { recursive: true });
    mkdirSync(bin, { recursive: true });
    mkdirSync(path.join(home.root, '.config/fish/completions'), { recursive: true });
    writeFileSync(path.join(bin, 'fsapi'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`);
    chmodSync(path.join(bin, 'fsapi'), 0o755);
    writeFileSync(path.join(work, 'payroll.csv'), 'account_number,bank,amount,narration\n0123456789,gtbank,15000,Salary\n0123456781,OPay,2500.50,Refund\n');
    env = { ...home.env, HOME: home.root, PATH: `${bin}:${process.env.PATH ?? ''}` };
    // A saved profile besides local, for the examples that log out of and remove one.
    server = await startSimulatorServer({ port: 0 });
    await logInToSimulator(env, server.url, 'old-sandbox');
    assert.equal((await runCli(['profile', 'use', 'local'], { env })).code, 0);
    // A real collection notification, for `webhook verify event.json`.
    const collected = await runCli(['simulator', 'collect', '9900000011', '--amount', '25000', '--json'], { env: { ...env, FSAPI_PROFILE: 'local' } });
    assert.equal(collected.code, 0, collected.stderr);
    writeFileSync(path.join(work, 'event.json'), collected.stdout);
  });
  after(async () => {
    await server?.close();
    home.cleanup();
  });

  it('are found in the command tree', () => {
    assert.ok(helpExamples.length >= 50, `only ${helpExamples.length} examples`);
    assert.ok(
      helpExamples.every((example) => /(^|\s|\()fsapi /.test(example)),
      'every example runs fsapi',
    );
  });

  it('each one that moves no money exits 0 on the simulator', { timeout: 600_000 }, async () => {
    let ran = 0;
    const failures: string[] = [];
    for (const example of helpExamples) {
      if (whyNotRun(example) || (!hasJq && /\| jq/.test(example))) continue;
      const result = await runShell(example, work, env);
      ran += 1;
      // reconcile exits 1 when anything differs, as diff does: the seeded history holds debits no journal knows.
      const fine =
        result.code === 0 ||
        (/fsapi reconcile/.test(example) && result.code === 1 && /findings? need attention|not sent by fsapi from here/.test(result.stderr));
      if (!fine) failures.push(`${example}\n  exit ${result.code}: ${result.stderr.trim().split('\n').slice(-2).join(' / ')}`);
    }
    assert.deepEqual(failures, [], failures.join('\n'));
    assert.ok(ran >= 35, `only ${ran} examples ran`);
  });
});

/** bash -c, asynchronously (the served simulator answers from this process), bounded to a minute. */
function runShell(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', command], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 128, stderr });
    });
  });
}
