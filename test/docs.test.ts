// docs/commands.md is generated from the command tree; this fails when someone changes a command and
// forgets `npm run docs`. It also holds every command's --help to its promise: one to three examples,
// each a real invocation (known commands and options, the right number of arguments).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Command, Option } from 'commander';
import { defineEveryCommand } from '../src/program.js';
import { allCommands, commandPath, docsPath, examplesOf, renderCommandReference, visibleSubcommands } from '../scripts/gen-docs.js';
import { splitCommandLine } from '../src/completion/callback.js';
import { runCli } from './helpers/cli.js';

const program = defineEveryCommand();

describe('docs/commands.md', () => {
  it('is what `npm run docs` generates from the command tree now', () => {
    const committed = readFileSync(docsPath, 'utf8');
    const fresh = renderCommandReference(program);
    if (committed !== fresh) {
      const committedLines = committed.split('\n');
      const freshLines = fresh.split('\n');
      const at = freshLines.findIndex((line, index) => line !== committedLines[index]);
      assert.fail(`docs/commands.md is out of date (first difference at line ${at + 1}: ${JSON.stringify(freshLines[at])}); run npm run docs`);
    }
  });

  it('has a section for every visible command, with its usage', () => {
    const committed = readFileSync(docsPath, 'utf8');
    for (const command of allCommands(program)) {
      assert.match(committed, new RegExp(`^#+ ${commandPath(command)}$`, 'm'), commandPath(command));
      assert.ok(committed.includes(`Usage: ${commandPath(command)} `), commandPath(command));
    }
    assert.doesNotMatch(committed, /__complete/);
  });
});

describe('examples in --help', () => {
  for (const command of [program, ...allCommands(program)]) {
    const name = commandPath(command);
    it(`${name} --help ends with one to three real examples`, () => {
      const examples = examplesOf(command);
      assert.ok(examples.length >= 1 && examples.length <= 3, `${name} has ${examples.length} examples`);
      for (const example of examples) {
        const words = fsapiWords(example);
        assert.ok(words, `${name}: example does not run fsapi: ${example}`);
        const problem = checkInvocation(program, words);
        assert.equal(problem, undefined, `${name}: ${example}: ${problem}`);
        const target = resolveCommand(program, words);
        assert.ok(target === command || isAncestor(command, target), `${name}: the example runs ${commandPath(target)}: ${example}`);
      }
    });
  }

  it('the examples are the last thing --help prints', async () => {
    const result = await runCli(['transfer', 'send', '--help']);
    assert.equal(result.code, 0);
    // An example longer than 80 columns continues on the next line after ` \`.
    const lines = result.stdout
      .trimEnd()
      .replace(/ \\\n\s+/g, ' ')
      .split('\n');
    assert.match(lines.at(-1)!, /^\s+\$ fsapi transfer send /);
    assert.ok(
      result.stdout.split('\n').every((line) => line.length <= 80),
      'every line fits 80 columns',
    );
    assert.ok(lines.includes('Examples:'));
  });
});

/** The arguments after `fsapi` in an example line, up to a pipe, redirection or closing parenthesis. */
function fsapiWords(example: string): string[] | undefined {
  // `$(fsapi auth token)`, `<(fsapi completion bash)`: the command inside the substitution.
  const substituted = /[$<]\((fsapi [^)]*)\)/.exec(example);
  const words = splitCommandLine(substituted ? substituted[1]! : example);
  const start = words.indexOf('fsapi');
  if (start === -1) return undefined;
  const rest = words.slice(start + 1);
  const end = rest.findIndex((word) => ['|', '>', '>>', ')', ';', '&&', '||'].includes(word) || word.startsWith('>'));
  return (end === -1 ? rest : rest.slice(0, end)).filter((word) => word !== '');
}

function optionsInScope(command: Command): Option[] {
  const options: Option[] = [];
  for (let at: Command | null = command; at; at = at.parent) options.push(...at.options);
  return options;
}

