// Bundles the CLI with esbuild into CommonJS files, which bin/fsapi.cjs loads with a plain require:
// - dist/cli.cjs: the command tree (src/program.ts) and what runs it (src/cli.ts). All that `fsapi --help` loads;
// - dist/engine.cjs: the code of every command (src/engine.ts), required once a command's action starts;
// - dist/engine-light.cjs: the same for the commands that only ask the API (src/engine-light.ts), half the
//   size; a run requires one engine or the other;
// - dist/vendor/*.cjs: the libraries only some commands use (prompts, spinner, tables, CSV, the simulator's
//   HTTP server, conf, the lock), each required the first time its command needs it. Node reads and
//   deserialises a whole bundle when it loads it: left in dist/engine.cjs, these 400 KB cost every command
//   about 3 ms (bench/startup.mjs). They hold only third-party code, never a module of src/, so no module of
//   fsapi exists twice.
// CommonJS because an ES module would make Node set up its ES module loader, about a sixth of its start-up.
// All are written to a fresh folder and swapped in by rename, so a CLI that runs while a build happens
// never sees a half-written dist/, nor a cli.cjs of one build with the engine.cjs of another.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';

const root = new URL('../', import.meta.url);

// The engines' command maps are made from the specs first (a command is declared once: in its spec).
const made = spawnSync(process.execPath, [createRequire(import.meta.url).resolve('tsx/cli'), 'scripts/gen-commands.ts'], {
  cwd: new URL('.', root),
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (made.status !== 0) process.exit(made.status ?? 1);
const staging = new URL(`dist.build-${process.pid}/`, root);
const retired = new URL(`dist.old-${process.pid}/`, root);
const dist = new URL('dist/', root);

// conf imports ajv, ajv-formats and semver at load time but uses them only for schemas and migrations,
// which fsapi does not use: resolve them to small stubs (see scripts/stubs/conf-optional.mjs).
const confOptionalDependencies = {
  name: 'conf-optional-dependencies',
  setup(build) {
    const stubs = {
      'ajv/dist/2020.js': 'scripts/stubs/conf-optional.mjs',
      'ajv-formats': 'scripts/stubs/conf-optional.mjs',
      semver: 'scripts/stubs/semver.mjs',
    };
    build.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) => {
      if (!args.importer.includes(`${'node_modules'}/conf/`)) return undefined;
      return { path: new URL(stubs[args.path], root).pathname };
    });
  },
};

// @inquirer/prompts' editor prompt, which fsapi never shows, resolves to a stub (scripts/stubs/inquirer-editor.mjs).
const inquirerEditorLeftOut = {
  name: 'inquirer-editor-left-out',
  setup(build) {
    build.onResolve({ filter: /^@inquirer\/editor$/ }, (args) => {
      if (!args.importer.includes(`${'node_modules'}/@inquirer/prompts/`)) return undefined;
      return { path: new URL('scripts/stubs/inquirer-editor.mjs', root).pathname };
    });
  },
};

// commander's node:child_process is loaded only when used (see scripts/stubs/child-process-lazy.cjs).
const commanderChildProcessLazy = {
  name: 'commander-child-process-lazy',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) => {
      if (!args.importer.includes(`${'node_modules'}/commander/`)) return undefined;
      return { path: new URL('scripts/stubs/child-process-lazy.cjs', root).pathname };
    });
  },
};

