// The profiles file is read on every API command and checked by hand (src/auth/profile-store.ts), not
// with zod. The check must accept every file fsapi writes, keep what it does not know, and name the first
// thing wrong in any other file, which fsapi then leaves as it found it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { checkStoredFile, openProfileStore } from '../src/auth/profile-store.js';
import { CorruptFileError } from '../src/errors.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const configDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fsapi-profiles-'));
  dirs.push(dir);
  return dir;
};

describe('the profiles file check', () => {
  it('accepts what fsapi writes, and fields it does not know', () => {
    assert.equal(checkStoredFile({}), undefined);
    assert.equal(checkStoredFile({ default: 'live', profiles: {} }), undefined);
    const full = {
      env: 'production',
      baseUrl: 'https://baas-api.bellmfb.com',
      token: 'eyJ.x.y',
      tokenExpiresAt: 1795386640495,
      validityMinutes: 1440,
      consumerKey: 'key',
      consumerSecret: 'secret',
      addedByANewerVersion: { any: 'thing' },
    };
    assert.equal(checkStoredFile({ default: 'live', profiles: { live: full, local: { env: 'local' } }, note: 'kept' }), undefined);
  });

  it('names the first thing wrong, with its place in the file', () => {
    const cases: Array<[unknown, string]> = [
      [[], 'expected an object'],
      [null, 'expected an object'],
      ['profiles', 'expected an object'],
      [{ default: 3 }, 'default: expected text'],
      [{ profiles: [] }, 'profiles: expected an object'],
      [{ profiles: { live: 'sandbox' } }, 'profiles.live: expected an object'],
      [{ profiles: { live: {} } }, 'profiles.live.env: expected one of local, sandbox, production'],
      [{ profiles: { live: { env: 'staging' } } }, 'profiles.live.env: expected one of local, sandbox, production'],
      [{ profiles: { live: { env: 'sandbox', token: 42 } } }, 'profiles.live.token: expected text'],
      [{ profiles: { live: { env: 'sandbox', baseUrl: null } } }, 'profiles.live.baseUrl: expected text'],
      [{ profiles: { live: { env: 'sandbox', tokenExpiresAt: '1795386640495' } } }, 'profiles.live.tokenExpiresAt: expected a number'],
      [{ profiles: { ok: { env: 'local' }, live: { env: 'sandbox', validityMinutes: true } } }, 'profiles.live.validityMinutes: expected a number'],
    ];
    for (const [raw, problem] of cases) assert.equal(checkStoredFile(raw), problem, JSON.stringify(raw));
  });

  it('reads a valid file into profiles, and refuses a wrong one by name without touching it', () => {
    const dir = configDir();
    const file = path.join(dir, 'profiles.json');
    writeFileSync(
      file,
      JSON.stringify({ default: 'live', profiles: { live: { env: 'sandbox', baseUrl: 'https://sandbox-baas-api.bellmfb.com', token: 't' } } }),
      { mode: 0o600 },
    );
    const store = openProfileStore(dir);
    assert.equal(store.defaultName(), 'live');
    assert.deepEqual(store.get('live'), {
      name: 'live',
      env: 'sandbox',
      baseUrl: 'https://sandbox-baas-api.bellmfb.com',
      token: 't',
      tokenExpiresAt: undefined,
      validityMinutes: undefined,
      consumerKey: undefined,
      consumerSecret: undefined,
    });

    const wrong = JSON.stringify({ profiles: { live: { env: 'prod' } } });
    writeFileSync(file, wrong, { mode: 0o600 });
    assert.throws(
      () => store.list(),
      (error: unknown) =>
        error instanceof CorruptFileError &&
        error.message.includes(file) &&
        error.message.includes('not a profiles file (profiles.live.env: expected one of local, sandbox, production)'),
    );
    assert.equal(readFileSync(file, 'utf8'), wrong);
  });
});

describe('the store a profile expects', () => {
  it('is kept beside the profiles: its counter only rises for the same store, adopt sets it as it is', async () => {
    const dir = configDir();
    const store = openProfileStore(dir);
    assert.equal(store.expectedStore('local'), undefined);
    const at = { id: 'st-0000-0000-0000-0001', path: '/data/fsapi.db' };
    await store.rememberStore('local', { ...at, writes: 5 });
    await store.rememberStore('local', { ...at, writes: 3 }); // a process that ended later, having seen less
    assert.deepEqual(store.expectedStore('local'), { ...at, writes: 5 });
    await store.rememberStore('local', { ...at, writes: 2 }, { exact: true });
    assert.deepEqual(store.expectedStore('local'), { ...at, writes: 2 });
    await store.save({ name: 'live', env: 'production', baseUrl: undefined });
    assert.deepEqual(store.expectedStore('local'), { ...at, writes: 2 }, 'a profile saved keeps the stores');
    assert.equal(store.get('local'), undefined, 'remembering a store saves no profile');
    assert.equal(checkStoredFile(JSON.parse(readFileSync(store.path, 'utf8'))), undefined);
    assert.equal(checkStoredFile({ stores: { local: { id: 'st-1', path: '/x', writes: -1 } } }), 'stores.local.writes: expected a count');
    assert.equal(checkStoredFile({ stores: { local: { path: '/x', writes: 1 } } }), 'stores.local: expected an id and a path');
  });
});
