// The HTTP layer (src/api/http.ts, answers.ts, client.ts): failures on the wire become one-line typed
// errors with the contract's exit codes; GET is retried a bounded number of times, POST never; --verbose
// shows one line per request and never a secret. Two ways in: the built CLI as a subprocess (build first:
// `npm run build`), and createApi with an injected context for what only the code can observe (error
// classes, exactly-once POSTs under faults). Servers: the simulator on 127.0.0.1:0, and ad-hoc node:http
// servers that misbehave on purpose; where an answer's shape or status is the point, stubbed answers
// (test/helpers/http-stubs.ts) on the context's transport, which also fail the test on a request no stub
// expected: an extra POST /v1/transfer is found that way.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { homePool, runCli, type Home } from './helpers/cli.js';
import { HttpStubs } from './helpers/http-stubs.js';
import { startSimulatorServer, SIMULATOR_CREDENTIALS, type RunningSimulator } from '../src/simulator/server.js';
import { BANKS, BUSINESS } from '../src/simulator/index.js';
import { newRunState } from '../src/run-types.js';
import { createApi } from '../src/auth/api-client.js';
import { nodeTransport } from '../src/api/node-transport.js';
import type { Api, Transport } from '../src/api/types.js';
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

before(async () => {
  simulator = await startSimulatorServer({ port: 0, log: () => undefined });
  html502 = await adHocServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end(htmlPage);
  });
  dropper = await adHocServer((req) => req.socket.destroy());
  staller = await adHocServer(() => undefined);
});
after(async () => {
  await Promise.all([simulator.close(), html502.close(), dropper.close(), staller.close()]);
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

/** A context for `h`; its requests to a base address go through `transport` (stubs), node:http unless given. */
function contextFor(
  h: Home,
  globals: Partial<GlobalOptions>,
  env: Record<string, string> = {},
  transport: Transport = nodeTransport,
): { ctx: Context; notes: string[] } {
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
    transport,
    openLocalApi: async () => (await import('../src/simulator/index.js')).openLocalSimulator(ctx.paths.dataDir, fullEnv, transport),
    run: newRunState(),
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
/** A base address nothing listens at: only stubs answer it. */
const STUBBED = 'https://api.stubbed.test';
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
    const stubs = new HttpStubs().register('GET', '/v1/account', {
      status: 200,
      json: { success: true, data: { currency: 'NGN', accountNumber: 1100084217 } },
    });
    const { ctx } = contextFor(home(), { baseUrl: STUBBED }, { FSAPI_TOKEN: 'any' }, stubs.transport);
    const error = await rejection((await ctx.api()).getAccount());
    assert.ok(error instanceof ApiError && !(error instanceof TransportError));
    // A numeric accountNumber is read (the real API sends such); the missing business name, which
    // references are made from, is what fails.
    assert.match(error.message, /^unexpected answer from the API: data\.accountName: /);
    stubs.verify();
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

  it('an API that answers every request 401: one POST /v1/transfer, typed or raw, however its path is written', async () => {
    // One stub per request fsapi may send: a second POST of any transfer would match none and fail verify().
    const unauthorized = { status: 401, json: { success: false, message: 'Unauthorized', data: null } };
    const paths = ['/v1/transfer', '/V1//transfer/', '/v1/%74ransfer'];
    const stubs = new HttpStubs()
      .register('POST', '/v1/transfer', unauthorized, { body: (json: unknown) => (json as { amount?: unknown }).amount === 1500.5 })
      // The refused token is renewed once (the local env renews with the simulator's credentials).
      .register('POST', '/v1/generate-token', { status: 200, json: { success: true, message: 'ok', token: 't-renewed' } });
    for (const path of paths) stubs.register('POST', path, unauthorized);
    const h = home();
    const { ctx } = contextFor(h, { baseUrl: STUBBED }, {}, stubs.transport);
    const store = await ctx.profiles();
    await store.save({ name: 'local', env: 'local', baseUrl: STUBBED, token: 'stale-token', tokenExpiresAt: Date.now() + 3600_000 });
    const api = await ctx.api();
    const error = await rejection(api.sendTransfer(transferBody(newReference())));
    assert.ok(error instanceof ApiError && error.status === 401, String(error));
    for (const path of paths) {
      const raw = await api.raw('POST', path, { json: transferBody(newReference()) });
      assert.equal(raw.status, 401, path);
    }
    assert.deepEqual(stubs.requests, ['POST /v1/transfer', 'POST /v1/generate-token', ...paths.map((path) => `POST ${path}`)]);
    stubs.verify();
  });

  it('never retries a POST on a 502, and retries a GET at most twice', async () => {
    const badGateway = { status: 502, text: htmlPage, contentType: 'text/html' };
    // Exactly these requests: a retried POST, or a fourth GET, would match no stub and fail verify().
    const stubs = new HttpStubs().register('POST', '/v1/transfer', badGateway, { times: 2 }).register('GET', '/v1/transfer/banks', badGateway, { times: 3 });
    const { ctx } = contextFor(home(), { baseUrl: STUBBED }, { FSAPI_TOKEN: 'any' }, stubs.transport);
    const api = await ctx.api();
    const post = await rejection(api.sendTransfer(transferBody(newReference())));
    assert.ok(post instanceof TransportError);
    const raw = await api.raw('POST', '/v1/transfer', { json: transferBody(newReference()) });
    assert.equal(raw.status, 502);
    assert.equal(raw.body, htmlPage);
    await rejection(api.listBanks());
    assert.deepEqual(stubs.requests, ['POST /v1/transfer', 'POST /v1/transfer', 'GET /v1/transfer/banks', 'GET /v1/transfer/banks', 'GET /v1/transfer/banks']);
    stubs.verify();
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
    const stubs = new HttpStubs()
      .register('GET', '/v1/banks', { failure: 'ECONNRESET' })
      .register('GET', '/v1/banks', { status: 200, json: { success: true, data: [] }, headers: { 'X-Trace': 'abc' } });
    const { ctx, notes } = contextFor(home(), { baseUrl: STUBBED, verbose: true }, { FSAPI_TOKEN: 'any' }, stubs.transport);
    const raw = await (await ctx.api()).raw('GET', '/v1/banks');
    assert.equal(raw.status, 200);
    assert.deepEqual(raw.body, { success: true, data: [] });
    assert.equal(raw.headers['x-trace'], 'abc', 'header names are lower case');
    assert.deepEqual(
      notes.map((line) => line.replace(/\(\d+ ms\)/, '(N ms)')),
      ['http: GET /v1/banks -> failed: ECONNRESET (N ms)', 'http: GET /v1/banks -> 200 (N ms)'],
    );
    stubs.verify();
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
