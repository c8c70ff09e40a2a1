// Logs a profile in to a served simulator with its documented credentials, the way a user does
// (`auth login` from the environment), and fails the test at once if that does not work. Run in process
// (test/helpers/in-process.ts): a set-up step, not what a test is about.
import assert from 'node:assert/strict';
import { runInProcess } from './in-process.js';
import { SIMULATOR_CREDENTIALS } from '../../src/simulator/server.js';

/** The environment that `auth login` reads the simulator's consumer key and secret from. */
export const SIMULATOR_LOGIN_ENV = {
  FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey,
  FSAPI_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret,
};

/** `more`: further options of `auth login` (`--save-credentials`). */
export async function logInToSimulator(env: Record<string, string>, baseUrl: string, profile = 'sim', more: string[] = []): Promise<void> {
  const login = await runInProcess(['auth', 'login', '--profile', profile, '--env', 'sandbox', '--base-url', baseUrl, ...more], {
    env: { ...env, ...SIMULATOR_LOGIN_ENV },
  });
  assert.equal(login.code, 0, `login failed: ${login.stderr}`);
}
