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

  it('tx list: integers, a choice and dates as the spec parses them', async () => {
    const result = await parsed(['tx', 'list', '--limit', '25', '--type', 'debit', '--since', '2026-10-01', '--csv']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.args, []);
    assert.equal(result.options?.limit, 25);
    assert.equal(result.options?.type, 'debit');
    assert.equal(result.options?.since, '2026-10-01');
    assert.equal(result.options?.csv, true);
    assert.equal(result.options?.all, false);
    assert.equal(result.options?.page, undefined);
  });

  it('transfer status: a duration with its default, in seconds', async () => {
    const result = await parsed(['transfer', 'status', 'ACME-EXAMPLES000001', '--wait']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.args, ['ACME-EXAMPLES000001']);
    assert.equal(result.options?.wait, true);
    assert.equal(result.options?.waitTimeout, 300);
  });

  it('usage errors are exit 2 with the documented words, the command never reached', async () => {
    const outOfRange = await parsed(['tx', 'list', '--limit', '101']);
    assert.equal(outOfRange.code, 2);
    assert.match(outOfRange.stderr, /^error: --limit must be a whole number from 1 to 100, not "101"$/m);
    assert.equal(outOfRange.options, undefined);
    const notAChoice = await parsed(['tx', 'list', '--type', 'refund']);
    assert.equal(notAChoice.code, 2);
    assert.match(notAChoice.stderr, /^error: --type must be credit or debit, not "refund"$/m);
    assert.equal(notAChoice.options, undefined);
    const conflicting = await parsed(['tx', 'list', '--all', '--page', '2']);
    assert.equal(conflicting.code, 2);
    assert.match(conflicting.stderr, /^error: option '--all' cannot be used with option '--page <n>'$/m);
    assert.equal(conflicting.options, undefined);
    const misspelt = await parsed(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amout', '5000', '--narration', 'x']);
    assert.equal(misspelt.code, 2);
    assert.match(misspelt.stderr, /^error: unknown option '--amout'\nhint: did you mean --amount\?$/m);
    assert.equal(misspelt.options, undefined);
  });

  it('under --json a usage error is one JSON object on stderr, exit 2', async () => {
    const result = await parsed(['transfer', 'status', 'ACME-EXAMPLES000001', '--wait-timeout', '0', '--json']);
    assert.equal(result.code, 2);
    const error = JSON.parse(result.stderr) as { error: { code: string; message: string; exitCode: number } };
    assert.equal(error.error.code, 'usage');
    assert.equal(error.error.exitCode, 2);
    assert.equal(error.error.message, '--wait-timeout must be a whole number of seconds from 1 to 86400, not "0"');
    assert.equal(result.options, undefined);
  });

  it('a bad amount is exit 2 in the parser, before the command: it is never reached', async () => {
    const result = await parsed(['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '1.234', '--narration', 'x', '--yes']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--amount/);
    assert.equal(result.options, undefined, 'runF was not called');
  });
});
