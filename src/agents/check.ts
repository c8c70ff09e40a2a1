// `fsapi mcp --check`: is this user's set-up one the server can serve an agent from, unattended, as
// docs/agents.md describes? Run as the server's user (sudo -u fsapi-agent -H ... mcp --check), it checks
// what makes a server fail or stop later, and says each in one line:
//   - the Node that runs it (22.13+ or 24), by its absolute path: sudo's secure_path replaces PATH, so the
//     command in the sudoers rule and the host's configuration name this Node and this fsapi absolutely;
//   - the files it runs from (Node, fsapi) are nobody's to change but their owner's (else the agent's
//     user could change the code that holds the keys);
//   - the config and data dirs: this user's alone (the server refuses to serve otherwise);
//   - a payment policy for the profile (without one transfer_send pays nothing);
//   - the token: valid until when, and whether it can be renewed without a person (credentials saved):
//     a token expires (24 h by default) and with nothing to renew it the agent's calls fail from then on;
//   - what sudo drops: FSAPI_* in the environment of this check is not in the server's under sudo.
// Then it gives the exact sudoers line and the host configuration for these paths.
import { realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { Context } from '../context.js';
import { readPolicy } from '../transfers/limits.js';
import { transferScope } from '../transfers/transfer.js';
import { canRenew } from '../auth/credentials.js';
import { tokenState } from '../auth/session.js';
import { formatNaira } from '../money/kobo.js';
import { checkPrivateDirs, SharedDirError } from './private-dirs.js';

export type CheckLevel = 'ok' | 'warning' | 'problem';

export interface SetUpCheck {
  /** What was checked, in a word or two. */
  name: string;
  level: CheckLevel;
  detail: string;
}

export interface SetUpReport {
  user: string;
  profile: string;
  node: string;
  fsapi: string;
  checks: SetUpCheck[];
  /** The command an agent host runs, word by word. */
  command: string[];
  sudoers: string;
  claudeDesktop: Record<string, unknown>;
  claudeCode: string;
}

/** Node lines fsapi supports (package.json engines). */
export function supportedNode(version: string): boolean {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number) as [number, number];
  return major >= 24 || (major === 22 && minor >= 13);
}

export async function checkSetUp(ctx: Context, entry: string): Promise<SetUpReport> {
  const checks: SetUpCheck[] = [];
  const add = (name: string, level: CheckLevel, detail: string) => checks.push({ name, level, detail });
  const user = userInfo().username;
  const node = realpathSync(process.execPath);
  const fsapi = realpathSync(entry);

  if (process.geteuid?.() === 0) add('user', 'warning', 'this is root: the server is meant to run as a user of its own, whose dirs the agent cannot read');
  add(
    'node',
    supportedNode(process.version) ? 'ok' : 'problem',
    `${node} is Node ${process.version}${supportedNode(process.version) ? '' : ': fsapi needs 22.13+ or 24'}; the command below names it absolutely (sudo's secure_path would find another)`,
  );
  for (const file of [node, fsapi]) {
    const stats = statSync(file);
    const open = stats.mode & 0o022;
    if (open !== 0) add('install', 'problem', `${file} is writable by ${open & 0o020 ? 'its group' : 'others'}: whoever can change it runs as ${user}`);
    else if (stats.uid !== 0 && stats.uid !== process.geteuid?.())
      add('install', 'warning', `${file} belongs to user ${stats.uid}: that user can change what runs with the keys`);
  }
  if (!checks.some((check) => check.name === 'install')) add('install', 'ok', `${node} and ${fsapi} are writable by their owner only`);

  try {
    checkPrivateDirs(ctx.paths);
    add('dirs', 'ok', `${ctx.paths.configDir} and ${ctx.paths.dataDir} are ${user}'s alone (mode 700 or stricter)`);
  } catch (error) {
    if (!(error instanceof SharedDirError)) throw error;
    add('dirs', 'problem', `${error.message}; ${error.hint}`);
  }

  const profile = await ctx.profile();
  const scope = await transferScope(ctx);
  const policy = await readPolicy(ctx, scope);
  if (!policy) add('policy', 'problem', `profile "${profile.name}" has no payment policy: transfer_send pays nothing until the owner runs fsapi policy set`);
  else {
    const limits = [
      policy.maxPerTransferKobo === undefined ? '' : `at most ${formatNaira(policy.maxPerTransferKobo)} a transfer`,
      policy.maxPerDayKobo === undefined ? 'no daily maximum' : `at most ${formatNaira(policy.maxPerDayKobo)} a day`,
      policy.approvalAboveKobo === undefined ? '' : `held above ${formatNaira(policy.approvalAboveKobo)}`,
      policy.payeesOnly ? 'saved payees only' : '',
    ].filter(Boolean);
    add('policy', policy.maxPerDayKobo === undefined ? 'warning' : 'ok', `profile "${profile.name}": ${limits.join(', ')}`);
  }

  const now = ctx.clock.now();
  const token = tokenState(profile, ctx.env, now);
  const renewal = canRenew(profile, ctx.env);
  const until = token.expiresAt === undefined ? undefined : new Date(token.expiresAt).toISOString();
  if (profile.env === 'local') add('token', 'ok', 'the built-in simulator needs no login');
  else if (renewal === 'saved') add('token', 'ok', `${until ? `valid until ${until}; ` : ''}renewed with the saved credentials when it expires`);
  else if (token.state === 'valid')
    add(
      'token',
      'warning',
      `valid until ${until ?? 'it is refused'}, and no credentials are saved: from then on every call of the agent fails until the owner logs in again as ${user} (or logs in with --save-credentials)`,
    );
  else add('token', 'problem', `${token.state === 'expired' ? `expired at ${until}` : 'none'}: the owner logs in as ${user} first (fsapi auth login)`);

  const dropped = Object.keys(ctx.env).filter((name) => /^FSAPI_/.test(name) && name !== 'FSAPI_VERSION_OVERRIDE');
  if (dropped.length > 0)
    add(
      'environment',
      'warning',
      `sudo drops ${dropped.join(', ')} (env_reset): under sudo the server has its home's dirs and its default profile; a profile of another name goes in the command (--profile)`,
    );

  const profileWords = ctx.globals.profile ? ['--profile', ctx.globals.profile] : [];
  const command = [node, fsapi, ...profileWords, 'mcp'];
  const agentUser = ctx.env.SUDO_USER && ctx.env.SUDO_USER !== 'root' ? ctx.env.SUDO_USER : 'AGENT_USER';
  const hostArgs = ['-n', '-H', '-u', user, ...command];
  return {
    user,
    profile: profile.name,
    node,
    fsapi,
    checks,
    command,
    sudoers: `${agentUser} ALL=(${user}) NOPASSWD: ${command.join(' ')}`,
    claudeDesktop: { mcpServers: { fsapi: { command: 'sudo', args: hostArgs } } },
    claudeCode: `claude mcp add --scope user fsapi -- sudo ${hostArgs.join(' ')}`,
  };
}
