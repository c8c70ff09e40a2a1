// The HTTP layer (src/api/http.ts, answers.ts, client.ts): failures on the wire become one-line typed
// errors with the contract's exit codes; GET is retried a bounded number of times, POST never; --verbose
// shows one line per request and never a secret. Two ways in: the built CLI as a subprocess (build first:
// `npm run build`), and createApi with an injected context for what only the code can observe (error
// classes, exactly-once POSTs under faults). Servers: the simulator on 127.0.0.1:0, and ad-hoc node:http
// servers that misbehave on purpose.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { homePool, runCli, type Home } from './helpers/cli.js';
import { startSimulatorServer, SIMULATOR_CREDENTIALS, type RunningSimulator } from '../src/simulator/server.js';
import { BANKS, BUSINESS } from '../src/simulator/index.js';
import { createApi } from '../src/api/client.js';
import type { Api } from '../src/api/types.js';
import type { Context, GlobalOptions, IO } from '../src/context.js';
import { systemClock } from '../src/common/clock.js';
import { resolvePaths } from '../src/common/paths.js';
import { ApiError, AuthError, CorruptFileError, TransportError } from '../src/errors.js';
import { createPrompt } from '../src/ui/prompt.js';

const homes = homePool();
const home = homes.home;

// ---- ad-hoc servers ----------------------------------------------------------------------------------

interface AdHoc {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

async function adHocServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<AdHoc> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPortUrl(): Promise<string> {
  const server = await adHocServer(() => undefined);
  await server.close();
  return server.url;
}

const htmlPage = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';

let simulator: RunningSimulator;
let html502: AdHoc;
let dropper: AdHoc;
let staller: AdHoc;
let wrongShape: AdHoc;

before(async () => {
  simulator = await startSimulatorServer({ port: 0, log: () => undefined });
  html502 = await adHocServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end(htmlPage);
  });
  dropper = await adHocServer((req) => req.socket.destroy());
  staller = await adHocServer(() => undefined);
  wrongShape = await adHocServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, data: { currency: 'NGN', accountNumber: 1100084217 } }));
  });
});
after(async () => {
  await Promise.all([simulator.close(), html502.close(), dropper.close(), staller.close(), wrongShape.close()]);
  homes.cleanup();
});

// ---- the CLI -----------------------------------------------------------------------------------------

