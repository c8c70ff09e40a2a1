// A profile knows its store, end to end with real processes: the CLI against the simulator over HTTP, its
// request log the proof of what was (not) sent. A store emptied, one that lost its -wal, an older copy,
// another data dir under the same config dir: refused before anything is sent. `store adopt` at a
// pseudo-terminal, with the consumer secret, accepts a store moved on purpose; `store backup` writes a
// whole store; fsapi.db alone holds every record after each command.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { makeHome, runCli, stripAnsi } from './helpers/cli.js';
import { setPolicy, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { openDatabase } from '../src/store/sqlite.js';

let setup: TransferSetup | undefined;
const homes: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await setup?.close();
  setup = undefined;
  for (const home of homes.splice(0)) home.cleanup();
});

const SECRET = SIMULATOR_CREDENTIALS.consumerSecret;
const SECRET_PROMPT = 'Consumer secret of profile';
const send = (amount: string, account = '0123456789') => ['transfer', 'send', account, '--bank', 'gtb', '--amount', amount, '--narration', 'Invoice 42', '-y'];

/** A store file's rows of `table` read on a connection of its own (the file alone: no -wal beside it). */
function countRows(file: string, table: string): number {
  const db = openDatabase(file);
  try {
    return Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n);
  } finally {
    db.close();
  }
}

function storeFile(dataDir: string): string {
  return path.join(dataDir, 'fsapi.db');
}

/** The store's files gone but for fsapi.db, as a copy or a lost -wal leaves them. */
function dropWal(dataDir: string): void {
  for (const suffix of ['-wal', '-shm']) rmSync(storeFile(dataDir) + suffix, { force: true });
}

