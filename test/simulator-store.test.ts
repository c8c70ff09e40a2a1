// The simulator's SQLite store from the outside: an older JSON state imported once, damaged or foreign
// files refused by name and left alone, the business name, and what a SIGKILL in the middle of a load
// run leaves behind (every acknowledged transfer, and nothing that blocks a restart).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import * as z from 'zod/mini';
import { envelope, primaryAccount, tokenResponse, transactionRecord } from '../src/api/schemas.js';
import { CorruptFileError } from '../src/errors.js';
import { createSimulator, openLocalSimulator, SIMULATOR_CREDENTIALS } from '../src/simulator/index.js';
import { DEFAULT_SEED_TRANSACTIONS } from '../src/simulator/data.js';
import { openDatabase } from '../src/store/sqlite.js';
import type { Simulator } from '../src/simulator/types.js';
import { makeHome, runCli } from './helpers/cli.js';
import { callInProcess, loginInProcess, startServe } from './helpers/simulator-process.js';

const home = makeHome();
after(() => home.cleanup());
let dirCount = 0;
const freshDir = () => {
  const dir = path.join(home.root, `store-${++dirCount}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const login = loginInProcess;
const call = callInProcess;

// ---- an older fsapi's JSON state ------------------------------------------------------------------

const SIGNING_KEY = 'ab'.repeat(32);
const CREATED_AT = Date.now() - 3_600_000;

/** A token as the JSON-state simulator issued it: HS256 over the state's key, remembered by its jti. */
function legacyToken(jti: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iss: 'fsapi-simulator', sub: 'sim-consumer-key', jti, iat: 1, exp: 2 })}`;
  return `${head}.${createHmac('sha256', SIGNING_KEY).update(head).digest('base64url')}`;
}

function legacyState(): string {
  const transfer = {
    id: 61,
    kind: 'transfer',
    reference: 'ACME-OLD-1',
    sessionId: '000023261122101010000000611234',
    amountKobo: 250_000,
    chargeKobo: 1075,
    stampDutyKobo: 0,
    createdAt: CREATED_AT + 1000,
    settlesAt: CREATED_AT + 6000,
    counterparty: { accountNumber: '0123456789', accountName: 'OKAFOR CHIAMAKA ADAEZE', bankCode: '000013', bankName: 'Guaranty Trust Bank' },
    narration: 'from the JSON days',
    senderName: 'ACME TRADING LIMITED',
  };
  const client = {
    id: 7,
    accountType: 'individual',
    accountNumber: '9900000077',
    accountName: 'Ada Obi',
    externalReference: '11111111-2222-4333-a444-555555555555',
    createdAt: CREATED_AT + 2000,
    metadata: {},
    mobileNumber: '08030000009',
    emailAddress: 'ada@example.com',
    bvn: '22211122233',
    address: '1 Marina',
    dateOfBirth: '1990/01/01',
    validityType: 'permanent',
    status: 'active',
    accountTier: 1,
    firstname: 'Ada',
    lastname: 'Obi',
    middlename: '',
    gender: 'female',
  };
  return JSON.stringify({
    format: 'fsapi-simulator-state',
    version: 1,
    id: 'legacy-state-id',
    createdAt: CREATED_AT,
    seed: 20240607,
    seedTransactions: 60,
    signingKey: SIGNING_KEY,
    revision: 3,
    balanceKobo: 500_000_000 - 251_075,
    updatedAt: CREATED_AT + 2000,
    nextTransactionId: 62,
    nextClientId: 8,
    tokens: { 'legacy-jti': Date.now() + 3_600_000, 'expired-jti': Date.now() - 1000 },
    transactions: [transfer],
    clients: [client],
  });
}

async function expectImported(simulator: Simulator): Promise<void> {
  const token = legacyToken('legacy-jti');
  const account = await call(simulator, token, 'GET', '/v1/account');
  assert.equal(account.status, 200, 'a token the JSON state issued still works');
  assert.equal(envelope(primaryAccount).parse(account.body).data.availableBalance, '4997489.25');
  const found = envelope(transactionRecord).parse((await call(simulator, token, 'GET', '/v1/transactions/reference/ACME-OLD-1')).body).data;
  assert.equal(found.description, 'from the JSON days');
  assert.equal(found.amount, '2500.00');
  assert.equal((await call(simulator, token, 'GET', '/v1/client-enquiry/9900000077')).status, 200);
  assert.equal((await call(simulator, legacyToken('expired-jti'), 'GET', '/v1/account')).status, 401);
  // New rows continue after the imported ones.
  const sent = await call(simulator, token, 'POST', '/v1/transfer', {
    beneficiaryBankCode: '000013',
    beneficiaryAccountNumber: '0123456789',
    amount: 100,
    narration: 'after import',
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const listed = envelope(z.array(transactionRecord)).parse((await call(simulator, token, 'GET', '/v1/transactions?limit=2')).body).data;
  assert.deepEqual(
    listed.map((row) => row.id),
    [62, 61],
  );
}

describe('an older JSON state', () => {
  it('of the local profile is imported once into state.db and kept as state.json.imported', async () => {
    const dataDir = freshDir();
    mkdirSync(path.join(dataDir, 'simulator'), { recursive: true, mode: 0o700 });
    const json = path.join(dataDir, 'simulator', 'state.json');
    const text = legacyState();
    writeFileSync(json, text, { mode: 0o600 });
    const notes: string[] = [];
    const simulator = createSimulator({ stateFile: path.join(dataDir, 'simulator', 'state.db'), legacyStateFile: json, log: (line) => notes.push(line) });
    await expectImported(simulator);
    assert.ok(!existsSync(json), 'the JSON file is no longer read');
    assert.equal(readFileSync(`${json}.imported`, 'utf8'), text);
    assert.match(notes.join('\n'), /imported the JSON state .*state\.json into .*state\.db/);
    // Opening again imports nothing more: the transfer made after the import is still there.
    const again = openLocalSimulator(dataDir, {});
    const listed = envelope(z.array(transactionRecord)).parse((await call(again, legacyToken('legacy-jti'), 'GET', '/v1/transactions?limit=1')).body).data;
    assert.equal(listed[0]!.description, 'after import');
  });

  it('given as --state is imported in place: the file becomes the database, the JSON kept beside it', async () => {
    const file = path.join(freshDir(), 'served.json');
    const text = legacyState();
    writeFileSync(file, text);
    await expectImported(createSimulator({ stateFile: file, log: () => undefined }));
    assert.equal(readFileSync(file).subarray(0, 15).toString('latin1'), 'SQLite format 3');
    assert.equal(readFileSync(`${file}.imported`, 'utf8'), text);
  });

  it('that is damaged is refused with its name, and neither file is touched', async () => {
    const file = path.join(freshDir(), 'state.db');
    const json = path.join(path.dirname(file), 'state.json');
    writeFileSync(json, '{"format": "fsapi-simulator-state", "version": 1,');
    const simulator = createSimulator({ stateFile: file, legacyStateFile: json, log: () => undefined });
    await assert.rejects(simulator.ready(), (error: Error) => error instanceof CorruptFileError && error.message.includes(json));
    assert.equal(readFileSync(json, 'utf8'), '{"format": "fsapi-simulator-state", "version": 1,');
    assert.ok(!existsSync(file));
  });
});

describe('a database file that is not a usable state', () => {
  it('is refused with its name when its pages are damaged, and left as it is', async () => {
    const file = path.join(freshDir(), 'state.db');
    const simulator = createSimulator({ stateFile: file });
    const token = await login(simulator);
    assert.equal(
      (
        await call(simulator, token, 'POST', '/v1/transfer', {
          beneficiaryBankCode: '000013',
          beneficiaryAccountNumber: '0123456789',
          amount: 5,
          narration: 'x',
        })
      ).status,
      200,
    );
    simulator.close();
    await new Promise((resolve) => setTimeout(resolve, 50)); // close() is asynchronous
    for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
    // Keep the 100-byte header, scribble over the pages behind it.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(8000, 0x5a), 0, 8000, 100);
    closeSync(fd);
    const damaged = readFileSync(file);
    const reopened = createSimulator({ stateFile: file });
    await assert.rejects(reopened.ready(), (error: Error) => {
      assert.ok(error instanceof CorruptFileError, String(error));
      assert.ok(error.message.includes(file), error.message);
      return true;
    });
    assert.deepEqual(readFileSync(file), damaged, 'never silently reset');
  });

  it("is refused when it is another program's SQLite database", async () => {
    const file = path.join(freshDir(), 'other.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)');
    db.close();
    await assert.rejects(createSimulator({ stateFile: file }).ready(), (error: Error) => {
      assert.ok(error instanceof CorruptFileError);
      assert.match(error.message, /not a simulator state/);
      return true;
    });
  });

  it('an empty file (touch state.db) becomes a fresh state', async () => {
    const file = path.join(freshDir(), 'state.db');
    writeFileSync(file, '');
    const simulator = createSimulator({ stateFile: file });
    const token = await login(simulator);
    assert.equal((await call(simulator, token, 'GET', '/v1/account')).status, 200);
  });
});

describe('the business name', () => {
  it('sets the account name and the reference prefix, is kept in the state, and renames the seeded references', async () => {
    const file = path.join(freshDir(), 'state.db');
    const simulator = createSimulator({ stateFile: file, businessName: 'Jumpa Technologies Ltd', settleSeconds: 0 });
    const token = await login(simulator);
    const account = envelope(primaryAccount).parse((await call(simulator, token, 'GET', '/v1/account')).body).data;
    assert.equal(account.accountName, 'Jumpa Technologies Ltd');
    const body = { beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456789', amount: 100, narration: 'prefix' };
    assert.equal((await call(simulator, token, 'POST', '/v1/transfer', { ...body, reference: 'JUMPA-ORDER-1' })).status, 200);
    const refused = await call(simulator, token, 'POST', '/v1/transfer', { ...body, reference: 'ACME-ORDER-2' });
    assert.equal(refused.status, 400);
    assert.match(String(refused.body.reason), /JUMPA-/);
    const generated = await call(simulator, token, 'POST', '/v1/transfer', body);
    assert.match(String((generated.body.data as { reference: string }).reference), /^JUMPA-/);

    // Reopened without the option: the business stays.
    const reopened = createSimulator({ stateFile: file });
    const rows = envelope(z.array(transactionRecord)).parse((await call(reopened, token, 'GET', '/v1/transactions?limit=100')).body).data;
    const seededTransfer = rows.find((row) => row.type === 'debit' && row.id <= DEFAULT_SEED_TRANSACTIONS)!;
    assert.match(seededTransfer.reference, /^JUMPA-/);
    assert.equal(seededTransfer.sourceAccountName, 'Jumpa Technologies Ltd');
    assert.equal((await call(reopened, token, 'GET', `/v1/transactions/reference/${seededTransfer.reference}`)).status, 200);
    assert.equal((await call(reopened, token, 'GET', `/v1/transactions/reference/${seededTransfer.reference.replace(/^JUMPA-/, 'ACME-')}`)).status, 400);
  });

  it('of the local profile is set by simulator reset --business-name; transfer send then uses its prefix', async () => {
    const local = makeHome();
    try {
      const reset = await runCli(['simulator', 'reset', '--business-name', 'JUMPA TECHNOLOGIES LTD'], { env: local.env });
      assert.equal(reset.code, 0, reset.stderr);
      const sent = await runCli(['transfer', 'send', '0123456789', '--bank', '000013', '--amount', '100', '--narration', 'hello', '--yes', '--json'], {
        env: local.env,
      });
      assert.equal(sent.code, 0, sent.stderr);
      assert.match(JSON.parse(sent.stdout).reference, /^JUMPA-/);
      const bad = await runCli(['simulator', 'reset', '--business-name', '--- Ltd'], { env: local.env });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^error: --business-name "--- Ltd": the first word must hold letters or digits/m);
    } finally {
      local.cleanup();
    }
  });
});

// ---- SIGKILL in the middle of a load run ---------------------------------------------------------

const serve = (stateFile: string, env: Record<string, string>) => startServe(['--port', '0', '--state', stateFile], env, 120_000);

async function httpToken(url: string): Promise<string> {
  const answer = await fetch(`${url}/v1/generate-token`, {
    method: 'POST',
    headers: { consumerKey: SIMULATOR_CREDENTIALS.consumerKey, consumerSecret: SIMULATOR_CREDENTIALS.consumerSecret, validityTime: '60' },
  });
  assert.equal(answer.status, 200);
  return tokenResponse.parse(await answer.json()).token;
}

describe('simulator serve --state under SIGKILL', () => {
  it('keeps every acknowledged transfer, and a restart on the same file serves at once', async () => {
    const file = path.join(freshDir(), 'killed.db');
    const first = serve(file, home.env);
    const url = await first.url;
    const token = await httpToken(url);
    const acknowledged: string[] = [];
    let attempts = 0;
    let killed = false;
    // 8 clients, each sending transfers one after another: at most 400 in all, and the server is killed
    // once 120 have been acknowledged, so some requests are in flight when it dies.
    const client = async (tag: number) => {
      for (let n = 0; n < 50 && !killed; n++) {
        const reference = `ACME-KILL-${tag}-${n}`;
        attempts += 1;
        try {
          const answer = await fetch(`${url}/v1/transfer`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456789', amount: 1, narration: 'load', reference }),
          });
          if (answer.status === 200) acknowledged.push(reference);
          await answer.body?.cancel();
        } catch {
          // the connection died with the server: not acknowledged
        }
        if (acknowledged.length >= 120 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, tag) => client(tag)));
    const ended = await first.exited;
    assert.equal(ended.signal, 'SIGKILL', `the server was killed, not stopped (${first.output().stderr})`);
    assert.ok(acknowledged.length >= 120, `${acknowledged.length} acknowledged of ${attempts}`);

    const second = serve(file, home.env);
    try {
      const url2 = await second.url;
      // A token request writes: no stale lock of the killed process may refuse it.
      const token2 = await httpToken(url2);
      for (const reference of acknowledged) {
        const found = await fetch(`${url2}/v1/transactions/reference/${reference}`, { headers: { authorization: `Bearer ${token2}` } });
        assert.equal(found.status, 200, `acknowledged transfer ${reference} is in the state after the restart`);
        await found.body?.cancel();
      }
      // The balance is exactly the opening balance less every stored transfer (₦1 + ₦10.75 each).
      const count = Number((openDatabase(file).prepare("SELECT COUNT(*) AS n FROM transactions WHERE kind = 'transfer'").get() as { n: number }).n);
      assert.ok(count >= acknowledged.length);
      const account = await fetch(`${url2}/v1/account`, { headers: { authorization: `Bearer ${token2}` } });
      const balance = envelope(primaryAccount).parse(await account.json()).data.availableBalance;
      assert.equal(balance, ((500_000_000 - count * 1175) / 100).toFixed(2));
      const written = await fetch(`${url2}/v1/transfer`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token2}`, 'content-type': 'application/json' },
        body: JSON.stringify({ beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456789', amount: 1, narration: 'after restart' }),
      });
      assert.equal(written.status, 200);
    } finally {
      second.child.kill('SIGTERM');
      const stopped = await second.exited;
      assert.equal(stopped.code, 0, second.output().stderr);
    }
  });
});
