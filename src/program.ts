// Builds the commander tree (names, options, help text) and nothing else. Each action loads the engine
// (src/engine.ts, every command's code) only when it runs, so `fsapi --help` loads this file alone and
// starts about as fast as node.
// A group's sub-commands (`transfer send`, `transfer status`, ...) are defined when a run enters the group:
// building every command's options took about 2 ms of every start, and a run uses one (bench/startup.mjs).
// src/cli.ts runs it; scripts/gen-docs.ts, completion and the tests walk it whole after defineEveryCommand().
import { Command, Help, Option } from 'commander';
import type { commands } from './engine.js';
import { loadEngine } from './engine-loader.js';
import { labelledLines } from './ui/error-lines.js';
import { isTerminal, writeNow } from './write-now.js';
import { exitCodeLines, isGroup, optionKey, type CommandSpec, type GroupSpec, type OptionSpec } from './commands/spec.js';
import { commandSpecs } from './commands/specs.js';

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
    outputError: (text, write) => write(commanderErrorInOneVoice(text, isTerminal(2) ? process.stderr.columns : undefined)),
    // Straight to the file descriptors, and the streams asked about only on a terminal: making
    // process.stdout costs `fsapi --help` about 4 ms (src/write-now.ts).
    writeOut: (text) => writeNow(1, text),
    writeErr: (text) => writeNow(2, text),
    getOutHelpWidth: () => (isTerminal(1) ? process.stdout.columns : 80),
    getErrHelpWidth: () => (isTerminal(2) ? process.stderr.columns : 80),
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
  const endpoints = calls.length === 0 ? [] : [['API endpoints:', ...calls.map(([endpoint, why]) => helper.formatItem(endpoint, endpointWidth, why, helper))].join('\n')];
  return `${[...sections.filter((section) => !globals.includes(section)), ...endpoints, ...globals].join('\n\n')}\n`;
}

/** The API endpoints a command calls, with what for (its help and docs/commands.md show them). */
export function apiEndpoints(command: Command): ReadonlyArray<readonly [endpoint: string, why: string]> {
  return specOf.get(command)?.endpoints ?? ENDPOINTS[commandPath(command)] ?? [];
}

/** The spec each command was built from (src/commands/spec.ts). */
const specOf = new Map<Command, CommandSpec<any>>();

/** The spec of a command of the tree, if it was built from one. */
export function commandSpec(command: Command): CommandSpec<any> | undefined {
  return specOf.get(command);
}

/** `transfer send` for `fsapi transfer send`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

const TRANSACTION_BY_REFERENCE = 'GET /v1/transactions/reference/{reference}';

/** The endpoints each command calls (spec section 4), with what for; shown in its help. */
const ENDPOINTS: Record<string, ReadonlyArray<readonly [endpoint: string, why: string]>> = {
  'auth login': [['POST /v1/generate-token', 'a token for the consumer key and secret']],
  'auth token': [['POST /v1/generate-token', 'a new token when the stored one expired']],
  account: [['GET /v1/account', 'the primary account and its balances']],
  banks: [['GET /v1/transfer/banks', 'the bank list, when the 24 h cache is old']],
  enquiry: [
    ['GET /v1/transfer/banks', 'the bank list, when the 24 h cache is old'],
    ['POST /v1/transfer/name-enquiry', 'the account holder name'],
  ],
  tsq: [['GET /v1/transfer/tsq', 'the transfer status query']],
  'clients list': [['GET /v1/account/clients', 'the client accounts, page by page']],
  'clients get': [['GET /v1/client-enquiry/{accountNumber}', 'one client account']],
  'clients create individual': [
    ['POST /v1/account/clients/individual', 'the new account'],
    ['GET /v1/transactions', "the business's bank, shown in the result"],
  ],
  'clients create corporate': [
    ['POST /v1/account/clients/corporate', 'the new account'],
    ['GET /v1/transactions', "the business's bank, shown in the result"],
  ],
  'tx list': [['GET /v1/transactions', 'page by page']],
  'tx get': [[TRANSACTION_BY_REFERENCE, 'one transaction']],
  'tx watch': [['GET /v1/transactions', 'the first page, every --interval seconds']],
  statement: [['GET /v1/transactions', 'the pages of the period']],
  collections: [
    ['GET /v1/transactions', 'the pages of the period'],
    ['GET /v1/account/clients', 'the names of the client accounts'],
  ],
  reconcile: [
    ['GET /v1/transactions', 'the pages of the period'],
    [TRANSACTION_BY_REFERENCE, 'transfers the list does not show'],
  ],
  'webhook listen': [
    [TRANSACTION_BY_REFERENCE, 'each notified transaction (spec section 6)'],
    ['GET /v1/client-enquiry/{accountNumber}', "the credited account's externalReference"],
  ],
  'webhook verify': [
    [TRANSACTION_BY_REFERENCE, 'the notified transaction (spec section 6)'],
    ['GET /v1/client-enquiry/{accountNumber}', "the credited account's externalReference"],
  ],
  api: [['<METHOD> <path>', 'any endpoint, with the profile\'s token']],
  'payees add': [
    ['GET /v1/transfer/banks', 'the bank list, when the 24 h cache is old'],
    ['POST /v1/transfer/name-enquiry', 'the verified name kept with the payee'],
    ['POST /v1/generate-token', 'under payees-only: the typed consumer secret, checked'],
  ],
  'policy set': [['POST /v1/generate-token', 'the typed consumer secret, checked (no token is kept)']],
  'approvals approve': [
    ['POST /v1/generate-token', 'the typed consumer secret, checked (no token is kept)'],
    ['POST /v1/transfer/name-enquiry', 'each held payee\'s name, checked again'],
    ['POST /v1/transfer', 'each held transfer, once, under its held reference'],
    [TRANSACTION_BY_REFERENCE, 'lost answers'],
  ],
};

