// What to offer when the user presses Tab: works out, from the words typed so far and the commander tree
// itself, which command is being written and what comes next (a subcommand, an option, an option's value,
// an argument), so completion never drifts from the real command tree.
//
// Why not a completion library: @bomb.sh/tab (the maintained one with a commander adapter) was tried
// first. Its bash script calls bash-completion's _get_comp_words_by_ref, so on a machine without the
// bash-completion package (this one, macOS's stock bash, slim containers) every Tab prints
// "command not found"; it always turns file completion off (`transfer batch <file>`, `--report <file>`
// then complete nothing); it inserts values with spaces unquoted ("Guaranty Trust Bank" became three
// words); and its value handlers are not given the word being typed, so bank names could only be matched
// by case-sensitive prefix. @pnpm/tabtab and omelette only provide the shell glue (the tree walk is still
// ours) and pull prompt libraries into every Tab press. So this module does the walk and
// src/completion/scripts.ts holds three short shell functions; the shell asks `fsapi __complete`, which
// reads only local files (never the network) and answers in one short node start.
import type { Argument, Command, Option } from 'commander';

export interface Candidate {
  value: string;
  description?: string;
}

/** Either a list of values, or "let the shell complete file names". */
export interface Completion {
  files: boolean;
  candidates: Candidate[];
}

/** Where value suggestions come from; the callback reads local files, tests can pass fixed lists. */
export interface CompletionSources {
  /** Saved profile names, `local` included. */
  profiles(): string[];
  /** The cached bank list of a profile (undefined: the profile this run would use). */
  banks(profile: string | undefined): Array<{ code: string; name: string }>;
  /** The saved payees of a profile (undefined: the profile this run would use): alias and verified name. */
  payees?(profile: string | undefined): Array<{ alias: string; name: string }>;
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The endpoints of the spec (section 4), offered for `fsapi api <method> <path>`. */
const KNOWN_PATHS = [
  '/v1/account',
  '/v1/account/clients',
  '/v1/account/clients/individual',
  '/v1/account/clients/corporate',
  '/v1/client-enquiry/',
  '/v1/transfer/banks',
  '/v1/transfer/name-enquiry',
  '/v1/transfer/tsq',
  '/v1/transactions',
  '/v1/transactions/reference/',
];

const nothing: Completion = { files: false, candidates: [] };
const files: Completion = { files: true, candidates: [] };

interface WalkState {
  command: Command;
  positionals: string[];
  /** An option whose value is the next word. */
  pendingOption: Option | undefined;
  /** A variadic option (`--query a=1 b=2`) still taking values. */
  openVariadic: Option | undefined;
  afterDoubleDash: boolean;
  used: Set<Option>;
  /** The last value given to --profile, to pick the right bank cache. */
  profile: string | undefined;
  /** `fsapi help transfer ...`: only command names follow. */
  help: boolean;
}

/**
 * Completes the last of `words` (the words after the program name; the last one is the word under the
 * cursor, '' after a space).
 */
export function complete(root: Command, words: readonly string[], sources: CompletionSources): Completion {
  const current = words.at(-1) ?? '';
  const state = walk(root, words.slice(0, -1));

  if (state.pendingOption) return optionValues(state.pendingOption, current, state, sources);

  if (!state.afterDoubleDash && current.startsWith('--') && current.includes('=')) {
    const [flag = '', typed = ''] = splitOnce(current, '=');
    const option = findOption(state.command, flag);
    if (!option || option.isBoolean() || option.negate) return nothing;
    const values = optionValues(option, typed, state, sources);
    if (values.files) return values;
    return { files: false, candidates: values.candidates.map((c) => ({ ...c, value: `${flag}=${c.value}` })) };
  }

  if (state.help && state.positionals.length > 0) return nothing;
  if (!state.afterDoubleDash && current.startsWith('-')) return { files: false, candidates: optionNames(state, current) };
  if (state.openVariadic) return nothing;

  const subcommands = state.positionals.length === 0 && !state.afterDoubleDash ? visibleSubcommands(state.command) : [];
  if (subcommands.length > 0) {
    return {
      files: false,
      candidates: subcommands
        .filter((command) => command.name().startsWith(current))
        .map((command) => ({ value: command.name(), description: command.summary() || command.description() })),
    };
  }
  return argumentValues(state, current, sources);
}

function walk(root: Command, words: readonly string[]): WalkState {
  const state: WalkState = {
    command: root,
    positionals: [],
    pendingOption: undefined,
    openVariadic: undefined,
    afterDoubleDash: false,
    used: new Set(),
    profile: undefined,
    help: false,
  };
  const giveValue = (option: Option, value: string) => {
    if (option.long === '--profile') state.profile = value;
  };
  for (const word of words) {
    if (state.pendingOption) {
      const option = state.pendingOption;
      state.pendingOption = undefined;
      giveValue(option, word);
      if (option.variadic) state.openVariadic = option;
      continue;
    }
    if (state.afterDoubleDash) {
      state.positionals.push(word);
      continue;
    }
    if (word === '--') {
      state.afterDoubleDash = true;
      state.openVariadic = undefined;
      continue;
    }
    if (word.startsWith('-') && word.length > 1) {
      state.openVariadic = undefined;
      const [flag = '', inlineValue] = word.startsWith('--') ? splitOnce(word, '=') : [word, undefined];
      const option = findOption(state.command, flag);
      if (!option) continue;
      state.used.add(option);
      if (option.isBoolean() || option.negate) continue;
      if (inlineValue === undefined) state.pendingOption = option;
      else {
        giveValue(option, inlineValue);
        if (option.variadic) state.openVariadic = option;
      }
      continue;
    }
    if (state.openVariadic) continue;
    // Like commander: a subcommand is only recognised as the first operand of its parent.
    const sub = state.positionals.length === 0 ? findSubcommand(state.command, word) : undefined;
    if (!sub && word === 'help' && state.positionals.length === 0 && visibleSubcommands(state.command).length > 0) {
      state.help = true; // commander's own help command: `fsapi help transfer send`
      continue;
    }
    if (sub) {
      state.command = sub;
      state.positionals = [];
      continue;
    }
    state.positionals.push(word);
  }
  return state;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}

function visibleSubcommands(command: Command): Command[] {
  // The help command and hidden ones (the __complete callback) are left out.
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => command.commands.includes(sub));
}

