// The tools `fsapi mcp` serves (src/agents/server.ts): each one a command of the tree, named after it
// (`transfer send` -> `transfer_send`), its input schema made from the command's own spec
// (describeOptions, src/commands/spec.ts), its input parsed by the same option kinds commander uses, so a
// bad value is the same exit-2 error, before anything runs. Its words are the tool's: an error that names
// a flag (`--expect-name`) names the argument instead (`expectName`), see inToolWords.
// Which commands are tools, and with which options, is decided in src/agents/command.ts: an allow-list.
import { UsageError } from '../errors.js';
import type { CommandModule } from '../commands/types.js';
import { describeOptions, type CommandSpec, type OptionDescription, type OptionSpec } from '../commands/spec.js';
import { longName } from '../common/option-names.js';
import type { Context } from '../context.js';
import type { EmbeddedResource } from './results.js';

/** MCP's hints about what a tool does (the protocol's ToolAnnotations). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** It talks to the bank's API (an open world), not only to fsapi's own records. */
  openWorldHint: boolean;
}

/** A JSON schema, as MCP carries it. */
export type JsonSchema = Record<string, unknown>;

/** What a tool's own run gets besides the command's options: its tool-only inputs, and a way to add a document. */
export interface ToolCall {
  /** The tool-only inputs given (AgentTool.inputs), as given. */
  extras: Readonly<Record<string, unknown>>;
  /** Adds a document to the result's content (a receipt PDF). */
  attach(resource: EmbeddedResource): void;
}

/** How a tool runs its command: the module's own run, or a wrapper around it (transfer_send). */
export type ToolRun = (ctx: Context, module: CommandModule, options: Record<string, unknown>, args: string[], call: ToolCall) => Promise<void>;

/** An input of the tool that is no option of the command (transfer_receipt's `pdf`). */
export interface ToolOnlyInput {
  schema: JsonSchema & { type: string; description: string };
  /** Checks the value; throws UsageError (exit 2, nothing run). */
  check?: (value: unknown) => void;
}

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
  /** Alternatives of which one must be given whole (transfer_send: accountNumber and bank, or to). */
  requiredOneOf?: ReadonlyArray<readonly string[]>;
  /** Options every call gets (transfer_send: `yes`, there is no terminal to confirm on). */
  implied?: Readonly<Record<string, unknown>>;
  /** Inputs of the tool that are no option of the command. */
  inputs?: Readonly<Record<string, ToolOnlyInput>>;
  /** The result is a list (`items`): given a page at a time, with `cursor` to go on (src/agents/results.ts). */
  list?: boolean;
  /** The tool's name when it is no command's (transfer_preview runs transfer send's checks). */
  name?: string;
  /** The tool's description when the command's own speaks of a terminal (transfer_send). */
  description?: string;
  /** Words for the agent after the description: what the tool promises and what it never does. */
  note?: string;
  run?: ToolRun;
}

/** `transfer_send` for `transfer send`. */
export const commandToolName = (spec: CommandSpec) => spec.path.replaceAll(' ', '_');
/** The tool's name: its own, else its command's. */
export const toolName = (tool: Pick<AgentTool, 'spec' | 'name'>) => tool.name ?? commandToolName(tool.spec);

/** The input that goes on from a page of a list (src/agents/results.ts). */
const CURSOR_INPUT: ToolOnlyInput = {
  schema: { type: 'string', description: 'where the next page starts: the nextCursor of the previous result (leave out for the first page)' },
};

/** The tool-only inputs of a tool, `cursor` included for a list. */
export function toolOnlyInputs(tool: AgentTool): Record<string, ToolOnlyInput> {
  return { ...(tool.list ? { cursor: CURSOR_INPUT } : {}), ...tool.inputs };
}

/** The arguments and options an agent may give, in the spec's words. */
export function toolInputs(tool: AgentTool): OptionDescription[] {
  const hidden = new Set([...(tool.withheld ?? []), ...Object.keys(tool.implied ?? {})]);
  return describeOptions(tool.spec).filter((input) => !hidden.has(input.name));
}

