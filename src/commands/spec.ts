// A command's public face as plain data: its path, words, arguments, options (each of a kind that parses
// its own value), examples, the API endpoints it calls and the exit codes it can return. The command tree
// (src/program.ts) builds commander from these, the docs (scripts/gen-docs.ts) and help are written from
// them, and describeOptions() gives what a tool schema needs. The command's code (its run file) gets the
// options already parsed and typed: OptionsOf<typeof spec>.
// On the `--help` start-up path (bundled in dist/cli.cjs): it imports only the two dependency-free modules
// and parsers below (none imports more than src/errors.ts), never zod or a command's code.
import { longName } from '../common/option-names.js';
import { UsageError } from '../errors.js';
import type { Kobo } from '../money/kobo.js';
import { parseAmountOption } from '../common/validate.js';
import { parseDateOption } from '../books/dates.js';

/** What an option's value is; `flag` takes none. */
export type OptionKindName = 'flag' | 'text' | 'choice' | 'integer' | 'money' | 'date' | 'duration' | 'list' | 'bank';

/** One option: its commander flags, its words and how its value is parsed. T is the parsed value. */
export interface OptionSpec<T = any, Always extends boolean = boolean> {
  readonly kind: OptionKindName;
  /** commander's flags: `-y, --yes`, `--amount <naira>`, `--no-verify`. */
  readonly flags: string;
  readonly description: string;
  readonly choices?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** What an integer counts (`minutes`); `naira` and `seconds` for the money and duration kinds. */
  readonly unit?: string;
  /** Checked by the command (it may be asked for at a terminal), said in the description. */
  readonly required?: boolean;
  /** Present in the options even when not given: flags (false), negatable flags (true), defaults. */
  readonly always: Always;
  readonly defaultValue?: T;
  /** `--no-payees-only` beside `--payees-only`: given, the key is false; neither given, undefined. */
  readonly negation?: { readonly flags: string; readonly description: string };
  /** Options that cannot go with this one (their keys). */
  readonly conflicts?: readonly string[];
  /** The text as typed to the value; throws UsageError (exit 2) before the command runs. */
  parse?(text: string, previous: T | undefined): T;
  /** Phantom: carries T for OptionsOf. */
  readonly type?: T;
}

export interface ArgumentSpec {
  /** `<reference>`, `[accountNumber]`, `[words...]`. */
  readonly name: string;
  readonly description: string;
}

/** The exit codes a command can return, with their meaning (docs/cli-contract.md). */
export const EXIT_CODE_MEANINGS: Readonly<Record<number, string>> = {
  0: 'success',
  1: 'failed, or the API refused it',
  2: 'invalid input; nothing was sent',
  3: 'authentication needed or failed',
  4: 'cancelled; nothing was sent',
  5: 'sent, outcome unknown: do not resend',
  6: '--wait ended while still pending: it may still succeed; check again later',
  7: 'held for approval by the payment policy; nothing was sent',
};

export type ExitCode = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface CommandSpec<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  /** Its words after `fsapi`: `transfer send`. */
  readonly path: string;
  /** One line: the command lists of the help and the docs. */
  readonly summary: string;
  /** Longer text for its own help; the summary when absent. */
  readonly description?: string;
  readonly args?: readonly ArgumentSpec[];
  readonly options: O;
  readonly examples: readonly string[];
  /** Text shown after the options, before the exit codes and examples. */
  readonly helpText?: string;
  readonly endpoints?: ReadonlyArray<readonly [endpoint: string, why: string]>;
  readonly exitCodes: readonly ExitCode[];
  /** Words of its own for some exit codes (`0: successful (or, without --wait, pending)`). */
  readonly exitCodeMeanings?: Partial<Record<ExitCode, string>>;
  /**
   * Runs from the light engine (dist/engine-light.cjs: commands that only ask the API or read the
   * profiles, docs/startup.md). The engines' maps and the light list are made from the specs
   * (scripts/gen-commands.ts, run by `npm run build`): a command is declared here and nowhere else.
   */
  readonly light?: boolean;
  /** Its run file under src/, without extension, when not the usual one (`commands/<group>/<rest-joined-by-dashes>`). */
  readonly module?: string;
}

