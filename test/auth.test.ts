// auth login / status / logout / token and profile list / use / remove, run in process (test/helpers/
// in-process.ts) against the simulator served on 127.0.0.1 (an ephemeral port). The built CLI (`npm run
// build` first) runs where a process is the point: the DNS refusal hook is a --require of its own.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { errorObject, homePool, runCli, stripAnsi, type Home } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';
import { startSimulatorServer, SIMULATOR_CREDENTIALS, type RunningSimulator } from '../src/simulator/server.js';
import { SIMULATOR_LOGIN_ENV } from './helpers/simulator-login.js';

const CREDENTIALS = SIMULATOR_LOGIN_ENV;
/** Host names other than localhost fail to resolve at once: the known addresses are tried, never reached. */
const NO_DNS = { NODE_OPTIONS: `--require ${path.join(import.meta.dirname, 'fixtures/no-dns.cjs')}` };

const homes = homePool();
const home = homes.home;

interface StoredFile {
  default?: string;
  profiles?: Record<string, Record<string, unknown>>;
}
const profilesFile = (h: Home) => path.join(h.configDir, 'profiles.json');
const readProfiles = (h: Home): StoredFile => JSON.parse(readFileSync(profilesFile(h), 'utf8')) as StoredFile;
const mode = (file: string) => statSync(file).mode & 0o777;

let server: RunningSimulator;
let shortLived: RunningSimulator;

before(async () => {
  server = await startSimulatorServer({ port: 0, log: () => undefined });
  shortLived = await startSimulatorServer({ port: 0, tokenValiditySeconds: 1, log: () => undefined });
});
after(async () => {
  await server.close();
  await shortLived.close();
  homes.cleanup();
});

/** Logs profile `sandbox` in to the served simulator; returns the home. */
async function loggedIn(options: { save?: boolean; target?: RunningSimulator; name?: string } = {}): Promise<Home> {
  const h = home();
  const target = options.target ?? server;
  const args = ['auth', 'login', '--env', 'sandbox', '--base-url', target.url];
  if (options.name) args.unshift('--profile', options.name);
  if (options.save) args.push('--save-credentials');
  const result = await runInProcess(args, { env: { ...h.env, ...CREDENTIALS } });
  assert.equal(result.code, 0, result.stderr);
  return h;
}