/**
 * commander's "error: unknown option '--pgae'\n(Did you mean --page?)" as "error: unknown option
 * '--pgae'\nhint: did you mean --page?"; an error without a suggestion gets a hint towards the usage.
 */
export function commanderErrorInOneVoice(text: string, width?: number): string {
  const lines = text.trim().split('\n');
  const message = lines[0]!.replace(/^error: /i, '');
  const suggestion = /\(Did you mean (.+)\?\)/.exec(text);
  const hint = suggestion
    ? `did you mean ${suggestion[1]}?`
    : /unknown command/.test(message)
      ? 'fsapi --help lists the commands'
      : "add --help to the command to see its usage";
  // Wrapped at spaces on a terminal of `width` columns, one line each otherwise (src/ui/error-lines.ts).
  return labelledLines('error:', message, width) + labelledLines('hint:', hint, width);
}

/** A commander action that runs a command module of the engine (src/engine.ts), loaded only when it runs. */
function lazy(key: keyof typeof commands) {
  return async (...actionArgs: unknown[]) => {
    const command = actionArgs.at(-1) as Command;
    const args = command.args.slice(0, command.registeredArguments.length);
    const engine = await loadEngine();
    await engine.runCommand(command, args, engine.commands[key]);
  };
}

// ---- commands from their specs ------------------------------------------------------------------------

/** The key of src/engine.ts's `commands` that runs a spec: `transfer/send` for `transfer send`. */
export const engineKey = (spec: CommandSpec<any>) => spec.path.replaceAll(' ', '/') as keyof typeof commands;

/** Adds the command of `spec` under `parent`: its words, arguments, options (parsed by their kinds), help. */
function addCommand(parent: Command, spec: CommandSpec<any>): Command {
  const command = parent.command(spec.path.split(' ').at(-1)!).description(spec.description ?? spec.summary);
  if (spec.description) command.summary(spec.summary);
  for (const argument of spec.args ?? []) command.argument(argument.name, argument.description);
  for (const [key, option] of Object.entries(spec.options as Record<string, OptionSpec>)) {
    // The key a run file reads is commander's name for the flag: renaming one without the other fails here.
    if (optionKey(option.flags) !== key) throw new Error(`${spec.path}: option ${option.flags} must be keyed ${optionKey(option.flags)}, not ${key}`);
    command.addOption(commanderOption(option));
    if (option.negation) command.addOption(new Option(option.negation.flags, option.negation.description));
  }
  command.addHelpText('after', helpAfterOptions(spec));
  specOf.set(command, spec);
  return command.action(lazy(engineKey(spec)));
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
  return `${spec.helpText ?? ''}\nExit codes:\n${exitCodeLines(spec).join('\n')}\n${examples(...spec.examples)}`;
}

/** A group of specs (`transfer`, or `clients create` inside `clients`), its commands defined when entered. */
function groupOfSpecs(parent: Command, spec: GroupSpec): Command {
  const addAll = (command: Command) => {
    for (const sub of spec.commands) {
      if (isGroup(sub)) nestedGroup(command, sub);
      else addCommand(command, sub);
    }
  };
  if (parent === program) return group(spec.path, spec.summary, [...spec.examples], addAll);
  return nestedGroup(parent, spec);
}

