// One tool call: the command runs in this process through the same function a command line reaches
// (src/runtime.ts, runModule), on a Context of its own made by createContext, with `--json` set and its
// streams captured: stdout is the result, stderr the notes. There is no terminal: stdin is empty and no
// prompt can be answered, so a command that would ask refuses instead, as it does for a script.
// Calls take turns: commands assume one run at a time per process (its stores, its notes shown once).
import { Readable, Writable } from 'node:stream';
import type { ClientInfo, Context, GlobalOptions } from '../context.js';
import { createContext, runModule } from '../runtime.js';
import { closeLocalStores } from '../store/database.js';
import type { CommandModule } from '../commands/types.js';
import type { AgentTool, ToolCall, ToolRun } from './tools.js';
import type { EmbeddedResource } from './results.js';

/** What one run left: its stdout (the `--json` result), its notes, its documents, and its error if it threw. */
export interface ToolRunResult {
  stdout: string;
  /** Each note as it was written (one write of ctx.io.note): a note's own line breaks stay inside it. */
  notes: string[];
  attached: EmbeddedResource[];
  error: unknown;
}

/** A stream that keeps what is written to it: as text, and write by write. */
class Capture extends Writable {
  text = '';
  writes: string[] = [];
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.text += text;
    this.writes.push(text);
    done();
  }
}

let turn: Promise<unknown> = Promise.resolve();

/** Resolves when every call asked so far has finished (the server waits for it before it ends). */
export function whenIdle(): Promise<void> {
  return turn.then(() => undefined);
}

/**
 * Runs the tool's command with these options and arguments (already parsed: src/agents/tools.ts), as the
 * server was started: its profile, base address and timeout, the process's environment.
 */
export function runTool(
  server: { globals: GlobalOptions; env: Readonly<Record<string, string | undefined>>; client?: ClientInfo | undefined },
  tool: AgentTool,
  options: Record<string, unknown>,
  args: string[],
  extras: Readonly<Record<string, unknown>> = {},
): Promise<ToolRunResult> {
  const run = turn.then(() => runNow(server, tool, options, args, extras));
  turn = run.catch(() => undefined);
  return run;
}

async function runNow(
  server: { globals: GlobalOptions; env: Readonly<Record<string, string | undefined>>; client?: ClientInfo | undefined },
  tool: AgentTool,
  options: Record<string, unknown>,
  args: string[],
  extras: Readonly<Record<string, unknown>>,
): Promise<ToolRunResult> {
  const attached: EmbeddedResource[] = [];
  const call: ToolCall = { extras, attach: (resource) => attached.push(resource) };
  const stdout = new Capture();
  const stderr = new Capture();
  const terminal = {
    stdout,
    stderr,
    stdin: Readable.from([]),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    stdoutColumns: undefined,
    stderrColumns: undefined,
  };
  const { globals } = server;
  // The server's own globals, with --json: never --verbose (its lines are for a person), never colour.
  const rawGlobals = {
    profile: globals.profile,
    json: true,
    color: false,
    verbose: false,
    timeout: String(globals.timeoutMs / 1000),
    baseUrl: globals.baseUrl,
  };
  let error: unknown;
  try {
    // No colour whatever the environment says: the text goes to a model, not a terminal.
    const env = { ...server.env, FORCE_COLOR: undefined, NO_COLOR: '1' };
    // The client the server serves, as it named itself: kept on what the call records (src/transfers/asker.ts).
    const ctx: Context = createContext(rawGlobals, env, new Set(), { terminal, client: server.client });
    const module = await tool.load();
    await runModule(ctx, tool.run ? wrapped(tool.run, module, call) : module, options, args);
  } catch (thrown) {
    error = thrown;
  } finally {
    // What a process would drop when it ends: the stores opened for this call (the run itself, its
    // connections, its local simulator and its once-a-run notes, ended with it: src/runtime.ts
    // runModule). The run's lock (a team store's lease, renewed on its own connection) stays: this process
    // is alive, and says so.
    await closeLocalStores();
  }
  return { stdout: stdout.text, notes: stderr.writes, attached, error };
}

/** The module with the tool's own run in place of the command's (which the tool's run calls itself). */
function wrapped(run: ToolRun, module: CommandModule, call: ToolCall): CommandModule {
  const body = (ctx: Context, options: Record<string, unknown>, args: string[]) => run(ctx, module, options, args, call);
  return { ...module, default: Object.assign(body, { spec: module.default.spec }) };
}
