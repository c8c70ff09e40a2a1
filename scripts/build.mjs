// Bundles the CLI with esbuild. Code splitting keeps dist/cli.js (the command tree) small:
// each command's modules and the heavy packages they use load only when that command runs.
// The bundle is written to a fresh folder and swapped in by rename, so a CLI that is running while a
// build happens never sees a half-written dist/.
import { build } from 'esbuild';
import { rename, rm } from 'node:fs/promises';

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

try {
  await build({
    entryPoints: { cli: 'src/cli.ts' },
    outdir: staging.pathname,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    // Some bundled CommonJS packages call require(); give the ESM bundle a real one.
    banner: { js: "import { createRequire as __fsapiCreateRequire } from 'node:module'; const require = __fsapiCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    plugins: [confOptionalDependencies],
  });
  await rename(dist, retired).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, dist);
} finally {
  await rm(staging, { recursive: true, force: true });
  await rm(retired, { recursive: true, force: true });
}
