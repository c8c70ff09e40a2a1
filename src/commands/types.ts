import type { Context } from '../context.js';
import type { CommandSpec } from './spec.js';

/** What commander hands a command not yet given a spec: its positional arguments and its own options. */
export interface CommandInput {
  args: string[];
  options: Record<string, unknown>;
}

/** A command of a spec (src/commands/run.ts): its options parsed by the spec's kinds before it is called. */
export type SpecRun = ((ctx: Context, options: Record<string, unknown>, args: string[]) => Promise<void>) & { spec: CommandSpec<any> };

/** Every file under src/commands default-exports one of these. */
export interface CommandModule {
  default: SpecRun | ((ctx: Context, input: CommandInput) => Promise<void>);
  /** Set by commands that can run long over many rows or events: src/runtime.ts keeps their memory flat. */
  longRunning?: boolean | ((options: Record<string, unknown>) => boolean);
  /**
   * Set by the commands that look at a store the profile may not expect (store status, store adopt): the
   * store is not refused for them (src/store/store-check.ts); they show what differs and act on it.
   */
  inspectsStore?: boolean;
}
