#!/usr/bin/env node
// Checks the shape of src/ (the guide's "Layout that shows the architecture"):
//   - no import cycle between its modules; type-only imports count, since a cycle of types is still two
//     modules that cannot be read, tested or moved apart;
//   - dependencies between rooms go one way, down the house: a room is a folder of src/ or a file at its top
//     (ROOMS below, top to bottom, drawn in CONTRIBUTING.md). Two rooms that import each other fail, as does
//     a room that imports one above it, and a room the order does not name; type-only imports count;
//   - no module below the commands that imports the terminal layer (src/ui): only the rooms above it may;
//   - no folder with more than 20 files, so each one can be taken in at a glance;
//   - no SQL outside src/store and src/simulator (which keeps its own database): a string that starts
//     with a statement (SELECT, INSERT INTO, UPDATE … SET, DELETE FROM, CREATE TABLE, PRAGMA, …), and no
//     use of the SQLite driver (node:sqlite, src/store/sqlite.ts), so every query of fsapi's store is
//     found, named, in one folder.
// Run from the repository root: `node scripts/check-layout.mjs [srcDir]`. Prints each finding; exit 1 if there is one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(process.argv[2] ?? 'src');
const UI = path.join(SRC, 'ui');

// The rooms of src/, top to bottom: each may import only the rooms below it. CONTRIBUTING.md draws it.
const ROOMS = [
  // The shell: what starts a run, builds the command tree and loads a command.
  'cli',
  'main',
  'program',
  'engine-loader',
  'engine',
  'engine-light',
  'engine-choice',
  // The front ends: the MCP server (which drives the commands), the run that makes a context, the commands,
  // the terminal, the shell's completions.
  'agents',
  'runtime',
  'commands',
  'ui',
  'completion',
  // The domain, each room using the ones under it.
  'batch',
  'documents',
  'books',
  'clients',
  'controls',
  'notifications',
  'transfers',
  // The context a command's logic is handed, and what it is made of.
  'context',
  'auth',
  'simulator',
  'store',
  'api',
  // The floor: shared helpers, money, the parts of a run, the output's last flush, the errors.
  'common',
  'money',
  'run-types',
  'write-now',
  'errors',
];
const rank = new Map(ROOMS.map((room, index) => [room, index]));
/** The room of a module: its folder under src/, or the name of a file at the top of src/. */
const roomOf = (file) => {
  const [first, ...rest] = path.relative(SRC, file).split(path.sep);
  return rest.length === 0 ? first.replace(/\.(ts|mts|cts|tsx)$/, '') : first;
};
// Who may import src/ui: the rooms above it (the shell, the front ends, the commands) and the terminal layer
// itself. Everything below is logic with no terminal.
const mayImportUi = (file) => (rank.get(roomOf(file)) ?? Number.POSITIVE_INFINITY) <= rank.get('ui');

