// Builds the commander tree from the commands' specs (src/commands/tree.ts lists them; src/commands/spec.ts
// says what a spec holds): names, options with their value parsers, help text. Nothing else. Each action loads the engine
// (src/engine.ts, every command's code) only when it runs, so `fsapi --help` loads this file alone and
// starts about as fast as node.
// A group's sub-commands (`transfer send`, `transfer status`, ...) and a top-level command's options are
// defined when a run enters it: building every command's options costs every start, and a run uses one
// (docs/startup.md).
// src/cli.ts runs it; scripts/gen-docs.ts, completion and the tests walk it whole after defineEveryCommand().
import { Command, Help, Option } from 'commander';
import type { commands } from './engine.js';
import { loadEngine } from './engine-loader.js';
import { errorObjectLine, errorRed, jsonRequested, labelledLines, stderrColour } from './ui/error-lines.js';
import { isTerminal, writeNow } from './write-now.js';
import { exitCodeLines, isGroup, type CommandSpec, type GroupSpec, type OptionSpec } from './commands/spec.js';
import { optionKey } from './common/option-names.js';
import { commandSpecs } from './commands/tree.js';

export const program = new Command('fsapi')
  .description('Bank transfers, balances, transactions and client accounts from the command line.')
  .version(process.env.FSAPI_VERSION_OVERRIDE ?? '0.1.0', '-V, --version')
  .addOption(new Option('--profile <name>', 'saved profile to use (default: the default profile, else local)').env('FSAPI_PROFILE'))
  .option('--json', 'print machine-readable JSON on stdout and nothing else there')
  .option('--no-color', 'no ANSI colours (also NO_COLOR)')
  .addOption(new Option('--verbose', 'one stderr line per HTTP request, secrets redacted').env('FSAPI_VERBOSE'))
  .addOption(new Option('--timeout <seconds>', 'per-request timeout in seconds (default: 30)').env('FSAPI_TIMEOUT'))
  .addOption(new Option('--base-url <url>', "override the profile's base address").env('FSAPI_BASE_URL'))
  .showSuggestionAfterError(true)
  // commander's own errors in the voice of every other error: `error: ...` then one `hint: ...`.
  .configureOutput({
    // Red like fsapi's own errors (src/main.ts), by the same rules; under --json the error object.
    outputError: (text, write) =>
      write(
        jsonRequested()
          ? commanderErrorAsJson(text)
          : commanderErrorInOneVoice(
              text,
              isTerminal(2) ? process.stderr.columns || 80 : undefined,
              errorRed(stderrColour(process.env, process.argv, isTerminal(2))),
            ),
      ),
    // Straight to the file descriptors, and the streams asked about only on a terminal: making
    // process.stdout costs `fsapi --help` about 4 ms (src/write-now.ts).
    writeOut: (text) => writeNow(1, text),
    writeErr: (text) => writeNow(2, text),
    getOutHelpWidth: () => (isTerminal(1) ? process.stdout.columns || 80 : 80),
    getErrHelpWidth: () => (isTerminal(2) ? process.stderr.columns || 80 : 80),
    // The help texts hold no colours; commander strips none.
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  })
  // With an action of its own (the overview) the root gets no implicit `help` command; people expect
  // `fsapi help [command]`.
  .helpCommand(true)
  .configureHelp({
    showGlobalOptions: true,
    sortSubcommands: false,
    // Wrap descriptions even beside the root's long command names (commander stops wrapping below 40
    // columns of room, which left `fsapi --help` unwrapped at 80).
    minWidthToWrap: 24,
    // Each option once: a command's own option (auth login --base-url) hides the global one of that name.
    visibleGlobalOptions(this: Help, command: Command) {
      const own = new Set(command.options.map((option) => option.long));
      return Help.prototype.visibleGlobalOptions.call(this, command).filter((option) => !own.has(option.long));
    },
    formatHelp: formatHelpInOrder,
    // `statement [options]` in the list of commands before its options are defined (topLevelCommand).
    subcommandTerm(this: Help, command: Command) {
      const term = Help.prototype.subcommandTerm.call(this, command);
      return optionsYetToCome(command) ? `${command.name()} [options]${term.slice(command.name().length)}` : term;
    },
  })
  .allowExcessArguments(true)
  .action(async (...actionArgs: unknown[]) => {
    // With an action of its own the root would take a mistyped command as an argument; hand it back to
    // commander's unknown-command error, which carries the "Did you mean" suggestion.
    if (program.args.length > 0) (program as unknown as { unknownCommand(): never }).unknownCommand();
    await lazy('overview')(...actionArgs);
  });