function findSubcommand(command: Command, name: string): Command | undefined {
  return visibleSubcommands(command).find((sub) => sub.name() === name || sub.aliases().includes(name));
}

/** The command's own options, then its ancestors' (commander accepts program options after subcommands). */
function optionsInScope(command: Command): Option[] {
  const scope: Option[] = [];
  for (let at: Command | null = command; at; at = at.parent) {
    const help = at.createHelp();
    for (const option of help.visibleOptions(at)) {
      // --help and --version belong to the command being written, not to every ancestor.
      if (at !== command && (option.long === '--help' || option.long === '--version')) continue;
      if (!scope.some((known) => known.long === option.long)) scope.push(option);
    }
  }
  return scope;
}

function findOption(command: Command, flag: string): Option | undefined {
  return optionsInScope(command).find((option) => option.long === flag || option.short === flag);
}

function optionNames(state: WalkState, current: string): Candidate[] {
  return optionsInScope(state.command)
    .filter((option) => option.long?.startsWith(current))
    .filter((option) => option.variadic || !state.used.has(option))
    .map((option) => ({ value: option.long!, description: option.description }));
}

function optionValues(option: Option, current: string, state: WalkState, sources: CompletionSources): Completion {
  if (option.argChoices) return values(option.argChoices, current);
  switch (option.long) {
    case '--profile':
      return values(sources.profiles(), current);
    case '--bank':
      return { files: false, candidates: bankCandidates(sources.banks(state.profile), current) };
    case '--to':
      return payeeCandidates(sources, state.profile, current);
    default:
      // `--report <file>`, `--state <file>`: file names.
      return /<file>|\[file\]/.test(option.flags) ? files : nothing;
  }
}

function argumentValues(state: WalkState, current: string, sources: CompletionSources): Completion {
  const declared = state.command.registeredArguments;
  const index = state.positionals.length;
  const argument: Argument | undefined = declared[index] ?? (declared.at(-1)?.variadic ? declared.at(-1) : undefined);
  if (!argument) return nothing;
  if (argument.argChoices) return values(argument.argChoices, current);
  const path = commandPath(state.command);
  switch (`${path} <${argument.name()}>`) {
    case 'completion <shell>':
      return values(['bash', 'zsh', 'fish'], current);
    case 'api <method>':
      return values(HTTP_METHODS, current);
    case 'api <path>':
      return values(KNOWN_PATHS, current);
    case 'profile use <name>':
      return values(sources.profiles(), current);
    case 'profile remove <name>':
      return values(
        sources.profiles().filter((name) => name !== 'local'),
        current,
      );
    case 'payees remove <alias>':
      return payeeCandidates(sources, state.profile, current);
    default:
      return argument.name() === 'file' ? files : nothing;
  }
}

/** Saved payee aliases that start with what is typed, each with the holder's verified name. */
function payeeCandidates(sources: CompletionSources, profile: string | undefined, current: string): Completion {
  const typed = current.toLowerCase();
  const payees = sources.payees?.(profile) ?? [];
  return { files: false, candidates: payees.filter((p) => p.alias.toLowerCase().startsWith(typed)).map((p) => ({ value: p.alias, description: p.name })) };
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Case-insensitive prefix match; the value is offered as written in the list (`get` -> `GET`). */
function values(list: readonly string[], current: string): Completion {
  const typed = current.toLowerCase();
  const unique = [...new Set(list)];
  return { files: false, candidates: unique.filter((value) => value.toLowerCase().startsWith(typed)).map((value) => ({ value })) };
}

// The same matching rules as `--bank` itself (src/transfers/banks.ts: part of the name, or its initials such
// as gtb and uba), repeated here because that module loads the zod schemas, too slow for every Tab press.
const stopWords = new Set(['of', 'for', 'the', 'and', 'plc', 'ltd', 'limited', 'nigeria', 'ng']);
const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const initials = (name: string) =>
  normalise(name)
    .split(' ')
    .filter((word) => word && !stopWords.has(word))
    .map((word) => word[0])
    .join('');

/**
 * `--bank` takes a code or part of a name. Digits complete codes; letters complete the names that contain
 * them anywhere ("trust" finds Guaranty Trust Bank) or whose initials start with them ("gtb"); nothing
 * typed lists the names, codes as descriptions.
 */
function bankCandidates(banks: ReadonlyArray<{ code: string; name: string }>, current: string): Candidate[] {
  const typed = current.trim();
  if (/^[0-9]+$/.test(typed)) {
    return banks.filter((bank) => bank.code.startsWith(typed)).map((bank) => ({ value: bank.code, description: bank.name }));
  }
  const query = normalise(typed);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const bank of banks) {
    const matches = normalise(bank.name).includes(query) || (query !== '' && initials(bank.name).startsWith(query.replaceAll(' ', '')));
    if (seen.has(bank.name) || !matches) continue;
    seen.add(bank.name);
    candidates.push({ value: bank.name, description: bank.code });
  }
  return candidates;
}
