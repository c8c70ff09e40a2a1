import type { Context } from '../context.js';

/** What commander hands a command: its positional arguments and its own (not global) options. */
export interface CommandInput {
  args: string[];
  options: Record<string, unknown>;
}

/** Every file under src/commands default-exports one of these. */
export interface CommandModule {
  default: (ctx: Context, input: CommandInput) => Promise<void>;
  /** Set by commands that can run long over many rows or events: src/runtime.ts keeps their memory flat. */
  longRunning?: boolean | ((input: CommandInput) => boolean);
  /**
   * Set by the commands that look at a store the profile may not expect (store status, store adopt): the
   * store is not refused for them (src/store/store-check.ts); they show what differs and act on it.
   */
  inspectsStore?: boolean;
}
