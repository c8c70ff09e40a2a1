// The parts of a run every room may be handed: its options, its terminal, its clock, its prompts, its paths.
// Types only, at the bottom of the house (docs/CONTRIBUTING.md): the context of each room (src/context.ts,
// src/auth/types.ts AuthContext, src/api/http.ts HttpContext) is made of them.

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