function nestedGroup(parent: Command, spec: GroupSpec): Command {
  const command = parent.command(spec.path.split(' ').at(-1)!).description(spec.summary).addHelpText('after', examples(...spec.examples));
  for (const sub of spec.commands) {
    if (isGroup(sub)) nestedGroup(command, sub);
    else addCommand(command, sub);
  }
  return command;
}

// ---- groups, defined when entered ---------------------------------------------------------------------

/** The definition of each group's sub-commands that has not run yet. */
const undefinedGroups = new Map<Command, (group: Command) => void>();

/**
 * A command group (`fsapi transfer`): its name, description and examples now, its sub-commands from
 * `define` the first time a run enters it. Alone (`fsapi transfer`) it shows its help and succeeds, as
 * --help does; a mistyped sub-command is commander's unknown-command error with its "did you mean".
 */
function group(name: string, description: string, exampleLines: string[], define: (group: Command) => void): Command {
  const command = program.command(name).description(description).addHelpText('after', examples(...exampleLines));
  undefinedGroups.set(command, define);
  // `fsapi help transfer` shows the group's help without entering it: its help lists the sub-commands.
  command.on('beforeHelp', () => defineSubcommands(command));
  return showsHelpAlone(command);
}

function showsHelpAlone(command: Command): Command {
  return command.action(() => {
    if (command.args.length > 0) (command as unknown as { unknownCommand(): never }).unknownCommand();
    command.outputHelp();
  });
}

/** Defines the sub-commands of `command` if it is a group not yet defined; a no-op otherwise. */
export function defineSubcommands(command: Command): void {
  const define = undefinedGroups.get(command);
  if (!define) return;
  undefinedGroups.delete(command);
  define(command);
  for (const sub of command.commands) finishSubtree(sub);
}

/** The whole tree, every group defined: for what walks it (docs, completion, tests). */
export function defineEveryCommand(): Command {
  for (const command of [...undefinedGroups.keys()]) defineSubcommands(command);
  return program;
}

// Entering a group (`fsapi transfer send`, `fsapi transfer --help`, `fsapi help transfer`) defines it first.
program.hook('preSubcommand', (_root, sub) => defineSubcommands(sub));

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

/** The exit codes scripts read after a transfer (docs/scripting.md has the full table). */
const TRANSFER_EXIT_CODES = `
Exit codes:
  0  successful (or, without --wait, pending)
  1  refused, failed or reversed (its reversal R-<reference> is looked up)
  2  invalid input; nothing was sent
  3  authentication needed or failed
  4  cancelled; nothing was sent
  5  sent, outcome unknown: do not resend
  6  --wait ended while still pending: it may still succeed; check again later
  7  held for approval by the payment policy; nothing was sent
`;

program.addHelpText('after', examples(
  'fsapi account',
  'fsapi transfer send 0123456789 --bank gtb --amount 5000 --narration Rent',
  'fsapi auth login --profile sandbox',
));

// ---- auth and profiles -------------------------------------------------------------------------------
group('auth', 'log in, check and remove stored tokens', ['fsapi auth login --profile sandbox', 'fsapi auth status'], (auth) => {
  auth
    .command('login')
    .description('get a token with your consumer key and secret and save it in the profile')
    .addOption(new Option('--env <env>', 'API environment').choices(['sandbox', 'production']))
    .option('--base-url <url>', 'base address of the API for this profile (default: the environment\'s known address)')
    .option('--validity <minutes>', 'token lifetime in minutes, at most 2880', '1440')
    .option('--save-credentials', 'keep the key and secret (mode 0600) so expired tokens renew silently')
    .addHelpText('after', '\nThe key and secret are read from FSAPI_CONSUMER_KEY and FSAPI_CONSUMER_SECRET,\nelse asked (the secret hidden); never from a flag. Without --base-url the\nenvironment\'s known address is used and named.\n' + examples(
      'fsapi auth login --env sandbox',
      'fsapi auth login --profile live --env production --save-credentials',
      'fsapi auth login --env sandbox --base-url https://sandbox-baas-api.bellmonie.com',
    ))
    .action(lazy('auth/login'));
  auth.command('status').description('show the profile, base address and token expiry')
    .addHelpText('after', examples('fsapi auth status', 'fsapi auth status --json'))
    .action(lazy('auth/status'));
  auth.command('logout').description('forget the stored token and credentials of the profile')
    .addHelpText('after', examples('fsapi auth logout', 'fsapi --profile old-sandbox auth logout'))
    .action(lazy('auth/logout'));
  auth.command('token').description('print the current bearer token (for scripts; renewed if expired)')
    .addHelpText('after', examples('FSAPI_TOKEN=$(fsapi auth token) fsapi account'))
    .action(lazy('auth/token'));
});

