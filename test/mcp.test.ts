// `fsapi mcp` driven by a real MCP client: the official SDK's Client over stdio, spawning bin/fsapi.cjs mcp
// against a served simulator (test/helpers/transfer-setup.ts). The simulator's request log is the proof of
// what was (not) sent. The separate-user set-up of docs/agents.md runs the server as a second OS user made
// with useradd, as test/untrusted-files.test.ts does; it skips itself, saying why, where none can be made.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { childEnv, repoRoot, stripAnsi } from './helpers/cli.js';
import { mcpPayment, resultText, serveMcp, structuredOf, type Served } from './helpers/mcp-client.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_CREDENTIALS } from '../src/simulator/server.js';
import { packageForAnotherUser, testUserIds } from './helpers/os-user.js';

/** Every server of this file: the secret check reads all their results and stderr. */
const served: Served[] = [];

async function serve(env: Record<string, string | undefined>, command?: string[]): Promise<Served> {
  const server = await serveMcp(env, command);
  served.push(server);
  return server;
}

const text = resultText;
const structured = structuredOf;

const payment = mcpPayment;

/** `policy set` as the owner does it: at a terminal, the consumer secret typed. */
async function setPolicy(setup: TransferSetup, ...options: string[]): Promise<void> {
  const result = await setup.run(['policy', 'set', ...options], {
    tty: true,
    keys: [['Consumer secret of profile', `${SIMULATOR_CREDENTIALS.consumerSecret}\r`]],
  });
  assert.equal(result.code, 0, stripAnsi(result.stdout));
}

/** The strings of profiles.json kept under a key that names a token or a secret. */
function storedSecrets(configDir: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string' && /token|secret/i.test(key) && value.length >= 8) found.push(value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(JSON.parse(readFileSync(path.join(configDir, 'profiles.json'), 'utf8')), '');
  return found;
}

