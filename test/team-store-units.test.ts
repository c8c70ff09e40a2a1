// The team store's pieces that need no server: the SQL it sends, the URL it keeps and shows, the account it
// files records under, and the operator named on records (on the data dir's SQLite too).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { accountOf } from '../src/auth/records-owner.js';
import { operatorName } from '../src/controls/policy.js';
import { UsageError } from '../src/errors.js';
import { parseStoreUrl, toPostgres } from '../src/store/postgres.js';
import { sendArgs as send, setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';

describe('the SQL a team store sends', () => {
  it('numbers the placeholders, leaving question marks in quoted text alone', () => {
    assert.equal(
      toPostgres("SELECT doc FROM transfers WHERE profile = ? AND note = '?' AND sent_ms > ? LIMIT ?"),
      "SELECT doc FROM transfers WHERE profile = $1 AND note = '?' AND sent_ms > $2 LIMIT $3",
    );
  });

  it('returns the new seq of a journal or event insert, and of nothing else', () => {
    assert.match(toPostgres('INSERT INTO journal (type, record) VALUES (?, ?)'), /VALUES \(\$1, \$2\) RETURNING seq$/);
    assert.match(toPostgres('INSERT INTO events (kind, id, reference, record) VALUES (?, ?, ?, ?)'), /RETURNING seq$/);
    assert.doesNotMatch(toPostgres('INSERT INTO payees (alias) VALUES (?)'), /RETURNING/);
    assert.doesNotMatch(toPostgres('UPDATE journal SET type = ?'), /RETURNING/);
  });
});

describe('the store URL', () => {
  it('is shown and kept without its password', () => {
    const address = parseStoreUrl('postgres://ops:s3cret-pw@db.example.com:5433/fsapi?sslmode=require');
    assert.equal(address.hasPassword, true);
    assert.equal(address.display, 'postgres://ops@db.example.com:5433/fsapi?sslmode=require');
    assert.doesNotMatch(address.display, /s3cret/);
    assert.equal(parseStoreUrl('postgresql://db.example.com/fsapi').hasPassword, false);
  });

  it('anything but postgres:// is bad input (exit 2), and the message never repeats it', () => {
    for (const bad of ['mysql://u:pw-in-it@h/db', '/var/lib/fsapi.db', 'postgres://', '']) {
      assert.throws(
        () => parseStoreUrl(bad),
        (error: unknown) => error instanceof UsageError && error.exitCode === 2 && !error.message.includes('pw-in-it'),
      );
    }
  });
});

describe('the account and the operator', () => {
  it('an account is named by a hash of its consumer key, never the key', () => {
    const account = accountOf('sim-consumer-key');
    assert.match(account, /^account-[0-9a-f]{16}$/);
    assert.equal(accountOf('sim-consumer-key'), account);
    assert.notEqual(accountOf('another-key'), account);
    assert.doesNotMatch(account, /sim-consumer-key/);
  });

  it('FSAPI_OPERATOR names the operator, else user@host; a name with control characters is bad input', () => {
    assert.equal(operatorName({ FSAPI_OPERATOR: '  ada (finance) ' }), 'ada (finance)');
    assert.match(operatorName({}), /^.+@.+$/);
    assert.throws(() => operatorName({ FSAPI_OPERATOR: 'ada\u001b[31m' }), UsageError);
    assert.throws(() => operatorName({ FSAPI_OPERATOR: 'x'.repeat(101) }), UsageError);
  });

  let setup: TransferSetup | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  it('a transfer names its operator in transfer log --json, on the data dir store too', async () => {
    setup = await setUpTransfers();
    const sent = await setup.runInProcess(send('150'), { env: { FSAPI_OPERATOR: 'chidi@desk-3' } });
    assert.equal(sent.code, 0, sent.stderr);
    const log = await setup.runInProcess(['transfer', 'log', '--json']);
    assert.deepEqual(
      (JSON.parse(log.stdout) as Array<{ operator: string | null }>).map((t) => t.operator),
      ['chidi@desk-3'],
    );
  });
});