/** A group (`fsapi transfer`): its words now, its commands' specs for when a run enters it. */
export interface GroupSpec {
  readonly path: string;
  readonly summary: string;
  readonly examples: readonly string[];
  readonly commands: ReadonlyArray<CommandSpec<any> | GroupSpec>;
}

export const isGroup = (spec: CommandSpec<any> | GroupSpec): spec is GroupSpec => 'commands' in spec;

export function defineCommand<const O extends Record<string, OptionSpec>>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

export function defineGroup(spec: GroupSpec): GroupSpec {
  return spec;
}

/** The options a run file gets: each parsed, absent ones undefined unless the kind is always present. */
export type OptionsOf<S> =
  S extends CommandSpec<infer O>
    ? { readonly [K in keyof O]: O[K] extends OptionSpec<infer T, infer Always> ? (Always extends true ? T : T | undefined) : never }
    : never;

// ---- kinds -------------------------------------------------------------------------------------------

interface Common {
  required?: boolean;
  conflicts?: readonly string[];
}

/** `-y, --yes`: true when given, false otherwise. `--no-verify`: false when given, true otherwise. */
export function flag(flags: string, description: string, extra: Common = {}): OptionSpec<boolean, true> {
  return { kind: 'flag', flags, description, always: true, ...extra };
}

/** `--payees-only` and `--no-payees-only`: true, false, or undefined when neither is given (kept as it is). */
export function flagPair(flags: string, description: string, negation: { flags: string; description: string }): OptionSpec<boolean, false> {
  return { kind: 'flag', flags, description, always: false, negation };
}

/** Plain text, one line of it. */
export function text<D extends string | undefined = undefined>(
  flags: string,
  description: string,
  extra: Common & { defaultValue?: D } = {},
): OptionSpec<string, D extends string ? true : false> {
  return { kind: 'text', flags, description, always: (extra.defaultValue !== undefined) as D extends string ? true : false, parse: (value) => value, ...extra };
}

/** One of a few words. */
export function choice<const C extends readonly string[]>(flags: string, description: string, choices: C, extra: Common = {}): OptionSpec<C[number], false> {
  return {
    kind: 'choice',
    flags,
    description,
    choices,
    always: false,
    parse: (value) => {
      if (!choices.includes(value)) throw new UsageError(`${longName(flags)} must be ${oneOf(choices)}, not ${JSON.stringify(value)}`);
      return value as C[number];
    },
    ...extra,
  };
}

/** A whole number from min to max, of `unit` (minutes) when it counts something its errors should name. */
export function integer<D extends number | undefined = undefined>(
  flags: string,
  description: string,
  range: { min: number; max: number; defaultValue?: D; unit?: string } & Common,
): OptionSpec<number, D extends number ? true : false> {
  return {
    kind: 'integer',
    flags,
    description,
    always: (range.defaultValue !== undefined) as D extends number ? true : false,
    parse: (value) => wholeNumber(value, longName(flags), range.min, range.max, range.unit),
    ...range,
  };
}

/** Seconds, a whole number from min to max (--wait-timeout, --interval); the value is in seconds. */
export function duration<D extends number | undefined = undefined>(
  flags: string,
  description: string,
  range: { min: number; max: number; defaultValue?: D } & Common,
): OptionSpec<number, D extends number ? true : false> {
  return {
    kind: 'duration',
    flags,
    description,
    always: (range.defaultValue !== undefined) as D extends number ? true : false,
    parse: (value) => {
      const seconds = /^[0-9]{1,9}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
      if (!(seconds >= range.min && seconds <= range.max)) {
        throw new UsageError(`${longName(flags)} must be a whole number of seconds from ${range.min} to ${range.max}, not ${JSON.stringify(value)}`);
      }
      return seconds;
    },
    ...range,
  };
}

/**
 * An amount in naira as typed (`1500`, `1,500.50`) to integer kobo, by the one money parser
 * (src/money/kobo.ts). With `none`, the word none is null: a limit removed.
 */
export function money<N extends boolean = false>(
  flags: string,
  description: string,
  extra: Common & { none?: N } = {},
): OptionSpec<N extends true ? Kobo | null : Kobo, false> {
  return {
    kind: 'money',
    flags,
    description,
    always: false,
    parse: (value) => {
      if (extra.none && value.trim().toLowerCase() === 'none') return null as N extends true ? Kobo | null : Kobo;
      return parseAmountOption(value, longName(flags));
    },
    ...extra,
  };
}

