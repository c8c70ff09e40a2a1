// The token session of one long run (a batch of thousands of rows, a listener left on for days): a token
// renewed during the run can be renewed again when it, too, expires or is refused later. In process, the
// token answers stubbed (test/helpers/http-stubs.ts: a renewal no step expects fails the test) and the
// clock injected, so nothing waits; then real processes against a served simulator.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createHttp } from '../src/api/http.js';
import { openProfileStore } from '../src/auth/profile-store.js';
import { createTokenSession, RENEW_AGAIN_AFTER_MS } from '../src/auth/session.js';
import { createContext } from '../src/runtime.js';
import { SIMULATOR_CREDENTIALS, startSimulatorServer } from '../src/simulator/server.js';
import { homePool, runCli } from './helpers/cli.js';
import { HttpStubs, type StubbedRequest } from './helpers/http-stubs.js';
import { SIMULATOR_LOGIN_ENV } from './helpers/simulator-login.js';

const homes = homePool();
after(() => homes.cleanup());

describe('token renewal in a long run', () => {
  it('a token renewed in this run is renewed again when it is refused later, but not when refused at once', async () => {
    const h = homes.home();
    let now = Date.now();
    const stubs = new HttpStubs();
    /** The next renewal, answered `token` when it carries the profile's credentials. */
    const expectRenewal = (token: string) =>
      stubs.register('POST', '/v1/generate-token', (request: StubbedRequest) =>
        request.headers.consumerkey === SIMULATOR_CREDENTIALS.consumerKey && request.headers.consumersecret === SIMULATOR_CREDENTIALS.consumerSecret
          ? { status: 200, json: { success: true, message: 'Token generated successfully', token } }
          : { status: 400, json: { success: false, message: 'Token generation failed' } },
      );
    const clock = { now: () => now, sleep: async () => undefined };
    const ctx = createContext({}, { ...h.env, ...SIMULATOR_LOGIN_ENV }, new Set(), { clock, transport: stubs.transport });
    const baseUrl = 'https://api.stubbed.test';
    const store = openProfileStore(h.configDir);
    const profile = { name: 'sandbox', env: 'sandbox' as const, baseUrl, token: 'stale', tokenExpiresAt: now + 3_600_000, validityMinutes: 60 };
    await store.save(profile);
    const http = await createHttp(ctx, baseUrl);
    const session = createTokenSession(ctx, profile, store, http);

    expectRenewal('second');
    assert.equal(await session.renewAfterRefusal('stale'), 'second');
    stubs.verify();
    // Refused moments after it was issued: another renewal would not help, and is not made (one would
    // match no stub, and verify() would say so).
    assert.equal(await session.renewAfterRefusal('second'), undefined);
    stubs.verify();

    // An hour into the batch it is refused in turn: renewed again, and saved for the next run.
    now += 3_600_000;
    assert.ok(3_600_000 > RENEW_AGAIN_AFTER_MS);
    expectRenewal('third');
    assert.equal(await session.renewAfterRefusal('second'), 'third');
    stubs.verify();
    const stored = JSON.parse(readFileSync(path.join(h.configDir, 'profiles.json'), 'utf8')) as { profiles: Record<string, { token: string }> };
    assert.equal(stored.profiles.sandbox!.token, 'third');

    // And when it expires by the clock, bearer() renews before sending.
    now += 2 * 3_600_000;
    expectRenewal('fourth');
    assert.equal(await session.bearer(), 'fourth');
    assert.deepEqual(stubs.requests, ['POST /v1/generate-token', 'POST /v1/generate-token', 'POST /v1/generate-token']);
    stubs.verify();
  });
});

// ---- a renewal never undoes a removal (real processes) ------------------------------------------------

describe('a running batch renewing its token', () => {
  const profilesOf = (configDir: string) =>
    (
      JSON.parse(readFileSync(path.join(configDir, 'profiles.json'), 'utf8')) as {
        profiles: Record<string, { token?: string; consumerKey?: string; consumerSecret?: string }>;
      }
    ).profiles;

  /** A 1-second token and a slow simulator: the batch renews several times while it runs. */
  async function renewingBatch(h: ReturnType<typeof homes.home>) {
    const slow = await startSimulatorServer({ port: 0, log: () => undefined, tokenValiditySeconds: 1, latencyMs: 60 });
    const env = { ...h.env };
    const login = await runCli(['auth', 'login', '--profile', 'sim', '--env', 'sandbox', '--base-url', slow.url, '--save-credentials'], {
      env: { ...env, ...SIMULATOR_LOGIN_ENV },
    });
    assert.equal(login.code, 0, login.stderr);
    const file = path.join(h.root, 'renew.csv');
    const rows = Array.from({ length: 20 }, (_, i) => `30${String(i).padStart(6, '0')}57,gtb,${100 + i},Renewal ${i}`);
    writeFileSync(file, `account_number,bank,amount,narration\n${rows.join('\n')}\n`);
    const tokens = () => slow.simulator.requests().filter((r) => r.path === '/v1/generate-token').length;
    const batch = runCli(['transfer', 'batch', file, '--yes', '--concurrency', '1'], { env: { ...env, FSAPI_PROFILE: 'sim' }, timeoutMs: 120_000 });
    return { slow, env, batch, tokens };
  }

  it('profile remove while it runs: the profile (with its saved key and secret) stays removed', { timeout: 120_000 }, async () => {
    const h = homes.home();
    const { slow, env, batch, tokens } = await renewingBatch(h);
    try {
      const start = tokens();
      for (let i = 0; i < 300 && tokens() < start + 1; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(tokens() > start, 'the batch renewed its token before the removal');
      const removed = await runCli(['profile', 'remove', 'sim'], { env });
      assert.equal(removed.code, 0, removed.stderr);
      const before = tokens();
      const result = await batch;
      assert.ok(tokens() > before, `the batch renewed again after the removal (${tokens() - before} times)`);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(profilesOf(h.configDir).sim, undefined, 'the removed profile was not written back');
    } finally {
      await slow.close();
    }
  });

  it('auth logout while it runs: the token and the saved credentials stay gone', { timeout: 120_000 }, async () => {
    const h = homes.home();
    const { slow, env, batch, tokens } = await renewingBatch(h);
    try {
      const start = tokens();
      for (let i = 0; i < 300 && tokens() < start + 1; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      const out = await runCli(['auth', 'logout', '--profile', 'sim'], { env });
      assert.equal(out.code, 0, out.stderr);
      const before = tokens();
      const result = await batch;
      assert.ok(tokens() > before, 'the batch renewed again after the logout');
      assert.equal(result.code, 0, result.stderr);
      const sim = profilesOf(h.configDir).sim!;
      assert.ok(sim, 'logout keeps the profile');
      assert.equal(sim.token, undefined);
      assert.equal(sim.consumerKey, undefined);
      assert.equal(sim.consumerSecret, undefined);
    } finally {
      await slow.close();
    }
  });
});
