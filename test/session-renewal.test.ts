// The token session of one long run (a batch of thousands of rows, a listener left on for days): a token
// renewed during the run can be renewed again when it, too, expires or is refused later. Real HTTP to the
// simulator served on 127.0.0.1; the clock is injected, so nothing waits.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHttp } from '../src/api/http.js';
import { openProfileStore } from '../src/auth/profile-store.js';
import { createTokenSession, RENEW_AGAIN_AFTER_MS } from '../src/auth/session.js';
import type { Context } from '../src/context.js';
import { createContext } from '../src/runtime.js';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { homePool, runCli } from './helpers/cli.js';
import { SIMULATOR_LOGIN_ENV } from './helpers/simulator-login.js';

const homes = homePool();
let server: RunningSimulator;
before(async () => {
  server = await startSimulatorServer({ port: 0, log: () => undefined });
});
after(async () => {
  await server.close();
  homes.cleanup();
});

describe('token renewal in a long run', () => {
  it('a token renewed in this run is renewed again when it is refused later, but not when refused at once', async () => {
    const h = homes.home();
    let now = Date.now();
    const base = createContext({}, { ...h.env, ...SIMULATOR_LOGIN_ENV });
    const ctx: Context = { ...base, clock: { now: () => now, sleep: async () => undefined } };
    const store = openProfileStore(h.configDir);
    const profile = { name: 'sandbox', env: 'sandbox' as const, baseUrl: server.url, token: 'stale', tokenExpiresAt: now + 3_600_000, validityMinutes: 60 };
    await store.save(profile);
    const http = await createHttp(ctx, server.url);
    const session = createTokenSession(ctx, profile, store, http);
    const tokens = () => server.simulator.requests().filter((r) => r.path === '/v1/generate-token').length;
    server.simulator.clearRequests();

    const second = await session.renewAfterRefusal('stale');
    assert.ok(second && second !== 'stale');
    assert.equal(tokens(), 1);
    // Refused moments after it was issued: another renewal would not help, and is not made.
    assert.equal(await session.renewAfterRefusal(second), undefined);
    assert.equal(tokens(), 1);

    // An hour into the batch it is refused in turn: renewed again, and saved for the next run.
    now += 3_600_000;
    assert.ok(3_600_000 > RENEW_AGAIN_AFTER_MS);
    const third = await session.renewAfterRefusal(second);
    assert.ok(third && third !== second);
    assert.equal(tokens(), 2);
    const stored = JSON.parse(readFileSync(path.join(h.configDir, 'profiles.json'), 'utf8')) as { profiles: Record<string, { token: string }> };
    assert.equal(stored.profiles.sandbox!.token, third);

    // And when it expires by the clock, bearer() renews before sending.
    now += 2 * 3_600_000;
    const fourth = await session.bearer();
    assert.ok(fourth !== third);
    assert.equal(tokens(), 3);
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
