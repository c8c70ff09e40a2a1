// Builds the Context for a command run from the real process: the only place (with src/main.ts) that
// reads process.env, process.stdout and friends. Loaded after commander has parsed the arguments.
import type { Command } from 'commander';
import type { CommandModule } from './commands/types.js';
import type { ClientInfo, Clock, Context, GlobalOptions, IO, Prompt } from './context.js';
import { newRunState } from './run-types.js';
import { UsageError } from './errors.js';
import { resolvePaths } from './common/paths.js';
import { createNodeIO, type Terminal } from './ui/io.js';
import { outputMode, prepareTables } from './ui/output.js';
import { createPrompt } from './ui/prompt.js';
import { systemClock } from './common/clock.js';
// Imported statically: runtime.ts is part of the engine (src/engine.ts), which loads only once a command
// runs, never for --help.
import { openProfileStore } from './auth/profile-store.js';
import { resolveProfile } from './auth/resolve.js';
import { createApi } from './auth/api-client.js';
import { createNodeTransport } from './api/node-transport.js';
import type { Transport } from './api/types.js';
import { storeGuard, teamStoreOfRun } from './auth/store-check.js';
import { finishStores, watchStores } from './store/identity.js';
import { chooseTeamStore } from './store/team-choice.js';
import { keepYoungGenerationSmall } from './common/long-run-memory.js';
import { permissionErrorOf } from './common/permission.js';

/** Builds the Context of a run from the parsed global options; see withContextFactory. */
export type ContextFactory = (rawGlobals: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>, fromEnv: ReadonlySet<string>) => Context;

/**
 * Runs a command's module on its context once commander has parsed the line: runModule, unless a test
 * asked to see the parsed options instead (the `runF` of gh's commands: withContextFactory).
 */
export type CommandRunner = (ctx: Context, module: CommandModule, options: Record<string, unknown>, args: string[]) => Promise<void>;

// Module state that stays here, on purpose. The command tree (src/program.ts) is built once per process,
// on the --help start-up path, and its actions call runCommand; what makes a run's Context cannot belong
// to that Context, so the tests' replacement for it is held here for the length of one parse
// (withContextFactory puts the real one back itself: nothing to reset). pipeWatched: one listener on the
// process's own stdout, whatever runs. Everything a run opens (its connections, its local simulator, its
// once-a-run notes) is the Context's and ends with it (runModule: ctx.run.end()).
let contextFactory: ContextFactory = createContext;
let commandRunner: CommandRunner | undefined;
let pipeWatched = false;

/**
 * Runs `work` (a parse of the command tree) with `factory` making each run's Context and, given `runner`,
 * doing that with the parsed options instead of running the command; the real ones again once it settles.
 * The tests run the real command tree in their own process this way (test/helpers/in-process.ts), with a
 * captured terminal, a fake clock and scripted prompts made by createContext's own parts, and check a
 * command's parsed options without running it.
 */
export async function withContextFactory<T>(factory: ContextFactory, runner: CommandRunner | undefined, work: () => Promise<T>): Promise<T> {
  const saved = [contextFactory, commandRunner] as const;
  contextFactory = factory;
  commandRunner = runner;
  try {
    return await work();
  } finally {
    [contextFactory, commandRunner] = saved;
  }
}

