import type { Context } from '../context.js';
import type { CommandSpec } from './spec.js';

/**
 * What every file under src/commands default-exports: run(spec, ...) (src/commands/run.ts). Its options
 * were parsed by the spec's kinds (src/commands/spec.ts) when commander read the command line.
 */
export type SpecRun = ((ctx: Context, options: Record<string, unknown>, args: string[]) => Promise<void>) & { spec: CommandSpec<any> };

export interface CommandModule {
  default: SpecRun;
  /** Set by commands that can run long over many rows or events: src/runtime.ts keeps their memory flat. */
  longRunning?: boolean | ((options: Record<string, unknown>) => boolean);
  /**
   * Set by the commands that look at a store the profile may not expect (store status, store adopt): the
   * store is not refused for them (src/auth/store-check.ts); they show what differs and act on it.
   */
  inspectsStore?: boolean;
}
