// Every command's help, generated from its spec (src/commands/spec.ts), fits 80 columns (and so do the
// helps of fsapi and of each group; the other screens: test/screens.test.ts) and tells the
// truth about the command: its exit codes, and an engine module to run it. The specs also describe their
// options for a tool schema; that description is checked on transfer send.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { commandSpec, defineEveryCommand, engineKey } from '../src/program.js';
import { commands } from '../src/engine.js';
import { describeOptions } from '../src/commands/spec.js';
import { sendSpec } from '../src/commands/transfer/send.spec.js';
import { makeHome, runCli } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';
import { displayWidth } from '../src/common/text-width.js';

const program = defineEveryCommand();

function leaves(command: Command): Command[] {
  if (command.commands.length === 0) return [command];
  return command.commands.filter((sub) => sub.name() !== '__complete' && sub.name() !== 'help').flatMap(leaves);
}

const pathOf = (command: Command) => {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names;
};

describe('help from the specs', () => {
  const all = leaves(program);

  it('every command of the tree comes from a spec that src/engine.ts can run', () => {
    assert.ok(all.length >= 45, `only ${all.length} commands`);
    for (const command of all) {
      const spec = commandSpec(command);
      assert.ok(spec, `${pathOf(command).join(' ')} has no spec`);
      assert.equal(spec.path, pathOf(command).join(' '));
      assert.ok(engineKey(spec) in commands, `src/engine.ts has no command ${engineKey(spec)}`);
    }
  });

  it("every command's --help, piped, fits 80 columns and lists its own exit codes", async () => {
    // Several at a time: each is a process of its own, as a person would run it.
    const queue = [...all];
    const worker = async () => {
      for (let command = queue.shift(); command; command = queue.shift()) {
        const words = pathOf(command);
        const result = await runCli([...words, '--help']);
        assert.equal(result.code, 0, `${words.join(' ')} --help: ${result.stderr}`);
        // Columns as a terminal counts them (src/common/text-width.ts): ₦ one, a wide character two.
        const long = result.stdout.split('\n').filter((line) => displayWidth(line) > 80);
        assert.deepEqual(long, [], `${words.join(' ')} --help has lines over 80 columns`);
        const codes = [...result.stdout.split('Exit codes:\n')[1]!.matchAll(/^ {2}([0-9]) {2}/gm)].map((match) => Number(match[1]));
        assert.deepEqual(codes, [...commandSpec(command)!.exitCodes], `${words.join(' ')} --help exit codes`);
      }
    };
    await Promise.all([worker(), worker()]);
  });

  it('the help of fsapi and of every group, at a terminal of 80 columns, fits it', async () => {
    const groups = (command: Command): Command[] => [
      command,
      ...command.commands.filter((sub) => sub.commands.length > 0 && sub.name() !== 'help').flatMap(groups),
    ];
    const home = makeHome();
    try {
      for (const group of groups(program)) {
        const words = pathOf(group);
        const result = await runInProcess([...words, '--help'], { tty: true, columns: 80, env: home.env });
        assert.equal(result.code, 0, `${words.join(' ')} --help: ${result.stdout}`);
        assert.match(result.stdout, /^Usage: fsapi/m);
        const long = result.stdout.split('\n').filter((line) => displayWidth(line) > 80);
        assert.deepEqual(long, [], `fsapi ${words.join(' ')} --help has lines over 80 columns`);
      }
    } finally {
      home.cleanup();
    }
  });

  it('approvals approve says it can return 2 and not 6 or 7', () => {
    const approve = all.find((command) => pathOf(command).join(' ') === 'approvals approve')!;
    const codes = commandSpec(approve)!.exitCodes;
    assert.ok(codes.includes(2));
    assert.ok(!codes.includes(6) && !codes.includes(7));
  });

  it("describes a spec's arguments and options for a tool schema", () => {
    const described = describeOptions(sendSpec);
    const byName = new Map(described.map((option) => [option.name, option]));
    assert.deepEqual(byName.get('accountNumber'), {
      name: 'accountNumber',
      flag: '[accountNumber]',
      kind: 'text',
      type: 'string',
      description: '10-digit account number of the receiver',
      required: false,
    });
    assert.equal(byName.get('amount')?.unit, 'naira');
    assert.equal(byName.get('amount')?.type, 'string');
    assert.deepEqual([byName.get('waitTimeout')?.minimum, byName.get('waitTimeout')?.maximum, byName.get('waitTimeout')?.default], [1, 86_400, 300]);
    assert.equal(byName.get('yes')?.type, 'boolean');
    assert.equal(byName.get('yes')?.flag, '--yes');
  });
});
