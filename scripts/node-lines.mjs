// The Node lines fsapi supports, for the tests (scripts/test.mjs) and the benchmarks (bench/run.mjs). A line
// the machine's Node is not is installed from the npm registry's `node` package into a cache folder of the
// user (never globally, never into the project), once, and found there on later runs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** The supported LTS lines (package.json's engines: ^22.13.0 || >=24). */
export const supportedNodeLines = ['22', '24'];

/** Where each line is kept: $XDG_CACHE_HOME/fsapi-node/<line>, else ~/.cache/fsapi-node/<line>. */
export function nodeCacheFolder(line) {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(cacheHome, 'fsapi-node', line);
}

const binaryIn = (folder) => path.join(folder, 'node_modules', 'node', 'bin', 'node');

/** The major version a node binary reports, or undefined when it does not run. */
function majorOf(binary) {
  try {
    return /^v(\d+)\./.exec(execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 }))?.[1];
  } catch {
    return undefined;
  }
}

// Bounded, so an unreachable registry is a clear failure and not a hang: npm's own fetch timeout and
// retries, and a hard limit on the whole install (it downloads a ~30 MB binary package).
const INSTALL_LIMIT_MS = 5 * 60_000;

/**
 * The path of a node binary of `line` (e.g. '22'), installed on first use. Throws an Error whose message
 * says what failed and what to do, when the registry cannot be reached or the install fails.
 */
export async function nodeBinary(line, { log = (text) => process.stderr.write(`${text}\n`) } = {}) {
  const folder = nodeCacheFolder(line);
  if (majorOf(binaryIn(folder)) === line) return binaryIn(folder);
  mkdirSync(path.dirname(folder), { recursive: true });
  // Installed beside the final folder and renamed into place: a run that stops halfway, or another run
  // installing at the same time, never leaves a half-installed Node where the next run looks.
  const staging = await mkdtemp(`${folder}.install-`);
  log(`installing Node ${line} from the npm registry into ${folder} ...`);
  try {
    await new Promise((resolve, reject) => {
      const args = [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        '--loglevel=error',
        '--fetch-timeout=30000',
        '--fetch-retries=1',
        '--prefix',
        staging,
        `node@${line}`,
      ];
      // The `node` package fetches the binary of this platform in its install script (a second npm), so
      // scripts must run; npm runs in a process group of its own so that the limit stops both.
      const env = { ...process.env, npm_config_ignore_scripts: 'false' };
      const child = spawn('npm', args, { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      let timedOut = false;
      child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-64 * 1024)));
      const limit = setTimeout(() => {
        timedOut = true;
        process.kill(-child.pid, 'SIGKILL');
      }, INSTALL_LIMIT_MS);
      child.on('error', (error) => {
        clearTimeout(limit);
        reject(new Error(`could not run npm to install Node ${line}: ${error.message}`));
      });
      child.on('close', (code) => {
        clearTimeout(limit);
        if (code === 0 && !timedOut) return resolve();
        const why = timedOut ? `no answer within ${INSTALL_LIMIT_MS / 60_000} minutes` : npmReason(stderr) || `npm exited ${code}`;
        reject(new Error(`could not install Node ${line} from the npm registry: ${why}`));
      });
    });
    if (majorOf(binaryIn(staging)) !== line) throw new Error(`the npm registry's node@${line} package installed no runnable Node ${line} binary`);
    await rm(folder, { recursive: true, force: true });
    try {
      await rename(staging, folder);
    } catch (error) {
      // Another run installed it first: use theirs.
      if (majorOf(binaryIn(folder)) !== line) throw error;
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return binaryIn(folder);
}

/** npm's own one-line reason (`npm error FetchError: request to ... failed, reason: ...`), else its first error line. */
function npmReason(stderr) {
  const lines = stderr.split('\n').map((line) => line.replace(/^npm (error|ERR!) ?/, '').trim());
  return lines.find((line) => /^\w*Error: /.test(line)) ?? lines.find((line) => line !== '' && !line.startsWith('npm warn')) ?? '';
}