/**
 * A command's help in the order people read it, as gh does: usage, description, arguments, its own
 * options, its sub-commands, the API endpoints it calls (as a bank's own CLI names them), and last the
 * global options it inherits. The root's own options are the global ones, shown once as its options.
 */
function formatHelpInOrder(this: Help, command: Command, helper: Help): string {
  // commander's sections, separated by blank lines; its global options are moved to the end, keeping
  // the column width commander gave every section.
  const sections = Help.prototype.formatHelp.call(this, command, helper).trimEnd().split('\n\n');
  const globals = sections.filter((section) => section.startsWith('Global Options:'));
  const termWidth = helper.padWidth(command, helper);
  const calls = apiEndpoints(command);
  const endpointWidth = Math.max(termWidth, ...calls.map(([endpoint]) => endpoint.length));
  const endpoints =
    calls.length === 0 ? [] : [['API endpoints:', ...calls.map(([endpoint, why]) => helper.formatItem(endpoint, endpointWidth, why, helper))].join('\n')];
  return `${[...sections.filter((section) => !globals.includes(section)), ...endpoints, ...globals].join('\n\n')}\n`;
}

/** The API endpoints a command calls, with what for (its help and docs/commands.md show them). */
export function apiEndpoints(command: Command): ReadonlyArray<readonly [endpoint: string, why: string]> {
  return specOf.get(command)?.endpoints ?? [];
}

/** The spec each command was built from (src/commands/spec.ts). */
const specOf = new Map<Command, CommandSpec<any>>();

/** The spec of a command of the tree, if it was built from one. */
export function commandSpec(command: Command): CommandSpec<any> | undefined {
  return specOf.get(command);
}

/**
 * commander's "error: unknown option '--pgae'\n(Did you mean --page?)" as "error: unknown option
 * '--pgae'\nhint: did you mean --page?"; an error without a suggestion gets a hint towards the usage.
 */
export function commanderErrorInOneVoice(text: string, width?: number, paint: (label: string) => string = (label) => label): string {
  const { message, hint } = commanderMessage(text);
  // Wrapped at spaces on a terminal of `width` columns, one line each otherwise (src/ui/error-lines.ts).
  return labelledLines('error:', message, width, paint) + labelledLines('hint:', hint, width);
}

/** The same under --json: the error object with code `usage` and exit 2 (docs/scripting.md). */
export function commanderErrorAsJson(text: string): string {
  const { message, hint } = commanderMessage(text);
  return errorObjectLine('usage', message, hint, 2);
}

function commanderMessage(text: string): { message: string; hint: string } {
  const lines = text.trim().split('\n');
  const message = lines[0]!.replace(/^error: /i, '');
  const suggestion = /\(Did you mean (.+)\?\)/.exec(text);
  const hint = suggestion
    ? `did you mean ${suggestion[1]}?`
    : /unknown command/.test(message)
      ? 'fsapi --help lists the commands'
      : 'add --help to the command to see its usage';
  return { message, hint };
}

/** A commander action that runs a command module of the engine (src/engine.ts), loaded only when it runs. */
function lazy(key: keyof typeof commands) {
  return async (...actionArgs: unknown[]) => {
    const command = actionArgs.at(-1) as Command;
    const args = command.args.slice(0, command.registeredArguments.length);
    const engine = await loadEngine(key);
    await engine.runCommand(command, args, engine.command(key));
  };
}

// ---- commands from their specs ------------------------------------------------------------------------

/** The key of src/engine.ts's `commands` that runs a spec: `transfer/send` for `transfer send`. */
export const engineKey = (spec: CommandSpec<any>) => spec.path.replaceAll(' ', '/') as keyof typeof commands;

/** Adds the command of `spec` under `parent`: its words, arguments, options (parsed by their kinds), help. */
function addCommand(parent: Command, spec: CommandSpec<any>): Command {
  return defineOptions(declareCommand(parent, spec), spec);
}

/** The command of `spec` under `parent` as a list of commands shows it: its words, arguments, what it runs. */
function declareCommand(parent: Command, spec: CommandSpec<any>): Command {
  const command = parent.command(spec.path.split(' ').at(-1)!).description(spec.description ?? spec.summary);
  if (spec.description) command.summary(spec.summary);
  for (const argument of spec.args ?? []) command.argument(argument.name, argument.description);
  specOf.set(command, spec);
  return command.action(lazy(engineKey(spec)));
}

