// Runs the commander tree and turns every failure into the contract's one or two stderr lines and exit
// code. Kept tiny: it is on the start-up path of every command, `--help` included.
import type { Command, CommanderError } from 'commander';
import type { FsapiError } from './errors.js';
import { engineWasLoaded } from './engine-loader.js';
import { errorObjectLine, errorRed, jsonRequested, labelledLines, stderrColour } from './ui/error-lines.js';
import { terminalText } from './common/sanitize.js';
import { handedToNodeStreams } from './write-now.js';

// The exit codes of src/errors.ts, repeated here so that `fsapi --help` does not load that module: every
// file the start-up path loads costs time (see bench/startup.mjs). test/main.test.ts keeps them equal.
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_HELD = 7;

export async function main(program: Command): Promise<void> {
  forEachCommand(program, (command) => command.exitOverride());
  let streamsUsed = false;
  try {
    await program.parseAsync(helpCommandAsFlag(process.argv));
  } catch (error) {
    process.exitCode = reportError(error, process.argv.includes('--verbose') || process.env.FSAPI_VERBOSE === '1');
    streamsUsed = !isCommanderError(error);
  }
  // The command is finished: exit as soon as what was written has been handed to the OS. That spares Node's
  // own teardown (about 15 ms of CPU on `--help`, docs/startup.md), and no handle a command left open holds
  // the process (an idle kept-alive connection would not: Node unrefs it). Help, the version and usage
  // errors were written straight to the file descriptors (src/write-now.ts): then there is no stream to
  // wait for, and making one here would cost what writing that way saved.
  if (streamsUsed || engineWasLoaded() || handedToNodeStreams()) await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}

// Global options that take a value: the word after them is not a command.
const VALUE_OPTIONS = new Set(['--profile', '--timeout', '--base-url']);

/**
 * `fsapi help transfer send` as `fsapi transfer send --help`: commander's help command looks only one
 * level down, so `help <group> <sub>` would show the group's help.
 */
export function helpCommandAsFlag(argv: readonly string[]): string[] {
  let i = 2;
  while (i < argv.length && argv[i]!.startsWith('-')) i += VALUE_OPTIONS.has(argv[i]!) ? 2 : 1;
  if (argv[i] !== 'help' || argv.length <= i + 2 || argv[i + 1]!.startsWith('-')) return [...argv];
  return [...argv.slice(0, i), ...argv.slice(i + 1), '--help'];
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}

export function forEachCommand(command: Command, visit: (command: Command) => void): void {
  visit(command);
  for (const sub of command.commands) forEachCommand(sub, visit);
}

/** Where an error is written: the process's stderr, or a test's capture (test/helpers/in-process.ts). */
export interface ErrorOutput {
  write(text: string): void;
  /** Terminal width to wrap at; undefined when stderr is no terminal. */
  width: number | undefined;
  color: boolean;
  /** Under --json an error is one JSON object on one line (docs/scripting.md). */
  json: boolean;
}

function processErrorOutput(): ErrorOutput {
  return {
    write: (text) => void process.stderr.write(text),
    width: process.stderr.isTTY ? process.stderr.columns || 80 : undefined,
    color: stderrColour(process.env, process.argv, Boolean(process.stderr.isTTY)),
    json: jsonRequested(),
  };
}

/**
 * Writes the error to stderr and returns the exit code. Under `--json` it is one JSON object on one line
 * (errorObjectLine), with no stack whatever `--verbose` says: a machine reads stderr as JSON lines.
 */
export function reportError(error: unknown, verbose: boolean, given?: ErrorOutput): number {
  if (isCommanderError(error)) {
    // commander already printed its message (with a "Did you mean" suggestion where it has one; under
    // --json as the error object, src/program.ts).
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_OK;
    if (error.exitCode === 0) return EXIT_OK;
    return EXIT_USAGE;
  }
  // Asked for only now: process.stderr's isTTY makes the stream, which help and usage errors never need.
  const output = given ?? processErrorOutput();
  if (output.json) {
    if (isFsapiError(error)) {
      output.write(errorObjectLine(error.code ?? 'failed', error.message, error.hint, error.exitCode));
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    output.write(errorObjectLine('internal', `unexpected failure: ${message}`, 'run again without --json and with --verbose for details', EXIT_FAILED));
    return EXIT_FAILED;
  }
  const { width, color: useColor } = output;
  const red = errorRed(useColor);
  const yellow = (text: string) => (useColor ? `\u001b[33m${text}\u001b[39m` : text);
  // On a terminal a long line is wrapped at spaces (src/ui/error-lines.ts); piped, each stays one line.
  if (isFsapiError(error)) {
    // Held for approval (exit 7) is no failure: the payment waits for a person. It is said as `transfer
    // batch` says its held rows, a yellow `held:`, with the same hint line as an error.
    const held = error.exitCode === EXIT_HELD;
    // Messages can quote the API (its `message`, a name): never let them drive the terminal.
    output.write(labelledLines(held ? 'held:' : 'error:', terminalText(error.message), width, held ? yellow : red));
    if (error.hint) output.write(labelledLines('hint:', terminalText(error.hint), width));
    if (verbose && error.cause instanceof Error && error.cause.stack) output.write(`${error.cause.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  output.write(labelledLines('error:', `unexpected failure: ${terminalText(message)}`, width, red));
  if (verbose && error instanceof Error && error.stack) output.write(`${error.stack}\n`);
  else output.write(labelledLines('hint:', 'run again with --verbose for details', width));
  return EXIT_FAILED;
}

/** Every FsapiError carries its exit code; checked by shape so this module needs no import of errors.ts. */
function isFsapiError(error: unknown): error is FsapiError {
  return error instanceof Error && typeof (error as FsapiError).exitCode === 'number';
}

function isCommanderError(error: unknown): error is CommanderError {
  return error instanceof Error && typeof (error as CommanderError).code === 'string' && (error as CommanderError).code.startsWith('commander.');
}