// chalk's colour probe is replaced by "no colour" (see scripts/stubs/chalk-supports-color.mjs): fsapi passes
// chalk its colour level, and the probe loaded node:tty on every command (docs/startup.md).
const chalkWithoutProbe = {
  name: 'chalk-without-probe',
  setup(build) {
    build.onResolve({ filter: /^#supports-color$/ }, (args) => {
      if (!args.importer.includes(`${'node_modules'}/chalk/`)) return undefined;
      return { path: new URL('scripts/stubs/chalk-supports-color.mjs', root).pathname };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22.13',
  sourcemap: 'linked',
  legalComments: 'none',
  // No comments or indentation: files a third smaller, which keeps the installed package under its limit
  // (test/package.test.ts); at start-up, with the code cache, that no longer measures beyond the noise
  // (docs/startup.md). Names stay, and the source maps give the lines. (Minifying names too: no gain.)
  minifyWhitespace: true,
  logLevel: 'warning',
  plugins: [confOptionalDependencies, inquirerEditorLeftOut, commanderChildProcessLazy],
};

// dist/cli.cjs leaves the engines out: src/engine-loader.ts's imports of them become requires of their own
// bundles, dist/engine.cjs and dist/engine-light.cjs, beside it.
const engineLeftOut = {
  name: 'engine-left-out',
  setup(build) {
    build.onResolve({ filter: /^\.\/engine(-light)?\.js$/ }, (args) =>
      args.importer.endsWith('engine-loader.ts') ? { path: args.path.replace(/\.js$/, '.cjs'), external: true } : undefined,
    );
  },
};

// Each file of dist/vendor/: the imports fsapi writes that it serves, and its module.exports. The engine's
// bundle reads a required file as Node does (module.exports is the default export, its properties the named
// ones), so a library fsapi imports by its default export exports that default, and one imported by name
// exports its namespace.
const vendorFiles = {
  'inquirer-prompts': { imports: ['@inquirer/prompts'], exports: "require('@inquirer/prompts')" },
  ora: { imports: ['ora'], exports: "require('ora').default" },
  'cli-table3': { imports: ['cli-table3'], exports: "require('cli-table3')" },
  conf: { imports: ['conf'], exports: "require('conf').default" },
  // The push parser `transfer batch` reads a file through, a chunk at a time (src/batch/file.ts).
  'csv-parse': { imports: ['csv-parse'], exports: "{ Parser: require('csv-parse').Parser }" },
  'csv-stringify': { imports: ['csv-stringify/sync'], exports: "require('csv-stringify/sync')" },
  // One file for both: @hono/node-server works with hono's classes, which must not exist twice.
  hono: {
    imports: ['hono', '@hono/node-server'],
    exports: "{ Hono: require('hono').Hono, createAdaptorServer: require('@hono/node-server').createAdaptorServer }",
  },
  'proper-lockfile': { imports: ['proper-lockfile'], exports: "require('proper-lockfile')" },
  // The Model Context Protocol SDK's server (with its validators, about 1 MB): loaded by `fsapi mcp` alone.
  'mcp-sdk': {
    imports: ['@modelcontextprotocol/sdk/server/index.js', '@modelcontextprotocol/sdk/types.js'],
    exports:
      "{ Server: require('@modelcontextprotocol/sdk/server/index.js').Server, CallToolRequestSchema: require('@modelcontextprotocol/sdk/types.js').CallToolRequestSchema, ListToolsRequestSchema: require('@modelcontextprotocol/sdk/types.js').ListToolsRequestSchema, JSONRPCMessageSchema: require('@modelcontextprotocol/sdk/types.js').JSONRPCMessageSchema }",
  },
  // The PDF writer of `transfer receipt` and `statement --pdf` (with fontkit, about 1.5 MB): loaded by them alone.
  pdfkit: { imports: ['pdfkit'], exports: "require('pdfkit')" },
  // The PostgreSQL driver of a team store (src/store/postgres.ts): loaded only by a run whose records are
  // in one (test/startup-loading.test.ts). pg-native (libpq bindings) is an optional driver fsapi never uses.
  pg: { imports: ['pg'], exports: "require('pg')", external: ['pg-native'] },
};

// The fonts the PDFs embed (src/documents/pdf.ts), with their licence, copied beside the bundles.
const fontFiles = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSansMono.ttf', 'LICENSE'];
const vendorFileOf = new Map(Object.entries(vendorFiles).flatMap(([file, { imports }]) => imports.map((name) => [name, file])));

// In the code of src/, an import of a vendored library becomes a require of its file in dist/vendor/.
const vendoredLeftOut = {
  name: 'vendored-left-out',
  setup(build) {
    build.onResolve({ filter: /^[@a-z]/ }, (args) => {
      const file = vendorFileOf.get(args.path);
      if (!file || args.importer.includes('node_modules')) return undefined;
      return { path: `./vendor/${file}.cjs`, external: true };
    });
  },
};

const bundles = [
  { entry: 'src/cli.ts', name: 'cli', plugins: [engineLeftOut] },
  // Only the engine's chalk (src/ui/style.ts) goes without its probe: ora's copy, in its own bundle, still
  // colours the spinner by its own default instance.
  { entry: 'src/engine.ts', name: 'engine', plugins: [vendoredLeftOut, chalkWithoutProbe] },
  // The engine of the commands that only ask the API (src/engine-light.ts): about half of dist/engine.cjs.
  // A run loads one engine or the other, never both (src/engine-loader.ts).
  { entry: 'src/engine-light.ts', name: 'engine-light', plugins: [vendoredLeftOut, chalkWithoutProbe] },
  ...Object.entries(vendorFiles).map(([file, { exports, external }]) => ({
    stdin: { contents: `module.exports = ${exports};`, resolveDir: new URL('.', root).pathname, sourcefile: `vendor/${file}.cjs` },
    name: `vendor/${file}`,
    external,
  })),
];

try {
  for (const bundle of bundles) {
    await build({
      ...common,
      plugins: [...common.plugins, ...(bundle.plugins ?? [])],
      external: bundle.external ?? [],
      ...(bundle.entry ? { entryPoints: [bundle.entry] } : { stdin: bundle.stdin }),
      // Maps of fsapi's own code only: a vendor bundle's map is the library's source again (pdfkit's and
      // the MCP SDK's alone were 5.6 MB, half the installed package), and a fault in a library is read in
      // its own repository.
      sourcemap: bundle.sourcemap ?? (bundle.entry ? common.sourcemap : false),
      outfile: new URL(`${bundle.name}.cjs`, staging).pathname,
      format: 'cjs',
      // An import() would make Node set up its ES module loader. Unsupported, esbuild turns each into a
      // require: of a lazily initialised module inside the bundle, so a command's top-level code still runs
      // only when needed, or of dist/engine.cjs.
      supported: { 'dynamic-import': false },
      // A bundled module's import.meta.url is its bundle's URL (CJS output has no import.meta).
      define: { 'import.meta.url': '__fsapiImportMetaUrl' },
      banner: { js: "const __fsapiImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    });
    const source = await readFile(new URL(`${bundle.name}.cjs`, staging), 'utf8');
    if (source.includes('import(')) throw new Error(`dist/${bundle.name}.cjs contains import(), which would load the ES module loader`);
    // esbuild escapes what lies outside ASCII except in a regular expression. One such character and Node
    // decodes the whole bundle as UTF-16 on every load, and V8 holds it so: about 3 ms of every command
    // for dist/engine.cjs (docs/startup.md). Write it as an escape (\u20A6).
    const outside = /[^\x00-\x7f]/.exec(source);
    if (outside) {
      const around = source.slice(Math.max(0, outside.index - 40), outside.index + 20);
      throw new Error(`dist/${bundle.name}.cjs holds ${JSON.stringify(outside[0])}, outside ASCII (in ${JSON.stringify(around)}): write it as an escape`);
    }
  }
  await mkdir(new URL('fonts/', staging), { recursive: true });
  for (const name of fontFiles) {
    const from = new URL(`node_modules/dejavu-fonts-ttf/${name === 'LICENSE' ? '' : 'ttf/'}${name}`, root);
    await copyFile(from, new URL(`fonts/${name}`, staging));
  }
  await rename(dist, retired).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, dist);
} finally {
  await rm(staging, { recursive: true, force: true });
  await rm(retired, { recursive: true, force: true });
}
