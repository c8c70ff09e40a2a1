// Builds the Context for a command run from the real process: the only place (with src/main.ts) that
// reads process.env, process.stdout and friends. Loaded after commander has parsed the arguments.
import type { Command } from 'commander';
import type { CommandModule } from './commands/types.js';
import type { ClientInfo, Clock, Context, GlobalOptions, IO, Prompt } from './context.js';
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
import { createApi } from './api/client.js';
import { nodeTransport } from './api/node-transport.js';
import type { Transport } from './api/types.js';
import { storeGuard, teamStoreOfRun } from './store/store-check.js';
import { finishStores, watchStores } from './store/identity.js';
import { chooseTeamStore } from './store/team-choice.js';
import { permissionErrorOf } from './common/permission.js';

/** Builds the Context of a run from the parsed global options; see useContextFactory. */
export type ContextFactory = (rawGlobals: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>, fromEnv: ReadonlySet<string>) => Context;

let contextFactory: ContextFactory = createContext;
let pipeWatched = false;

/**
 * Replaces how runCommand builds a run's Context (undefined: the real one again). The tests run the real
 * command tree in their own process this way (test/helpers/in-process.ts), with a captured terminal, a
 * fake clock and scripted prompts made by createContext's own parts.
 */
export function useContextFactory(factory: ContextFactory | undefined): void {
  contextFactory = factory ?? createContext;
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
  await runModule(ctx, module, command.opts(), args);
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
  watchStores(module.inspectsStore ? undefined : (found) => guard.check(found));
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
  }
}

/**
 * V8 grows its young generation (up to 3 x 16 MB) while a run allocates quickly, so a long `tx list --all`
 * or batch looks as if it kept every row. Holding it at YOUNG_GENERATION_BYTES keeps peak RSS flat
 * (bench/tx-list.mjs, bench/batch.mjs) for a few more cheap scavenges. Only for long runs: node:v8 costs a
 * few ms to load. Not a node flag in bin/: Node would lose its start-up snapshot, and a V8 flag set before
 * the bundles compile would make V8 refuse the compile cache's entries made under the usual flags.
 */
function keepYoungGenerationSmall(): void {
  const v8 = process.getBuiltinModule('node:v8');
  // The old generation too: after each full collection V8 lets it grow to a multiple of what was live
  // (a factor it picks from 1.1 to 4, high while the run allocates fast) before the next one. A long
  // run's live heap is small and flat (a page of rows, the requests in flight), so that headroom is all
  // garbage: a 20,000-row batch dry run peaked at 119 MB with V8's choice, 87 MB at 1.5x, with the same
  // CPU (bench/batch-size.mjs).
  v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  const youngBytes = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? YOUNG_GENERATION_BYTES;
  const stopGrowing = () => v8.setFlagsFromString('--semi-space-growth-factor=1');
  if (youngBytes() >= YOUNG_GENERATION_BYTES) return stopGrowing();
  // Still smaller, after a start that allocated little: V8 doubles it once the run's garbage asks for
  // it; it stops growing from there. Smaller than that, twice as many scavenges move requests still in
  // flight to the old generation, which then grows with the rows (bench/batch.mjs: 1.33x from 100 to
  // 1,000 rows, against 1.2x).
  const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
  const observer = new PerformanceObserver(() => {
    if (youngBytes() < YOUNG_GENERATION_BYTES) return;
    stopGrowing();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** How far the old generation may grow past what the last full collection found live. */
const OLD_GENERATION_GROWTH_PERCENT = 50;

/** The young generation a long run keeps: what V8 reaches after the start of a typical command. */
const YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;

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
    transport: parts.transport ?? nodeTransport,
    client: parts.client,
  };
  return ctx;
}
