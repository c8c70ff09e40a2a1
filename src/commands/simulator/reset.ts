// fsapi simulator reset: forgets the local simulator's state; the next command starts again from the seed.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';

export default async function reset(ctx: Context, _input: CommandInput): Promise<void> {
  const { resetLocalSimulator } = await import('../../simulator/index.js');
  const file = await resetLocalSimulator(ctx.paths.dataDir);
  ctx.io.note(`local simulator reset: ${file} removed; the next command starts again from the seed`);
}
