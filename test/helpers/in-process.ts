// Runs fsapi in the test's own process: the argv goes through the real commander tree (src/program.ts)
// and src/runtime.ts's runCommand, with the run's Context made by createContext from test parts
// (test/helpers/context.ts): a captured terminal, a clock that never waits, scripted prompts. The answer
// has the shape of test/helpers/cli.ts's runCli, so a test changes `runCli(` into `runInProcess(`.
// Where the process is the point (a pseudo-terminal, signals, start-up, concurrency, a crash) keep runCli.
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { Transport } from '../../src/api/types.js';
import type { Clock } from '../../src/context.js';
import { defineEveryCommand, commanderErrorAsJson, commanderErrorInOneVoice } from '../../src/program.js';
import { forEachCommand, helpCommandAsFlag, reportError } from '../../src/main.js';
import { errorRed, jsonRequested, stderrColour } from '../../src/ui/error-lines.js';
import { createContext, withContextFactory, type CommandRunner, type ContextFactory } from '../../src/runtime.js';
import { withFlags } from '../../src/commands/run.js';
import { closeLocalStores } from '../../src/store/database.js';
import { releaseProcessLocks } from '../../src/store/process-lock.js';
import { captureTerminal, FakeClock, scriptedPrompt, type ScriptedAnswer } from './context.js';
import { childEnv, type RunResult } from './cli.js';

export interface InProcessOptions {
  /** Environment added to the test process's (without its FSAPI_* and colour settings); must name
   *  FSAPI_CONFIG_DIR and FSAPI_DATA_DIR (a home of test/helpers/cli.ts), so no run touches the real ones. */
  env: Record<string, string | undefined>;
  /** stdin, stdout and stderr are terminals: tables, colours, and prompts answered from `prompts`. */
  tty?: boolean;
  /** Terminal width with `tty`; 160 unless given. */
  columns?: number;
  /** What stdin holds. */
  input?: string;
  /** The answers to the prompts, in order (tty only); a prompt not in it fails the test. */
  prompts?: readonly ScriptedAnswer[];
  /** The run's clock; by default a FakeClock that skips every wait at once (see its caveat). */
  clock?: Clock;
  /** What requests to a base address go through: stubbed answers (test/helpers/http-stubs.ts); node:http unless given. */
  transport?: Transport;
  /**
   * gh's `runF`: given, the command is not run; this gets the options as the command's spec parsed them
   * (typed: an amount in kobo) and its arguments, so a test checks a command's flags alone.
   */
  runF?: (options: Record<string, unknown>, args: readonly string[]) => void;
}

/** The command tree, every group defined, its output and exits turned towards the current run. */
let tree: Command | undefined;
let current: { stdout: Writable; stderr: Writable; columns: number | undefined; colour: boolean; json: boolean } | undefined;

function commandTree(): Command {
  if (tree) return tree;
  tree = defineEveryCommand();
  forEachCommand(tree, (command) => {
    command.exitOverride();
    command.configureOutput({
      // As src/program.ts writes them: red by the same rules, the error object under --json.
      outputError: (text, write) =>
        write(current?.json ? commanderErrorAsJson(text) : commanderErrorInOneVoice(text, current?.columns, errorRed(current?.colour ?? false))),
      writeOut: (text) => void current?.stdout.write(text),
      writeErr: (text) => void current?.stderr.write(text),
      getOutHelpWidth: () => current?.columns ?? 80,
      getErrHelpWidth: () => current?.columns ?? 80,
    });
  });
  return tree;
}

// Commander reads the options it binds to variables (FSAPI_PROFILE, FSAPI_TIMEOUT, ...) from process.env,
// so a run's environment is lent to process.env while it runs; runs therefore take turns.
let turn: Promise<unknown> = Promise.resolve();

export function runInProcess(args: string[], options: InProcessOptions): Promise<RunResult> {
  const run = turn.then(() => runNow(args, options));
  turn = run.catch(() => undefined);
  return run;
}

async function runNow(args: string[], options: InProcessOptions): Promise<RunResult> {
  if (!options.env.FSAPI_CONFIG_DIR || !options.env.FSAPI_DATA_DIR)
    throw new Error('runInProcess needs FSAPI_CONFIG_DIR and FSAPI_DATA_DIR in env (a home from test/helpers/cli.ts)');
  const env = childEnv(options.env) as Record<string, string | undefined>;
  const terminal = captureTerminal({ tty: options.tty, columns: options.columns, input: options.input });
  const prompts = options.tty ? scriptedPrompt(options.prompts ?? []) : undefined;
  if (!options.tty && options.prompts?.length) throw new Error('prompts are answered only with tty: true');
  const clock = options.clock ?? new FakeClock();
  const program = commandTree();
  const argv = ['node', 'fsapi', ...args];
  current = {
    stdout: terminal.stdout,
    stderr: terminal.stderr,
    columns: terminal.stderrColumns,
    colour: stderrColour(env, argv, terminal.stderrIsTTY),
    json: jsonRequested(argv),
  };
  const savedEnv = { ...process.env };
  lendEnvironment(env);
  const factory: ContextFactory = (rawGlobals, _processEnv, fromEnv) =>
    createContext(rawGlobals, env, fromEnv, {
      terminal,
      clock,
      ...(prompts ? { prompt: prompts.prompt } : {}),
      ...(options.transport ? { transport: options.transport } : {}),
    });
  const runF = options.runF;
  const runner: CommandRunner | undefined =
    runF === undefined
      ? undefined
      : async (_ctx, module, parsed, args) => {
          // As the command's run would get them (src/commands/run.ts): flags not given filled in.
          const spec = (module.default as { spec?: Parameters<typeof withFlags>[0] }).spec;
          runF(spec ? withFlags(spec, parsed) : parsed, args);
        };
  let code = 0;
  try {
    await withContextFactory(factory, runner, () => program.parseAsync(helpCommandAsFlag(argv)));
  } catch (error) {
    code = reportError(error, args.includes('--verbose') || env.FSAPI_VERBOSE === '1', {
      write: (text) => void terminal.stderr.write(text),
      width: terminal.stderrColumns,
      color: stderrColour(env, argv, terminal.stderrIsTTY),
      json: jsonRequested(argv),
    });
  } finally {
    lendEnvironment(savedEnv);
    current = undefined;
    // What a process would lose when it ends: open stores (the run's own connections, simulator and notes
    // end with the run: src/runtime.ts runModule).
    await closeLocalStores();
    releaseProcessLocks();
  }
  prompts?.verify();
  // Under a terminal the person sees stdout and stderr on one screen, as runCli's pseudo-terminal gives them.
  if (options.tty) return { code, stdout: terminal.stdout.text, stderr: '' };
  return { code, stdout: terminal.stdout.text, stderr: terminal.stderr.text };
}

/**
 * Makes process.env hold exactly `env`, key by key: the object itself stays, so Node still notices TZ
 * (it changes the process's time zone when set) as it does for a child given TZ.
 */
function lendEnvironment(env: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(process.env)) if (env[key] === undefined) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined && process.env[key] !== value) process.env[key] = value;
}
