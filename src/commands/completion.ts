import { run } from './run.js';
import { completionSpec } from './top/completion.spec.js';
import { UsageError } from '../errors.js';
import { completionScript, isShell, SHELLS } from '../completion/scripts.js';

export default run(completionSpec, async (ctx, _opts, args) => {
  const shell = (args[0] ?? '').trim().toLowerCase();
  if (!isShell(shell)) {
    throw new UsageError(`unsupported shell ${JSON.stringify(args[0] ?? '')}; supported: ${SHELLS.join(', ')}`, 'for example: source <(fsapi completion bash)');
  }
  ctx.io.out(completionScript(shell));
});