describe('auth login', () => {
  it('logs in from the environment, saves the token 0600 in a 0700 dir, without the secret', async () => {
    const h = home();
    server.simulator.clearRequests();
    const result = await runInProcess(['auth', 'login', '--env', 'sandbox', '--base-url', server.url], { env: { ...h.env, ...CREDENTIALS } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`Logged in to sandbox \\(${server.url.replaceAll('.', '\\.')}\\) as profile "sandbox"; token valid until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d`),
    );
    assert.match(result.stderr, /Profile "sandbox" is now the default/);
    assert.equal(result.stdout, '');

    const stored = readProfiles(h);
    assert.equal(stored.default, 'sandbox');
    const profile = stored.profiles?.sandbox;
    assert.ok(profile);
    assert.equal(profile.env, 'sandbox');
    assert.equal(profile.baseUrl, server.url);
    assert.equal(typeof profile.token, 'string');
    assert.equal(profile.validityMinutes, 1440);
    // Expiry: about a day ahead (the simulator's JWT says the same).
    const expiresIn = (profile.tokenExpiresAt as number) - Date.now();
    assert.ok(expiresIn > 23 * 3600_000 && expiresIn <= 24 * 3600_000, `expires in ${expiresIn} ms`);

    assert.equal(mode(profilesFile(h)), 0o600);
    assert.equal(mode(h.configDir), 0o700);
    const text = readFileSync(profilesFile(h), 'utf8');
    assert.ok(!text.includes(SIMULATOR_CREDENTIALS.consumerSecret), 'secret saved without --save-credentials');
    // The key is kept (not the secret): approvals and policy changes check a typed secret against it.
    assert.equal(readProfiles(h).profiles?.sandbox?.consumerKey, SIMULATOR_CREDENTIALS.consumerKey);
    assert.ok(!text.includes('consumerSecret'));
    assert.deepEqual(
      server.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['POST /v1/generate-token 200'],
    );
  });

  it('keeps the credentials (mode 0600) with --save-credentials, and prints JSON without the token', async () => {
    const h = home();
    const result = await runInProcess(
      ['--json', 'auth', 'login', '--profile', 'ops', '--env', 'production', '--base-url', server.url, '--save-credentials', '--validity', '60'],
      {
        env: { ...h.env, ...CREDENTIALS },
      },
    );
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(printed).sort(), ['baseUrl', 'env', 'expiresAt', 'profile']);
    assert.equal(printed.profile, 'ops');
    assert.equal(printed.env, 'production');
    assert.equal(printed.baseUrl, server.url);
    assert.ok(!Number.isNaN(Date.parse(String(printed.expiresAt))));
    const profile = readProfiles(h).profiles?.ops;
    assert.equal(profile?.consumerKey, SIMULATOR_CREDENTIALS.consumerKey);
    assert.equal(profile?.consumerSecret, SIMULATOR_CREDENTIALS.consumerSecret);
    assert.equal(profile?.validityMinutes, 60);
    assert.ok(!result.stdout.includes(String(profile?.token)) && !result.stderr.includes(String(profile?.token)));
    assert.equal(mode(profilesFile(h)), 0o600);
  });

  it('says "the API refused these credentials" and exits 3 on bad credentials, saving nothing', async () => {
    const h = home();
    const result = await runInProcess(['auth', 'login', '--env', 'sandbox', '--base-url', server.url], {
      env: { ...h.env, FSAPI_CONSUMER_KEY: 'sim-consumer-key', FSAPI_CONSUMER_SECRET: 'wrong' },
    });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^error: the API refused these credentials \(Failed to generate token\)$/m);
    assert.match(result.stderr, /^hint: /m);
    assert.ok(!existsSync(profilesFile(h)) || !readProfiles(h).profiles?.sandbox);
  });

  for (const validity of ['3000', '0', 'abc', '1.5']) {
    it(`refuses --validity ${validity} with exit 2 before sending anything`, async () => {
      const h = home();
      server.simulator.clearRequests();
      const result = await runInProcess(['auth', 'login', '--env', 'sandbox', '--base-url', server.url, '--validity', validity], {
        env: { ...h.env, ...CREDENTIALS },
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /--validity must be a whole number of minutes from 1 to 2880/);
      assert.deepEqual(server.simulator.requests(), []);
    });
  }

  it('uses the known sandbox address without --base-url, says so, and names the host it cannot reach', async () => {
    const h = home();
    const result = await runCli(['--timeout', '5', 'auth', 'login', '--env', 'sandbox'], { env: { ...h.env, ...CREDENTIALS, ...NO_DNS } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /using the sandbox address https:\/\/sandbox-baas-api\.bellmfb\.com \(known from public integrations/);
    assert.match(result.stderr, /^error: .*cannot reach sandbox-baas-api\.bellmfb\.com \(host not found\)/m);
    assert.ok(!result.stderr.includes(CREDENTIALS.FSAPI_CONSUMER_SECRET), 'the secret was printed');
    assert.ok(!existsSync(profilesFile(h)), 'a failed login saved a profile');

    const production = await runCli(['--timeout', '5', 'auth', 'login', '--profile', 'live', '--env', 'production'], {
      env: { ...h.env, ...CREDENTIALS, ...NO_DNS },
    });
    assert.equal(production.code, 1, production.stderr);
    assert.match(production.stderr, /cannot reach baas-api\.bellmfb\.com/);
  });

  it('--base-url still overrides the known address, and the profile remembers it', async () => {
    const h = home();
    server.simulator.clearRequests();
    assert.equal((await runInProcess(['auth', 'login', '--env', 'sandbox', '--base-url', server.url], { env: { ...h.env, ...CREDENTIALS } })).code, 0);
    const again = await runCli(['auth', 'login', '--profile', 'sandbox'], { env: { ...h.env, ...CREDENTIALS, ...NO_DNS } });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /bellmfb/);
    assert.equal(readProfiles(h).profiles?.sandbox?.baseUrl, server.url);
    assert.equal(server.simulator.requests().filter((r) => r.path === '/v1/generate-token').length, 2);
  });

  it('without a terminal and without the variables, exits 2 naming them and sends nothing', async () => {
    const h = home();
    server.simulator.clearRequests();
    const result = await runInProcess(['auth', 'login', '--env', 'sandbox', '--base-url', server.url], {
      env: { ...h.env, FSAPI_CONSUMER_KEY: 'only-the-key' },
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error: no consumer secret to log in with$/m);
    assert.match(result.stderr, /^hint: set FSAPI_CONSUMER_SECRET in the environment/m);
    assert.deepEqual(server.simulator.requests(), []);
  });

  it('refuses a malformed --base-url with exit 2', async () => {
    const h = home();
    const result = await runInProcess(['auth', 'login', '--env', 'sandbox', '--base-url', 'ftp//nowhere'], { env: { ...h.env, ...CREDENTIALS } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /base URL "ftp\/\/nowhere"/);
    assert.ok(!existsSync(profilesFile(h)));
  });

  it('asks for the environment, key and (hidden) secret at a terminal, then tries the known address', async () => {
    const h = home();
    const result = await runCli(['--timeout', '5', 'auth', 'login'], {
      env: { ...h.env, ...NO_DNS },
      tty: true,
      keys: [
        ['Which environment do you want to log in to?', '\r'],
        ['Consumer key', `${SIMULATOR_CREDENTIALS.consumerKey}\r`],
        ['Consumer secret', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`],
      ],
    });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 1, screen);
    assert.match(screen, /Which environment do you want to log in to\?/);
    assert.match(screen, /using the sandbox address https:\/\/sandbox-baas-api\.bellmfb\.com/);
    assert.match(screen, /Consumer secret/);
    assert.ok(!screen.includes(SIMULATOR_CREDENTIALS.consumerSecret), 'the secret was echoed');
    assert.match(screen, /cannot reach sandbox-baas-api\.bellmfb\.com/);
  });

  it('logs the local profile in to the in-process simulator without credentials', async () => {
    const h = home();
    const result = await runInProcess(['auth', 'login'], { env: h.env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /local simulator: no real money moves/);
    assert.match(result.stderr, /Logged in to the local simulator as profile "local"/);
    const local = readProfiles(h).profiles?.local;
    assert.equal(local?.env, 'local');
    assert.equal(local?.baseUrl, undefined);
    assert.equal(typeof local?.token, 'string');
  });
});

describe('token renewal and refusal', () => {
  it('renews a short-lived token silently with saved credentials and saves the new one', async () => {
    const h = await loggedIn({ save: true, target: shortLived });
    const before = readProfiles(h).profiles?.sandbox?.token;
    shortLived.simulator.clearRequests();
    const result = await runInProcess(['account', '--json'], { env: h.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as { accountNumber?: unknown }).accountNumber !== undefined, true);
    assert.deepEqual(
      shortLived.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['POST /v1/generate-token 200', 'GET /v1/account 200'],
    );
    const renewed = readProfiles(h).profiles?.sandbox?.token;
    assert.notEqual(renewed, before);
  });

  it('fails with exit 3 and the login hint when the token expired and no credentials are at hand', async () => {
    const h = await loggedIn({ target: shortLived });
    shortLived.simulator.clearRequests();
    const result = await runInProcess(['account'], { env: h.env });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^error: the token of profile "sandbox" expired (just now|\S+ ago) and no credentials are at hand to renew it$/m);
    assert.match(result.stderr, /^hint: run fsapi auth login/m);
    assert.deepEqual(shortLived.simulator.requests(), [], 'an expired token was sent anyway');
  });

  it('also renews with FSAPI_CONSUMER_KEY/SECRET from the environment', async () => {
    const h = await loggedIn({ target: shortLived });
    const result = await runInProcess(['auth', 'token'], { env: { ...h.env, ...CREDENTIALS } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), readProfiles(h).profiles?.sandbox?.token);
  });

  it('answers a 401 without credentials with exit 3 and the login hint', async () => {
    const h = await loggedIn();
    const stored = readProfiles(h);
    stored.profiles!.sandbox!.token = 'not-a-token-the-server-issued';
    writeFileSync(profilesFile(h), JSON.stringify(stored));
    server.simulator.clearRequests();
    const result = await runInProcess(['account'], { env: h.env });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^error: the API refused the token of profile "sandbox" \(HTTP 401\)/m);
    assert.match(result.stderr, /^hint: run fsapi auth login/m);
    assert.deepEqual(
      server.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['GET /v1/account 401'],
    );
  });

  it('renews once after a 401 when credentials are at hand and sends the request once more', async () => {
    const h = await loggedIn({ save: true });
    const stored = readProfiles(h);
    stored.profiles!.sandbox!.token = 'not-a-token-the-server-issued';
    writeFileSync(profilesFile(h), JSON.stringify(stored));
    server.simulator.clearRequests();
    const result = await runInProcess(['account'], { env: h.env });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      server.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['GET /v1/account 401', 'POST /v1/generate-token 200', 'GET /v1/account 200'],
    );
    assert.notEqual(readProfiles(h).profiles?.sandbox?.token, 'not-a-token-the-server-issued');
  });

  it('uses FSAPI_TOKEN as is: no login, no store written', async () => {
    const source = await loggedIn();
    const token = String(readProfiles(source).profiles?.sandbox?.token);
    const h = home();
    server.simulator.clearRequests();
    const result = await runInProcess(['--base-url', server.url, 'account', '--json'], { env: { ...h.env, FSAPI_TOKEN: token } });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      server.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['GET /v1/account 200'],
    );
    assert.ok(!existsSync(profilesFile(h)), 'FSAPI_TOKEN run wrote the token store');

    const refused = await runInProcess(['--base-url', server.url, 'account'], { env: { ...h.env, FSAPI_TOKEN: 'bogus', ...CREDENTIALS } });
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /^error: the API refused the token in FSAPI_TOKEN \(HTTP 401\)/m);
  });
});

describe('auth status, token, logout', () => {
  it('prints a readable view on a terminal, never the token', async () => {
    const h = await loggedIn();
    const token = String(readProfiles(h).profiles?.sandbox?.token);
    const result = await runInProcess(['auth', 'status'], { env: h.env, tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /Profile\s+sandbox/);
    assert.match(screen, /Environment\s+sandbox/);
    assert.match(screen, new RegExp(`Base URL\\s+${server.url.replaceAll('.', '\\.')}`));
    assert.match(screen, /Token\s+valid, .+ left\nToken expires\s+\d{4}-\d\d-\d\d \d\d:\d\d WAT\n/);
    assert.match(screen, /Credentials saved\s+no/);
    assert.ok(!screen.includes(token));
  });

  it('prints one TSV header and one line when piped', async () => {
    const h = await loggedIn({ save: true });
    const result = await runInProcess(['auth', 'status'], { env: h.env });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    assert.equal(lines.length, 2);
    assert.deepEqual(lines[0], ['Profile', 'Environment', 'Base URL', 'Default', 'Token', 'Token expires', 'Credentials saved', 'Renewal']);
    const [name, env, baseUrl, isDefault, state, expires, saved, renewal] = lines[1]!;
    assert.deepEqual([name, env, baseUrl, isDefault, state, saved, renewal], ['sandbox', 'sandbox', server.url, 'yes', 'valid', 'yes', 'saved']);
    assert.ok(!Number.isNaN(Date.parse(expires!)));
    assert.ok(!result.stdout.includes(SIMULATOR_CREDENTIALS.consumerSecret));
  });

  it('prints JSON with --json, and exits 3 once logged out', async () => {
    const h = await loggedIn();
    const json = await runInProcess(['--json', 'auth', 'status'], { env: h.env });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), {
      profile: 'sandbox',
      env: 'sandbox',
      baseUrl: server.url,
      default: true,
      token: 'valid',
      tokenExpiresAt: new Date(readProfiles(h).profiles!.sandbox!.tokenExpiresAt as number).toISOString(),
      credentialsSaved: false,
      renewal: null,
    });

    const logout = await runInProcess(['auth', 'logout'], { env: h.env });
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stderr, /Logged out of profile "sandbox"/);
    const profile = readProfiles(h).profiles?.sandbox;
    assert.equal(profile?.token, undefined);
    assert.equal(profile?.baseUrl, server.url, 'logout kept the base address');

    const status = await runInProcess(['--json', 'auth', 'status'], { env: h.env });
    assert.equal(status.code, 3, status.stderr);
    assert.equal((JSON.parse(status.stdout) as { token: string }).token, 'none');
    const error = errorObject(status.stderr);
    assert.equal(error.code, 'auth_required');
    assert.equal(error.hint, 'run fsapi auth login --profile sandbox');
    assert.equal(error.exitCode, 3);
  });

  it('logout removes saved credentials too', async () => {
    const h = await loggedIn({ save: true });
    assert.equal((await runInProcess(['auth', 'logout'], { env: h.env })).code, 0);
    const text = readFileSync(profilesFile(h), 'utf8');
    assert.ok(!text.includes(SIMULATOR_CREDENTIALS.consumerSecret));
    assert.ok(!text.includes('"token"'));
  });

  it('auth token prints the stored token, and exits 3 when there is none', async () => {
    const h = await loggedIn();
    const result = await runInProcess(['auth', 'token'], { env: h.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${String(readProfiles(h).profiles?.sandbox?.token)}\n`);

    await runInProcess(['auth', 'logout'], { env: h.env });
    const none = await runInProcess(['auth', 'token'], { env: h.env });
    assert.equal(none.code, 3, none.stderr);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /^hint: run fsapi auth login/m);
  });

  it('shows FSAPI_TOKEN as the token source', async () => {
    const h = home();
    const result = await runInProcess(['--json', 'auth', 'status'], { env: { ...h.env, FSAPI_TOKEN: 'from-env' } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as { token: string }).token, 'env');
    assert.ok(!result.stdout.includes('from-env'));
  });
});

describe('profiles', () => {
  it('lists local even when nothing is saved, then saved ones with the default marked', async () => {
    const empty = home();
    const bare = await runInProcess(['--json', 'profile', 'list'], { env: empty.env });
    assert.equal(bare.code, 0, bare.stderr);
    assert.deepEqual(
      (JSON.parse(bare.stdout) as Array<{ profile: string; default: boolean; baseUrl: unknown }>).map((p) => [p.profile, p.default, p.baseUrl]),
      [['local', true, null]],
    );

    const h = await loggedIn();
    await runInProcess(['--profile', 'other', 'auth', 'login', '--env', 'sandbox', '--base-url', server.url], { env: { ...h.env, ...CREDENTIALS } });
    const piped = await runInProcess(['profile', 'list'], { env: h.env });
    assert.equal(piped.code, 0, piped.stderr);
    assert.deepEqual(
      piped.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t')),
      [
        ['Default', 'Name', 'Environment', 'Base URL', 'Token'],
        ['no', 'local', 'local', '', 'none'],
        ['no', 'other', 'sandbox', server.url, 'valid'],
        ['yes', 'sandbox', 'sandbox', server.url, 'valid'],
      ],
    );
    const tty = await runInProcess(['profile', 'list'], { env: h.env, tty: true });
    assert.equal(tty.code, 0);
    assert.match(stripAnsi(tty.stdout), /^\*\s+sandbox/m);
    assert.ok(!tty.stdout.includes(String(readProfiles(h).profiles?.sandbox?.token)));
  });

  it('use switches the default; unknown names are exit 2 listing the saved ones', async () => {
    const h = await loggedIn();
    await runInProcess(['--profile', 'other', 'auth', 'login', '--env', 'sandbox', '--base-url', server.url], { env: { ...h.env, ...CREDENTIALS } });
    const use = await runInProcess(['profile', 'use', 'other'], { env: h.env });
    assert.equal(use.code, 0, use.stderr);
    assert.equal(readProfiles(h).default, 'other');
    assert.equal((await runInProcess(['profile', 'use', 'local'], { env: h.env })).code, 0);
    assert.equal(readProfiles(h).default, 'local');

    const unknown = await runInProcess(['profile', 'use', 'nope'], { env: h.env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^error: no profile named "nope"$/m);
    assert.match(unknown.stderr, /saved profiles: local, other, sandbox/);

    const flag = await runInProcess(['--profile', 'nope', 'account'], { env: h.env });
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /no profile named "nope"/);
  });

  it('remove deletes the profile and clears the default when it was the default', async () => {
    const h = await loggedIn();
    const removed = await runInProcess(['profile', 'remove', 'sandbox'], { env: h.env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stderr, /there is no default now/);
    const stored = readProfiles(h);
    assert.equal(stored.default, undefined);
    assert.equal(stored.profiles?.sandbox, undefined);

    const again = await runInProcess(['profile', 'remove', 'sandbox'], { env: h.env });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /no profile named "sandbox"/);
  });

  it('reports a corrupt profiles file by name and leaves it as it was', async () => {
    const h = home();
    mkdirSync(h.configDir, { recursive: true, mode: 0o700 });
    const broken = '{"profiles": {"sandbox": {"env": "sandbox", ';
    writeFileSync(profilesFile(h), broken, { mode: 0o600 });
    for (const args of [['profile', 'list'], ['auth', 'status'], ['account']]) {
      const result = await runInProcess(args, { env: h.env });
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, new RegExp(`^error: cannot read ${profilesFile(h).replaceAll('.', '\\.')}: not valid JSON`, 'm'));
      assert.match(result.stderr, /^hint: fix or move the file away/m);
    }
    assert.equal(readFileSync(profilesFile(h), 'utf8'), broken);
  });

  it('narrows a config dir that is open to others to 0700', async () => {
    const h = home();
    mkdirSync(h.configDir, { recursive: true, mode: 0o755 });
    const result = await runInProcess(['profile', 'list'], { env: h.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(mode(h.configDir), 0o700);
  });
});
