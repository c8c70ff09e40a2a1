// fsapi completion <shell>: prints the completion script for bash, zsh or fish on stdout. The script calls
// `fsapi __complete` on every Tab (see src/completion/), which reads only local files.
import type { Context } from '../context.js';
import type { CommandInput } from './types.js';
import { UsageError } from '../errors.js';
import { completionScript, isShell, SHELLS } from '../completion/scripts.js';

export default async function completion(ctx: Context, input: CommandInput): Promise<void> {
  const shell = (input.args[0] ?? '').trim().toLowerCase();
  if (!isShell(shell)) {
    throw new UsageError(
      `unsupported shell ${JSON.stringify(input.args[0] ?? '')}; supported: ${SHELLS.join(', ')}`,
      'for example: source <(fsapi completion bash)',
    );
  }
  ctx.io.out(completionScript(shell));
}
