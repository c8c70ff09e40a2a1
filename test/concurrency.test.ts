// Several fsapi processes at once on one data dir or config dir, as an attacker (or a hasty operator, or a
// cron job overlapping itself) would start them: real processes of the built CLI against the simulator
// served on 127.0.0.1, asserting on the simulator's request log. Counts are bounded (6 to 8 processes);
// nothing here measures time. Build first: `npm run build`.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { homePool, runCli, spawnCliInTerminal, stripAnsi, type RunResult } from './helpers/cli.js';
import { SIMULATOR_LOGIN_ENV } from './helpers/simulator-login.js';
import { journalLog, setUpTransfers, until, type TransferSetup } from './helpers/transfer-setup.js';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';

const ACCOUNT = '0123456789';
const send = (...extra: string[]) => ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '2,000', '--narration', 'Invoice 9', ...extra];
const N = 6;

let setup: TransferSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

/** A served simulator slow enough (every answer 150 ms) that all N processes are between check and send together. */
async function start(): Promise<TransferSetup> {
  setup = await setUpTransfers({ latencyMs: 150 });
  return setup;
}

const codes = (results: RunResult[]) => results.map((r) => r.code).sort();
const intents = (s: TransferSetup) => s.journalLines().filter((line) => (JSON.parse(line) as { type: string }).type === 'intent');

