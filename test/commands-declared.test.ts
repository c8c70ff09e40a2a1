// A command is declared once, in its spec: the engines' maps and the light list are made from the specs
// (scripts/gen-commands.ts, run by `npm run build`), and a command's flags can be checked alone, parsed by
// the real command tree without running the command (the `runF` seam of test/helpers/in-process.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { after, describe, it } from 'node:test';
import { LIGHT_COMMANDS } from '../src/engine-choice.js';
import { commands } from '../src/engine.js';
import { makeHome } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');

describe('a command declared once', () => {
  it("the engines' maps and the light list are what the specs make", () => {
    const run = spawnSync(process.execPath, [tsx, 'scripts/gen-commands.ts', '--check'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /^\d+ commands \(16 light\) as the specs make them/);
    // The light commands run from either engine; every command has one module.
    for (const key of LIGHT_COMMANDS) assert.ok(key in commands, key);
    assert.ok('transfer/send' in commands && !(LIGHT_COMMANDS as readonly string[]).includes('transfer/send'));
  });
});

describe("a command's flags alone (runF)", () => {
  const home = makeHome();
  after(() => home.cleanup());

  async function parsed(args: string[]): Promise<{ code: number; stderr: string; options?: Record<string, unknown>; args?: readonly string[] }> {
    let seen: { options: Record<string, unknown>; args: readonly string[] } | undefined;
    const result = await runInProcess(args, { env: home.env, runF: (options, given) => (seen = { options, args: given }) });
    return { code: result.code, stderr: result.stderr, ...seen };
  }

  it('transfer send: the amount in kobo, the account as its argument; nothing run', async () => {
    const result = await parsed(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '1,500.50', '--narration', 'Invoice 44', '--yes']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.args, ['0123456789']);
    assert.equal(result.options?.amount, 150050);
    assert.equal(result.options?.bank, 'gtb');
    assert.equal(result.options?.yes, true);
    assert.equal(result.options?.allowDuplicate, false);
  });

  it('policy set: a money option that takes `none`, and a flag pair left unsaid', async () => {
    const result = await parsed(['policy', 'set', '--max-per-day', '500,000', '--max-per-transfer', 'none', '--no-payees-only']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.options?.maxPerDay, 50_000_000);
    assert.equal(result.options?.maxPerTransfer, null);
    assert.equal(result.options?.payeesOnly, false);
    assert.equal(result.options?.fourEyes, undefined);
  });

  it('a bad amount is exit 2 in the parser, before the command: it is never reached', async () => {
    const result = await parsed(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '1.234', '--narration', 'x', '--yes']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--amount/);
    assert.equal(result.options, undefined, 'runF was not called');
  });
});
