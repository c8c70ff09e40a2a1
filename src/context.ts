// The context every command's logic receives: what `gh` calls the factory. Commands and core code reach
// the terminal, the environment, the clock, prompts and the API only through it, so tests can hand them
// fakes and nothing reaches for `process` directly.
import type { Api, Transport } from './api/types.js';
import type { Profile, ProfileStore } from './auth/types.js';

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

export interface Context {
  io: IO;
  globals: GlobalOptions;
  env: Readonly<Record<string, string | undefined>>;
  paths: Paths;
  clock: Clock;
  prompt: Prompt;
  /** Profiles and tokens in the config dir. Loaded on first use. */
  profiles(): Promise<ProfileStore>;
  /** The profile this run uses (--profile, FSAPI_PROFILE, the default, else local). */
  profile(): Promise<Profile>;
  /** The API client for the active profile, authenticated on first request. */
  api(): Promise<Api>;
  /**
   * What requests to a base address go through (src/api/http.ts): node:http (src/api/node-transport.ts),
   * or a test's stubbed answers (test/helpers/http-stubs.ts). The in-process simulator has its own.
   */
  transport: Transport;
  /**
   * The program this run serves, as it named itself: an MCP client's name and version from `initialize`
   * (src/agents/server.ts). A label kept on the records it leads to (src/transfers/asker.ts), never proof.
   */
  client?: ClientInfo | undefined;
}

/** A client's own name and version, as it gave them. */
export interface ClientInfo {
  name: string;
  version: string;
}
