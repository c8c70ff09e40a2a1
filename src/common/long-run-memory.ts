// The memory of a long run (a statement of a million rows, `tx list --all`, a large batch): what
// src/runtime.ts sets for every command marked longRunning, and what bench/statement-pdf-driver.ts sets so
// that the PDF writer alone is measured as the command runs it.

/**
 * V8 grows its young generation (up to 3 x 16 MB) while a run allocates quickly, so a long `tx list --all`
 * or batch looks as if it kept every row. Holding it at YOUNG_GENERATION_BYTES keeps peak RSS flat
 * (bench/tx-list.mjs, bench/batch.mjs) for a few more cheap scavenges. Only for long runs: node:v8 costs a
 * few ms to load. Not a node flag in bin/: Node would lose its start-up snapshot, and a V8 flag set before
 * the bundles compile would make V8 refuse the code cache's entries made under the usual flags (for the
 * same reason bin/fsapi.cjs writes no entry after a run that loaded node:v8).
 */
export function keepYoungGenerationSmall(): void {
  // The launcher writes its code cache now (bin/fsapi.cjs): V8 stamps an entry with its flags, and every
  // next run, under the usual ones, would refuse an entry written after these changed.
  (process as NodeJS.EventEmitter).emit(V8_FLAGS_EVENT);
  const v8 = process.getBuiltinModule('node:v8');
  // The old generation too: after each full collection V8 lets it grow to a multiple of what was live
  // (a factor it picks from 1.1 to 4, high while the run allocates fast) before the next one. A long
  // run's live heap is small and flat (a page of rows, the requests in flight), so that headroom is all
  // garbage: a 20,000-row batch dry run peaked at 119 MB with V8's choice, 87 MB at 1.5x, with the same
  // CPU (bench/batch-size.mjs).
  v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  const youngBytes = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? YOUNG_GENERATION_BYTES;
  const stopGrowing = () => v8.setFlagsFromString('--semi-space-growth-factor=1');
  if (youngBytes() >= YOUNG_GENERATION_BYTES) return stopGrowing();
  // Still smaller, after a start that allocated little: V8 doubles it once the run's garbage asks for
  // it; it stops growing from there. Smaller than that, twice as many scavenges move requests still in
  // flight to the old generation, which then grows with the rows (bench/batch.mjs: 1.33x from 100 to
  // 1,000 rows, against 1.2x).
  const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
  const observer = new PerformanceObserver(() => {
    if (youngBytes() < YOUNG_GENERATION_BYTES) return;
    stopGrowing();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** Emitted on `process` before a run changes V8's flags (bin/fsapi.cjs listens). */
const V8_FLAGS_EVENT = 'fsapi:v8-flags';

/** How far the old generation may grow past what the last full collection found live. */
const OLD_GENERATION_GROWTH_PERCENT = 50;

/** The young generation a long run keeps: what V8 reaches after the start of a typical command. */
const YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;
