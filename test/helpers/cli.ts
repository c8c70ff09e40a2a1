// Runs the built CLI (bin/fsapi.cjs) as a subprocess with its own temporary config and data dirs, the
// way a user or a script runs it. `tty: true` runs it under a real pseudo-terminal (util-linux `script`),
// so stdout and stdin are terminals and tables, colours and prompts behave as they do for a person.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cliPath = path.join(repoRoot, 'bin/fsapi.cjs');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Keystrokes typed once the screen shows `expect`. A function is called at that moment and what it returns
 * is typed: for a test that changes the world while the prompt waits (a fault in the simulator, say).
 */
export type KeyAnswer = readonly [expect: string | RegExp, keystrokes: string | (() => string)];

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  tty?: boolean;
  /**
   * What is typed into the terminal (tty only), in order: each pair's keystrokes once the screen, since
   * the keystrokes before, shows its `expect` (ANSI codes stripped), the prompt they answer. Never after
   * a time: a prompt that is not shown yet may not be reading its input.
   */
  keys?: KeyAnswer[];
  timeoutMs?: number;
  cwd?: string;
  /** The script node runs instead of bin/fsapi.cjs, e.g. the launcher of a copy of the package. */
  cli?: string;
  /** Width of the pseudo-terminal (tty only); 160 unless given. */
  columns?: number;
  /**
   * The run as another OS user: the command line put before Node (`setpriv --reuid=…`, `sudo -n -u … env
   * VAR=…`) and the Node it runs (one that user can reach: test/helpers/os-user.ts packageForAnotherUser).
   */
  as?: { prefix: readonly string[]; node: string };
}

/** A fresh pair of config and data dirs; call cleanup() in an after() hook. */
export function makeHome(): { configDir: string; dataDir: string; root: string; env: Record<string, string>; cleanup(): void } {
  const root = mkdtempSync(path.join(tmpdir(), 'fsapi-test-'));
  const configDir = path.join(root, 'config');
  const dataDir = path.join(root, 'data');
  return {
    root,
    configDir,
    dataDir,
    env: { FSAPI_CONFIG_DIR: configDir, FSAPI_DATA_DIR: dataDir },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export type Home = ReturnType<typeof makeHome>;

/** Homes made one per test as needed; `cleanup()` (in an after() hook) removes every one of them. */
export function homePool(): { home(): Home; cleanup(): void } {
  const homes: Home[] = [];
  return {
    home() {
      const made = makeHome();
      homes.push(made);
      return made;
    },
    cleanup: () => {
      for (const made of homes.splice(0)) made.cleanup();
    },
  };
}

/** Environment for the child: no inherited FSAPI_*, SUDO_* or colour settings, so tests do not depend on the shell. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // SUDO_*: fsapi records who is behind sudo (src/transfers/asker.ts); a test run under sudo must not say so.
    if (key.startsWith('FSAPI_') || key.startsWith('SUDO_') || key === 'NO_COLOR' || key === 'FORCE_COLOR' || key === 'CI') continue;
    env[key] = value;
  }
  env.HOME = env.HOME ?? tmpdir();
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<RunResult> {
  if (options.tty) return runCliInTerminal(args, options);
  return new Promise((resolve, reject) => {
    const [command, ...rest] = [...(options.as?.prefix ?? []), options.as?.node ?? process.execPath, options.cli ?? cliPath, ...args];
    const child = spawn(command!, rest, {
      cwd: options.cwd ?? repoRoot,
      env: childEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A run of the built CLI as its own process, watched while it runs: its output so far, its exit awaited apart (for races, faults and kills). */
export function startCli(args: string[], options: Pick<RunOptions, 'env' | 'cwd'> = {}) {
  const child = spawn(process.execPath, [cliPath, ...args], { cwd: options.cwd ?? repoRoot, env: childEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited: Promise<RunResult> = new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr })),
  );
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * Starts the CLI under `script` with a 160x50 pseudo-terminal. `script` runs its command through
 * $SHELL, so the shell is pinned to /bin/sh and replaced by the CLI (`exec`): otherwise a Ctrl+C
 * typed into the terminal also reaches the shell, and a shell like dash dies of it (exit 130)
 * instead of reporting how the CLI ended.
 */
export function spawnCliInTerminal(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd = repoRoot,
  cli = cliPath,
  columns = 160,
  as?: RunOptions['as'],
) {
  const command = [...(as?.prefix ?? []), as?.node ?? process.execPath, cli, ...args].map(shellQuote).join(' ');
  return spawn('script', ['-qfec', `stty cols ${columns} rows 50; exec ${command}`, '/dev/null'], {
    cwd,
    env: childEnv({ TERM: 'xterm-256color', ...env, SHELL: '/bin/sh' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * Runs the CLI under `script`, which gives it a pseudo-terminal for stdin, stdout and stderr. The
 * terminal merges stdout and stderr, so `stdout` holds everything the person saw and `stderr` is empty.
 */
function runCliInTerminal(args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCliInTerminal(args, options.env, options.cwd, options.cli, options.columns, options.as);
    let screen = '';
    let stderr = '';
    const keys = [...(options.keys ?? [])];
    /** Where the screen stood when the last keystrokes were typed: an expectation reads only what followed. */
    let typedAt = 0;
    const typeAnswers = () => {
      for (let key = keys[0]; key !== undefined; key = keys[0]) {
        const [expect, keystrokes] = key;
        const shown = stripAnsi(screen.slice(typedAt));
        if (typeof expect === 'string' ? !shown.includes(expect) : !expect.test(shown)) return;
        keys.shift();
        typedAt = screen.length;
        child.stdin.write(typeof keystrokes === 'string' ? keystrokes : keystrokes());
      }
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk;
      typeAnswers();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout: screen.replaceAll('\r\n', '\n'), stderr });
    });
    if (options.input) child.stdin.write(options.input);
  });
}

/** Removes ANSI escape sequences, for assertions on what a person reads. */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\u001b\][^\u0007]*\u0007/g, '');
}

export interface ErrorObject {
  code: string;
  message: string;
  hint: string | null;
  exitCode: number;
}

/**
 * The `--json` error object of a run: the last line of stderr, one JSON object with exactly the keys
 * code, message, hint and exitCode (docs/scripting.md). Fails when stderr ends in anything else.
 */
export function errorObject(stderr: string): ErrorObject {
  const lines = stderr.split('\n').filter((line) => line !== '');
  const last = lines.at(-1) ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(last);
  } catch {
    throw new Error(`the last stderr line is not JSON: ${JSON.stringify(last)}`);
  }
  const error = (parsed as { error?: Record<string, unknown> }).error;
  if (!error || Object.keys(parsed as object).length !== 1) throw new Error(`not an error object: ${last}`);
  const keys = Object.keys(error).sort().join(',');
  if (keys !== 'code,exitCode,hint,message') throw new Error(`the error object has the keys ${keys}`);
  if (
    typeof error.code !== 'string' ||
    typeof error.message !== 'string' ||
    typeof error.exitCode !== 'number' ||
    !(typeof error.hint === 'string' || error.hint === null)
  ) {
    throw new Error(`the error object's values have the wrong types: ${last}`);
  }
  return error as unknown as ErrorObject;
}
