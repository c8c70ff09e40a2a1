// Persistence: the SQLite state file is shared by simulators and processes, kept compact (the seeded
// history is re-derived, not stored), never reset silently when corrupt. And the local profile's
// simulator: where its state lives, its environment knobs, reset.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import * as z from 'zod/mini';
import { envelope, primaryAccount, transactionRecord } from '../src/api/schemas.js';
import { CorruptFileError, UsageError } from '../src/errors.js';
import { createSimulator, openLocalSimulator, resetLocalSimulator } from '../src/simulator/index.js';
import type { Simulator } from '../src/simulator/types.js';
import { makeHome, repoRoot } from './helpers/cli.js';
import { callInProcess, IN_PROCESS_ORIGIN as ORIGIN, loginInProcess } from './helpers/simulator-process.js';

const home = makeHome();
after(() => home.cleanup());
let dirCount = 0;
const freshDir = () => {
  const dir = path.join(home.root, `state-${++dirCount}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const login = loginInProcess;
const call = callInProcess;

const transfer = (reference: string, amount = 100) => ({
  beneficiaryBankCode: '000013',
  beneficiaryAccountNumber: '0123456789',
  amount,
  narration: 'state test',
  reference,
});

const balanceOf = async (simulator: Simulator, token: string) =>
  envelope(primaryAccount).parse((await call(simulator, token, 'GET', '/v1/account')).body).data.availableBalance;

describe('state file', () => {
  it('is shared: a token and a transfer made by one simulator are seen by another on the same file', async () => {
    const file = path.join(freshDir(), 'state.db');
    const first = createSimulator({ stateFile: file });
    const token = await login(first);
    assert.equal((await call(first, token, 'POST', '/v1/transfer', transfer('ACME-SHARED-1'))).status, 200);
    const second = createSimulator({ stateFile: file });
    const found = await call(second, token, 'GET', '/v1/transactions/reference/ACME-SHARED-1');
    assert.equal(found.status, 200, "the second simulator accepts the first one's token and finds its transfer");
    assert.equal(await balanceOf(second, token), '4999889.25');
    // Nothing but the database and its WAL files next to it.
    assert.deepEqual(
      readdirSync(path.dirname(file)).filter((name) => !name.startsWith('state.db')),
      [],
    );
  });

  it('stays compact with a 20,000-row history, and pages through all of it newest first', async () => {
    const file = path.join(freshDir(), 'state.db');
    const simulator = createSimulator({ stateFile: file, seedTransactions: 20_000 });
    const token = await login(simulator);
    assert.equal((await call(simulator, token, 'POST', '/v1/transfer', transfer('ACME-BIG-1'))).status, 200);
    // 20,000 stored rows would take megabytes; the seeded history is derived, so only a few pages are written.
    const size = ['', '-wal'].reduce((sum, suffix) => sum + (existsSync(file + suffix) ? statSync(file + suffix).size : 0), 0);
    assert.ok(size < 256 * 1024, `state file and WAL take ${size} bytes`);

    const seen = new Set<number>();
    let previous = Number.POSITIVE_INFINITY;
    let pages = 0;
    for (let page = 1; page <= 202; page++) {
      const answer = await call(simulator, token, 'GET', `/v1/transactions?page=${page}&limit=100`);
      const rows = envelope(z.array(transactionRecord)).parse(answer.body).data;
      if (rows.length === 0) break;
      pages += 1;
      for (const row of rows) {
        assert.ok(row.createdAt <= previous, 'newest first across pages');
        previous = row.createdAt;
        seen.add(row.id);
      }
    }
    assert.equal(pages, 201);
    assert.equal(seen.size, 20_001);
  });

  it('loses nothing when two simulators write the same file at once', async () => {
    const file = path.join(freshDir(), 'state.db');
    const a = createSimulator({ stateFile: file });
    const b = createSimulator({ stateFile: file });
    const token = await login(a);
    const sends = [];
    for (let n = 1; n <= 15; n++) {
      sends.push(call(a, token, 'POST', '/v1/transfer', transfer(`ACME-A-${n}`)));
      sends.push(call(b, token, 'POST', '/v1/transfer', transfer(`ACME-B-${n}`)));
    }
    const answers = await Promise.all(sends);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      new Array(30).fill(200),
    );
    for (let n = 1; n <= 15; n++) {
      for (const tag of ['A', 'B']) assert.equal((await call(a, token, 'GET', `/v1/transactions/reference/ACME-${tag}-${n}`)).status, 200);
    }
    // 30 transfers of ₦100 + ₦10.75 each.
    assert.equal(await balanceOf(b, token), '4996677.50');
  });

  it('loses nothing when two processes write the local state at once', async () => {
    const dataDir = freshDir();
    const run = (tag: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/fixtures/simulator-writer.ts'), dataDir, tag, '12'], {
          cwd: repoRoot,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
      });
    const [one, two] = await Promise.all([run('P1'), run('P2')]);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(two.code, 0, two.stderr);
    assert.equal(one.stdout.trim(), '12');
    assert.equal(two.stdout.trim(), '12');
    const simulator = openLocalSimulator(dataDir, {});
    const token = await login(simulator);
    for (let n = 1; n <= 12; n++) {
      for (const tag of ['P1', 'P2']) assert.equal((await call(simulator, token, 'GET', `/v1/transactions/reference/ACME-${tag}-${n}`)).status, 200);
    }
    assert.equal(await balanceOf(simulator, token), '4997342.00'); // 24 x (₦100 + ₦10.75)
  });

  for (const [name, content] of [
    ['not JSON', '{"format": "fsapi-simulator-state", '],
    ['JSON of another shape', '{"hello": "world"}'],
    ['neither SQLite nor JSON', 'SQLite format 2\0 and then some bytes'],
  ] as const) {
    it(`refuses a state file that is ${name} with CorruptFileError naming it, and leaves it alone`, async () => {
      const file = path.join(freshDir(), 'state.db');
      writeFileSync(file, content);
      const simulator = createSimulator({ stateFile: file });
      await assert.rejects(simulator.ready(), (error: Error) => {
        assert.ok(error instanceof CorruptFileError);
        assert.ok(error.message.includes(file), error.message);
        return true;
      });
      await assert.rejects(
        simulator.fetch(
          new Request(`${ORIGIN}/v1/generate-token`, {
            method: 'POST',
            headers: { consumerKey: 'sim-consumer-key', consumerSecret: 'sim-consumer-secret', validityTime: '5' },
          }),
        ),
        CorruptFileError,
      );
      assert.equal(readFileSync(file, 'utf8'), content);
    });
  }
});

describe('local simulator', () => {
  it('keeps its state in <dataDir>/simulator/state.db, directory 0700 and file 0600', async () => {
    const dataDir = freshDir();
    const simulator = openLocalSimulator(dataDir, {});
    await login(simulator);
    const file = path.join(dataDir, 'simulator', 'state.db');
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('reads FSAPI_SIM_SETTLE_SECONDS and FSAPI_SIM_FAULT, and refuses bad values', async () => {
    const dataDir = freshDir();
    const simulator = openLocalSimulator(dataDir, { FSAPI_SIM_SETTLE_SECONDS: '0' });
    const token = await login(simulator);
    assert.equal((await call(simulator, token, 'POST', '/v1/transfer', transfer('ACME-NOW-1'))).status, 200);
    const record = envelope(transactionRecord).parse((await call(simulator, token, 'GET', '/v1/transactions/reference/ACME-NOW-1')).body).data;
    assert.equal(record.status, 'successful');

    const faulty = openLocalSimulator(dataDir, { FSAPI_SIM_FAULT: 'drop' });
    assert.equal(faulty.fault(), 'drop');
    await assert.rejects(
      faulty.fetch(
        new Request(`${ORIGIN}/v1/transfer`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(transfer('ACME-DROPPED-1')),
        }),
      ),
      TypeError,
    );
    assert.equal((await call(simulator, token, 'GET', '/v1/transactions/reference/ACME-DROPPED-1')).status, 200);

    assert.throws(() => openLocalSimulator(dataDir, { FSAPI_SIM_FAULT: 'explode' }), UsageError);
    assert.throws(() => openLocalSimulator(dataDir, { FSAPI_SIM_SETTLE_SECONDS: 'soon' }), UsageError);
  });

  it('resetLocalSimulator forgets everything: balance back to the seed, old tokens refused', async () => {
    const dataDir = freshDir();
    const simulator = openLocalSimulator(dataDir, {});
    const token = await login(simulator);
    assert.equal((await call(simulator, token, 'POST', '/v1/transfer', transfer('ACME-GONE-1'))).status, 200);
    const file = await resetLocalSimulator(dataDir);
    assert.equal(file, path.join(dataDir, 'simulator', 'state.db'));
    assert.equal((await call(simulator, token, 'GET', '/v1/account')).status, 401);
    const fresh = await login(simulator);
    assert.equal(await balanceOf(simulator, fresh), '5000000.00');
    assert.equal((await call(simulator, fresh, 'GET', '/v1/transactions/reference/ACME-GONE-1')).status, 400);
  });
});