function resolveCommand(root: Command, words: string[]): Command {
  let command = root;
  let positionals = 0;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word.startsWith('-')) {
      const option = optionsInScope(command).find((o) => o.long === word.split('=')[0] || o.short === word);
      if (option && (option.required || option.optional) && !word.includes('=')) i += option.variadic ? Infinity : 1;
      continue;
    }
    const sub = positionals === 0 ? visibleSubcommands(command).find((candidate) => candidate.name() === word) : undefined;
    if (sub) command = sub;
    else positionals += 1;
  }
  return command;
}

/** Walks the words like commander: every option must exist, option values must be given, arguments must fit. */
function checkInvocation(root: Command, words: string[]): string | undefined {
  let command = root;
  const positionals: string[] = [];
  const given = new Set<string>();
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '--help' || word === '-h') return undefined;
    if (word.startsWith('-') && word !== '-') {
      const flag = word.split('=')[0]!;
      const option = optionsInScope(command).find((o) => o.long === flag || o.short === flag);
      if (!option) return `unknown option ${flag} for ${commandPath(command)}`;
      given.add(option.long ?? flag);
      if ((option.required || option.optional) && !word.includes('=')) {
        if (option.variadic) {
          while (words[i + 1] !== undefined && !words[i + 1]!.startsWith('-')) i += 1;
        } else {
          if (words[i + 1] === undefined) return `${flag} needs a value`;
          i += 1;
        }
      }
      continue;
    }
    const sub = positionals.length === 0 ? visibleSubcommands(command).find((candidate) => candidate.name() === word) : undefined;
    if (sub) command = sub;
    else positionals.push(word);
  }
  if (visibleSubcommands(command).length > 0 && positionals.length === 0 && command !== root) return undefined; // a group shows its help
  const declared = command.registeredArguments;
  const required = declared.filter((argument) => argument.required).length;
  const variadic = declared.some((argument) => argument.variadic);
  if (positionals.length < required) return `${commandPath(command)} needs ${required} argument(s), got ${positionals.length}`;
  if (!variadic && positionals.length > declared.length) return `${commandPath(command)} takes ${declared.length} argument(s), got ${positionals.length}`;
  for (const option of command.options) {
    if (option.mandatory && !given.has(option.long ?? '')) return `${commandPath(command)} needs ${option.long}`;
  }
  return undefined;
}

function isAncestor(ancestor: Command, command: Command): boolean {
  for (let at: Command | null = command.parent; at; at = at.parent) if (at === ancestor) return true;
  return false;
}

describe('help that fits and reads in order', () => {
  it('fsapi --help fits 80 columns when piped, and wraps between words', async () => {
    const result = await runCli(['--help']);
    assert.equal(result.code, 0);
    const lines = result.stdout.split('\n');
    assert.ok(
      lines.every((line) => line.length <= 80),
      lines.filter((line) => line.length > 80).join('\n'),
    );
    assert.match(result.stdout, /collections \[options\] \[accountNumber\]\s+inflows by receiving client \(virtual\)\n\s{20,}account/);
  });

  it("a group's help: its own options, then its commands, then the global options", async () => {
    const result = await runCli(['transfer', '--help']);
    const at = (heading: string) => result.stdout.indexOf(`\n${heading}\n`);
    assert.ok(at('Options:') > 0 && at('Options:') < at('Commands:') && at('Commands:') < at('Global Options:'), result.stdout);
    assert.ok(at('Global Options:') < at('Examples:'));
  });

  it("each command's help names the API endpoints it calls", async () => {
    for (const [args, endpoints] of [
      [['account'], ['GET /v1/account']],
      [
        ['transfer', 'send'],
        ['POST /v1/transfer/name-enquiry', 'POST /v1/transfer', 'GET /v1/transactions/reference/{reference}'],
      ],
      [['clients', 'create', 'individual'], ['POST /v1/account/clients/individual']],
      [
        ['webhook', 'listen'],
        ['GET /v1/transactions/reference/{reference}', 'GET /v1/client-enquiry/{accountNumber}'],
      ],
    ] as const) {
      const result = await runCli([...args, '--help']);
      const section = result.stdout.slice(result.stdout.indexOf('API endpoints:'), result.stdout.indexOf('Global Options:'));
      for (const endpoint of endpoints) assert.ok(section.includes(endpoint), `${args.join(' ')}: ${endpoint}`);
    }
  });
});