group('profile', 'list, choose and remove saved profiles', ['fsapi profile list', 'fsapi profile use local'], (profile) => {
  profile.command('list').description('list saved profiles; the default is marked')
    .addHelpText('after', examples('fsapi profile list', 'fsapi profile list --json | jq -r ".[].profile"'))
    .action(lazy('profile/list'));
  profile.command('use').argument('<name>', 'profile name').description('make a profile the default')
    .addHelpText('after', examples('fsapi profile use local'))
    .action(lazy('profile/use'));
  profile.command('remove').argument('<name>', 'profile name').description('delete a profile and its token')
    .addHelpText('after', examples('fsapi profile remove old-sandbox'))
    .action(lazy('profile/remove'));
});

group('store', "the local store of a profile's records: check, back up, adopt", ['fsapi store status', 'fsapi store backup fsapi-backup.db'], (store) => {
  store.command('status').description('which store the profile uses, and whether it is the one found')
    .addHelpText('after', examples('fsapi store status', 'fsapi store status --json | jq .matches'))
    .action(lazy('store/status'));
  store.command('backup').argument('<file>', 'new file to write the copy to (never overwritten)').description('copy the whole store, consistently, while fsapi runs')
    .addHelpText('after', '\nRestore: stop fsapi, put the copy in the data dir as fsapi.db (no -wal beside\nit), then run fsapi store adopt if fsapi refuses it (docs/store.md).\n' + examples('fsapi store backup fsapi-2026-11-26.db'))
    .action(lazy('store/backup'));
  store.command('adopt').description('make the profile use the store in the data dir (moved, restored)')
    .addHelpText('after', '\nNeeds a terminal: the store expected and the store found are shown, then the\nconsumer secret of the profile is asked (hidden) and checked with the API.\n' + examples('fsapi store adopt', 'FSAPI_DATA_DIR=/srv/fsapi fsapi store adopt'))
    .action(lazy('store/adopt'));
});

// ---- account, banks, enquiry -------------------------------------------------------------------------
program.command('account').description('show the primary business account and its balances')
  .addHelpText('after', examples('fsapi account', 'fsapi account --json | jq -r .availableBalance'))
  .action(lazy('account'));
program.command('banks').argument('[search]', 'part of a bank name or code').description('list banks and their institution codes (cached 24 h)')
  .option('--refresh', 'fetch the list again instead of using the cache')
  .option('--csv', 'CSV on stdout (for spreadsheets)')
  .addHelpText('after', examples('fsapi banks gtbank', 'fsapi banks --refresh --json | jq length', 'fsapi banks --csv > banks.csv'))
  .action(lazy('banks'));
program.command('enquiry').argument('[accountNumber]', '10-digit account number (asked for at a terminal)').description('verify the account holder name at a bank')
  .option('--bank <code|name>', '6-digit institution code, brand name (GTBank, OPay) or part of the bank name')
  .addHelpText('after', examples('fsapi enquiry 0123456789 --bank 000013', 'fsapi enquiry 0123456789 --bank "access" --json'))
  .action(lazy('enquiry'));

// ---- transfers ---------------------------------------------------------------------------------------
for (const spec of commandSpecs) {
  if (isGroup(spec)) groupOfSpecs(program, spec);
  else addCommand(program, spec);
}

// ---- payees, policy, approvals ---------------------------------------------------------------------------
group('payees', 'saved payees: accounts verified once, checked again at every send', ['fsapi payees add landlord 0123456789 --bank gtbank', 'fsapi payees list'], (payees) => {
  payees.command('add').argument('<alias>', 'name to send to, e.g. landlord').argument('<accountNumber>', '10-digit account number')
    .description('save an account under an alias, its holder verified by name enquiry')
    .option('--bank <code|name>', "the payee's bank: 6-digit code, brand name (GTBank, OPay) or part of the name")
    .option('--expect-name <name>', 'refuse unless the verified account name matches this')
    .addHelpText('after', '\nPay a saved payee with fsapi transfer send --to <alias>: its name is checked again.\nUnder a payees-only policy, adding a payee needs a terminal and the consumer secret.\n' + examples(
      'fsapi payees add supplier 0123456789 --bank gtbank',
      'fsapi payees add ada 0123456789 --bank 000013 --expect-name "Okafor Chiamaka Adaeze"',
    ))
    .action(lazy('payees/add'));
  payees.command('list').description('list the saved payees of the profile')
    .option('--csv', 'CSV on stdout (for spreadsheets)')
    .addHelpText('after', examples('fsapi payees list', 'fsapi payees list --json | jq -r ".[].alias"'))
    .action(lazy('payees/list'));
  payees.command('remove').argument('<alias>', 'the payee to forget').description('forget a saved payee')
    .addHelpText('after', examples('fsapi payees remove landlord'))
    .action(lazy('payees/remove'));
});

