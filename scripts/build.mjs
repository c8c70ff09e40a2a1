// Bundles the CLI with esbuild into two CommonJS files, which bin/fsapi.cjs loads with a plain require:
// - dist/cli.cjs: the command tree (src/program.ts) and what runs it (src/cli.ts). All that `fsapi --help` loads;
// - dist/engine.cjs: the code of every command (src/engine.ts), required once a command's action starts.
// CommonJS because an ES module would make Node set up its ES module loader, about a sixth of its start-up.
// Both are written to a fresh folder and swapped in by rename, so a CLI that runs while a build happens
// never sees a half-written dist/, nor a cli.cjs of one build with the engine.cjs of another.
import { build } from 'esbuild';
import { readFile, rename, rm } from 'node:fs/promises';

const root = new URL('../', import.meta.url);
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

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  // No comments or indentation: smaller files to read on every start. Names stay, and the source maps give
  // the lines.
  minifyWhitespace: true,
  // A native module cannot be bundled: an embedded database engine stays a dependency, loaded from
  // node_modules (package.json).
  external: ['better-sqlite3'],
  logLevel: 'warning',
  plugins: [confOptionalDependencies, inquirerEditorLeftOut, commanderChildProcessLazy],
};

// dist/cli.cjs leaves the engine out: src/engine-loader.ts's import of it becomes a require of the engine's
// own bundle, dist/engine.cjs, beside it.
const engineLeftOut = {
  name: 'engine-left-out',
  setup(build) {
    build.onResolve({ filter: /^\.\/engine\.js$/ }, (args) => (args.importer.endsWith('engine-loader.ts') ? { path: './engine.cjs', external: true } : undefined));
  },
};

const bundles = [
  { entry: 'src/cli.ts', name: 'cli', plugins: [engineLeftOut] },
  { entry: 'src/engine.ts', name: 'engine' },
];

try {
  for (const bundle of bundles) {
    await build({
      ...common,
      plugins: [...common.plugins, ...(bundle.plugins ?? [])],
      entryPoints: [bundle.entry],
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
  }
  await rename(dist, retired).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, dist);
} finally {
  await rm(staging, { recursive: true, force: true });
  await rm(retired, { recursive: true, force: true });
}