describe('fsapi over a failing network', () => {
  it('says "cannot reach" for a closed port (exit 1, with a hint)', async () => {
    const h = home();
    const url = await closedPortUrl();
    const result = await runCli(['--base-url', url, 'account'], { env: { ...h.env, FSAPI_TOKEN: 'any' } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`^error: cannot reach ${new URL(url).host} \\(connection refused\\)$`, 'm'));
    assert.match(result.stderr, /^hint: check the base URL \(fsapi auth status\) and your connection$/m);
    assert.ok(!result.stderr.includes('    at '), 'stack trace without --verbose');
  });

  it('says the token could not be got when the login request itself cannot be made', async () => {
    const h = home();
    const url = await closedPortUrl();
    const result = await runCli(['--base-url', url, 'account'], { env: h.env });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^error: could not get a token: cannot reach /m);
  });

  it('reports an HTML error page as an unreadable answer (exit 1)', async () => {
    const h = home();
    html502.hits.length = 0;
    const result = await runCli(['--base-url', html502.url, 'account'], { env: { ...h.env, FSAPI_TOKEN: 'any' } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^error: unreadable answer from 127\.0\.0\.1:\d+: HTTP 502 with a text\/html answer, not JSON$/m);
    assert.ok(!result.stderr.includes('<html>'));
    // GET is retried twice on a 502, no more.
    assert.deepEqual(html502.hits, ['GET /v1/account', 'GET /v1/account', 'GET /v1/account']);
  });

  it('reports a dropped connection (exit 1)', async () => {
    const h = home();
    const result = await runCli(['--base-url', dropper.url, 'account'], { env: { ...h.env, FSAPI_TOKEN: 'any' } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^error: the connection to 127\.0\.0\.1:\d+ dropped before an answer came$/m);
  });

  it('gives up after --timeout seconds (exit 1) and does not retry a timeout', async () => {
    const h = home();
    staller.hits.length = 0;
    const result = await runCli(['--timeout', '1', '--base-url', staller.url, 'account'], { env: { ...h.env, FSAPI_TOKEN: 'any' } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^error: no answer from 127\.0\.0\.1:\d+ within 1 s$/m);
    assert.deepEqual(staller.hits, ['GET /v1/account']);
  });

  it('refuses a malformed --base-url and --timeout abc with exit 2, sending nothing', async () => {
    const h = home();
    simulator.simulator.clearRequests();
    const badUrl = await runCli(['--base-url', 'not a url', 'account'], { env: h.env });
    assert.equal(badUrl.code, 2, badUrl.stderr);
    assert.match(badUrl.stderr, /^error: base URL "not a url" is not a URL$/m);
    const badScheme = await runCli(['account'], { env: { ...h.env, FSAPI_BASE_URL: 'ftp://example.com' } });
    assert.equal(badScheme.code, 2, badScheme.stderr);
    const badTimeout = await runCli(['--timeout', 'abc', '--base-url', simulator.url, 'account'], { env: h.env });
    assert.equal(badTimeout.code, 2, badTimeout.stderr);
    assert.match(badTimeout.stderr, /--timeout must be a positive number of seconds/);
    assert.deepEqual(simulator.simulator.requests(), []);
  });

  it('writes one --verbose line per request, with no token or secret in it', async () => {
    const h = home();
    const env = { ...h.env, FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey, FSAPI_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret };
    const login = await runCli(['--verbose', 'auth', 'login', '--env', 'sandbox', '--base-url', simulator.url, '--save-credentials'], { env });
    assert.equal(login.code, 0, login.stderr);
    const result = await runCli(['--verbose', 'tx', 'list', '--limit', '5'], { env: h.env });
    assert.equal(result.code, 0, result.stderr);
    const stored = JSON.parse(readFileSync(path.join(h.configDir, 'profiles.json'), 'utf8')) as { profiles: { sandbox: { token: string } } };
    const token = stored.profiles.sandbox.token;
    const httpLines = (text: string) => text.split('\n').filter((line) => line.startsWith('http: '));
    assert.deepEqual(
      httpLines(login.stderr).map((line) => line.replace(/\(\d+ ms\)/, '(N ms)')),
      ['http: POST /v1/generate-token -> 200 (N ms)'],
    );
    const listLines = httpLines(result.stderr);
    assert.ok(listLines.length >= 1);
    for (const line of listLines) assert.match(line, /^http: GET \/v1\/transactions\?\S*limit=5\S* -> 200 \(\d+ ms\)$/);
    for (const text of [login.stderr, result.stderr, login.stdout]) {
      assert.ok(!text.includes(token), 'token in verbose output');
      assert.ok(!text.includes(SIMULATOR_CREDENTIALS.consumerSecret), 'secret in verbose output');
      assert.ok(!/bearer/i.test(text));
    }
  });

  it('runs against the in-process simulator with no setup, noting it once per run', async () => {
    const h = home();
    const result = await runCli(['--verbose', 'account'], { env: h.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr.split('local simulator: no real money moves').length - 1, 1);
    assert.match(result.stderr, /^http: POST \/v1\/generate-token -> 200/m);
    assert.match(result.stderr, /^http: GET \/v1\/account -> 200/m);
  });
});

// ---- createApi with an injected context ---------------------------------------------------------------

function contextFor(h: Home, globals: Partial<GlobalOptions>, env: Record<string, string> = {}): { ctx: Context; notes: string[] } {
  const notes: string[] = [];
  const io: IO = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    colorStdout: false,
    colorStderr: false,
    columns: undefined,
    out: () => undefined,
    note: (line) => notes.push(line),
  };
  const fullEnv = { ...h.env, ...env };
  const options: GlobalOptions = { profile: undefined, json: false, color: false, verbose: false, timeoutMs: 10_000, baseUrl: undefined, ...globals };
  let api: Promise<Api> | undefined;
  const ctx: Context = {
    io,
    globals: options,
    env: fullEnv,
    paths: resolvePaths(fullEnv),
    clock: systemClock,
    prompt: createPrompt(io),
    profiles: () => import('../src/auth/profile-store.js').then((m) => m.openProfileStore(ctx.paths.configDir)),
    profile: () => import('../src/auth/resolve.js').then((m) => m.resolveProfile(ctx)),
    api: () => (api ??= createApi(ctx)),
  };
  return { ctx, notes };
}

const transferBody = (reference: string) => ({
  beneficiaryBankCode: BANKS[0]!.institutionCode,
  beneficiaryAccountNumber: '0123456789',
  narration: 'http layer test',
  amount: 1500.5,
  reference,
});
let referenceSerial = 0;
const newReference = () => `${BUSINESS.referencePrefix}-HTTPTEST${Date.now().toString(36).toUpperCase()}${(referenceSerial += 1)}`;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

describe('createApi', () => {
  it('passes the API 400 message through as it was spelled (both spellings)', async () => {
    const { ctx } = contextFor(home(), { baseUrl: simulator.url });
    const api = await ctx.api();
    const missingTx = await rejection(api.getTransaction('ACME-NOSUCHREFERENCE'));
    assert.ok(missingTx instanceof ApiError && !(missingTx instanceof TransportError));
    assert.equal(missingTx.status, 400);
    assert.equal(missingTx.message, 'the API refused the request (HTTP 400): Request Un-Successful');
    const missingClient = await rejection(api.getClient('0000000001'));
    assert.ok(missingClient instanceof ApiError);
    assert.equal(missingClient.message, 'the API refused the request (HTTP 400): Request Unsuccessful');
  });

  it('keeps unknown fields of an answer', async () => {
    const { ctx } = contextFor(home(), { baseUrl: simulator.url });
    const api = await ctx.api();
    const account = await api.getAccount();
    assert.equal(account.accountNumber, BUSINESS.accountNumber);
    const raw = await api.raw('GET', '/v1/account');
    assert.equal(raw.status, 200);
    assert.deepEqual(account, (raw.body as { data: unknown }).data);
  });

  it('returns non-2xx answers from raw()', async () => {
    const { ctx } = contextFor(home(), { baseUrl: simulator.url });
    const api = await ctx.api();
    const raw = await api.raw('GET', '/v1/transactions/reference/ACME-NOSUCHREFERENCE');
    assert.equal(raw.status, 400);
    assert.equal((raw.body as { success: boolean }).success, false);
  });

  it('says "unexpected answer from the API" for a 200 of the wrong shape', async () => {
    const { ctx } = contextFor(home(), { baseUrl: wrongShape.url }, { FSAPI_TOKEN: 'any' });
    const error = await rejection((await ctx.api()).getAccount());
    assert.ok(error instanceof ApiError && !(error instanceof TransportError));
    // A numeric accountNumber is read (the real API sends such); the missing business name, which
    // references are made from, is what fails.
    assert.match(error.message, /^unexpected answer from the API: data\.accountName: /);
  });

  for (const fault of ['drop', 'bad-gateway', 'stall'] as const) {
    it(`sends POST /v1/transfer exactly once when the answer is lost (${fault}) and throws TransportError`, async () => {
      const { ctx } = contextFor(home(), { baseUrl: simulator.url, timeoutMs: 1000 });
      const api = await ctx.api();
      await api.getAccount(); // logs in first, so the log below holds the transfer alone
      simulator.simulator.clearRequests();
      simulator.simulator.setFault(fault);
      try {
        const error = await rejection(api.sendTransfer(transferBody(newReference())));
        assert.ok(error instanceof TransportError, `got ${String(error)}`);
        assert.equal(error.kind, { drop: 'network', 'bad-gateway': 'unreadable', stall: 'timeout' }[fault]);
      } finally {
        simulator.simulator.setFault(undefined);
      }
      assert.deepEqual(
        simulator.simulator.requests().map((r) => `${r.method} ${r.path}`),
        ['POST /v1/transfer'],
      );
    });
  }

  it('sends a refused transfer once and reports it as an ApiError with status 400', async () => {
    const { ctx } = contextFor(home(), { baseUrl: simulator.url });
    const api = await ctx.api();
    await api.getAccount();
    simulator.simulator.clearRequests();
    const error = await rejection(api.sendTransfer({ ...transferBody('WRONGPREFIX-123'), beneficiaryAccountNumber: '0123450000' }));
    assert.ok(error instanceof ApiError && !(error instanceof TransportError));
    assert.equal(error.status, 400);
    assert.deepEqual(
      simulator.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['POST /v1/transfer 400'],
    );
  });

  it('never sends POST /v1/transfer again after a 401: the token is renewed for the lookup, the 401 handed back', async () => {
    const h = home();
    const { ctx } = contextFor(h, { baseUrl: simulator.url }, {});
    // A local-env profile renews with the simulator credentials; its stored token is unknown to this server.
    const store = await ctx.profiles();
    await store.save({ name: 'local', env: 'local', baseUrl: simulator.url, token: 'stale-token', tokenExpiresAt: Date.now() + 3600_000 });
    const api = await ctx.api();
    simulator.simulator.clearRequests();
    const error = await rejection(api.sendTransfer(transferBody(newReference())));
    assert.ok(error instanceof ApiError && !(error instanceof TransportError) && !(error instanceof AuthError), `got ${String(error)}`);
    assert.equal(error.status, 401);
    assert.deepEqual(
      simulator.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['POST /v1/transfer 401', 'POST /v1/generate-token 200'],
    );
    // The renewed token serves the lookup that follows.
    simulator.simulator.clearRequests();
    await api.getAccount();
    assert.deepEqual(
      simulator.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['GET /v1/account 200'],
    );
  });

  it('a stub that answers every request 401: one POST /v1/transfer, typed or raw, however its path is written', async () => {
    const stub = await adHocServer((req, res) => {
      req.resume();
      if (req.url === '/v1/generate-token') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'ok', token: `t-${Date.now()}` }));
        return;
      }
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, message: 'Unauthorized', data: null }));
    });
    try {
      const h = home();
      const { ctx } = contextFor(h, { baseUrl: stub.url }, {});
      const store = await ctx.profiles();
      await store.save({ name: 'local', env: 'local', baseUrl: stub.url, token: 'stale-token', tokenExpiresAt: Date.now() + 3600_000 });
      const api = await ctx.api();
      const error = await rejection(api.sendTransfer(transferBody(newReference())));
      assert.ok(error instanceof ApiError && error.status === 401, String(error));
      assert.equal(stub.hits.filter((hit) => hit === 'POST /v1/transfer').length, 1, stub.hits.join(', '));
      for (const path of ['/v1/transfer', '/V1//transfer/', '/v1/%74ransfer']) {
        stub.hits.length = 0;
        const raw = await api.raw('POST', path, { json: transferBody(newReference()) });
        assert.equal(raw.status, 401);
        assert.equal(stub.hits.filter((hit) => hit.startsWith('POST /') && hit !== 'POST /v1/generate-token').length, 1, `${path}: ${stub.hits.join(', ')}`);
      }
    } finally {
      await stub.close();
    }
  });

  it('never retries a POST on a 502, and retries a GET at most twice', async () => {
    const { ctx } = contextFor(home(), { baseUrl: html502.url }, { FSAPI_TOKEN: 'any' });
    const api = await ctx.api();
    html502.hits.length = 0;
    const post = await rejection(api.sendTransfer(transferBody(newReference())));
    assert.ok(post instanceof TransportError);
    assert.deepEqual(html502.hits, ['POST /v1/transfer']);
    html502.hits.length = 0;
    const raw = await api.raw('POST', '/v1/transfer', { json: transferBody(newReference()) });
    assert.equal(raw.status, 502);
    assert.equal(raw.body, htmlPage);
    assert.deepEqual(html502.hits, ['POST /v1/transfer']);
    html502.hits.length = 0;
    await rejection(api.listBanks());
    assert.equal(html502.hits.length, 3);
  });

  it('throws AuthError for a refused FSAPI_TOKEN and never renews it', async () => {
    const { ctx } = contextFor(
      home(),
      { baseUrl: simulator.url },
      {
        FSAPI_TOKEN: 'bogus',
        FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey,
        FSAPI_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret,
      },
    );
    simulator.simulator.clearRequests();
    const error = await rejection((await ctx.api()).getAccount());
    assert.ok(error instanceof AuthError);
    assert.deepEqual(
      simulator.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['GET /v1/account 401'],
    );
  });

  it('holds the deadline for the body too: an answer that stops half-way is a timeout, not retried', async () => {
    const trickler = await adHocServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"success":true,'); // and nothing more
    });
    try {
      const { ctx } = contextFor(home(), { baseUrl: trickler.url, timeoutMs: 500 }, { FSAPI_TOKEN: 'any' });
      const error = await rejection((await ctx.api()).getAccount());
      assert.ok(error instanceof TransportError && error.kind === 'timeout', String(error));
      assert.match(error.message, /^no answer from 127\.0\.0\.1:\d+ within 0\.5 s$/);
      assert.deepEqual(trickler.hits, ['GET /v1/account']);
    } finally {
      await trickler.close();
    }
  });

  it('retries a GET whose connection dropped and returns the answer of the retry', async () => {
    let calls = 0;
    const flaky = await adHocServer((req, res) => {
      calls += 1;
      if (calls === 1) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json', 'X-Trace': 'abc' });
      res.end(JSON.stringify({ success: true, data: [] }));
    });
    try {
      const { ctx, notes } = contextFor(home(), { baseUrl: flaky.url, verbose: true }, { FSAPI_TOKEN: 'any' });
      const raw = await (await ctx.api()).raw('GET', '/v1/banks');
      assert.equal(raw.status, 200);
      assert.deepEqual(raw.body, { success: true, data: [] });
      assert.equal(raw.headers['x-trace'], 'abc', 'header names are lower case');
      assert.deepEqual(flaky.hits, ['GET /v1/banks', 'GET /v1/banks']);
      assert.deepEqual(
        notes.map((line) => line.replace(/\(\d+ ms\)/, '(N ms)')),
        ['http: GET /v1/banks -> failed: ECONNRESET (N ms)', 'http: GET /v1/banks -> 200 (N ms)'],
      );
    } finally {
      await flaky.close();
    }
  });

  it('passes the local simulator\'s own error through: a corrupt state file is named, not "simulator failed"', async () => {
    const h = home();
    const { ctx } = contextFor(h, {});
    await (await ctx.api()).getAccount(); // creates the state file
    const stateFile = path.join(ctx.paths.dataDir, 'simulator', 'state.db');
    writeFileSync(stateFile, 'not json\nat all');
    const { ctx: again } = contextFor(h, {});
    const error = await rejection((await again.api()).getAccount());
    assert.ok(error instanceof CorruptFileError, String(error));
    assert.equal(error.message, `cannot read ${stateFile}: neither a SQLite database nor a simulator state file`);
    assert.equal(readFileSync(stateFile, 'utf8'), 'not json\nat all', 'left alone');
  });
});
