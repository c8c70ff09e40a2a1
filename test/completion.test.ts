// Shell completion as a shell uses it: the script printed by `fsapi completion bash` is loaded into a real
// bash, the completion variables are set as readline sets them, and the function's COMPREPLY is read back.
// The profile and the bank cache come from the real commands (auth login, banks) against the served
// simulator, so the completion reads the files exactly as fsapi writes them. Completion itself must never
// reach the API: the simulator's request log is checked after every Tab.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { cliPath, makeHome, repoRoot } from './helpers/cli.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { defineEveryCommand } from '../src/program.js';
import { complete, type CompletionSources } from '../src/completion/engine.js';
import { splitCommandLine } from '../src/completion/callback.js';

const program = defineEveryCommand();

let setup: TransferSetup;

before(async () => {
  setup = await setUpTransfers({ log: () => undefined });
  const banks = await setup.runInProcess(['banks']); // primes <dataDir>/cache/banks-sim.json
  assert.equal(banks.code, 0, banks.stderr);
  setup.server.simulator.clearRequests();
});
after(async () => {
  await setup.close();
});

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * Presses Tab at the end of `line` in a bash that loaded `fsapi completion bash`: COMP_WORDS is split at
 * blanks and at bash's word-break characters = and :, as readline does.
 */
function bashComplete(line: string, env: Record<string, string> = setup.env): string[] {
  const script = [
    `fsapi() { ${shellQuote(process.execPath)} ${shellQuote(cliPath)} "$@"; }`,
    'source <(fsapi completion bash)',
    `COMP_LINE=${shellQuote(line)}`,
    'COMP_POINT=${#COMP_LINE}',
    // Words as readline makes them: split at blanks, and = and : stand alone.
    `read -ra COMP_WORDS <<< "$(sed -E 's/([=:])/ \\1 /g' <<< "$COMP_LINE")"`,
    `[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')`,
    'COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))',
    '_fsapi_completion',
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
  ].join('\n');
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: setup.home.root, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, '', 'the completion function writes nothing on the terminal');
  return result.stdout.split('\n').filter((line) => line !== '');
}

describe('bash completion (the real script in a real bash)', () => {
  it('completes top-level commands and leaves out the hidden callback and help', () => {
    assert.deepEqual(bashComplete('fsapi tr'), ['transfer']);
    const all = bashComplete('fsapi ');
    for (const name of ['auth', 'account', 'banks', 'transfer', 'clients', 'api', 'completion']) assert.ok(all.includes(name), name);
    assert.ok(!all.includes('__complete'));
    assert.ok(!all.includes('help'));
  });

  it('completes the subcommands of transfer', () => {
    assert.deepEqual(bashComplete('fsapi transfer ').sort(), ['batch', 'log', 'receipt', 'send', 'status']);
    assert.deepEqual(bashComplete('fsapi transfer s').sort(), ['send', 'status']);
  });

  it('completes the options of transfer send, global ones included', () => {
    const options = bashComplete('fsapi transfer send 0123456789 --');
    for (const option of ['--bank', '--amount', '--narration', '--reference', '--expect-name', '--yes', '--wait', '--profile', '--json']) {
      assert.ok(options.includes(option), option);
    }
    assert.deepEqual(bashComplete('fsapi transfer send 0123456789 --am'), ['--amount']);
    // An option already given is not offered again.
    assert.ok(!bashComplete('fsapi transfer send 0123456789 --yes --').includes('--yes'));
  });

  it('completes saved profile names after --profile, and after --profile=', () => {
    assert.deepEqual(bashComplete('fsapi --profile ').sort(), ['local', 'sim']);
    assert.deepEqual(bashComplete('fsapi account --profile s'), ['sim']);
    // bash replaces only the text after "=", so the candidates are the bare names.
    assert.deepEqual(bashComplete('fsapi --profile=s'), ['sim']);
  });

  it('completes bank names and codes after --bank from the cached bank list', () => {
    assert.deepEqual(bashComplete('fsapi transfer send 0123456789 --bank guar'), ['Guaranty\\ Trust\\ Bank']);
    assert.deepEqual(bashComplete('fsapi transfer send 0123456789 --bank gtb'), ['Guaranty\\ Trust\\ Bank'], 'initials, as --bank accepts them');
    assert.deepEqual(bashComplete('fsapi enquiry 0123456789 --bank 00001').sort(), [
      '000010',
      '000011',
      '000012',
      '000013',
      '000014',
      '000015',
      '000016',
      '000017',
      '000018',
    ]);
    assert.ok(bashComplete('fsapi enquiry 0123456789 --bank ').includes('Access\\ Bank'));
    assert.deepEqual(bashComplete('fsapi enquiry 0123456789 --bank=acce'), ['Access\\ Bank']);
    assert.deepEqual(setup.server.simulator.requests(), [], 'completion never calls the API');
  });

  it('completes saved payee aliases after --to and payees remove, without asking the API', async () => {
    const added = await setup.runInProcess(['payees', 'add', 'landlord', '0123456789', '--bank', 'gtb']);
    assert.equal(added.code, 0, added.stderr);
    setup.server.simulator.clearRequests();
    assert.deepEqual(bashComplete('fsapi transfer send --to la'), ['landlord']);
    assert.deepEqual(bashComplete('fsapi payees remove '), ['landlord']);
    assert.deepEqual(bashComplete('fsapi transfer send --to x'), []);
    assert.deepEqual(setup.server.simulator.requests(), [], 'completion never calls the API');
  });

  it('inserts the name unescaped inside a quote the user opened', () => {
    assert.deepEqual(bashComplete('fsapi enquiry 0123456789 --bank "guar'), ['Guaranty Trust Bank']);
  });

  it('completes choices, shells, HTTP methods and file names', () => {
    assert.deepEqual(bashComplete('fsapi clients list --type ').sort(), ['corporate', 'individual']);
    assert.deepEqual(bashComplete('fsapi completion ').sort(), ['bash', 'fish', 'zsh']);
    assert.deepEqual(bashComplete('fsapi api p').sort(), ['PATCH', 'POST', 'PUT']);
    assert.ok(bashComplete('fsapi api GET /v1/tr').includes('/v1/transfer/banks'));
    // transfer batch <file>: the shell completes file names (relative to bash's working directory).
    assert.ok(bashComplete('fsapi transfer batch packa').includes('package.json'));
  });

  it('offers nothing where a free value is expected', () => {
    assert.deepEqual(bashComplete('fsapi transfer send 0123456789 --amount '), []);
    assert.deepEqual(bashComplete('fsapi transfer send '), []);
  });

  it('works in an empty home and creates nothing there', () => {
    const home = makeHome();
    try {
      assert.deepEqual(bashComplete('fsapi --profile ', home.env), ['local']);
      assert.deepEqual(bashComplete('fsapi enquiry 1 --bank acc', home.env), []);
      assert.equal(existsSync(home.configDir), false);
      assert.equal(existsSync(home.dataDir), false);
      assert.deepEqual(readdirSync(home.root), []);
    } finally {
      home.cleanup();
    }
  });
});