group('policy', 'the payment policy: limits, and what waits for a person', ['fsapi policy show', 'fsapi policy set --max-per-day 500000 --approval-above 100000'], (policy) => {
  policy.command('show').description('show the payment policy of the profile, and what is sent and left today')
    .addHelpText('after', examples('fsapi policy show', 'fsapi policy show --json | jq .leftTodayKobo'))
    .action(lazy('policy/show'));
  policy.command('set').description('change the payment policy (at a terminal, with the consumer secret)')
    .option('--max-per-transfer <naira>', 'hard limit for one transfer (none removes it)')
    .option('--max-per-day <naira>', "hard limit for the day's transfers, every fsapi process counted (none removes it)")
    .option('--approval-above <naira>', 'hold transfers above this for a person to approve (none removes it)')
    .option('--payees-only', 'hold transfers to accounts that are not saved payees')
    .option('--no-payees-only', 'pay accounts that are not saved payees without approval')
    .option('--time-zone <iana>', "the zone of the daily maximum's day (default: kept, or this terminal's)")
    .option('--off', 'remove the policy: pay without limits or approvals')
    .addHelpText('after', '\nNeeds a terminal: the change is shown, then the consumer secret of the profile is\nasked (hidden) and checked with the API; typing it is the confirmation.\n' + examples(
      'fsapi policy set --max-per-transfer 200000 --max-per-day 1000000',
      'fsapi policy set --approval-above 50000 --payees-only',
      'fsapi policy set --off',
    ))
    .action(lazy('policy/set'));
});

group('approvals', 'transfers held by the payment policy, for a person to approve or reject', ['fsapi approvals list', 'fsapi approvals approve AP-7K3M9Q2X'], (approvals) => {
  approvals.command('list').description('the requests waiting for approval')
    .option('--all', 'approved and rejected requests too')
    .addHelpText('after', examples('fsapi approvals list', 'fsapi approvals list --all --json | jq -r ".[].id"'))
    .action(lazy('approvals/list'));
  approvals.command('show').argument('<id>', 'request id, e.g. AP-7K3M9Q2X').description('one request: its transfers, why each was held, its decisions')
    .addHelpText('after', examples('fsapi approvals show AP-7K3M9Q2X'))
    .action(lazy('approvals/show'));
  approvals.command('approve').argument('<id>', 'request id').description('send a held request (at a terminal, with the consumer secret)')
    .addHelpText('after', '\nShows what will be sent, then asks for the consumer secret of the profile (hidden)\nand checks it with the API; typing it approves. Each transfer is sent once, under\nthe reference it was held with.\n' + TRANSFER_EXIT_CODES + examples('fsapi approvals approve AP-7K3M9Q2X'))
    .action(lazy('approvals/approve'));
  approvals.command('reject').argument('<id>', 'request id').description('refuse a held request: it will never be sent')
    .option('--reason <text>', 'why, kept with the decision')
    .addHelpText('after', examples('fsapi approvals reject AP-7K3M9Q2X --reason "wrong invoice"'))
    .action(lazy('approvals/reject'));
});

program.command('tsq').argument('<transactionId>', "the transfer's reference, or the session id of its answer").description('transfer status query (requery)')
  .addHelpText('after', examples('fsapi tsq ACME-EXAMPLES000001', 'fsapi tsq ACME-EXAMPLES000001 --json'))
  .action(lazy('tsq'));

