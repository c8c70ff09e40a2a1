// The team store's pieces that need no server: the SQL it sends, the URL it keeps and shows, the account it
// files records under, and the operator named on records (on the data dir's SQLite too).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { accountOf } from '../src/auth/records-owner.js';
import { operatorName } from '../src/transfers/asker.js';
import { UsageError } from '../src/errors.js';
import { parseStoreUrl, shownStore, toPostgres } from '../src/store/postgres.js';
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
  const MARKER = 'Zq7-marker-pw';

  it('is shown as given, with its TLS parameters: it holds no secret', () => {
    const address = parseStoreUrl('postgres://ops@db.example.com:5433/fsapi?sslmode=require&sslrootcert=/etc/fsapi/ca.crt');
    assert.equal(address.display, 'postgres://ops@db.example.com:5433/fsapi?sslmode=require&sslrootcert=/etc/fsapi/ca.crt');
    assert.equal(address.url, address.display);
    assert.equal(parseStoreUrl(' postgresql://db.example.com/fsapi ').display, 'postgresql://db.example.com/fsapi');
  });

  // Every way the driver (pg-connection-string: every query parameter becomes a setting) or libpq reads a
  // secret from a URL, and the ways a password typed as is breaks the URL's shape.
  const withSecrets = [
    `postgres://ops:${MARKER}@pg.team.test/fsapi`,
    `postgresql://ops:${MARKER}@pg.team.test/fsapi`,
    `postgres://:${MARKER}@pg.team.test/fsapi`,
    `POSTGRES://ops:${MARKER}@pg.team.test/fsapi`,
    `postgres://ops@pg.team.test/fsapi?password=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?sslmode=require&password=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?PASSWORD=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?Password=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?pass%77ord=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?%70%61%73%73%77%6f%72%64=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?password=x&password=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?sslkey=/k.pem&sslpassword=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?SSLPASSWORD=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?oauth_client_secret=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?options=-c%20password%3D${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?options=--app.secret=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?passwd=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?pgpassword=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?user=ops:${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?${MARKER}`,
    `postgres://ops@pg.team.test/fsapi?sslmode=${MARKER}`,
    `postgres://ops@pg.team.test/fsapi#${MARKER}`,
    // A password with #, / or ? typed as is: the URL's shape moves, the password lands elsewhere.
    `postgres://ops:12#${MARKER}@pg.team.test/fsapi`,
    `postgres://ops:12/${MARKER}@pg.team.test/fsapi`,
    `postgres://ops:12?${MARKER}@pg.team.test/fsapi`,
  ];

  it('a password or any other secret, in any form, is refused (exit 2) and never repeated', () => {
    for (const url of withSecrets) {
      assert.throws(
        () => parseStoreUrl(url, 'FSAPI_STORE'),
        (error: unknown) =>
          error instanceof UsageError &&
          error.exitCode === 2 &&
          error.message.startsWith('FSAPI_STORE ') &&
          !`${error.message} ${error.hint}`.includes(MARKER) &&
          !`${error.message} ${error.hint}`.includes('pg.team.test'),
        url,
      );
    }
  });

  it('parameters that would connect elsewhere than the URL shows, or that fsapi does not read, are refused by name', () => {
    const refusal = (url: string) => {
      try {
        parseStoreUrl(url);
      } catch (error) {
        return (error as UsageError).message;
      }
      return assert.fail(`${url} was accepted`);
    };
    assert.match(refusal('postgres://ops@db.example.com/fsapi?host=elsewhere.example.com'), /parameter host, which fsapi does not read/);
    assert.match(refusal('postgres://ops@db.example.com/fsapi?user=admin'), /parameter user/);
    assert.match(refusal('postgres://ops@db.example.com/fsapi?options=-c%20search_path%3Dx'), /parameter options/);
    assert.match(refusal('postgres://ops@db.example.com/fsapi?SSLMODE=disable'), /sslmode in capitals/);
    assert.match(refusal('postgres://ops@db.example.com/fsapi?sslmode=require&sslmode=disable'), /sslmode more than once/);
    assert.match(refusal('postgres://ops@db.example.com/fsapi?sslmode=sometimes'), /an sslmode fsapi does not know/);
    assert.match(refusal('postgres://ops@db.example.com/fsapi?sslrootcert='), /names no file for sslrootcert/);
    assert.match(refusal('postgres://ops@db.example.com/fsapi?x=1&colour=blue'), /a parameter fsapi does not know \(the 1st\)/);
  });

  it('anything but postgres:// is bad input (exit 2), and the message never repeats it', () => {
    for (const bad of ['mysql://u:pw-in-it@h/db', '/var/lib/fsapi.db', 'postgres://', '', 'host=db password=pw-in-it']) {
      assert.throws(
        () => parseStoreUrl(bad),
        (error: unknown) => error instanceof UsageError && error.exitCode === 2 && !error.message.includes('pw-in-it'),
      );
    }
  });

  it('an address shown from elsewhere (an older profiles.json) is shown without its secrets', () => {
    for (const url of withSecrets) assert.doesNotMatch(shownStore(url), new RegExp(MARKER), url);
    assert.equal(shownStore(`postgres://ops@db.example.com/fsapi?sslmode=require&password=${MARKER}`), 'postgres://ops@db.example.com/fsapi?sslmode=require');
    assert.equal(shownStore('/home/ada/.local/share/fsapi/fsapi.db'), '/home/ada/.local/share/fsapi/fsapi.db');
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
