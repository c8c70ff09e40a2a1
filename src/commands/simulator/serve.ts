// PLACEHOLDER: replaced by the issue that builds this command.
import type { Context } from '../../context.js';
import type { CommandInput } from '../types.js';
import { ApiError } from '../../errors.js';

export default async function placeholder(_ctx: Context, _input: CommandInput): Promise<void> {
  throw new ApiError('this command is not built yet');
}