// ---- client accounts ---------------------------------------------------------------------------------
group('clients', 'client (virtual) accounts', ['fsapi clients list --type corporate', 'fsapi clients get 9900000011'], (clients) => {
  clients.command('list').description('list client accounts')
    .addOption(new Option('--type <type>', 'account type').choices(['individual', 'corporate']))
    .option('--validity-type <type>', 'validity type, e.g. permanent')
    .option('--status <status>', 'account status')
    .option('--page <n>', 'page number, from 1')
    .option('--limit <n>', 'accounts per page, 1 to 100')
    .addOption(new Option('--all', 'every page, streamed').conflicts('page'))
    .option('--csv', 'CSV on stdout (for spreadsheets)')
    .addHelpText('after', examples('fsapi clients list --type individual', 'fsapi clients list --all --json | jq length', 'fsapi clients list --all --csv > clients.csv'))
    .action(lazy('clients/list'));
  clients.command('get').argument('<accountNumber>', 'client account number').description('look a client account up')
    .addHelpText('after', examples('fsapi clients get 9900000011'))
    .action(lazy('clients/get'));
  const create = clients.command('create').description('create a client account')
    .addHelpText('after', examples('fsapi clients create individual', 'fsapi clients create corporate'));
  create.command('individual').description('create an individual client account (asks for missing fields on a terminal, then for a review)')
    .option('--firstname <name>', 'first name (required)')
    .option('--lastname <name>', 'last name (required)')
    .option('--middlename <name>', 'middle name')
    .option('--phone-number <phone>', 'Nigerian mobile number, 08031234567 or +2348031234567 (required)')
    .option('--email-address <email>', 'e-mail address (required)')
    .option('--address <address>', 'home address (required)')
    .option('--bvn <11 digits>', 'Bank Verification Number (required)')
    .option('--nin <11 digits>', 'National Identification Number')
    .addOption(new Option('--gender <gender>', 'male or female (required)').choices(['male', 'female']))
    .option('--date-of-birth <YYYY-MM-DD>', 'date of birth (required)')
    .option('--metadata <json>', 'JSON object kept with the account, e.g. {"customerId":"42"}')
    .option('-y, --yes', 'create it without the review')
    .addHelpText('after', examples('fsapi clients create individual', 'fsapi clients create individual --firstname Ada --lastname Obi --phone-number 08031234567 --email-address ada@example.com --address "1 Marina, Lagos" --bvn 22212345678 --gender female --date-of-birth 1990-04-01 --yes'))
    .action(lazy('clients/create-individual'));
  create.command('corporate').description('create a corporate client account (asks for missing fields on a terminal, then for a review)')
    .option('--rc-number <number>', 'company registration number, 1234567 or RC1234567 (required)')
    .option('--business-name <name>', 'registered business name (required)')
    .option('--email-address <email>', 'business e-mail address (required)')
    .option('--phone-number <phone>', 'Nigerian mobile number, 08031234567 or +2348031234567 (required)')
    .option('--address <address>', 'business address')
    .option('--bvn <11 digits>', "a director's Bank Verification Number (required)")
    .option('--incorporation-date <YYYY-MM-DD>', 'date of incorporation (required)')
    .option('--date-of-birth <YYYY-MM-DD>', "the director's date of birth (required)")
    .option('--metadata <json>', 'JSON object kept with the account, e.g. {"customerId":"42"}')
    .option('-y, --yes', 'create it without the review')
    .addHelpText('after', examples('fsapi clients create corporate', 'fsapi clients create corporate --rc-number 1234567 --business-name "Kola Foods Ltd" --email-address ops@kola.ng --phone-number 08031234567 --bvn 22212345678 --incorporation-date 2015-06-01 --date-of-birth 1980-01-31 --yes'))
    .action(lazy('clients/create-corporate'));
});

// ---- transactions ------------------------------------------------------------------------------------
group('tx', 'transactions: inflows and outflows', ['fsapi tx list --limit 10', 'fsapi tx get ACME-EXAMPLES000001'], (tx) => {
  tx.command('list').description('list transactions, newest first')
    .option('--page <n>', 'page number, from 1')
    .option('--limit <n>', 'transactions per page, 1 to 100')
    .addOption(new Option('--all', 'every page, streamed').conflicts('page'))
    .addOption(new Option('--type <type>', 'only credits or debits').choices(['credit', 'debit']))
    .option('--status <status>', 'only this status, e.g. successful or pending')
    .option('--since <date>', 'from this date: YYYY-MM-DD, today, yesterday, 7d (today and the 6 days before), 2w, or an ISO date-time')
    .option('--until <date>', 'up to this date (a day is inclusive): YYYY-MM-DD, today, yesterday, 7d, or an ISO date-time')
    .option('--csv', 'CSV on stdout (for spreadsheets)')
    .addHelpText('after', examples('fsapi tx list --all --since 2026-10-01 --until 2026-10-31 --csv > oct.csv', 'fsapi tx list --all --json | jq length'))
    .action(lazy('tx/list'));
  tx.command('get').argument('<reference>', 'transaction reference').description('one transaction by reference')
    .addHelpText('after', examples('fsapi tx get ACME-EXAMPLES000001', 'fsapi tx get ACME-EXAMPLES000001 --json | jq .status'))
    .action(lazy('tx/get'));
  tx.command('watch').description('print new transactions as they appear (Ctrl-C stops)')
    .option('--interval <seconds>', 'seconds between polls, 1 to 3600', '5')
    .addOption(new Option('--type <type>', 'only credits or debits').choices(['credit', 'debit']))
    .option('--since <date>', 'first replay the transactions from this date (YYYY-MM-DD, today, yesterday, 7d, or an ISO date-time)')
    .option('--count <n>', 'stop after printing this many transactions')
    .addHelpText('after', examples(
      'fsapi tx watch --type credit',
      'fsapi tx watch --interval 2 --json | jq -r .reference',
      'fsapi tx watch --since 2026-11-22 --count 5',
    ))
    .action(lazy('tx/watch'));
});