describe('fsapi mcp', () => {
  let setup: TransferSetup;
  let server: Served;

  before(async () => {
    setup = await setUpTransfers();
    server = await serve(setup.env);
  });
  after(async () => {
    await server?.close();
    await setup?.close();
  });

  it('lists the commands as tools, with annotations true to each, and none that approves, changes controls or shows a token', async () => {
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [
      'account',
      'banks',
      'enquiry',
      'tx_list',
      'tx_get',
      'transfer_status',
      'transfer_log',
      'transfer_receipt',
      'statement',
      'collections',
      'reconcile',
      'payees_list',
      'policy_show',
      'approvals_list',
      'transfer_send',
      'transfer_preview',
    ]) {
      assert.ok(byName.has(name), `${name} is listed`);
    }
    for (const name of byName.keys()) {
      assert.doesNotMatch(
        name,
        /^(auth|profile|store|api|approvals_(approve|reject)|policy_set|payees_(add|remove)|webhook|simulator|completion|mcp)/,
        `${name} is no tool`,
      );
    }
    const send = byName.get('transfer_send')!;
    assert.deepEqual(
      { ...send.annotations, title: undefined },
      { title: undefined, readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    );
    // Withdrawing a request of its own changes a record and cannot be undone; again answers the same.
    assert.deepEqual(
      { ...byName.get('approvals_withdraw')!.annotations, title: undefined },
      { title: undefined, readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    );
    for (const name of byName.keys()) {
      if (name === 'transfer_send' || name === 'approvals_withdraw') continue;
      assert.equal(byName.get(name)!.annotations?.readOnlyHint, true, `${name} reads only`);
      assert.equal(byName.get(name)!.annotations?.destructiveHint, false, `${name} destroys nothing`);
    }
    assert.equal(byName.get('policy_show')!.annotations?.openWorldHint, false, 'the policy is read from fsapi’s own records');
    // Input schemas from the specs: no --json, no confirmation, no file written, no other format.
    const sendInputs = Object.keys(send.inputSchema.properties ?? {});
    assert.deepEqual(sendInputs.sort(), ['accountNumber', 'amount', 'bank', 'expectName', 'narration', 'reference', 'senderName', 'to']);
    assert.deepEqual(send.inputSchema.required, ['amount', 'narration', 'reference']);
    assert.deepEqual((send.inputSchema as { anyOf?: unknown }).anyOf, [{ required: ['accountNumber', 'bank'] }, { required: ['to'] }]);
    assert.deepEqual(byName.get('enquiry')!.inputSchema.required, ['accountNumber', 'bank']);
    // Every tool says what it answers.
    for (const tool of tools) assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    assert.deepEqual(Object.keys(byName.get('statement')!.inputSchema.properties ?? {}).sort(), ['since', 'until']);
    assert.deepEqual(Object.keys(byName.get('transfer_receipt')!.inputSchema.properties ?? {}), ['reference', 'pdf']);
    assert.deepEqual(byName.get('tx_list')!.inputSchema.properties?.type, { type: 'string', description: 'only credits or debits', enum: ['credit', 'debit'] });
    const limit = byName.get('tx_list')!.inputSchema.properties?.limit as { minimum: number; maximum: number } | undefined;
    assert.deepEqual([limit?.minimum, limit?.maximum], [1, 100]);
  });

  it('loads the SDK (its own bundle, dist/vendor/mcp-sdk.cjs) for fsapi mcp alone: not for --help, not for other commands', async () => {
    const engine = readFileSync(path.join(repoRoot, 'dist', 'engine.cjs'), 'utf8');
    assert.ok(engine.includes('require("./vendor/mcp-sdk.cjs")'), 'engine.cjs requires the SDK bundle');
    assert.ok(!engine.includes('node_modules/@modelcontextprotocol/'), 'engine.cjs holds no copy of the SDK');
    assert.ok(!readFileSync(path.join(repoRoot, 'dist', 'cli.cjs'), 'utf8').includes('mcp-sdk'), 'cli.cjs never names it');
    const loads = async (args: string[]) => (await setup.run(args, { env: { NODE_DEBUG: 'module' } })).stderr;
    assert.doesNotMatch(await loads(['--help']), /mcp-sdk/);
    assert.doesNotMatch(await loads(['account', '--json']), /mcp-sdk/);
    assert.match(await loads(['mcp']), /Module\._load REQUEST \.\/vendor\/mcp-sdk\.cjs/);
  });

  it('gives the balance that `fsapi account --json` gives, as structured content', async () => {
    const result = await server.call('account');
    assert.equal(result.isError, undefined, text(result));
    const cli = await setup.run(['account', '--json']);
    assert.equal(cli.code, 0, cli.stderr);
    const account = JSON.parse(cli.stdout) as Record<string, unknown>;
    assert.equal(structured(result).availableBalance, account.availableBalance);
    assert.equal(structured(result).accountNumber, account.accountNumber);
    assert.match(text(result), /^fsapi account \(sandbox\): done/);
    // Every result names its environment (the served simulator is logged in to as a sandbox).
    assert.equal(structured(result).environment, 'sandbox');
    // A list is an object too (structured content must be one): its rows as `items`.
    const banks = await server.call('banks', { search: 'guaranty' });
    assert.ok(Array.isArray(structured(banks).items) && structured(banks).items.length >= 1, text(banks));
  });

  it('refuses bad input in the tool’s words, exit 2 and nothing sent', async () => {
    const bad = await server.call('tx_list', { limit: 500 });
    assert.equal(bad.isError, true);
    assert.deepEqual(structured(bad).error.exitCode, 2);
    // In the tool's words: the argument, not the command line's flag.
    assert.match(structured(bad).error.message, /^limit must be a whole number from 1 to 100/);
    const unknown = await server.call('account', { json: true });
    assert.equal(unknown.isError, true);
    assert.match(structured(unknown).error.message, /takes no input named "json"/);
    const noReference = await server.call('transfer_send', { ...payment('1000', 'x'), reference: undefined });
    assert.equal(noReference.isError, true);
    assert.match(structured(noReference).error.message, /needs reference/);
    const notFound = await server.call('approvals_show', { id: 'AP-NOTHERE' });
    assert.equal(notFound.isError, true);
    assert.equal(structured(notFound).error.code, 'not_found');
    assert.equal(setup.posts(), 0);
  });

  describe('transfer_send', () => {
    it('without a payment policy says so and sends nothing', async () => {
      const result = await server.call('transfer_send', payment('1500', 'ACME-MCP-NOPOLICY'));
      assert.equal(result.isError, true);
      assert.equal(structured(result).error.code, 'no_policy');
      assert.match(structured(result).error.message, /no payment policy: the owner sets one at a terminal with `fsapi policy set`/);
      assert.equal(setup.posts(), 0, 'nothing was POSTed to /v1/transfer');
    });

    it('within the policy pays once for two identical calls (same reference), and refuses that reference for another payment', async () => {
      await setPolicy(setup, '--max-per-day', '1000000', '--approval-above', '20000');
      const before = setup.posts();
      const first = await server.call('transfer_send', payment('1500', 'ACME-MCP-0001'));
      assert.equal(first.isError, undefined, text(first));
      assert.equal(structured(first).reference, 'ACME-MCP-0001');
      assert.equal(setup.posts(), before + 1);
      const again = await server.call('transfer_send', payment('1500', 'ACME-MCP-0001'));
      assert.equal(again.isError, undefined, text(again));
      assert.equal(structured(again).reference, 'ACME-MCP-0001');
      assert.equal(structured(again).repeated, true);
      assert.match(structured(again).outcome, /^(pending|successful)$/);
      assert.equal(structured(again).amount, '1500.00');
      assert.match(text(again), /reference ACME-MCP-0001 was sent before \((pending|successful)\); nothing was sent again/);
      // The prefix in another case is the same reference (the API gets it upper-cased).
      const lower = await server.call('transfer_send', payment('1500', 'acme-mcp-0001'));
      assert.equal(structured(lower).repeated, true, text(lower));
      // An amount as a JSON number is the same naira (clients send numbers); a third decimal is refused.
      const asNumber = await server.call('transfer_send', { ...payment('1500', 'ACME-MCP-0001'), amount: 1500 });
      assert.equal(structured(asNumber).repeated, true, text(asNumber));
      const tooFine = await server.call('transfer_send', { ...payment('1500', 'ACME-MCP-0009'), amount: 10.005 });
      assert.equal(tooFine.isError, true);
      assert.equal(structured(tooFine).error.exitCode, 2, text(tooFine));
      const other = await server.call('transfer_send', payment('1600', 'ACME-MCP-0001'));
      assert.equal(other.isError, true);
      assert.match(structured(other).error.message, /reference ACME-MCP-0001 was already used for ₦1,500\.00 .*not the amount ₦1,600\.00; nothing was sent/);
      assert.equal(setup.posts(), before + 1, 'one POST for all six calls');
      const log = await setup.run(['transfer', 'log', '--json']);
      assert.equal((JSON.parse(log.stdout) as Array<{ reference: string }>).filter((t) => t.reference === 'ACME-MCP-0001').length, 1);
    });

    it('above the approval threshold holds it, sends nothing, and names the request; the same call again names it again', async () => {
      const before = setup.posts();
      const held = await server.call('transfer_send', payment('30000', 'ACME-MCP-0002'));
      assert.equal(held.isError, undefined, text(held));
      const id = structured(held).id as string;
      assert.match(id, /^AP-[0-9A-Z]+$/);
      assert.equal(structured(held).status, 'held');
      assert.equal(structured(held).transfers[0].reference, 'ACME-MCP-0002');
      assert.equal(structured(held).transfers[0].amount, '30000.00');
      assert.match(text(held), new RegExp(`held: for approval as request ${id}: .*nothing was sent`));
      assert.match(text(held), new RegExp(`fsapi approvals approve ${id}`));
      const again = await server.call('transfer_send', payment('30000', 'ACME-MCP-0002'));
      assert.equal(structured(again).id, id, text(again));
      assert.equal(setup.posts(), before, 'nothing was POSTed');
      const requests = await server.call('approvals_list');
      assert.deepEqual(
        (structured(requests).items as Array<{ id: string }>).map((r) => r.id),
        [id],
      );
      // A person rejects it: the same call again answers that, and still sends nothing.
      const rejected = await setup.run(['approvals', 'reject', id, '--reason', 'not this month']);
      assert.equal(rejected.code, 0, rejected.stderr);
      const afterRejection = await server.call('transfer_send', payment('30000', 'ACME-MCP-0002'));
      assert.equal(afterRejection.isError, true);
      assert.equal(structured(afterRejection).error.code, 'rejected');
      assert.match(structured(afterRejection).error.message, new RegExp(`held in request ${id}, and a person rejected it; nothing was sent`));
      assert.equal(setup.posts(), before, 'nothing was POSTed');
    });

    it('beyond a hard limit sends nothing and says which', async () => {
      await setPolicy(setup, '--max-per-transfer', '25000');
      const before = setup.posts();
      const result = await server.call('transfer_send', payment('26000', 'ACME-MCP-0003'));
      assert.equal(result.isError, true);
      assert.match(structured(result).error.message, /maximum/);
      assert.equal(setup.posts(), before);
    });
  });

  it('two servers (two agent sessions) sending one reference at once pay it once', async () => {
    await setPolicy(setup, '--max-per-day', '1000000');
    const second = await serve(setup.env);
    try {
      const before = setup.posts();
      const results = await Promise.all([server, second].map((each) => each.call('transfer_send', payment('1200', 'ACME-MCP-TWICE'))));
      assert.equal(setup.posts(), before + 1, results.map(text).join('\n---\n'));
      const paid = results.filter((result) => !result.isError && structured(result).repeated !== true);
      assert.equal(paid.length, 1, 'one call says it paid');
      for (const result of results) {
        if (result.isError) assert.equal(structured(result).error.exitCode, 2, text(result));
      }
      // Asked again afterwards, either server answers the one transfer.
      const again = await second.call('transfer_send', payment('1200', 'ACME-MCP-TWICE'));
      assert.equal(structured(again).repeated, true, text(again));
      assert.equal(setup.posts(), before + 1);
    } finally {
      await second.close();
    }
  });

  it('has no tool that approves, and no way to a token: nothing secret in any result or on stderr, stdout only protocol', async () => {
    const reject = await server.call('approvals_approve', { id: 'AP-X' });
    assert.equal(reject.isError, true);
    assert.match(structured(reject).error.message, /no tool named "approvals_approve"/);
    for (const name of ['tx_list', 'transfer_log', 'policy_show', 'payees_list', 'reconcile', 'transfer_receipt']) {
      await server.call(name, name === 'transfer_receipt' ? { reference: 'ACME-MCP-0001' } : {});
    }
    const secrets = [...storedSecrets(setup.home.configDir), SIMULATOR_CREDENTIALS.consumerSecret];
    assert.ok(secrets.length >= 2, 'profiles.json holds a token to look for');
    for (const { results, stderr } of served) {
      const everything = `${JSON.stringify(results)}\n${stderr()}`;
      for (const secret of secrets) assert.ok(!everything.includes(secret), 'a token or secret reached a result or stderr');
    }
    assert.deepEqual(server.errors, [], 'every line on stdout was a protocol message');
  });
});

// ---- its own OS user ---------------------------------------------------------------------------------

const AGENT = 'fsapi-test-agent';

const agentIds = () => testUserIds(AGENT);
const agent = agentIds();

describe('as its own OS user (docs/agents.md)', { skip: typeof agent === 'string' ? agent : false }, () => {
  const ids = agent as { uid: number; gid: number };
  let root: string;
  const env = { FSAPI_CONFIG_DIR: '', FSAPI_DATA_DIR: '', HOME: '' };
  let setup: TransferSetup;
  let node: string;
  let cli: string;
  /** The command line that runs `args` as the server's user (what `sudo -u fsapi-agent` does). */
  const asAgent = (...args: string[]) => ['setpriv', `--reuid=${ids.uid}`, `--regid=${ids.gid}`, '--clear-groups', ...args];
  /**
   * `fsapi mcp` (or other fsapi `args`) as the server's user, stdin closed at once: its exit code and what
   * it wrote. Not spawnSync: the simulator answers from this process.
   */
  const fsapiAsAgent = (args: string[], extra: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const [command, ...rest] = asAgent(node, cli, ...args);
      const child = spawn(command!, rest, { cwd: root, env: childEnv({ ...env, ...extra }), stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end();
    });
  const start = () => fsapiAsAgent(['mcp']);

  before(async () => {
    setup = await setUpTransfers();
    root = mkdtempSync(path.join(tmpdir(), 'fsapi-mcp-user-'));
    const home = path.join(root, 'agent');
    Object.assign(env, { FSAPI_CONFIG_DIR: path.join(home, 'config'), FSAPI_DATA_DIR: path.join(home, 'data'), HOME: home });
    // The built package and this Node, copied where the other user can go: the checkout may sit where only
    // its owner can (a clone in a mode-700 directory), this Node under /root.
    ({ node, cli } = packageForAnotherUser(root));
    mkdirSync(home, { mode: 0o700 });
    chownSync(home, ids.uid, ids.gid);
    const login = await fsapiAsAgent(['auth', 'login', '--profile', 'sim', '--env', 'sandbox', '--base-url', setup.server.url], {
      FSAPI_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey,
      FSAPI_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret,
    });
    assert.equal(login.code, 0, login.stderr);
  });
  after(async () => {
    await setup?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => {
    // Each test leaves the dirs as the set-up wants them.
    chownSync(env.FSAPI_CONFIG_DIR, ids.uid, ids.gid);
    chownSync(env.FSAPI_DATA_DIR, ids.uid, ids.gid);
    chmodSync(env.FSAPI_CONFIG_DIR, 0o700);
    chmodSync(env.FSAPI_DATA_DIR, 0o700);
  });

  it('serves as that user, and the agent’s user can read neither its keys nor its records', async () => {
    const mcp = await serve(env, asAgent(node, cli, 'mcp'));
    try {
      const result = await mcp.call('account');
      assert.equal(result.isError, undefined, text(result));
      assert.match(String(structured(result).availableBalance), /^[0-9]+\.[0-9]{2}$/);
      const secrets = storedSecrets(env.FSAPI_CONFIG_DIR);
      for (const secret of secrets) assert.ok(!`${JSON.stringify(result)}${mcp.stderr()}`.includes(secret));
    } finally {
      await mcp.close();
    }
    // Another unprivileged user (the agent's, here `nobody`) can open neither dir.
    for (const dir of [env.FSAPI_CONFIG_DIR, env.FSAPI_DATA_DIR]) {
      const look = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'ls', dir], { encoding: 'utf8' });
      assert.notEqual(look.status, 0, `${dir} is readable by another user`);
      assert.match(look.stderr, /Permission denied/);
    }
    const read = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'cat', path.join(env.FSAPI_CONFIG_DIR, 'profiles.json')], {
      encoding: 'utf8',
    });
    assert.notEqual(read.status, 0);
    assert.equal(read.stdout, '');
  });

  for (const [dir, mode, open] of [
    ['FSAPI_CONFIG_DIR', 0o750, 'its group'],
    ['FSAPI_CONFIG_DIR', 0o701, 'others'],
    ['FSAPI_DATA_DIR', 0o770, 'its group'],
    ['FSAPI_DATA_DIR', 0o755, 'its group and others'],
  ] as const) {
    it(`refuses to serve when the ${dir === 'FSAPI_CONFIG_DIR' ? 'config' : 'data'} dir is mode ${mode.toString(8)}`, async () => {
      chmodSync(env[dir], mode);
      const result = await start();
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, '', 'nothing served');
      assert.match(
        result.stderr,
        new RegExp(
          `error: the ${dir === 'FSAPI_CONFIG_DIR' ? 'config' : 'data'} dir .* is open to ${open} \\(mode 0?${mode.toString(8)}\\); fsapi mcp serves nothing`,
        ),
      );
      assert.match(result.stderr, /hint: .*chmod 700/);
    });
  }

  it('refuses to serve from a dir another user owns', async () => {
    chownSync(env.FSAPI_DATA_DIR, 0, 0);
    const result = await start();
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`error: the data dir .* belongs to user 0, not to the user running fsapi mcp \\(${ids.uid}\\)`));
  });

  it('serves once the dirs are private again, and ends when the client closes stdin', async () => {
    const result = await start();
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /fsapi mcp: serving \d+ tools on stdio \(profile sim\)/);
  });
});
