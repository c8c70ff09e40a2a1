// The parts of a run every room may be handed: its options, its terminal, its clock, its prompts, its paths,
// and what the run keeps while it lasts. At the bottom of the house (CONTRIBUTING.md): the context of each
// room (src/context.ts, src/auth/types.ts AuthContext, src/api/http.ts HttpContext) is made of them.

export interface GlobalOptions {
  /** --profile or FSAPI_PROFILE; undefined means "the default profile, else local". */
  profile: string | undefined;
  json: boolean;
  /** false with --no-color or NO_COLOR; FORCE_COLOR forces true. */
  color: boolean;
  verbose: boolean;
  /** Per-request timeout in milliseconds (--timeout seconds, FSAPI_TIMEOUT). */
  timeoutMs: number;
  /** --base-url or FSAPI_BASE_URL, already checked to be an http(s) URL. */
  baseUrl: string | undefined;
}

export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Colours allowed on stdout / stderr. */
  colorStdout: boolean;
  colorStderr: boolean;
  /** Terminal width for tables, when stdout is a terminal. */
  columns: number | undefined;
  /** Terminal width of stderr, for the tables a command shows before asking (batch summary). */
  stderrColumns?: number | undefined;
  /** Writes data to stdout. */
  out(text: string): void;
  /** Writes one line of talk (progress, warnings, notes) to stderr. */
  note(line: string): void;
}

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Prompt {
  /** Whether a person can answer: stdin and stderr are terminals. */
  readonly interactive: boolean;
  confirm(message: string, options?: { defaultValue?: boolean }): Promise<boolean>;
  select<T>(message: string, choices: ReadonlyArray<{ name: string; value: T; description?: string }>): Promise<T>;
  input(message: string, options?: { defaultValue?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(message: string): Promise<string>;
  /** A list filtered as the person types; `source` gives the choices for what is typed so far. */
  search<T>(message: string, source: (term: string) => ReadonlyArray<{ name: string; value: T; description?: string }>): Promise<T>;
}

export interface Paths {
  configDir: string;
  dataDir: string;
}

/** A client's own name and version, as it gave them. */
export interface ClientInfo {
  name: string;
  version: string;
}

/**
 * What one run (a command; a tool call of `fsapi mcp`) keeps while it lasts: made with its context
 * (src/runtime.ts) and ended with it, so nothing of one run is left for the next in the same process and no
 * test resets module state by hand.
 */
export interface RunState {
  /** The notes said once a run (the local simulator's: "no real money moves"), by name. */
  readonly saidOnce: Set<string>;
  /** When the last rate-limit note was said (epoch ms): at most one each 2 s. */
  lastRateLimitNoteMs: number;
  /** Closes what the run opened (the in-process simulator's database) when it ends. */
  onEnd(close: () => void): void;
  /** Ends the run: everything given to onEnd is closed, once. */
  end(): void;
}

export function newRunState(): RunState {
  const closers: Array<() => void> = [];
  return {
    saidOnce: new Set(),
    lastRateLimitNoteMs: 0,
    onEnd: (close) => void closers.push(close),
    end: () => {
      for (const close of closers.splice(0)) close();
    },
  };
}