const SOURCE = /\.(ts|mts|cts|tsx)$/;
// Where SQL may be written: the store, and the simulator's own database. Nothing else is exempt.
const SQL_HOMES = [path.join(SRC, 'store'), path.join(SRC, 'simulator')];
const mayHoldSql = (file) => SQL_HOMES.some((home) => file.startsWith(home + path.sep));
// A string literal (quotes or backticks) whose text starts with an SQL statement.
const SQL_TEXT =
  /[`'"]\s*(SELECT\b|INSERT\s+(OR\s+\w+\s+)?INTO\b|REPLACE\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(UNIQUE\s+)?(TABLE|INDEX|VIEW|TRIGGER)\b|DROP\s+(TABLE|INDEX|VIEW|TRIGGER)\b|ALTER\s+TABLE\b|PRAGMA\s+\w|WITH\s+\w+\s+AS\s*\(|BEGIN(\s+IMMEDIATE|\s+EXCLUSIVE)?\s*[`'"]|COMMIT\s*[`'"]|VACUUM\b)/;
const SQLITE_SEAM = path.join(SRC, 'store', 'sqlite.ts');
const MAX_FILES_IN_A_FOLDER = 20;

function sourceFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

// Every module specifier of a file: static imports and exports (`import type` and `export type` too), side-effect
// imports, dynamic import() and `typeof import('…')`. A static one starts a line; a dynamic one counts unless its
// line is a comment (`//`, or ` * ` inside a block comment), so an import quoted in a comment is not one.
function specifiers(text) {
  const found = [];
  const statics = [/^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom[ \t]*(['"])([^'"\n]+)\1/gm, /^[ \t]*import[ \t]*(['"])([^'"\n]+)\1/gm];
  for (const pattern of statics) for (const match of text.matchAll(pattern)) found.push(match[2]);
  for (const line of text.split('\n')) {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) continue;
    for (const match of line.matchAll(/\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g)) found.push(match[2]);
  }
  return found;
}

function resolve(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|cjs|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${stem}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

const files = sourceFiles(SRC).sort();
const edges = new Map();
const problems = [];
const show = (file) => path.relative(process.cwd(), file);

for (const file of files) {
  const targets = new Set();
  const text = readFileSync(file, 'utf8');
  if (!mayHoldSql(file)) {
    text.split('\n').forEach((line, index) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return; // a comment may name a statement
      if (SQL_TEXT.test(line)) problems.push(`${show(file)}:${index + 1} holds SQL: queries belong in src/store`);
    });
  }
  for (const specifier of specifiers(text)) {
    if (!mayHoldSql(file) && specifier === 'node:sqlite') problems.push(`${show(file)} imports node:sqlite: only src/store talks to SQLite`);
    const target = resolve(file, specifier);
    if (target === SQLITE_SEAM && !mayHoldSql(file)) problems.push(`${show(file)} imports ${show(target)}: only src/store talks to SQLite`);
    if (target === undefined) continue;
    if (SOURCE.test(target) && target.startsWith(SRC + path.sep)) targets.add(target);
    if (target.startsWith(UI + path.sep) && !mayImportUi(file)) {
      problems.push(`${show(file)} imports ${show(target)}: only the rooms above src/ui may (the shell, the front ends, the commands)`);
    }
  }
  edges.set(file, [...targets].sort());
}

// Tarjan's strongly connected components: every component of more than one module (or a module that
// imports itself) is a cycle.
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function visit(file) {
  order.set(file, index);
  low.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const next of edges.get(file) ?? []) {
    if (!order.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file), order.get(next)));
    }
  }
  if (low.get(file) === order.get(file)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) components.push(component.sort());
  }
}
for (const file of files) if (!order.has(file)) visit(file);

// One concrete loop through each component, shortest first from its first module, so the report names
// imports a person can open.
function loopThrough(component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of edges.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const loop = [start];
        for (let at = file; at !== undefined && at !== start; at = previous.get(at)) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return component;
}
for (const component of components) {
  problems.push(
    `import cycle among ${component.length} modules: ${loopThrough(component).map(show).join(' -> ')}` +
      (component.length > 2 ? `\n  (all of: ${component.map(show).join(', ')})` : ''),
  );
}

// Rooms: each import between two rooms, with one example of it; then pairs, imports upward, unknown rooms.
const roomEdges = new Map();
for (const [file, targets] of edges) {
  for (const target of targets) {
    const [from, to] = [roomOf(file), roomOf(target)];
    if (from === to) continue;
    const key = `${from}\0${to}`;
    if (!roomEdges.has(key)) roomEdges.set(key, { from, to, example: `${show(file)} => ${show(target)}` });
  }
}
const shownRoom = (room) =>
  rank.has(room) && !files.some((file) => path.relative(SRC, file).split(path.sep).length > 1 && roomOf(file) === room) ? `src/${room}.ts` : `src/${room}`;
for (const room of new Set(files.map(roomOf))) {
  if (!rank.has(room))
    problems.push(`${shownRoom(room)} is not in the house's order: add it to ROOMS in scripts/check-layout.mjs (and the drawing in CONTRIBUTING.md)`);
}
for (const { from, to, example } of roomEdges.values()) {
  if (!rank.has(from) || !rank.has(to)) continue;
  const back = roomEdges.get(`${to}\0${from}`);
  if (back) {
    if (rank.get(from) < rank.get(to)) problems.push(`${shownRoom(from)} and ${shownRoom(to)} import each other: ${example}; ${back.example}`);
    continue;
  }
  if (rank.get(to) < rank.get(from)) problems.push(`${shownRoom(from)} imports ${shownRoom(to)}, which is above it in the house: ${example}`);
}

const perFolder = new Map();
for (const file of files) perFolder.set(path.dirname(file), (perFolder.get(path.dirname(file)) ?? 0) + 1);
for (const [folder, count] of perFolder) {
  if (count > MAX_FILES_IN_A_FOLDER) problems.push(`${show(folder)} holds ${count} modules: at most ${MAX_FILES_IN_A_FOLDER}, split it`);
}

for (const problem of problems) console.log(problem);
console.log(
  problems.length === 0
    ? `ok: ${files.length} modules, no cycles, rooms one way (${ROOMS.length}, top to bottom), no ui below the commands, no folder over ${MAX_FILES_IN_A_FOLDER}, no SQL outside src/store`
    : `${problems.length} problem(s)`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