async function status(
  s: TransferSetup,
  env: Record<string, string> = {},
): Promise<{
  matches: boolean;
  problem: string | null;
  id: string | null;
  writes: number;
  expected: { id: string; writes: number } | null;
  counts: Record<string, number>;
}> {
  const result = await s.run(['store', 'status', '--json'], { env });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

describe('a profile refuses a store that is not its own', () => {
  it('an emptied store: the duplicate guard and the policy are not lost, nothing is sent, nothing is made', async () => {
    const s = (setup = await setUpTransfers());
    await setPolicy(s, '--approval-above', '50000');
    assert.equal((await s.run(send('10000'))).code, 0);
    assert.equal(s.posts(), 1);

    writeFileSync(storeFile(s.home.dataDir), '');
    dropWal(s.home.dataDir);
    for (const args of [send('10000'), send('60000'), ['payees', 'list'], ['transfer', 'log']]) {
      const result = await s.run(args);
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /the store of profile "sim" is missing or emptied: .*fsapi\.db holds no fsapi records/);
      assert.match(result.stderr, /nothing was sent or changed/);
      assert.match(result.stderr, /hint: .*fsapi store adopt/);
    }
    assert.equal(s.posts(), 1, 'nothing was sent');
    assert.equal(statSync(storeFile(s.home.dataDir)).size, 0, 'the emptied file was left as found');

    rmSync(storeFile(s.home.dataDir));
    const missing = await s.run(send('60000'));
    assert.equal(missing.code, 1, missing.stderr);
    assert.match(missing.stderr, /missing or emptied/);
    assert.equal(existsSync(storeFile(s.home.dataDir)), false, 'no new store was made');
    assert.equal(s.posts(), 1);
  });

  it('a lost -wal (fsapi.db with no tables) and an older copy of fsapi.db: refused, nothing sent', async () => {
    const s = (setup = await setUpTransfers());
    await setPolicy(s, '--approval-above', '50000');
    const older = path.join(s.home.root, 'older.db');
    copyFileSync(storeFile(s.home.dataDir), older);
    assert.equal((await s.run(send('10000'))).code, 0);
    assert.equal(s.posts(), 1);

    // What a lost -wal left behind before fsapi checkpointed: a database file with no tables in it.
    const full = path.join(s.home.root, 'full.db');
    copyFileSync(storeFile(s.home.dataDir), full);
    rmSync(storeFile(s.home.dataDir));
    const bare = openDatabase(storeFile(s.home.dataDir));
    bare.exec('PRAGMA journal_mode = WAL');
    bare.close();
    const noTables = await s.run(send('10000'));
    assert.equal(noTables.code, 1, noTables.stderr);
    assert.match(noTables.stderr, /holds no fsapi records/);

    // The copy made before the last transfer: the same store, without that record.
    copyFileSync(older, storeFile(s.home.dataDir));
    dropWal(s.home.dataDir);
    const stale = await s.run(send('10000'));
    assert.equal(stale.code, 1, stale.stderr);
    assert.match(stale.stderr, /the store of profile "sim" at .* lacks records: it has 1 record, and 3 were written \(an older copy, or its -wal was lost\)/);
    assert.equal(s.posts(), 1, 'the same transfer was not paid again');

    // The whole store back: it works, and its duplicate guard still knows the transfer.
    copyFileSync(full, storeFile(s.home.dataDir));
    dropWal(s.home.dataDir);
    assert.equal((await status(s)).matches, true);
    const again = await s.run(send('10000'));
    assert.notEqual(again.code, 0, 'the duplicate guard stops the same transfer');
    assert.doesNotMatch(again.stderr, /store/);
    assert.equal(s.posts(), 1);
  });

  it('another data dir under the same config dir: the policy is not stepped round, nothing is sent', async () => {
    const s = (setup = await setUpTransfers());
    await setPolicy(s, '--approval-above', '50000', '--payees-only');
    const other = path.join(s.home.root, 'other-data');
    const result = await s.run(send('61000', '3000000157'), { env: { FSAPI_DATA_DIR: other } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /profile "sim" keeps its records in .*data\/fsapi\.db \(store st-[0-9a-f-]+, 1 record\), not in .*other-data\/fsapi\.db/);
    assert.match(result.stderr, /hint: is FSAPI_DATA_DIR set to another directory\?/);
    assert.equal(s.posts(), 0);
    assert.equal(s.count('POST', '/v1/transfer/name-enquiry'), 0, 'nothing at all was asked of the API');
    assert.equal(existsSync(storeFile(other)), false);

    const shown = await status(s, { FSAPI_DATA_DIR: other });
    assert.equal(shown.matches, false);
    assert.match(shown.problem ?? '', /not in .*other-data/);
    assert.equal(shown.id, null);
  });
});

describe('store adopt', () => {
  it('a store restored in another data dir: refused, then adopted at a terminal with the secret, and its policy holds there', async () => {
    const s = (setup = await setUpTransfers());
    await setPolicy(s, '--approval-above', '50000');
    assert.equal((await s.run(send('10000'))).code, 0);
    const backup = path.join(s.home.root, 'backup.db');
    const made = await s.run(['store', 'backup', backup]);
    assert.equal(made.code, 0, made.stderr);

    const moved = path.join(s.home.root, 'moved');
    mkdirSync(moved, { mode: 0o700 });
    copyFileSync(backup, storeFile(moved));
    const env = { FSAPI_DATA_DIR: moved };
    assert.equal((await s.run(send('61000', '3000000157'), { env })).code, 1);

    const piped = await s.run(['store', 'adopt'], { env });
    assert.equal(piped.code, 2, piped.stderr);
    assert.match(piped.stderr, /adopting a store needs a person at a terminal/);

    const wrong = await s.run(['store', 'adopt'], { env, tty: true, keys: [[SECRET_PROMPT, 'not-the-secret\r']] });
    assert.equal(wrong.code, 3, stripAnsi(wrong.stdout));
    assert.equal((await s.run(send('61000', '3000000157'), { env })).code, 1, 'a wrong secret adopts nothing');

    const adopted = await s.run(['store', 'adopt'], { env, tty: true, keys: [[SECRET_PROMPT, `${SECRET}\r`]] });
    const screen = stripAnsi(adopted.stdout);
    assert.equal(adopted.code, 0, screen);
    const before = await status(s);
    assert.match(screen, /Store of profile "sim"/);
    assert.match(screen, /expected\s+st-[0-9a-f-]+, 3 records written/);
    assert.match(screen, /found\s+st-[0-9a-f-]+, 3 records written[\s\S]*moved\/fsapi\.db[\s\S]*1 transfers, 0 payees, 1 policies/);
    assert.ok(screen.indexOf('found') < screen.indexOf('Consumer secret'), 'what changes is shown before the secret is asked');
    assert.match(screen, /profile "sim" now keeps its records in .*moved\/fsapi\.db/);
    assert.equal(before.matches, false, "the old data dir is no longer the profile's store");

    // The policy came with the store: above the threshold is held, not paid.
    const held = await s.run(send('61000', '3000000157'), { env });
    assert.equal(held.code, 7, held.stderr);
    assert.equal(s.posts(), 1);
    // And its duplicate guard: the transfer made before the backup is not paid again.
    assert.notEqual((await s.run(send('10000'), { env })).code, 0);
    assert.equal(s.posts(), 1);
    const small = await s.run(send('20000'), { env });
    assert.equal(small.code, 0, small.stderr);
    assert.equal(s.posts(), 2);
  });
});

describe('store backup and the store file', () => {
  it('fsapi.db alone holds every record after a command; a backup is a whole store, 0600, never overwriting', async () => {
    const s = (setup = await setUpTransfers());
    await setPolicy(s, '--max-per-day', '100000');
    assert.equal((await s.run(['payees', 'add', 'landlord', '0123456789', '--bank', 'gtb'])).code, 0);
    assert.equal((await s.run(send('10000'))).code, 0);

    const alone = path.join(s.home.root, 'alone.db');
    copyFileSync(storeFile(s.home.dataDir), alone);
    assert.equal(countRows(alone, 'policies'), 1);
    assert.equal(countRows(alone, 'payees'), 1);
    assert.equal(countRows(alone, 'transfers'), 1);

    const backup = path.join(s.home.root, 'backup.db');
    const made = await s.run(['store', 'backup', backup, '--json']);
    assert.equal(made.code, 0, made.stderr);
    const told = JSON.parse(made.stdout) as { file: string; id: string; writes: number };
    assert.equal(told.file, backup);
    assert.equal(statSync(backup).mode & 0o777, 0o600);
    assert.equal(countRows(backup, 'policies'), 1);
    assert.equal(countRows(backup, 'payees'), 1);
    assert.equal(countRows(backup, 'journal'), countRows(alone, 'journal'));
    const shown = await status(s);
    assert.equal(told.id, shown.id);
    assert.equal(told.writes, shown.writes);
    assert.equal(shown.matches, true);
    assert.equal(shown.counts.transfers, 1);

    writeFileSync(path.join(s.home.root, 'taken.db'), 'keep me');
    const taken = await s.run(['store', 'backup', path.join(s.home.root, 'taken.db')]);
    assert.equal(taken.code, 2, taken.stderr);
    assert.match(taken.stderr, /taken\.db exists; a backup never overwrites a file/);
    assert.equal(readFileSync(path.join(s.home.root, 'taken.db'), 'utf8'), 'keep me');
  });

  it('a new user starts at once: account in a fresh config and data dir, the local simulator, no store expected', async () => {
    const home = makeHome();
    homes.push(home);
    const account = await runCli(['account'], { env: home.env });
    assert.equal(account.code, 0, account.stderr);
    const sent = await runCli(send('5000'), { env: home.env });
    assert.equal(sent.code, 0, sent.stderr);
    // The local profile now expects its store, as any other profile does.
    const moved = await runCli(['transfer', 'log'], { env: { ...home.env, FSAPI_DATA_DIR: path.join(home.root, 'elsewhere') } });
    assert.equal(moved.code, 1, moved.stderr);
    assert.match(moved.stderr, /profile "local" keeps its records in/);
  });
});

describe("the profile's expectation and a store another process writes to meanwhile", () => {
  it("is taken before the store's count is read: a count that grew and was remembered in between is no loss; a smaller store still is", async () => {
    const { storeGuard } = await import('../src/auth/store-check.js');
    const { openProfileStore } = await import('../src/auth/profile-store.js');
    const { createContext } = await import('../src/runtime.js');
    const home = makeHome();
    try {
      const ctx = createContext({}, { ...home.env });
      const profiles = openProfileStore(home.configDir);
      const file = path.join(home.dataDir, 'fsapi.db');
      await profiles.rememberStore('local', { id: 'st-one', path: file, writes: 8 }, { exact: true });
      const guard = storeGuard(ctx);
      // This run begins to open the store; another process then commits its ninth record and remembers it,
      // and only then does this run's count (8, read before that commit) reach the guard.
      guard.opening(home.dataDir);
      await profiles.rememberStore('local', { id: 'st-one', path: file, writes: 9 });
      assert.doesNotThrow(() => guard.found({ dataDir: home.dataDir, file, identity: { id: 'st-one', writes: 8 } }));
      // Opened again later: 9 are expected now, and a store holding 8 lacks one.
      guard.opening(home.dataDir);
      assert.throws(
        () => guard.found({ dataDir: home.dataDir, file, identity: { id: 'st-one', writes: 8 } }),
        /lacks records: it has 8 records, and 9 were written/,
      );
    } finally {
      home.cleanup();
    }
  });
});