/**
 * A DATE of the contract (YYYY-MM-DD, today, yesterday, 7d, 2w, an ISO date-time), checked by the one date
 * parser (src/books/dates.ts) and kept as typed: the command resolves it on its own clock, in the business's
 * zone. Checked here in UTC, which skips no wall time: a time the business's zone skips is refused there.
 */
export function date(flags: string, description: string, extra: Common = {}): OptionSpec<string, false> {
  return {
    kind: 'date',
    flags,
    description,
    always: false,
    parse: (value) => {
      parseDateOption(value, longName(flags), 0, 'UTC');
      return value;
    },
    ...extra,
  };
}

/** Repeatable (`--query a=1 --query b=2`, or several after one flag): every value, in order. */
export function list(flags: string, description: string, extra: Common = {}): OptionSpec<string[], false> {
  return { kind: 'list', flags, description, always: false, parse: (value, previous) => [...(previous ?? []), value], ...extra };
}

/**
 * A bank: 6-digit code, brand name or part of the name. Only its text is checked here; which bank it is
 * needs the bank list, which the command resolves before its first prompt.
 */
export function bank(flags: string, description: string, extra: Common = {}): OptionSpec<string, false> {
  return {
    kind: 'bank',
    flags,
    description,
    always: false,
    parse: (value) => {
      if (value.trim() === '') throw new UsageError(`${longName(flags)} is empty`, 'give a 6-digit institution code or a bank name; fsapi banks lists them');
      return value;
    },
    ...extra,
  };
}

// ---- reading specs -----------------------------------------------------------------------------------

export const isNegation = (flags: string) => /^--no-/.test(longName(flags));

const oneOf = (choices: readonly string[]) => (choices.length === 1 ? choices[0] : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`);

function wholeNumber(text: string, option: string, min: number, max: number, unit?: string): number {
  const value = text.trim();
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${option} must be a whole number${unit ? ` of ${unit}` : ''} from ${min} to ${max}, not ${JSON.stringify(text)}`);
  }
  return Number(value);
}

/** An option described for a tool's input schema (JSON Schema words: type, enum, minimum, maximum). */
export interface OptionDescription {
  /** The key the run file reads: `waitTimeout`. */
  name: string;
  /** The flag on the command line: `--wait-timeout`. */
  flag: string;
  kind: OptionKindName;
  type: 'boolean' | 'string' | 'integer' | 'array';
  description: string;
  required: boolean;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  /** money: the value is naira text, the command gets integer kobo. */
  unit?: string;
}

/** The spec's arguments and options, each in a form a JSON schema (an MCP tool's input) can be built from. */
export function describeOptions(spec: CommandSpec<any>): OptionDescription[] {
  const described = Object.entries(spec.options as Record<string, OptionSpec>).map(
    ([name, option]): OptionDescription => ({
      name,
      flag: longName(option.flags),
      kind: option.kind,
      type:
        option.kind === 'flag' ? 'boolean' : option.kind === 'integer' || option.kind === 'duration' ? 'integer' : option.kind === 'list' ? 'array' : 'string',
      description: option.description,
      required: option.required === true,
      ...(option.choices ? { enum: option.choices } : {}),
      ...(option.min !== undefined ? { minimum: option.min } : {}),
      ...(option.max !== undefined ? { maximum: option.max } : {}),
      ...(option.defaultValue !== undefined ? { default: option.defaultValue } : {}),
      ...(option.kind === 'money' ? { unit: 'naira' } : option.kind === 'duration' ? { unit: 'seconds' } : option.unit ? { unit: option.unit } : {}),
    }),
  );
  const args = (spec.args ?? []).map(
    (argument): OptionDescription => ({
      name: argument.name.replace(/[<>[\].]/g, ''),
      flag: argument.name,
      kind: 'text',
      type: argument.name.endsWith('...]') || argument.name.endsWith('...>') ? 'array' : 'string',
      description: argument.description,
      required: argument.name.startsWith('<'),
    }),
  );
  return [...args, ...described];
}

/** The exit-code section of a command's help: only the codes it can return. */
export function exitCodeLines(spec: CommandSpec<any>): string[] {
  return spec.exitCodes.map((code) => `  ${code}  ${spec.exitCodeMeanings?.[code] ?? EXIT_CODE_MEANINGS[code]}`);
}
