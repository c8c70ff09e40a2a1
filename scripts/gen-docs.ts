// Writes docs/commands.md from the commander tree in src/program.ts: every visible command with its usage,
// description, arguments, options and the examples its --help ends with. `npm run docs` runs it; the test
// test/docs.test.ts fails when the committed file differs from a fresh rendering, so the reference cannot
// drift from `--help`. The output depends only on the tree (no terminal width, no version, no date).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command, Help } from 'commander';
import { apiEndpoints } from '../src/program.js';

export const docsPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/commands.md');

/** The subcommands a user can see: not hidden (the completion callback), not commander's `help`. */
export function visibleSubcommands(command: Command): Command[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => command.commands.includes(sub));
}

/** Every visible command below `root`, depth first, in the order of `--help`. */
export function allCommands(root: Command): Command[] {
  return visibleSubcommands(root).flatMap((command) => [command, ...allCommands(command)]);
}

export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** What addHelpText('after', ...) adds to the end of `--help` (commander keeps it only as a listener). */
export function helpTextAfter(command: Command): string {
  let text = '';
  // Command is an EventEmitter at run time, though its type declarations do not say so.
  const emitter = command as unknown as NodeJS.EventEmitter;
  emitter.emit('afterHelp', { error: false, command, write: (chunk: string) => (text += chunk) });
  // An example --help continues on the next line (` \` at 80 columns) is one line here.
  return text.replace(/ \\\n\s+/g, ' ');
}

/** The `$ ...` lines of the Examples section of a command's --help, without the `$ `. */
export function examplesOf(command: Command): string[] {
  return helpTextAfter(command)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('$ '))
    .map((line) => line.slice(2));
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

function optionTable(help: Help, options: ReturnType<Help['visibleOptions']>): string[] {
  return [
    '| Option | Description |',
    '|---|---|',
    ...options.map((option) => {
      // commander's help does not mark required options; the reference does.
      const required = option.mandatory ? ' (required)' : '';
      return `| \`${cell(help.optionTerm(option))}\` | ${cell(help.optionDescription(option))}${required} |`;
    }),
  ];
}

/** The text after `--help`'s usage: sections such as "Examples:" become markdown. */
function afterHelpSection(command: Command): string[] {
  const text = helpTextAfter(command).trim();
  if (text === '') return [];
  const out: string[] = [];
  let block: string[] | undefined;
  const closeBlock = () => {
    if (block) out.push('```console', ...block, '```', '');
    block = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (/^\S.*:$/.test(line)) {
      closeBlock();
      out.push(`**${line.slice(0, -1)}**`, '');
      continue;
    }
    if (line.trim().startsWith('$ ')) {
      (block ??= []).push(line.trim());
      continue;
    }
    closeBlock();
    if (line.trim() !== '') out.push(line.trim(), '');
  }
  closeBlock();
  return out;
}

function renderCommand(command: Command, depth: number): string[] {
  const help = command.createHelp();
  const title = commandPath(command);
  const out: string[] = [`${'#'.repeat(Math.min(depth, 6))} ${title}`, ''];
  const description = help.commandDescription(command);
  if (description) out.push(description, '');
  out.push('```', `Usage: ${help.commandUsage(command)}`, '```', '');

  const args = help.visibleArguments(command);
  if (args.length > 0) {
    out.push('| Argument | Description |', '|---|---|');
    for (const argument of args) out.push(`| \`${cell(help.argumentTerm(argument))}\` | ${cell(help.argumentDescription(argument))} |`);
    out.push('');
  }

  const subcommands = visibleSubcommands(command);
  if (subcommands.length > 0) {
    out.push('| Command | Description |', '|---|---|');
    for (const sub of subcommands) out.push(`| [\`${commandPath(sub)}\`](#${anchor(commandPath(sub))}) | ${cell(help.subcommandDescription(sub))} |`);
    out.push('');
  }

  // --help is on every command; the global options are listed once, at the top.
  const options = help.visibleOptions(command).filter((option) => option.long !== '--help');
  if (options.length > 0) out.push(...optionTable(help, options), '');

  const endpoints = apiEndpoints(command);
  if (endpoints.length > 0)
    out.push('| API endpoint | For |', '|---|---|', ...endpoints.map(([endpoint, why]) => `| \`${cell(endpoint)}\` | ${cell(why)} |`), '');

  out.push(...afterHelpSection(command));
  return out;
}

export function renderCommandReference(root: Command): string {
  const help = root.createHelp();
  const globals = help.visibleOptions(root).filter((option) => option.long !== '--help' && option.long !== '--version');
  const lines = [
    '# fsapi command reference',
    '',
    '<!-- Generated from the command tree (src/program.ts, from the specs in src/commands) by `npm run docs`. Do not edit: test/docs.test.ts fails when this file is out of date. -->',
    '',
    help.commandDescription(root),
    '',
    '```',
    `Usage: ${help.commandUsage(root)}`,
    '```',
    '',
    'Run `fsapi` alone for a short overview, and `fsapi <command> --help` for the text below.',
    '',
    '## Global options',
    '',
    'Accepted by every command, before or after the command name.',
    '',
    ...optionTable(help, globals),
    '| `-h, --help` | show the help of the command |',
    '| `-V, --version` | print the version |',
    '',
    ...afterHelpSection(root),
    '## Commands',
    '',
    ...allCommands(root).map((command) => {
      const depth = commandPath(command).split(' ').length - 2;
      return `${'  '.repeat(depth)}- [\`${commandPath(command)}\`](#${anchor(commandPath(command))}): ${help.subcommandDescription(command)}`;
    }),
    '',
  ];
  for (const command of allCommands(root)) {
    const depth = commandPath(command).split(' ').length;
    lines.push(...renderCommand(command, depth));
  }
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { defineEveryCommand } = await import('../src/program.js');
  writeFileSync(docsPath, renderCommandReference(defineEveryCommand()));
  process.stderr.write(`wrote ${path.relative(process.cwd(), docsPath)}\n`);
}
