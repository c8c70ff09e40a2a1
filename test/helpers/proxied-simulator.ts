// A served simulator on 127.0.0.1 with the hostile proxy (test/fixtures/hostile-api.ts) in front of it: a
// home logged in through the proxy as profile `sim` (the default), whose runs are the built CLI, and a
// second home logged in to the simulator itself, to ask it what it really holds. For the tests of what fsapi
// makes of answers that lie or go missing after the API took the money (test/refusal-proof.test.ts,
// test/hostile-observations.test.ts, test/rate-limit.test.ts); the proxy's switches are turned by each test.
import assert from 'node:assert/strict';
import { startSimulatorServer, type RunningSimulator } from '../../src/simulator/server.js';
import type { SimulatorOptions } from '../../src/simulator/types.js';
import { startHostileApi, type HostileApi } from '../fixtures/hostile-api.js';
import { makeHome, runCli, type Home, type RunOptions, type RunResult } from './cli.js';
import { runInProcess, type InProcessOptions } from './in-process.js';
import { logInToSimulator } from './simulator-login.js';

export interface ProxiedSimulator {
  simulator: RunningSimulator;
  proxy: HostileApi;
  /** Logged in through the proxy. */
  home: Home;
  /** Logged in to the simulator itself. */
  direct: Home;
  /** The built CLI in `home` (reconciling after 0, 50 and 100 ms), with `env` added. */
  run(args: string[], env?: Record<string, string>, options?: Omit<RunOptions, 'env'>): ReturnType<typeof runCli>;
  /**
   * The same run in the test's process (test/helpers/in-process.ts), on a clock that skips every wait:
   * for the waits a rate limit asks for, which would otherwise cost minutes of real time.
   */
  runHere(args: string[], options?: Partial<InProcessOptions>): Promise<RunResult>;
  /** Requests that reached the simulator since the set-up, as `METHOD /path STATUS`. */
  reached(): string[];
  /** POST /v1/transfer requests that reached the simulator since the set-up. */
  posts(): number;
  /** How many transactions with this reference the simulator holds (asked directly, not through the proxy). */
  held(reference: string): Promise<number>;
  close(): Promise<void>;
}

export interface ProxiedSimulatorOptions {
  simulator?: SimulatorOptions;
  /** The profile keeps its consumer key and secret (`--save-credentials`): a 401 is followed by a silent renewal. */
  saveCredentials?: boolean;
}

export async function startProxiedSimulator(options: ProxiedSimulatorOptions = {}): Promise<ProxiedSimulator> {
  const simulator = await startSimulatorServer({ port: 0, settleSeconds: 1, ...options.simulator });
  const proxy = await startHostileApi(simulator.url);
  const home = makeHome();
  const direct = makeHome();
  await logInToSimulator(home.env, proxy.url, 'sim', options.saveCredentials ? ['--save-credentials'] : []);
  await logInToSimulator(direct.env, simulator.url);
  simulator.simulator.clearRequests();
  const reached = () => simulator.simulator.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
  return {
    simulator,
    proxy,
    home,
    direct,
    run: (args, env = {}, runOptions = {}) =>
      runCli(args, { timeoutMs: 60_000, ...runOptions, env: { ...home.env, FSAPI_RECONCILE_SCHEDULE_MS: '0,50,100', ...env } }),
    runHere: (args, runOptions = {}) => runInProcess(args, { ...runOptions, env: { ...home.env, FSAPI_RECONCILE_SCHEDULE_MS: '0,50,100', ...runOptions.env } }),
    reached,
    posts: () => reached().filter((line) => line.startsWith('POST /v1/transfer ')).length,
    held: async (reference) => {
      const list = await runCli(['tx', 'list', '--all', '--json'], { env: direct.env });
      assert.equal(list.code, 0, list.stderr);
      return (JSON.parse(list.stdout) as Array<{ reference: string }>).filter((t) => t.reference === reference).length;
    },
    close: async () => {
      await proxy.close();
      await simulator.close();
      home.cleanup();
      direct.cleanup();
    },
  };
}