/** The tool's input as a JSON schema (an object of the arguments and options; no others accepted). */
export function inputSchema(tool: AgentTool): {
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
  anyOf?: Array<{ required: string[] }>;
  additionalProperties: false;
} {
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
  for (const [name, input] of Object.entries(toolOnlyInputs(tool))) properties[name] = input.schema;
  const anyOf = tool.requiredOneOf?.map((names) => ({ required: [...names] }));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...(anyOf ? { anyOf } : {}), additionalProperties: false };
}

/**
 * A tool call's arguments as the command's run gets them: each option parsed by its kind (the parser
 * commander uses for the command line), flags true or false, defaults filled in, the implied options
 * added; the arguments in the spec's order. Anything else is exit 2, nothing run.
 */
export function parseToolInput(
  tool: AgentTool,
  input: Readonly<Record<string, unknown>>,
): { options: Record<string, unknown>; args: string[]; extras: Record<string, unknown> } {
  const own = toolOnlyInputs(tool);
  const allowed = [...toolInputs(tool).map((described) => described.name), ...Object.keys(own)];
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key))
      throw new UsageError(`${toolName(tool)} takes no input named ${JSON.stringify(key)}`, `it takes: ${allowed.join(', ') || 'nothing'}`);
  }
  const extras: Record<string, unknown> = {};
  for (const [key, described] of Object.entries(own)) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (described.schema.type === 'boolean' && typeof value !== 'boolean') throw new UsageError(`${key} must be true or false, not ${JSON.stringify(value)}`);
    if (described.schema.type === 'string' && typeof value !== 'string') throw new UsageError(`${key} must be text, not ${JSON.stringify(value)}`);
    described.check?.(value);
    extras[key] = value;
  }
  const options: Record<string, unknown> = {};
  const specOptions = tool.spec.options as Record<string, OptionSpec>;
  const withheld = new Set(tool.withheld ?? []);
  for (const [key, option] of Object.entries(specOptions)) {
    // A withheld option takes nothing from the input (a tool-only input may share its name: `pdf`).
    const value = key in (tool.implied ?? {}) ? tool.implied![key] : withheld.has(key) ? undefined : input[key];
    if (value === undefined || value === null) {
      if (option.defaultValue !== undefined) options[key] = option.defaultValue;
      continue;
    }
    options[key] = optionValue(option, value);
  }
  for (const [key, option] of Object.entries(specOptions)) {
    if (input[key] === undefined || withheld.has(key)) continue;
    for (const other of option.conflicts ?? []) {
      if (input[other] !== undefined && input[other] !== null && !withheld.has(other)) throw new UsageError(`${key} cannot go with ${other}`);
    }
  }
  for (const described of toolInputs(tool)) {
    if (isRequired(tool, described) && (input[described.name] ?? null) === null) {
      throw new UsageError(`${toolName(tool)} needs ${described.name}: ${described.description}`);
    }
  }
  if (tool.requiredOneOf && !tool.requiredOneOf.some((names) => names.every((name) => (input[name] ?? null) !== null))) {
    const ways = tool.requiredOneOf.map((names) => names.join(' and ')).join(', or ');
    throw new UsageError(`${toolName(tool)} needs ${ways}`);
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
  return { options, args, extras };
}

/** A required argument (`<reference>`) or option (`required: true` in the spec), or one the tool requires. */
const isRequired = (tool: AgentTool, input: OptionDescription) => input.required || (tool.required ?? []).includes(input.name);

/**
 * A message of the command line in the tool's words: each flag of the tool's own inputs becomes the
 * argument's name (`--expect-name` -> `expectName`, `--no-verify` -> `verify`), as the agent gives it.
 */
export function inToolWords(tool: AgentTool, text: string): string {
  const names = new Map<string, string>();
  for (const input of toolInputs(tool)) if (input.flag.startsWith('--')) names.set(input.flag.replace(/^--(no-)?/, ''), input.name);
  return text.replace(/(^|[^\w-])--(?:no-)?([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\b/g, (whole, before: string, flag: string) => {
    const name = names.get(flag);
    return name === undefined ? whole : `${before}${name}`;
  });
}

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