export async function runCommand(command: Command, args: string[], load: () => Promise<CommandModule>): Promise<void> {
  // `fsapi tx list --all | head`: the reader left, which is not an error of ours. Stop quietly.
  if (!pipeWatched) {
    pipeWatched = true;
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  // Which global values came from the environment, so an error about one names the variable.
  const fromEnv = new Set(['profile', 'timeout', 'baseUrl'].filter((key) => command.getOptionValueSourceWithGlobals(key) === 'env'));
  const ctx = contextFactory(command.optsWithGlobals(), process.env, fromEnv);
  const [module] = await Promise.all([load(), outputMode(ctx) === 'table' ? prepareTables() : undefined]);
  await (commandRunner ?? runModule)(ctx, module, command.opts(), args);
}

/**
 * Runs a command's module on a Context made for it, with the options already parsed by the spec's kinds:
 * what runCommand does once commander has parsed the line, and what `fsapi mcp` does for each tool call
 * (src/agents/run-tool.ts). The store the profile knows is checked on open, and remembered at the end.
 */
export async function runModule(ctx: Context, module: CommandModule, options: Record<string, unknown>, args: string[]): Promise<void> {
  const longRunning = typeof module.longRunning === 'function' ? module.longRunning(options) : module.longRunning;
  if (longRunning) keepYoungGenerationSmall();
  // A profile knows its store: one that is not its own is refused when opened, before anything is sent.
  const guard = storeGuard(ctx);
  // Where the records are: the data dir's SQLite, or a team store (FSAPI_STORE, `fsapi store use`).
  chooseTeamStore(() => teamStoreOfRun(ctx));
  watchStores(module.inspectsStore ? undefined : guard);
  let failed = false;
  try {
    await module.default(ctx, options, args);
  } catch (error) {
    failed = true;
    // A file the OS would not let fsapi use, wherever it was met: named with its owner and this OS user.
    throw permissionErrorOf(error);
  } finally {
    watchStores(undefined);
    chooseTeamStore(undefined);
    // fsapi.db holds every record after every command (checkpointed), and the profile remembers how many.
    try {
      await guard.remember(await finishStores());
    } catch (error) {
      // Said, never made the command's failure: the command did what it did (a transfer it sent was sent,
      // and its exit code says how it ended). The profile's count stays as before; the next run that can
      // write profiles.json raises it. A command that failed already said why.
      if (!failed)
        ctx.io.note(
          `warning: the profile could not remember, in the config dir ${ctx.paths.configDir}, how many records its store holds: ${(permissionErrorOf(error) as Error).message}`,
        );
    }
    // The run is over: what it opened is closed, and its once-a-run notes go with it (a process that runs
    // many commands, `fsapi mcp` or the tests, starts each afresh without resetting anything).
    ctx.run.end();
  }
}

export function parseGlobals(
  raw: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  fromEnv: ReadonlySet<string> = new Set(),
): GlobalOptions {
  const timeoutText = raw.timeout === undefined ? '30' : String(raw.timeout);
  const timeoutSeconds = Number(timeoutText);
  if (!/^\d+(\.\d+)?$/.test(timeoutText.trim()) || !(timeoutSeconds > 0) || timeoutSeconds > 3600) {
    throw new UsageError(
      `${fromEnv.has('timeout') ? 'FSAPI_TIMEOUT' : '--timeout'} must be a positive number of seconds (at most 3600), not ${JSON.stringify(timeoutText)}`,
      fromEnv.has('timeout') ? 'fix or unset FSAPI_TIMEOUT in the environment' : undefined,
    );
  }
  let baseUrl: string | undefined;
  if (raw.baseUrl !== undefined && raw.baseUrl !== '') {
    try {
      baseUrl = checkBaseUrl(String(raw.baseUrl));
    } catch (error) {
      if (!(error instanceof UsageError) || !fromEnv.has('baseUrl')) throw error;
      throw new UsageError(`FSAPI_BASE_URL: ${error.message}`, 'fix or unset FSAPI_BASE_URL in the environment');
    }
  }
  const forceColor = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const noColor = raw.color === false || env.NO_COLOR !== undefined;
  const verbose = raw.verbose === true || raw.verbose === '1' || raw.verbose === 'true';
  return {
    profile: typeof raw.profile === 'string' && raw.profile !== '' ? raw.profile : undefined,
    json: raw.json === true,
    color: forceColor || !noColor,
    verbose,
    timeoutMs: Math.round(timeoutSeconds * 1000),
    baseUrl,
  };
}

/** An http(s) URL with a host, normalised without a trailing slash. */
export function checkBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`base URL ${JSON.stringify(text)} is not a URL`, 'give it as https://host[:port][/path]');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new UsageError(`base URL ${JSON.stringify(text)} must start with http:// or https://`);
  }
  return url.href.replace(/\/+$/, '');
}

/** What a Context is made of besides the options and env: the process's own unless given (tests). */
export interface ContextParts {
  /** The streams and what they are (terminals, width); the process's by default. */
  terminal?: Terminal;
  clock?: Clock;
  /** The prompts over the run's IO; by default @inquirer/prompts on stdin and stderr. */
  prompt?: (io: IO) => Prompt;
  /** The wire to a base address; node:http by default. */
  transport?: Transport;
  /** The MCP client a tool call runs for (src/agents/run-tool.ts). */
  client?: ClientInfo | undefined;
}

export function createContext(
  rawGlobals: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  fromEnv: ReadonlySet<string> = new Set(),
  parts: ContextParts = {},
): Context {
  const globals = parseGlobals(rawGlobals, env, fromEnv);
  const io = createNodeIO(globals, env, parts.terminal);
  const paths = resolvePaths(env);
  let profiles: ReturnType<Context['profiles']> | undefined;
  let profile: ReturnType<Context['profile']> | undefined;
  let api: ReturnType<Context['api']> | undefined;
  // What the run opens it closes when it ends (runModule): its kept-alive connections among them.
  const run = newRunState();
  const ownTransport = parts.transport ? undefined : createNodeTransport();
  if (ownTransport) run.onEnd(ownTransport.close);
  const ctx: Context = {
    io,
    globals,
    env,
    paths,
    clock: parts.clock ?? systemClock,
    prompt: (parts.prompt ?? createPrompt)(io),
    profiles: () => (profiles ??= Promise.resolve().then(() => openProfileStore(paths.configDir))),
    profile: () =>
      (profile ??= resolveProfile(ctx).catch((error: unknown) => {
        // "no profile named x" when x came from FSAPI_PROFILE: the person may not know it is set.
        if (!(error instanceof UsageError) || !fromEnv.has('profile')) throw error;
        throw new UsageError(`FSAPI_PROFILE: ${error.message}`, `unset FSAPI_PROFILE or set it to a saved profile; ${error.hint ?? ''}`.replace(/; $/, ''));
      })),
    api: () => (api ??= createApi(ctx)),
    transport: parts.transport ?? ownTransport!,
    // Loaded only for a `local` profile: commands against a real API never load the simulator's code.
    openLocalApi: async () => (await import('./simulator/index.js')).openLocalSimulator(paths.dataDir, env, ctx.transport),
    run,
    client: parts.client,
  };
  return ctx;
}
