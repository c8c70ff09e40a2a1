// Shared set-up for the tests of issue 3 (tx, tsq, clients): a simulator served on 127.0.0.1 with an
// ephemeral port, a temporary home with profile `sim` logged in to it, the CLI run against it (the built
// one, or in the test's process), and direct reads of the API (plain fetch with the same token) to compare
// the CLI's output with.
// Not a test file itself (npm test runs test/*.test.ts).
import assert from 'node:assert/strict';
import { makeHome, runCli, type RunOptions, type RunResult } from './helpers/cli.js';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import type { SimulatorOptions } from '../src/simulator/types.js';
import { logInToSimulator } from './helpers/simulator-login.js';
import { runInProcess, type InProcessOptions } from './helpers/in-process.js';

export interface Books {
  server: RunningSimulator;
  env: Record<string, string>;
  token: string;
  /** Runs the built CLI as profile `sim`. */
  run(args: string[], options?: RunOptions): Promise<RunResult>;
  /** The same run in the test's process (test/helpers/in-process.ts): for what needs no process of its own. */
  runInProcess(args: string[], options?: Partial<InProcessOptions>): Promise<RunResult>;
  /** GET on the API with the profile's token; returns the whole JSON body. */
  api<T = unknown>(pathAndQuery: string): Promise<{ status: number; body: T }>;
  /** POST on the API with the profile's token. */
  post<T = unknown>(path: string, json: unknown): Promise<{ status: number; body: T }>;
  /** Requests the simulator received on `path` since the last clearRequests(), as `page/limit` or raw query. */
  queries(path: string): string[];
  clearRequests(): void;
  stop(): Promise<void>;
}

export async function openBooks(options: SimulatorOptions = {}): Promise<Books> {
  const server = await startSimulatorServer({ port: 0, log: () => undefined, ...options });
  const home = makeHome();
  const env = { ...home.env, FSAPI_PROFILE: 'sim' };
  await logInToSimulator(home.env, server.url);
  const tokenRun = await runInProcess(['auth', 'token'], { env });
  assert.equal(tokenRun.code, 0, tokenRun.stderr);
  const token = tokenRun.stdout.trim();
  const call = async <T>(method: string, path: string, json?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  server.simulator.clearRequests();
  return {
    server,
    env,
    token,
    run: (args, runOptions = {}) => runCli(args, { ...runOptions, env: { ...env, ...runOptions.env } }),
    runInProcess: (args, runOptions = {}) => runInProcess(args, { ...runOptions, env: { ...env, ...runOptions.env } }),
    api: (pathAndQuery) => call('GET', pathAndQuery),
    post: (path, json) => call('POST', path, json),
    queries: (path) =>
      server.simulator
        .requests()
        .filter((request) => request.path === path)
        .map((request) => request.query),
    clearRequests: () => server.simulator.clearRequests(),
    stop: async () => {
      await server.close();
      home.cleanup();
    },
  };
}

/** `page=2&limit=15` -> `2/15`, for compact assertions on the pages asked for. */
export function pageOf(query: string): string {
  const params = new URLSearchParams(query);
  return `${params.get('page')}/${params.get('limit')}`;
}

/** Every row of a list endpoint read straight from the API (no CLI), newest first. */
export async function readAll<T>(books: Books, path: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; page <= 1000; page += 1) {
    const { status, body } = await books.api<{ data: T[] }>(`${path}?page=${page}&limit=100`);
    assert.equal(status, 200);
    rows.push(...body.data);
    if (body.data.length < 100) break;
  }
  books.clearRequests();
  return rows;
}

/** Asserts a usage error: exit 2, an `error:` line, nothing on stdout, no stack trace, no request sent. */
export function assertRefusedLocally(books: Books, result: RunResult, message?: RegExp): void {
  assert.equal(result.code, 2, `exit ${result.code}\n${result.stderr}`);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^error: /m);
  if (message) assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'stack trace on stderr');
  assert.deepEqual(books.server.simulator.requests(), [], 'a request reached the simulator');
}
