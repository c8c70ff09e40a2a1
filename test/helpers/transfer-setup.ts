// A simulator served over real HTTP on 127.0.0.1 plus a fresh fsapi home logged in to it as profile
// `sim` (the default), for the transfer and client-creation tests.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SIMULATOR_CREDENTIALS, startSimulatorServer, type RunningSimulator } from '../../src/simulator/server.js';
import type { SimulatorOptions } from '../../src/simulator/types.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { makeHome, runCli, stripAnsi, type RunOptions, type RunResult } from './cli.js';
import { logInToSimulator } from './simulator-login.js';
import { runInProcess, type InProcessOptions } from './in-process.js';
import { FakeClock } from './context.js';

export interface TransferSetup {
  server: RunningSimulator;
  home: ReturnType<typeof makeHome>;
  env: Record<string, string>;
  run(args: string[], options?: RunOptions): Promise<RunResult>;
  /**
   * The same run in the test's process (test/helpers/in-process.ts): for what needs no process of its
   * own. Its clock is `clock`, the served simulator's too, so `--wait` and retries skip their waits.
   */
  runInProcess(args: string[], options?: Partial<InProcessOptions>): Promise<RunResult>;
  /** How many requests with this method and path reached the simulator since login. */
  count(method: string, path: string): number;
  /** The clock of the served simulator and of runInProcess: real time plus every wait skipped in process. */
  clock: FakeClock;
  /** POST /v1/transfer requests since login. */
  posts(): number;
  journalLines(): string[];
  close(): Promise<void>;
}

export async function setUpTransfers(options: SimulatorOptions = {}): Promise<TransferSetup> {
  const clock = new FakeClock();
  const server = await startSimulatorServer({ port: 0, settleSeconds: 1, now: clock.now, ...options });
  const home = makeHome();
  const env: Record<string, string> = { ...home.env };
  await logInToSimulator(env, server.url);
  server.simulator.clearRequests();
  const count = (method: string, requestPath: string) => server.simulator.requests().filter((r) => r.method === method && r.path === requestPath).length;
  return {
    server,
    home,
    env,
    run: (args, runOptions = {}) => runCli(args, { ...runOptions, env: { ...env, ...runOptions.env } }),
    runInProcess: (args, runOptions = {}) => runInProcess(args, { clock, ...runOptions, env: { ...env, ...runOptions.env } }),
    clock,
    count,
    posts: () => count('POST', '/v1/transfer'),
    journalLines: () => storeRecords(home.dataDir, 'journal'),
    close: async () => {
      await server.close();
      home.cleanup();
    },
  };
}

/** `policy set` with these options as a person does it: at a terminal, the consumer secret typed at its one prompt. */
export async function setPolicy(setup: TransferSetup, ...options: string[]): Promise<void> {
  const result = await setup.runInProcess(['policy', 'set', ...options], {
    tty: true,
    prompts: [{ prompt: 'Consumer secret', answer: SIMULATOR_CREDENTIALS.consumerSecret }],
  });
  assert.equal(result.code, 0, stripAnsi(result.stdout));
}

/** The journal's transfers as `transfer log --json` prints them. */
export async function journalLog(setup: TransferSetup): Promise<Array<Record<string, unknown>>> {
  const log = await setup.run(['transfer', 'log', '--json']);
  assert.equal(log.code, 0, log.stderr);
  return JSON.parse(log.stdout) as Array<Record<string, unknown>>;
}

/** Polls `check` every 20 ms until it is true; fails after `timeoutMs`. Bounded. */
export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  for (let waited = 0; waited <= timeoutMs; waited += 20) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/**
 * The records of a store table (`journal` or `events`) in the order written, each as its JSON text: what
 * journal.jsonl and events.jsonl held line by line. Read on a connection of its own, so it sees every
 * commit of the processes under test; empty when nothing was stored yet (and nothing is created then).
 */
export function storeRecords(dataDir: string, table: 'journal' | 'events'): string[] {
  const file = path.join(dataDir, 'fsapi.db');
  if (!existsSync(file)) return [];
  const db = openDatabase(file);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    return db
      .prepare(`SELECT record FROM ${table} ORDER BY seq`)
      .all()
      .map((row) => String(row.record));
  } catch (error) {
    if (/no such table/.test((error as Error).message)) return [];
    throw error;
  } finally {
    db.close();
  }
}

/** `transfer send` of `amount` naira to the simulator's test account at GTBank, confirmed (-y), plus `more`. */
export const sendArgs = (amount: string, ...more: string[]) => [
  'transfer',
  'send',
  '0123456789',
  '--bank',
  'gtb',
  '--amount',
  amount,
  '--narration',
  'Invoice 42',
  '-y',
  ...more,
];
