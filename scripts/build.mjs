// Bundles the CLI with esbuild. Code splitting keeps dist/cli.js (the command tree) small:
// each command's modules and the heavy packages they use load only when that command runs.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
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
});