// ---- the back office: statement, collections, reconciliation, live watch --------------------------------
program.command('statement').description('opening and closing balance, money in and out, charges, one row a day')
  .option('--since <date>', 'first day (YYYY-MM-DD, local; today, yesterday, 7d, 30d, 2w) or ISO date-time; default: 6 days before --until')
  .option('--until <date>', 'last day (inclusive; YYYY-MM-DD, today, yesterday, 7d) or ISO date-time; default: today')
  .option('--csv', 'CSV on stdout, one row a day: date,credits,credit_total,debits,debit_total,charges,stamp_duty,net,balance')
  .option('--transactions', 'with --csv: one row per transaction, oldest first, with the balance after it')
  .option('--pdf <file>', 'write the statement of account as a PDF: totals, a chart of each day, every transaction')
  .addHelpText('after', examples(
    'fsapi statement --since 2026-11-01 --until 2026-11-30 --csv > november.csv',
    'fsapi statement --since 2026-11-01 --until 2026-11-30 --pdf november.pdf',
    'fsapi statement --json | jq -r .closingBalance',
  ))
  .action(lazy('statement'));
program.command('collections').argument('[accountNumber]', 'one client account: list its inflows')
  .description('inflows by receiving client (virtual) account: count, total, first and last payment')
  .option('--since <date>', 'first day (YYYY-MM-DD, local; today, yesterday, 7d, 30d, 2w) or ISO date-time; default: 6 days before --until')
  .option('--until <date>', 'last day (inclusive; YYYY-MM-DD, today, yesterday, 7d) or ISO date-time; default: today')
  .option('--csv', 'CSV on stdout (for spreadsheets)')
  .addHelpText('after', examples(
    'fsapi collections',
    'fsapi collections --since 2026-11-01 --csv > collections.csv',
    'fsapi collections 9900000011 --json | jq length',
  ))
  .action(lazy('collections'));
program.command('reconcile').description('the journal of transfers sent from here against the API; exit 1 when anything needs attention')
  .option('--since <date>', 'first day (YYYY-MM-DD, local; today, yesterday, 7d, 30d, 2w) or ISO date-time; default: 6 days ago, or the first journalled transfer if earlier')
  .addHelpText('after', examples(
    'fsapi reconcile',
    'fsapi reconcile --since 2026-11-01 --json | jq -r \'.findings[].kind\'',
  ))
  .action(lazy('reconcile'));

// The callback of the scripts `fsapi completion <shell>` prints, run on every Tab press. Hidden from help,
// the docs and completion. It builds no Context: it only reads local files, so a Tab never touches the
// network or creates anything.

// ---- notifications -----------------------------------------------------------------------------------
group('webhook', 'receive and verify payment notifications', ['fsapi webhook listen --forward-to http://127.0.0.1:3000/hooks', 'fsapi webhook verify event.json'], (webhook) => {
  webhook.command('listen').description('receive notifications, verify each by reference, forward verified ones')
    .option('--port <n>', 'port to listen on', '8787')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--path <path>', 'URL path notifications are posted to', '/')
    .option('--forward-to <url>', 'POST verified events to this URL')
    .option('--no-verify', 'do not look references up (events are shown as unverified and not forwarded)')
    .addHelpText('after', examples('fsapi webhook listen --port 8787 --forward-to http://127.0.0.1:3000/hooks', 'fsapi webhook listen --json | jq .state'))
    .action(lazy('webhook/listen'));
  webhook.command('verify').argument('<file>', 'saved notification JSON, or - for stdin').description('verify one saved notification')
    .addHelpText('after', examples('fsapi webhook verify event.json', 'cat event.json | fsapi webhook verify -'))
    .action(lazy('webhook/verify'));
});

