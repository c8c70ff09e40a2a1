// The tools `fsapi mcp` serves (src/agents/server.ts): each one a command of the tree, named after it
// (`transfer send` -> `transfer_send`), its input schema made from the command's own spec
// (describeOptions, src/commands/spec.ts), its input parsed by the same option kinds commander uses, so a
// bad value is the same exit-2 error in the same words, before anything runs.
// Which commands are tools, and with which options, is decided in src/commands/mcp.ts: an allow-list.
import { UsageError } from '../errors.js';
import type { CommandModule } from '../commands/types.js';
import { describeOptions, longName, type CommandSpec, type OptionDescription, type OptionSpec } from '../commands/spec.js';
import type { Context } from '../context.js';

/** MCP's hints about what a tool does (the protocol's ToolAnnotations). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** It talks to the bank's API (an open world), not only to fsapi's own records. */
  openWorldHint: boolean;
}

/** How a tool runs its command: the module's own run, or a wrapper around it (transfer_send). */
export type ToolRun = (ctx: Context, module: CommandModule, options: Record<string, unknown>, args: string[]) => Promise<void>;

/** One command served as a tool. */
export interface AgentTool {
  spec: CommandSpec;
  annotations: ToolAnnotations;
  /** The command's code, loaded on the tool's first call. */
  load: () => Promise<CommandModule>;
  /** Options the agent may not give: output formats other than JSON, files written, other profiles. */
  withheld?: readonly string[];
  /** Options the agent must give, beyond the required arguments (transfer_send: `reference`). */
  required?: readonly string[];
  /** Options every call gets (transfer_send: `yes`, there is no terminal to confirm on). */
  implied?: Readonly<Record<string, unknown>>;
  /** The tool's description when the command's own speaks of a terminal (transfer_send). */
  description?: string;
  /** Words for the agent after the description: what the tool promises and what it never does. */
  note?: string;
  run?: ToolRun;
}

/** `transfer_send` for `transfer send`. */
export const toolName = (spec: CommandSpec) => spec.path.replaceAll(' ', '_');

/** The arguments and options an agent may give, in the spec's words. */
export function toolInputs(tool: AgentTool): OptionDescription[] {
  const hidden = new Set([...(tool.withheld ?? []), ...Object.keys(tool.implied ?? {})]);
  return describeOptions(tool.spec).filter((input) => !hidden.has(input.name));
}

/** The tool's input as a JSON schema (an object of the arguments and options; no others accepted). */
export function inputSchema(tool: AgentTool): { type: 'object'; properties: Record<string, object>; required?: string[]; additionalProperties: false } {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const input of toolInputs(tool)) {
    const unit = input.unit === 'naira' ? ' (naira, e.g. "1500" or "1,500.50")' : input.unit ? ` (${input.unit})` : '';
    properties[input.name] = {
      type: input.type,
      description: `${input.description}${unit}`,
      ...(input.type === 'array' ? { items: { type: 'string' } } : {}),
      ...(input.enum ? { enum: [...input.enum] } : {}),
      ...(input.minimum !== undefined ? { minimum: input.minimum } : {}),
      ...(input.maximum !== undefined ? { maximum: input.maximum } : {}),
      ...(input.default !== undefined ? { default: input.default } : {}),
    };
    if (isRequired(tool, input)) required.push(input.name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/**
 * A tool call's arguments as the command's run gets them: each option parsed by its kind (the parser
 * commander uses for the command line), flags true or false, defaults filled in, the implied options
 * added; the arguments in the spec's order. Anything else is exit 2, nothing run.
 */
export function parseToolInput(tool: AgentTool, input: Readonly<Record<string, unknown>>): { options: Record<string, unknown>; args: string[] } {
  const allowed = new Map(toolInputs(tool).map((described) => [described.name, described]));
  for (const key of Object.keys(input)) {
    if (!allowed.has(key))
      throw new UsageError(`${toolName(tool.spec)} takes no input named ${JSON.stringify(key)}`, `it takes: ${[...allowed.keys()].join(', ') || 'nothing'}`);
  }
  const options: Record<string, unknown> = {};
  const specOptions = tool.spec.options as Record<string, OptionSpec>;
  for (const [key, option] of Object.entries(specOptions)) {
    const value = key in (tool.implied ?? {}) ? tool.implied![key] : input[key];
    if (value === undefined || value === null) {
      if (option.defaultValue !== undefined) options[key] = option.defaultValue;
      continue;
    }
    options[key] = optionValue(option, value);
  }
  for (const [key, option] of Object.entries(specOptions)) {
    if (input[key] === undefined) continue;
    for (const other of option.conflicts ?? []) {
      if (input[other] !== undefined && input[other] !== null) throw new UsageError(`${key} cannot go with ${other}`);
    }
  }
  for (const described of toolInputs(tool)) {
    if (isRequired(tool, described) && (input[described.name] ?? null) === null) {
      throw new UsageError(`${toolName(tool.spec)} needs ${described.name}: ${described.description}`);
    }
  }
  const args: string[] = [];
  for (const argument of tool.spec.args ?? []) {
    const name = argument.name.replace(/[<>[\].]/g, '');
    const value = input[name];
    if (value === undefined || value === null) {
      if (argument.name.startsWith('<')) throw new UsageError(`${name} is required`);
      break;
    }
    if (typeof value !== 'string') throw new UsageError(`${name} must be text, not ${JSON.stringify(value)}`);
    args.push(value);
  }
  return { options, args };
}

/** A required argument (`<reference>`), or an option the tool requires. */
const isRequired = (tool: AgentTool, input: OptionDescription) => (input.required && input.flag.startsWith('<')) || (tool.required ?? []).includes(input.name);

function optionValue(option: OptionSpec, value: unknown): unknown {
  const name = longName(option.flags).replace(/^--(no-)?/, '');
  if (option.kind === 'flag') {
    if (typeof value !== 'boolean') throw new UsageError(`${name} must be true or false, not ${JSON.stringify(value)}`);
    // `--no-verify` is keyed `verify`: false when given, and the agent says so by giving false.
    return value;
  }
  if (option.kind === 'list') {
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new UsageError(`${name} must be a list of texts`);
    return (value as string[]).reduce<unknown>((previous, item) => option.parse!(item, previous), undefined);
  }
  // An amount may come as a JSON number (clients and models often send one): its shortest decimal text is
  // the digits that were written (1500.1 is "1500.1"), which the one money parser then reads; an exponent
  // (1e21) or a third decimal is refused there as on the command line. Never a float computed with.
  const numberAllowed = option.kind === 'integer' || option.kind === 'duration' || option.kind === 'money';
  if (numberAllowed && typeof value === 'number' && !Number.isFinite(value)) throw new UsageError(`${name} must be a number, not ${String(value)}`);
  if (numberAllowed ? typeof value !== 'number' && typeof value !== 'string' : typeof value !== 'string') {
    const integerKind = option.kind === 'integer' || option.kind === 'duration';
    const wanted = integerKind ? 'a whole number' : option.kind === 'money' ? 'naira as text or a number' : 'text';
    throw new UsageError(`${name} must be ${wanted}, not ${JSON.stringify(value)}`);
  }
  return option.parse ? option.parse(String(value), undefined) : value;
}
