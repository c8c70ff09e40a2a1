// The command maps of the engines, made from the specs: a command is declared once, in its spec
// (src/commands/**/*.spec.ts, listed by src/commands/tree.ts), and this writes, between the markers of
// src/engine-light.ts, src/engine.ts and src/engine-choice.ts, the module each command runs and which
// engine holds it (`light: true` in the spec: dist/engine-light.cjs). The run file is found where the spec
// says (`module`), else at `commands/<group>/<rest of the words joined by dashes>` (`clients create
// individual`: src/commands/clients/create-individual.ts), or `commands/<word>` for a top-level command.
//   tsx scripts/gen-commands.ts           writes them (run by `npm run build`)
//   tsx scripts/gen-commands.ts --check   exit 1 when a file would change (test/commands-declared.test.ts)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isGroup, type CommandSpec, type GroupSpec } from '../src/commands/spec.js';
import { commandSpecs } from '../src/commands/tree.js';

const SRC = path.resolve('src');
const BEGIN = '// BEGIN made from the specs by scripts/gen-commands.ts (npm run build): edit the specs, not this';
const END = '// END made from the specs';

/** The root's own action (`fsapi` alone): no spec, its module and engine named here. */
const OVERVIEW = { key: 'overview', module: 'commands/overview', light: true };

interface Declared {
  key: string;
  module: string;
  light: boolean;
}

function walk(specs: ReadonlyArray<CommandSpec<any> | GroupSpec>): Declared[] {
  const found: Declared[] = [];
  for (const spec of specs) {
    if (isGroup(spec)) {
      found.push(...walk(spec.commands));
      continue;
    }
    const words = spec.path.split(' ');
    const module = spec.module ?? (words.length === 1 ? `commands/${words[0]}` : `commands/${words[0]}/${words.slice(1).join('-')}`);
    found.push({ key: words.join('/'), module, light: spec.light === true });
  }
  return found;
}

const declared = [OVERVIEW, ...walk(commandSpecs)];
const problems: string[] = [];
for (const command of declared) {
  if (!existsSync(path.join(SRC, `${command.module}.ts`))) problems.push(`${command.key}: no run file src/${command.module}.ts (set \`module\` in its spec)`);
}
const keys = declared.map((command) => command.key);
for (const key of new Set(keys)) if (keys.filter((other) => other === key).length > 1) problems.push(`${key}: declared twice`);
if (problems.length > 0) {
  for (const problem of problems) console.error(`error: ${problem}`);
  process.exit(1);
}

const quoted = (key: string) => (/^[a-z]+$/.test(key) ? key : `'${key}'`);
const entry = (command: Declared) => `  ${quoted(command.key)}: () => import('./${command.module}.js'),`;
const light = declared.filter((command) => command.light);
const blocks: Record<string, string[]> = {
  'engine-light.ts': light.map(entry),
  'engine.ts': declared.filter((command) => !command.light).map(entry),
  'engine-choice.ts': light.map((command) => `  '${command.key}',`),
};

const check = process.argv.includes('--check');
let stale = 0;
for (const [file, lines] of Object.entries(blocks)) {
  const at = path.join(SRC, file);
  const text = readFileSync(at, 'utf8');
  const [start, end] = [text.indexOf(BEGIN), text.indexOf(END)];
  if (start < 0 || end < start) {
    console.error(`error: src/${file} has no "${BEGIN}" ... "${END}" block`);
    process.exit(1);
  }
  const made = `${text.slice(0, start)}${BEGIN}\n${lines.join('\n')}\n  ${text.slice(end)}`;
  if (made === text) continue;
  stale += 1;
  if (check) console.error(`error: src/${file} is not what the specs make; run npm run build (or tsx scripts/gen-commands.ts)`);
  else writeFileSync(at, made);
}
if (check && stale > 0) process.exit(1);
console.log(`${declared.length} commands (${light.length} light) ${check ? (stale > 0 ? 'differ' : 'as the specs make them') : `written to ${stale} file(s)`}`);