/** The rest of the command of `spec`: its options and the help text after them. */
function defineOptions(command: Command, spec: CommandSpec<any>): Command {
  for (const [key, option] of Object.entries(spec.options as Record<string, OptionSpec>)) {
    // The key a run file reads is commander's name for the flag: renaming one without the other fails here.
    if (optionKey(option.flags) !== key) throw new Error(`${spec.path}: option ${option.flags} must be keyed ${optionKey(option.flags)}, not ${key}`);
    command.addOption(commanderOption(option));
    if (option.negation) command.addOption(new Option(option.negation.flags, option.negation.description));
  }
  command.addHelpText('after', helpAfterOptions(spec));
  return command;
}

/** commander's Option for a spec's: its value parsed at the edge, so a bad one is exit 2 before anything runs. */
function commanderOption(option: OptionSpec): Option {
  const made = new Option(option.flags, option.description);
  if (option.choices) made.choices(option.choices);
  // After choices(), which sets a parser of its own: the help still lists the choices.
  if (option.parse) made.argParser(option.parse);
  if (option.defaultValue !== undefined) made.default(option.defaultValue);
  if (option.conflicts) made.conflicts([...option.conflicts]);
  return made;
}

/** Extra text, the exit codes the command can return, then its examples. */
function helpAfterOptions(spec: CommandSpec<any>): string {
  const text = spec.helpText === undefined ? '' : `\n${wrapParagraphs(spec.helpText.trim())}\n`;
  return `${text}\nExit codes:\n${exitCodeLines(spec).join('\n')}\n${examples(...spec.examples)}`;
}

/** Paragraphs (separated by a blank line) wrapped at spaces to `width` columns: a spec's text, any length. */
function wrapParagraphs(text: string, width = 80): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => {
      const lines: string[] = [];
      let line = '';
      for (const word of paragraph.split(/\s+/)) {
        if (line !== '' && line.length + 1 + word.length > width) {
          lines.push(line);
          line = word;
        } else {
          line = line === '' ? word : `${line} ${word}`;
        }
      }
      return [...lines, line].join('\n');
    })
    .join('\n\n');
}

/** A group of specs: its commands, and nested groups (`clients create`), added under `command`. */
function addGroupCommands(command: Command, spec: GroupSpec): void {
  for (const sub of spec.commands) {
    if (!isGroup(sub)) addCommand(command, sub);
    else
      addGroupCommands(
        command
          .command(sub.path.split(' ').at(-1)!)
          .description(sub.summary)
          .addHelpText('after', examples(...sub.examples)),
        sub,
      );
  }
}

// ---- defined when entered ------------------------------------------------------------------------------

/**
 * What each command defines the first time a run enters it: a group its sub-commands, a top-level
 * command its options. Building every command's options took about 2 ms of every start (a group's
 * sub-commands) and 1 ms more (the top-level commands', `statement` alone has 17), and a run uses one.
 */
const undefinedCommands = new Map<Command, (command: Command) => void>();

/**
 * A command group (`fsapi transfer`): its name, description and examples now, its sub-commands from
 * `define` the first time a run enters it. Alone (`fsapi transfer`) it shows its help and succeeds, as
 * --help does; a mistyped sub-command is commander's unknown-command error with its "did you mean".
 */
function group(name: string, description: string, exampleLines: string[], define: (group: Command) => void): Command {
  const command = program
    .command(name)
    .description(description)
    .addHelpText('after', examples(...exampleLines));
  undefinedCommands.set(command, define);
  // `fsapi help transfer` shows the group's help without entering it: its help lists the sub-commands.
  command.on('beforeHelp', () => defineWhenEntered(command));
  return showsHelpAlone(command);
}

/**
 * A top-level command (`fsapi statement`): its name, arguments and what it runs now (the list of
 * commands shows them), its options and the help text after them the first time a run enters it.
 */
function topLevelCommand(spec: CommandSpec<any>): Command {
  const command = declareCommand(program, spec);
  undefinedCommands.set(command, () => {
    defineOptions(command, spec);
    finishSubtree(command);
  });
  // `fsapi help statement` shows its help without entering it.
  command.on('beforeHelp', () => defineWhenEntered(command));
  return command;
}

