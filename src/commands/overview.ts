// fsapi with no command: a short orientation instead of a wall of usage text.
import type { Context } from '../context.js';
import type { CommandInput } from './types.js';
import { colors } from '../ui/output.js';

export default async function overview(ctx: Context, _input: CommandInput): Promise<void> {
  const c = colors(ctx);
  const profile = await ctx.profile();
  const where =
    profile.env === 'local' && !profile.baseUrl
      ? `${c.yellow('the built-in simulator')} (profile local): no account needed, no real money moves`
      : `${profile.env} at ${profile.baseUrl ?? ''} (profile ${profile.name})`;
  ctx.io.out(
    [
      `${c.bold('fsapi')}: bank transfers, balances, transactions and client accounts from the command line.`,
      '',
      `Now using ${where}.`,
      '',
      'Start with:',
      `  ${c.cyan('fsapi account')}                                   balances of the business account`,
      `  ${c.cyan('fsapi tx list')}                                   recent inflows and outflows`,
      `  ${c.cyan('fsapi transfer send 0123456789 --bank gtb --amount 5000 --narration "Invoice 7"')}`,
      '',
      `Log in to the real API: ${c.cyan('fsapi auth login --env sandbox --base-url <address>')}`,
      `Every command: ${c.cyan('fsapi --help')}   Docs: docs/ in the repository`,
      '',
    ].join('\n'),
  );
}