describe('completion scripts', () => {
  it('prints each script; bash and zsh parse without errors', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const result = await setup.runInProcess(['completion', shell]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /fsapi __complete/);
    }
    const bash = await setup.runInProcess(['completion', 'bash']);
    execFileSync('bash', ['-n'], { input: bash.stdout });
    if (hasShell('zsh')) {
      const zsh = await setup.runInProcess(['completion', 'zsh']);
      execFileSync('zsh', ['-n'], { input: zsh.stdout });
    }
  });

  it('fish completes subcommands and bank names through the script', { skip: !hasShell('fish') && 'fish is not installed' }, async () => {
    const script = (await setup.runInProcess(['completion', 'fish'])).stdout;
    const run = (line: string) =>
      execFileSync(
        'fish',
        ['--no-config', '-c', `function fsapi; ${shellQuote(process.execPath)} ${shellQuote(cliPath)} $argv; end\n${script}\ncomplete -C${shellQuote(line)}`],
        {
          env: { PATH: process.env.PATH, HOME: setup.home.root, ...setup.env },
          encoding: 'utf8',
        },
      )
        .split('\n')
        .filter((entry) => entry !== '');
    assert.deepEqual(
      run('fsapi transfer s')
        .map((entry) => entry.split('\t')[0])
        .sort(),
      ['send', 'status'],
    );
    assert.ok(run('fsapi enquiry 1 --bank guar').includes('Guaranty Trust Bank\t000013'));
  });

  it('an unknown shell is exit 2 listing the supported ones', async () => {
    const result = await setup.runInProcess(['completion', 'tcsh']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: unsupported shell "tcsh"; supported: bash, zsh, fish$/m);
    assert.equal(result.stdout, '');
  });
});

describe('completion engine', () => {
  const sources: CompletionSources = {
    profiles: () => ['live', 'local', 'sim'],
    banks: (profile) => (profile === 'live' ? [{ code: '000014', name: 'Access Bank' }] : [{ code: '000013', name: 'Guaranty Trust Bank' }]),
  };
  const values = (words: string[]) => complete(program, words, sources).candidates.map((candidate) => candidate.value);

  it('uses the bank cache of the profile named on the line', () => {
    assert.deepEqual(values(['--profile', 'live', 'enquiry', '1', '--bank', '']), ['Access Bank']);
    assert.deepEqual(values(['enquiry', '1', '--bank', '']), ['Guaranty Trust Bank']);
  });

  it('skips option values when finding the command, and honours --', () => {
    assert.deepEqual(values(['--timeout', '5', 'transfer', 'st']), ['status']);
    assert.deepEqual(values(['webhook', 'verify', '--', '--']), []);
  });

  it('describes commands by their one-line summary, and completes after `help`', () => {
    const api = complete(program, ['a'], sources).candidates.find((candidate) => candidate.value === 'api');
    assert.equal(api?.description, 'call any endpoint with the stored authentication');
    assert.deepEqual(values(['help', 'transfer', 's']), ['send', 'status']);
    assert.deepEqual(values(['help', 'transfer', 'send', '']), []);
  });

  it('asks the shell for file names for <file> arguments and options', () => {
    assert.equal(complete(program, ['transfer', 'batch', 'pay.csv', '--report', ''], sources).files, true);
    assert.equal(complete(program, ['simulator', 'serve', '--state', ''], sources).files, true);
    assert.equal(complete(program, ['transfer', 'send', ''], sources).files, false);
  });

  it('splits a command line the way the shell runs it', () => {
    assert.deepEqual(splitCommandLine('fsapi enquiry 1 --bank "Guaranty Tr'), ['fsapi', 'enquiry', '1', '--bank', 'Guaranty Tr']);
    assert.deepEqual(splitCommandLine("fsapi a\\ b 'c d' "), ['fsapi', 'a b', 'c d', '']);
  });
});

function hasShell(name: string): boolean {
  return spawnSync(name, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}
