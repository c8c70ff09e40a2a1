// npm run bench: every benchmark, each measured against its own baseline in the same run.
import { existsSync } from 'node:fs';
import { ensureBuilt } from './lib.mjs';

ensureBuilt();
const suites = [
  ['./startup.mjs', 'benchStartup'],
  ['./tx-list.mjs', 'benchTxList'],
  ['./batch.mjs', 'benchBatch'],
  ['./backoffice.mjs', 'benchBackoffice'],
];
for (const [file, name] of suites) {
  if (!existsSync(new URL(file, import.meta.url))) continue;
  const module = await import(file);
  await module[name]();
}