/** Whether a top-level command's options are still to be defined while its spec has some. */
function optionsYetToCome(command: Command): boolean {
  const spec = specOf.get(command);
  return undefinedCommands.has(command) && spec !== undefined && Object.keys(spec.options).length > 0;
}

function showsHelpAlone(command: Command): Command {
  return command.action(() => {
    if (command.args.length > 0) (command as unknown as { unknownCommand(): never }).unknownCommand();
    command.outputHelp();
  });
}

/** Defines what `command` defines when entered, if it has not yet; a no-op otherwise. */
export function defineWhenEntered(command: Command): void {
  const define = undefinedCommands.get(command);
  if (!define) return;
  undefinedCommands.delete(command);
  define(command);
  for (const sub of command.commands) finishSubtree(sub);
}

/** The whole tree, every command defined: for what walks it (docs, completion, tests). */
export function defineEveryCommand(): Command {
  for (const command of [...undefinedCommands.keys()]) defineWhenEntered(command);
  return program;
}

// Entering a command (`fsapi transfer send`, `fsapi transfer --help`, `fsapi help transfer`, `fsapi
// statement`) defines it first.
program.hook('preSubcommand', (_root, sub) => defineWhenEntered(sub));

/**
 * Settings every command of a group gets once defined: defaults shown as numbers (`default: 1440`), not as
 * the strings commander keeps them as; a word too many (`fsapi tx list extra`) is a mistake to point out,
 * not to ignore; a nested group (`clients create`) shows its help alone.
 */
function finishSubtree(command: Command): void {
  for (const option of command.options) {
    if (typeof option.defaultValue === 'string' && /^[0-9]+$/.test(option.defaultValue)) option.defaultValueDescription ??= option.defaultValue;
  }
  if (command.commands.length > 0) showsHelpAlone(command);
  else command.allowExcessArguments(false);
  for (const sub of command.commands) finishSubtree(sub);
}

/** Every example line of every help text, in order: test/help-examples.test.ts runs them on the simulator. */
export const helpExamples: string[] = [];

const examples = (...lines: string[]) => {
  helpExamples.push(...lines);
  return `\nExamples:\n${lines.map((line) => wrapExample(`  $ ${line}`)).join('\n')}\n`;
};

/**
 * An example longer than 80 columns, continued on the next line with a backslash between two words (never
 * inside quotes), so it fits a terminal and can still be pasted into a shell as it is shown.
 */
function wrapExample(line: string, width = 80): string {
  if (line.length <= width) return line;
  const tokens = line.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [line];
  // A flag stays on the line of its value: `--bank gtb`, not `--bank \` then `gtb`.
  const words: string[] = [];
  for (const token of tokens) {
    const last = words.at(-1);
    if (last !== undefined && /^--?[a-z]/i.test(last) && !last.includes(' ') && !token.startsWith('-')) words[words.length - 1] = `${last} ${token}`;
    else words.push(token);
  }
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const next = current === '' ? (lines.length === 0 ? `  ${word}` : `      ${word}`) : `${current} ${word}`;
    if (current !== '' && next.length + 2 > width) {
      lines.push(`${current} \\`);
      current = `      ${word}`;
    } else {
      current = next;
    }
  }
  lines.push(current);
  return lines.join('\n');
}

program.addHelpText(
  'after',
  examples('fsapi account', 'fsapi transfer send 0123456789 --bank gtb --amount 5000 --narration Rent', 'fsapi auth login --profile sandbox'),
);

for (const spec of commandSpecs) {
  if (isGroup(spec)) group(spec.path, spec.summary, [...spec.examples], (command) => addGroupCommands(command, spec));
  else topLevelCommand(spec);
}

// The callback of the scripts `fsapi completion <shell>` prints, run on every Tab press. Hidden from help,
// the docs and completion. It builds no Context: it only reads local files, so a Tab never touches the
// network or creates anything.

program
  .command('__complete', { hidden: true })
  .description('answer a shell completion request')
  .argument('[words...]', 'the words after the program name, the last one being completed')
  .option('--line <text>', 'bash: the command line up to the cursor')
  .action(async (words: string[], options: { line?: string }) => {
    const { answerCompletion } = await import('./completion/callback.js');
    writeNow(1, answerCompletion(defineEveryCommand(), { line: options.line, words }, process.env));
  });

// The root's own commands get the settings every group's get when it is defined (finishSubtree).
for (const command of program.commands) {
  if (!undefinedCommands.has(command) && command.name() !== '__complete') finishSubtree(command);
}
