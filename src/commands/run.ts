// How a command's code meets its spec (src/commands/spec.ts): `export default run(spec, async (ctx, opts,
// args) => ...)`, where opts holds the spec's options already parsed by the command tree, typed.
import type { Context } from '../context.js';
import type { SpecRun } from './types.js';
import { isNegation, type CommandSpec, type OptionSpec, type OptionsOf } from './spec.js';

export type RunFunction<S extends CommandSpec<any>> = (ctx: Context, opts: OptionsOf<S>, args: string[]) => Promise<void>;

/** The module's default export: what src/runtime.ts calls with the values commander parsed. */
export function run<S extends CommandSpec<any>>(spec: S, body: RunFunction<S>): SpecRun {
  const command = (ctx: Context, options: Record<string, unknown>, args: string[]) => body(ctx, withFlags(spec, options) as OptionsOf<S>, args);
  return Object.assign(command, { spec });
}

/**
 * The options as the run gets them (OptionsOf): commander leaves a flag not given undefined, and the spec's
 * flags are always true or false; commander turns a parser's null (`--max-per-day none`: a limit removed)
 * into '', which no money option can otherwise be, so it is null again here.
 */
export function withFlags(spec: CommandSpec<any>, options: Record<string, unknown>): Record<string, unknown> {
  const filled = { ...options };
  for (const [key, option] of Object.entries(spec.options as Record<string, OptionSpec>)) {
    if (option.kind === 'flag' && option.always) filled[key] = options[key] ?? isNegation(option.flags);
    if (option.kind === 'money' && options[key] === '') filled[key] = null;
  }
  return filled;
}
