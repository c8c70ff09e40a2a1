// The simulator two ways tests drive it: `fsapi simulator serve` as a real process (its URL read from
// stdout), and an in-process simulator called through its fetch with a token of its own.
import { spawn } from 'node:child_process';
import { tokenResponse } from '../../src/api/schemas.js';
import { SIMULATOR_CREDENTIALS } from '../../src/simulator/index.js';
import type { Simulator } from '../../src/simulator/types.js';
import { cliPath, repoRoot } from './cli.js';

/** Starts `fsapi simulator serve`, resolves `url` once its URL is on stdout; killed after `killAfterMs` at the latest. */
export function startServe(args: string[], env: Record<string, string>, killAfterMs = 30_000) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('FSAPI_')));
  const child = spawn(process.execPath, [cliPath, 'simulator', 'serve', ...args], {
    cwd: repoRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal });
    }),
  );
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.trim());
    });
    void exited.then(() => reject(new Error(`serve ended before printing its URL: ${stderr}`)));
  });
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

/** The made-up origin in-process requests are addressed to. */
export const IN_PROCESS_ORIGIN = 'http://local.simulator';

/** A token from an in-process simulator, with the default credentials. */
export async function loginInProcess(simulator: Simulator): Promise<string> {
  const response = await simulator.fetch(
    new Request(`${IN_PROCESS_ORIGIN}/v1/generate-token`, {
      method: 'POST',
      headers: { consumerKey: SIMULATOR_CREDENTIALS.consumerKey, consumerSecret: SIMULATOR_CREDENTIALS.consumerSecret, validityTime: '60' },
    }),
  );
  return tokenResponse.parse(await response.json()).token;
}

/** One API call to an in-process simulator: the status and the parsed JSON body. */
export async function callInProcess(simulator: Simulator, token: string, method: string, pathname: string, body?: unknown) {
  const response = await simulator.fetch(
    new Request(`${IN_PROCESS_ORIGIN}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
