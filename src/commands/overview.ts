// fsapi with no command: a short orientation instead of a wall of usage text. It is the first thing a new
// user runs, so it must work on a machine where fsapi has never run: it only reads the profiles file (if
// any) through a read-only reader, creates no file or directory and makes no request.
import type { Context } from '../context.js';
import { run } from './run.js';
import { overviewSpec } from './top/overview.spec.js';
import { colors, printJson } from '../ui/output.js';
import { readSavedProfiles } from '../completion/local-state.js';
import { spanText } from '../common/duration.js';

export default run(overviewSpec, async (ctx) => {
  if (ctx.globals.json) return printJson(ctx, activeProfileJson(ctx));
  const c = colors(ctx);
  const command = (text: string) => c.cyan(text);
  const lines = [
    `${c.bold('fsapi')}: bank transfers, balances, transactions and client accounts from the command line.`,
    '',
    describeActiveProfile(ctx),
    '',
    'Start with:',
    `  ${command('fsapi account')}            balances of the business account`,
    `  ${command('fsapi tx list')}            recent inflows and outflows`,
    `  ${command('fsapi statement')}          this week in and out, day by day`,
    `  ${command('fsapi transfer send')}      asks who, how much and why; checks the name, then pays once`,
    '',
    'Log in to the real API (asks for the consumer key and secret):',
    `  ${command('fsapi auth login --env sandbox')}`,
    '',
    `Every command: ${command('fsapi --help')}   Tab completion: ${command('source <(fsapi completion bash)')}`,
    '',
  ];
  ctx.io.out(lines.flatMap((line) => wrapStyled(line, ctx.io.columns)).join('\n'));
});

const SGR = /\u001b\[[0-9;]*m/g;

/**
 * At a terminal, a line longer than its width is wrapped between words, not cut mid-word by the terminal;
 * a command's description continues under itself. The colour codes count for nothing; a colour open across
 * the break carries on, as the terminal keeps it. Piped, lines are left whole.
 */
function wrapStyled(line: string, width: number | undefined): string[] {
  const visible = (text: string) => [...text.replace(SGR, '')].length;
  if (width === undefined || visible(line) <= width) return [line];
  const indent = ' '.repeat(/^( +\S+(?: \S+)* {2,})/.exec(line.replace(SGR, ''))?.[1]?.length ?? 0);
  const lead = /^ */.exec(line)![0];
  const out: string[] = [];
  let current = lead;
  for (const word of line.slice(lead.length).split(' ')) {
    const candidate = current.trim() === '' ? `${current}${word}` : `${current} ${word}`;
    if (current.trim() !== '' && word !== '' && visible(candidate) > width) {
      out.push(current);
      current = `${indent}${word}`;
    } else current = candidate;
  }
  out.push(current);
  return out;
}

/** Which API this run would talk to, from --profile / FSAPI_PROFILE, the saved default, else local. */
function describeActiveProfile(ctx: Context): string {
  const c = colors(ctx);
  const saved = readSavedProfiles(ctx.paths.configDir);
  const name = ctx.globals.profile ?? saved.defaultName ?? 'local';
  const profile = saved.profiles.find((candidate) => candidate.name === name);
  // A damaged profiles file is reported (on stderr, like every warning) but does not stop the overview.
  if (saved.problem) ctx.io.note(`${colors(ctx, 'stderr').yellow('warning:')} ${saved.problem}; fix or move it away`);
  const baseUrl = ctx.globals.baseUrl ?? profile?.baseUrl;

  if (name === 'local' && (!profile || profile.env === 'local') && baseUrl === undefined) {
    return `Now using ${c.yellow('the built-in simulator')} (profile local): no account needed, ${c.yellow('no real money moves')}.`;
  }
  if (!profile) {
    return `Profile ${c.bold(name)} is not saved yet: ${c.cyan(`fsapi auth login --profile ${name}`)} creates it.`;
  }
  const where = `${profile.env}${baseUrl ? ` at ${baseUrl}` : ''}`;
  const env = profile.env === 'production' ? c.red(where) : where;
  const now = ctx.clock.now();
  let login: string;
  if (!profile.hasToken) login = `not logged in: ${c.cyan(`fsapi auth login --profile ${name}`)}`;
  else if (profile.tokenExpiresAt !== undefined && profile.tokenExpiresAt <= now)
    login = 'token expired (renewed on the next call when credentials are saved or in the environment)';
  // How long, not until when: the overview reads no store, so it knows no business's clock to say it in.
  else if (profile.tokenExpiresAt !== undefined) login = `logged in (the token expires in ${spanText(profile.tokenExpiresAt - now)})`;
  else login = 'logged in';
  return `Now using profile ${c.bold(name)}: ${env}, ${login}.`;
}

/** `fsapi --json`: which profile a command would use, read as the overview reads it (no request). */
function activeProfileJson(ctx: Context) {
  const saved = readSavedProfiles(ctx.paths.configDir);
  const name = ctx.globals.profile ?? saved.defaultName ?? 'local';
  const profile = saved.profiles.find((candidate) => candidate.name === name);
  const baseUrl = ctx.globals.baseUrl ?? profile?.baseUrl;
  const local = name === 'local' && (!profile || profile.env === 'local') && baseUrl === undefined;
  return {
    profile: name,
    saved: profile !== undefined,
    env: local ? 'local' : (profile?.env ?? null),
    baseUrl: baseUrl ?? null,
    loggedIn: local || profile?.hasToken === true,
    tokenExpiresAt: profile?.tokenExpiresAt === undefined ? null : new Date(profile.tokenExpiresAt).toISOString(),
    problem: saved.problem ?? null,
  };
}