describe('N processes sending at once on one data dir', () => {
  it(`${N} identical sends started together: exactly one POST, the others exit 2 as duplicates`, async () => {
    const s = await start();
    const results = await Promise.all(Array.from({ length: N }, () => s.run(send('--yes'), { timeoutMs: 90_000 })));
    assert.deepEqual(codes(results), [0, ...Array(N - 1).fill(2)], results.map((r) => r.stderr).join('\n---\n'));
    assert.equal(s.posts(), 1, 'one POST /v1/transfer reached the simulator');
    assert.equal(intents(s).length, 1, 'one intent in the journal');
    for (const refused of results.filter((r) => r.code === 2)) {
      assert.match(refused.stderr, /^error: the same amount went to this account less than 10 minutes ago; nothing was sent$/m);
      assert.match(refused.stderr, /^hint: add --allow-duplicate/m);
    }
  });

  it('on a terminal, a duplicate sent by another process while this one waited for its confirmation is asked about again', async () => {
    const s = await start();
    const child = spawnCliInTerminal(send(), s.env);
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    /** Types a key, waits until the prompt shows it typed ("(y/N) y"), then presses Enter. */
    const answer = async (key: string) => {
      const from = screen.length;
      child.stdin.write(key);
      await until(() => new RegExp(`\\(y/N\\) ${key}`).test(stripAnsi(screen.slice(from))), `${key} shown typed`, 30_000);
      child.stdin.write('\r');
    };
    try {
      await until(() => /Send ₦2,000\.00 to OKAFOR CHIAMAKA ADAEZE\?/.test(stripAnsi(screen)), 'the confirmation', 60_000);
      // Meanwhile a script pays the same amount to the same account.
      const other = await s.run(send('--yes'), { timeoutMs: 60_000 });
      assert.equal(other.code, 0, other.stderr);
      // Each key once the prompt has shown the one before it, not after a guess at how long that takes.
      await answer('y');
      await until(() => /Send the same amount to the same account again\?/.test(stripAnsi(screen)), 'the question asked again', 60_000);
      assert.match(stripAnsi(screen), /was already sent less than a minute ago/);
      await answer('n');
      assert.equal(await exited, 4, stripAnsi(screen));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    assert.equal(s.posts(), 1, 'only the script paid');
  });

  it(`${N} sends of one --reference (duplicates allowed): one POST, the others exit 2 naming the reference; the journal shows it paid`, async () => {
    const s = await start();
    const results = await Promise.all(
      Array.from({ length: N }, () => s.run(send('--yes', '--allow-duplicate', '--reference', 'ACME-RACE-1'), { timeoutMs: 90_000 })),
    );
    assert.deepEqual(codes(results), [0, ...Array(N - 1).fill(2)], results.map((r) => r.stderr).join('\n---\n'));
    assert.equal(s.posts(), 1);
    for (const refused of results.filter((r) => r.code === 2)) {
      assert.match(refused.stderr, /^error: reference ACME-RACE-1 (is being sent by another fsapi process|was already (used|sent) on)/m);
    }
    const log = await journalLog(s);
    assert.equal(log.length, 1);
    assert.equal(log[0]!.reference, 'ACME-RACE-1');
    assert.equal(log[0]!.state, 'accepted');
  });

  it('the same reference in other cases, at once: still one POST (sent upper-cased)', async () => {
    const s = await start();
    const spellings = ['acme-case-7', 'Acme-case-7', 'ACME-CASE-7', 'aCmE-CaSe-7'];
    const results = await Promise.all(spellings.map((ref) => s.run(send('--yes', '--allow-duplicate', '--reference', ref), { timeoutMs: 90_000 })));
    assert.deepEqual(codes(results), [0, 2, 2, 2], results.map((r) => r.stderr).join('\n---\n'));
    assert.equal(s.posts(), 1);
  });

  it('two batch files with the same rows in different bytes, run together: every row paid once', async () => {
    const s = await start();
    const rows = Array.from({ length: 8 }, (_, i) => ({ account: `40${String(i).padStart(6, '0')}57`, amount: `${1500 + i}.25`, narration: `Payout ${i}` }));
    const first = path.join(s.home.root, 'payroll.csv');
    const second = path.join(s.home.root, 'payroll-copy.csv');
    writeFileSync(first, `account_number,bank,amount,narration\n${rows.map((r) => `${r.account},gtb,${r.amount},${r.narration}`).join('\n')}\n`);
    // Other column order, quoting, spacing and line ends: other bytes, so other derived references.
    writeFileSync(
      second,
      `narration,amount,bank,account_number\r\n${rows.map((r) => `"${r.narration}", ${r.amount} ,Guaranty Trust Bank,"${r.account}"`).join('\r\n')}\r\n`,
    );
    const [a, b] = await Promise.all([
      s.run(['transfer', 'batch', first, '--yes'], { timeoutMs: 120_000 }),
      s.run(['transfer', 'batch', second, '--yes'], { timeoutMs: 120_000 }),
    ]);
    for (const result of [a, b]) assert.ok(result.code === 0 || result.code === 1, `exit ${result.code}: ${result.stderr}`);
    assert.equal(s.posts(), rows.length, `${rows.length} POSTs for ${rows.length} rows: ${a.stderr}\n---\n${b.stderr}`);
    // Every account got its amount exactly once.
    const list = await s.run(['tx', 'list', '--all', '--json']);
    assert.equal(list.code, 0, list.stderr);
    const paid = (JSON.parse(list.stdout) as Array<{ destinationAccountNumber: string; type: string }>).filter((tx) => tx.type === 'debit');
    for (const row of rows) assert.equal(paid.filter((tx) => tx.destinationAccountNumber === row.account).length, 1, `account ${row.account}`);
    // Whatever a run did not send, its report says was not sent, and why.
    for (const file of [first, second]) {
      let report: Array<{ status: string; message: string }> = [];
      try {
        report = parse(readFileSync(`${file}.report.csv`), { columns: true }) as typeof report;
      } catch {
        continue; // a run held whole by the plan's duplicate check writes no report
      }
      for (const line of report.filter((r) => r.status === 'not-sent')) assert.match(line.message, /already sent|being sent by another/);
    }
  });
});

// ---- profiles ----------------------------------------------------------------------------------------

describe('N processes writing the profiles at once', () => {
  const homes = homePool();
  let server: RunningSimulator;
  after(async () => {
    await server?.close();
    homes.cleanup();
  });

  const profilesOf = (configDir: string) =>
    JSON.parse(readFileSync(path.join(configDir, 'profiles.json'), 'utf8')) as {
      default?: string;
      profiles: Record<string, { token?: string; tokenExpiresAt?: number }>;
    };
  const login = (env: Record<string, string>, name: string) =>
    runCli(['auth', 'login', '--profile', name, '--env', 'sandbox', '--base-url', server.url], { env: { ...env, ...SIMULATOR_LOGIN_ENV }, timeoutMs: 90_000 });

  it('8 logins at once: all 8 profiles kept, exactly one of them the default', async () => {
    server = await startSimulatorServer({ port: 0, log: () => undefined });
    const h = homes.home();
    const names = Array.from({ length: 8 }, (_, i) => `desk${i}`);
    const results = await Promise.all(names.map((name) => login(h.env, name)));
    assert.deepEqual(
      results.map((r) => r.code),
      Array(8).fill(0),
      results.map((r) => r.stderr).join('\n'),
    );
    assert.equal(server.simulator.requests().filter((r) => r.path === '/v1/generate-token').length, 8);
    const stored = profilesOf(h.configDir);
    assert.deepEqual(Object.keys(stored.profiles).sort(), names);
    assert.ok(names.includes(stored.default!), `default ${stored.default}`);
    assert.equal(results.filter((r) => /is now the default/.test(r.stderr)).length, 1, 'one login says it became the default');
  });

  it('a renewal and `profile use` during 6 logins: the renewed token, the default and all 6 profiles are kept', async () => {
    const h = homes.home();
    assert.equal((await login(h.env, 'main')).code, 0);
    // Make main's token expired, so the next command renews it (credentials from the environment).
    const file = path.join(h.configDir, 'profiles.json');
    const before = profilesOf(h.configDir);
    const oldToken = before.profiles.main!.token;
    before.profiles.main!.tokenExpiresAt = Date.now() - 60_000;
    writeFileSync(file, JSON.stringify(before), { mode: 0o600 });

    const names = Array.from({ length: 6 }, (_, i) => `extra${i}`);
    const [renewal, use, ...logins] = await Promise.all([
      runCli(['--profile', 'main', 'account', '--json'], { env: { ...h.env, ...SIMULATOR_LOGIN_ENV }, timeoutMs: 90_000 }),
      runCli(['profile', 'use', 'main'], { env: h.env, timeoutMs: 90_000 }),
      ...names.map((name) => login(h.env, name)),
    ]);
    assert.equal(renewal!.code, 0, renewal!.stderr);
    assert.equal(use!.code, 0, use!.stderr);
    assert.deepEqual(
      logins.map((r) => r.code),
      Array(6).fill(0),
      logins.map((r) => r.stderr).join('\n'),
    );
    const after = profilesOf(h.configDir);
    assert.deepEqual(Object.keys(after.profiles).sort(), ['main', ...names].sort());
    assert.equal(after.default, 'main');
    assert.notEqual(after.profiles.main!.token, oldToken, 'the renewed token was saved');
    assert.ok(after.profiles.main!.tokenExpiresAt! > Date.now(), 'and its expiry');
  });
});

// ---- secrets stay with their host ------------------------------------------------------------------------

/** A tiny HTTP server on 127.0.0.1 that records every request and answers 401. */
async function startRecorder(): Promise<{ url: string; seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>; close(): Promise<void> }> {
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    request.resume();
    response.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false,"message":"who are you?"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('secrets stay with their host', () => {
  const homes = homePool();
  let server: RunningSimulator;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  after(async () => {
    await server?.close();
    await recorder?.close();
    homes.cleanup();
  });

  it('--base-url or FSAPI_BASE_URL elsewhere: no stored token and no saved credentials leave; exit 3 with a hint', async () => {
    server = await startSimulatorServer({ port: 0, log: () => undefined });
    recorder = await startRecorder();
    const h = homes.home();
    const login = await runCli(['auth', 'login', '--env', 'sandbox', '--base-url', server.url, '--save-credentials'], {
      env: { ...h.env, ...SIMULATOR_LOGIN_ENV },
    });
    assert.equal(login.code, 0, login.stderr);

    const viaFlag = await runCli(['--base-url', recorder.url, 'account'], { env: h.env });
    const viaEnv = await runCli(['transfer', 'send', ACCOUNT, '--bank', '000013', '--amount', '10', '--narration', 'x', '--yes'], {
      env: { ...h.env, FSAPI_BASE_URL: recorder.url },
    });
    const token = await runCli(['auth', 'token'], { env: { ...h.env, FSAPI_BASE_URL: recorder.url } });
    for (const result of [viaFlag, viaEnv, token]) {
      assert.equal(result.code, 3, result.stderr);
      assert.match(
        result.stderr,
        /^error: profile "sandbox" is logged in to http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:\d+: fsapi sends a stored token or saved credentials only to the address that stored them$/m,
      );
      assert.match(
        result.stderr,
        /^hint: log in a profile for that address \(fsapi auth login --profile <name> --base-url http:\/\/127\.0\.0\.1:\d+\), or pass FSAPI_TOKEN$/m,
      );
    }
    assert.deepEqual(
      recorder.seen.filter((r) => r.headers.authorization !== undefined),
      [],
      'no Authorization header reached the other host',
    );
    assert.deepEqual(
      recorder.seen.filter((r) => r.url.startsWith('/v1/generate-token') || r.headers.consumersecret !== undefined),
      [],
      'no token request, no secret',
    );
    assert.equal(recorder.seen.length, 0);

    // The profile's own address, written another way (trailing slash), still gets its token.
    const home = await runCli(['--base-url', `${server.url}/`, 'account', '--json'], { env: h.env });
    assert.equal(home.code, 0, home.stderr);
    // FSAPI_TOKEN is the person's choice for this run, and goes where they send it.
    const chosen = await runCli(['--base-url', recorder.url, 'account'], { env: { ...h.env, FSAPI_TOKEN: 'chosen-for-this-run' } });
    assert.equal(chosen.code, 3);
    assert.deepEqual(
      recorder.seen.map((r) => r.headers.authorization),
      ['Bearer chosen-for-this-run'],
    );
  });
});

// ---- narrations ------------------------------------------------------------------------------------------

describe('narrations are one line of plain text', () => {
  it('a newline, tab, escape or other control character in --narration or --sender-name is exit 2, nothing sent', async () => {
    const s = await start();
    s.server.simulator.clearRequests();
    const cases: Array<[string[], RegExp]> = [
      [['--narration', 'Invoice 9\nPay to 0000000000'], /--narration contains a newline/],
      [['--narration', 'Invoice\t9'], /--narration contains a tab/],
      [['--narration', 'Invoice 9\r'], /--narration contains a carriage return/],
      [['--narration', 'Invoice \u001b[31m9'], /--narration contains an escape character/],
      [['--narration', 'Invoice \u0085 9'], /--narration contains the control character U\+0085/],
      [['--narration', 'ok', '--sender-name', 'Acme\u0007'], /--sender-name contains the control character U\+0007/],
      // Invisible: what the receiver's statement shows is not what was typed.
      [
        ['--narration', 'Invoice \u202E24 eciovnI'],
        /^error: --narration contains a right-to-left override \(U\+202E\) at character 9: it must be one line of plain text$/m,
      ],
      [['--narration', '😀\u2066Invoice'], /--narration contains a left-to-right isolate \(U\+2066\) at character 2:/],
      [['--narration', 'Pay\u200Bment'], /--narration contains a zero-width space \(U\+200B\) at character 4:/],
      [['--narration', 'ok', '--sender-name', 'Acme\u200F Ltd'], /--sender-name contains a right-to-left mark \(U\+200F\) at character 5:/],
      [['--narration', 'Invoice \u061C9'], /--narration contains an Arabic letter mark \(U\+061C\)/],
      // Characters, not UTF-16 units: 101 emoji are 101 characters.
      [['--narration', '😀'.repeat(101)], /--narration is 101 characters long; at most 100 are allowed/],
    ];
    for (const [extra, message] of cases) {
      const args = ['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '10', '--yes', ...extra];
      const result = await s.run(args);
      assert.equal(result.code, 2, `${JSON.stringify(extra)}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
    assert.deepEqual(s.server.simulator.requests(), [], 'nothing was asked of the API');
    // 100 emoji are 100 characters (200 UTF-16 units): taken.
    const emoji = await s.run(['transfer', 'send', ACCOUNT, '--bank', 'gtb', '--amount', '10', '--yes', '--narration', '😀'.repeat(100)]);
    assert.equal(emoji.code, 0, emoji.stderr);
  });
});
