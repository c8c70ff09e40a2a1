// The token session of one long run (a batch of thousands of rows, a listener left on for days): a token
// renewed during the run can be renewed again when it, too, expires or is refused later. Real HTTP to the
// simulator served on 127.0.0.1; the clock is injected, so nothing waits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHttp } from '../src/api/http.js';
import { openProfileStore } from '../src/auth/profile-store.js';
import { createTokenSession, RENEW_AGAIN_AFTER_MS } from '../src/auth/session.js';
import type { Context } from '../src/context.js';
import { createContext } from '../src/runtime.js';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { homePool } from './helpers/cli.js';
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