// ---- simulator ---------------------------------------------------------------------------------------
group('simulator', 'the built-in API simulator: no real money moves', ['fsapi simulator serve --port 4010', 'fsapi simulator collect 9900000011 --amount 25000'], (simulator) => {
  simulator.command('serve').description('serve the simulator over HTTP')
    .option('--port <n>', 'port (0 picks a free one)', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--state <file>', 'SQLite state file, created when missing (default: a fresh in-memory state)')
    .option('--business-name <name>', 'business that owns the account; its first word is the reference prefix (default: ACME TRADING LIMITED)')
    .option('--webhook-url <url>', 'POST collection notifications here')
    .option('--settle-seconds <n>', 'seconds before a pending transfer turns successful', '5')
    .option('--latency-ms <n>', 'delay added to every answer', '0')
    .option('--seed-transactions <n>', 'size of the seeded transaction history')
    .option('--token-validity-seconds <n>', 'cap on token lifetime, to exercise renewal')
    .addOption(new Option('--fault <mode>', 'misbehave after committing transfers').choices(['drop', 'bad-gateway', 'stall', 'html']))
    .option('--realistic', 'answer the way the real API varies: nulls, numbers as text, other cases')
    .option('--rate-limit <n>', 'answer 429 to requests beyond n a second (not carried out)')
    .addHelpText('after', examples('fsapi simulator serve --port 4010', 'fsapi simulator serve --port 0 --fault drop --webhook-url http://127.0.0.1:8787/', 'fsapi simulator serve --realistic --rate-limit 5'))
    .action(lazy('simulator/serve'));
  simulator.command('collect').argument('<accountNumber>', 'client account that receives the money')
    .description('make an inflow to a client account and send its notification')
    .option('--amount <naira>', 'amount received (required)')
    .option('--webhook-url <url>', 'POST the notification here (local profile)')
    .addHelpText('after', examples('fsapi simulator collect 9900000011 --amount 25000 --webhook-url http://127.0.0.1:8787/'))
    .action(lazy('simulator/collect'));
  simulator.command('reset').description('forget the local simulator state and start again from the seed')
    .option('--business-name <name>', 'business of the fresh state; its first word is the reference prefix (default: the current one)')
    .addHelpText('after', examples('fsapi simulator reset', "fsapi simulator reset --business-name 'JUMPA TECHNOLOGIES LTD'"))
    .action(lazy('simulator/reset'));
});

// ---- reach -------------------------------------------------------------------------------------------
program.command('api').argument('<method>', 'GET, POST, PUT, PATCH or DELETE').argument('<path>', 'path below the base address, e.g. /v1/account')
  .summary('call any endpoint with the stored authentication')
  .description(
    "Call any endpoint with the stored authentication (the token is renewed as for every command) and print the answer's " +
      'body on stdout, whatever the status. Exit 0 for a 2xx success; 1 otherwise, also for success: false, with ' +
      "the API's message on stderr; 3 when the token is refused and cannot be renewed. Paths are below the base address." +
      '\n\nPOST /v1/transfer is refused: it would not be name-checked, confirmed or journalled. Use fsapi transfer send.',
  )
  .option('--data <json|@file|->', 'JSON request body: inline, @file, or - for stdin')
  .option('--query <key=value...>', 'query parameters (repeat, or list several)')
  .option('--include', 'print the HTTP status and the response headers on stderr')
  .option('--allow-transfer', 'send POST /v1/transfer anyway (no name check, no journal; exit 5 if the outcome is unknown)')
  .addHelpText('after', examples(
    'fsapi api GET /v1/account',
    'fsapi api POST /v1/transfer/name-enquiry --data \'{"bankCode":"000013","accountNumber":"0123456789"}\'',
    'fsapi api GET /v1/transactions --query page=2 --query limit=5 --include',
  ))
  .action(lazy('api'));
program.command('completion').argument('<shell>', 'bash, zsh or fish').summary('print a shell completion script')
  .description(
    'Print the completion script of a shell. It completes commands, options, profile names after --profile, and ' +
      'bank names and codes after --bank from the bank list that fsapi banks cached: a Tab never calls the API.',
  )
  .addHelpText('after', examples(
    'source <(fsapi completion bash)',
    'fsapi completion zsh > "${fpath[1]}/_fsapi"',
    'fsapi completion fish > ~/.config/fish/completions/fsapi.fish',
  ))
  .action(lazy('completion'));


program.command('__complete', { hidden: true })
  .description('answer a shell completion request')
  .argument('[words...]', 'the words after the program name, the last one being completed')
  .option('--line <text>', 'bash: the command line up to the cursor')
  .action(async (words: string[], options: { line?: string }) => {
    const { answerCompletion } = await import('./completion/callback.js');
    writeNow(1, answerCompletion(defineEveryCommand(), { line: options.line, words }, process.env));
  });

// The root's own commands get the settings every group's get when it is defined (finishSubtree).
for (const command of program.commands) {
  if (!undefinedGroups.has(command) && command.name() !== '__complete') finishSubtree(command);
}
