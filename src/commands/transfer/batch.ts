// fsapi transfer batch <file.csv>: pay every row of a CSV file, each exactly once, safe to run again.
// Top to bottom: options -> read and validate the file (exit 2) -> lock it -> plan: prefix, balance,
// references, banks, earlier runs, name enquiries (src/batch/payouts.ts) -> summary -> balance -> one
// confirmation -> send with bounded concurrency (Ctrl-C stops starting rows) -> report -> exit code.
// The rows live in the run's workspace (src/store/batch-workspace.ts), read a page at a time: a file of
// 100,000 rows costs the memory of a small one.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../../context.js';
import { run as commandOf } from '../run.js';
import { batchSpec } from './batch.spec.js';
import { ApiError, CancelledError, ExitCode, FsapiError, UsageError } from '../../errors.js';
import { BadRowsError, badRows, readBatchFileInto, type BatchFile, type RowProblem } from '../../batch/file.js';
import {
  checkBalance,
  executeBatch,
  lockBatch,
  planBatch,
  rowResults,
  rowsToHold,
  type BatchPlan,
  type BatchRun,
  type PlanStage,
} from '../../batch/payouts.js';
import { batchError, dryRunError, defaultReportPath, tally, writeReport, writeReportSync } from '../../batch/report.js';
import { formatNaira } from '../../money/kobo.js';
import { gateBatch, holdRows, markDryRun, type BatchGate } from '../../batch/policy.js';
import { resolvePayeeRows } from '../../batch/payee-rows.js';
import { BatchWorkspace } from '../../store/batch-workspace.js';
import { colors } from '../../ui/output.js';
import { startProgress, type Progress } from '../../ui/progress.js';
import {
  printBatchResults,
  SUMMARY_ROWS,
  writeBadRows,
  writeBatchSummary,
  writeBatchTotals,
  writeNameFailures,
  writeFileDuplicates,
  writePossibleDuplicates,
} from '../../ui/batch.js';

/** Pages, rows or events without end: see CommandModule.longRunning. */
export const longRunning = true;

export default commandOf(batchSpec, async (ctx, opts, args) => {
  // 1. Options, and whether anyone can answer the confirmation: before anything is read or asked.
  const fileName = String(args[0] ?? '');
  const { concurrency } = opts;
  const dryRun = opts.dryRun;
  const yes = opts.yes;
  const allowDuplicate = opts.allowDuplicate;
  if (!dryRun && !yes && !ctx.prompt.interactive) {
    throw new UsageError('there is no terminal to confirm this batch on; nothing was sent', 'check it with --dry-run, then add --yes to send without asking');
  }
  const reportPath = dryRun ? undefined : await checkReportPath(fileName, opts.report);

  // 2. The whole file, streamed into the run's workspace (src/store/batch-workspace.ts) and validated row
  //    by row. Bad rows are kept to report with the banks and names of the good ones (step 4): every
  //    problem of the file in one run, nothing sent while there is any.
  const workspace = BatchWorkspace.open();
  try {
    const { file, problems } = await showingBadRows(ctx, () => readBatchFileInto(fileName, workspace));
    // Rows naming a saved payee (the `payee` column) take its account, bank and verified name.
    const fileProblems = [...problems, ...(await resolvePayeeRows(ctx, file))].sort((a, b) => a.line - b.line);
    if (workspace.count() === 0) {
      writeBadRows(ctx, fileProblems);
      throw badRows(fileName, fileProblems);
    }

    // 3. One run of this file at a time (a dry run sends nothing and needs no lock).
    const lock = dryRun ? undefined : await lockBatch(ctx, file);
    try {
      await run(ctx, file, { concurrency, dryRun, yes, allowDuplicate, reportPath, lockLost: lock?.lost, fileProblems });
    } finally {
      await lock?.release();
    }
  } finally {
    workspace.close();
  }
});

interface RunOptions {
  concurrency: number;
  dryRun: boolean;
  yes: boolean;
  allowDuplicate: boolean;
  reportPath: string | undefined;
  /** Settles if this run's lock on the file is lost: no new row starts then. */
  lockLost: Promise<Error> | undefined;
  /** Rows of the file that failed its own checks (format, amount, ...). */
  fileProblems: RowProblem[];
}

async function run(ctx: Context, file: BatchFile, options: RunOptions): Promise<void> {
  // 4. Prefix, balance, references, banks, what earlier runs did, every holder's name; then every bad row
  //    of the file at once: its own format, its bank, its name check.
  let plan = await showingBadRows(ctx, () => planWithProgress(ctx, file, options.concurrency));
  const bad = [...options.fileProblems, ...plan.badRows].sort((a, b) => a.line - b.line);
  if (bad.length > 0) {
    writeBadRows(ctx, bad);
    const failures = plan.nameFailures.length;
    if (failures > 0) writeNameFailures(ctx, plan.nameFailures);
    throw badRows(file.name, bad, failures > 0 ? ` and ${failures} row${failures === 1 ? '' : 's'} that failed the name check` : '');
  }
  if (plan.nameFailures.length > 0) {
    writeNameFailures(ctx, plan.nameFailures);
    throw new ApiError(`${plan.nameFailures.length} row${plan.nameFailures.length === 1 ? '' : 's'} failed the name check; nothing was sent`, {
      hint: 'check the account numbers and banks (expect_name ignores case, spacing and punctuation only), or remove those rows, then run again',
    });
  }
  if (plan.possibleDuplicates.length > 0 && !options.allowDuplicate) {
    writePossibleDuplicates(ctx, plan.possibleDuplicates);
    throw new ApiError(`${plan.possibleDuplicates.length} row${plan.possibleDuplicates.length === 1 ? '' : 's'} may be paid already; nothing was sent`, {
      hint: 'if the file was edited after an earlier run, its references changed: remove the rows already paid (see the earlier report or fsapi transfer log); if these are new payments, add --allow-duplicate',
    });
  }

  // Rows of this file that repeat each other (same account, bank, amount): shown before the summary; a
  // run nobody watches (--yes) needs --allow-duplicate to pay both.
  if (plan.fileDuplicates.length > 0) {
    writeFileDuplicates(ctx, plan.fileDuplicates);
    if (options.yes && !options.allowDuplicate) {
      const groups = plan.fileDuplicates.map((group) => `lines ${group.lines.join(', ')} (${formatNaira(group.amountKobo)} to ${group.accountNumber})`);
      throw new UsageError(
        `${file.name}: ${groups.join('; ')} pay the same account, bank and amount; nothing was sent`,
        'if every one of them is meant, add --allow-duplicate; otherwise remove the copies',
      );
    }
  }

  // The payment policy (src/batch/policy.ts): over a hard limit nothing is sent (exit 1); rows it
  // keeps for a person are held as one request after the confirmation, and the rest go.
  const gate = await gateBatch(ctx, plan, { unattended: options.yes });
  plan = gate.plan;

  // 5. The summary, the balance, one confirmation for the whole batch.
  writeBatchSummary(ctx, plan);
  writeHeldRows(ctx, plan, gate);
  checkBalance(plan);
  if (options.dryRun) {
    ctx.io.note('dry run: nothing was sent');
    if (ctx.globals.json) {
      markDryRun(plan);
      printBatchResults(ctx, rowResults(plan), file.workspace.count('results'));
    }
    const error = dryRunError(tally(rowResults(plan, 'settled')), gate.holdCount);
    if (error) throw error;
    return;
  }
  if (plan.toSendCount > 0 && !options.yes) {
    const count = plan.toSendCount;
    const go = await ctx.prompt.confirm(`Send ${count} transfer${count === 1 ? '' : 's'} totalling ${formatNaira(plan.totalKobo)}?`, { defaultValue: false });
    if (!go) throw new CancelledError();
  }

  await holdRows(ctx, plan, `batch ${path.basename(file.name)}`);

  // 6. Send, each row once, through the journal; Ctrl-C stops starting rows.
  const sent = plan.toSendCount > 0 ? await sendWithProgress(ctx, plan, options) : { stoppedBecause: undefined, authFailed: false };

  // 7. The report (atomic), the results, the exit code: every row read back from the workspace.
  // A report that cannot be written (a full disk) does not hide what was sent: the results are printed
  // first, then the report's failure is said (after the rows' own exit, which wins).
  let reportFailure: FsapiError | undefined;
  try {
    await writeReport(options.reportPath!, rowResults(plan));
  } catch (error) {
    if (!(error instanceof FsapiError)) throw error;
    reportFailure = error;
  }
  printBatchResults(ctx, rowResults(plan), file.workspace.count('results'));
  const totals = tally(rowResults(plan));
  writeBatchTotals(ctx, totals, reportFailure ? undefined : options.reportPath);
  const error = batchError(totals, {
    authFailed: sent.authFailed,
    reportPath: reportFailure ? undefined : options.reportPath,
    storeFailure: sent.storeFailure,
  });
  if (error && reportFailure) ctx.io.note(`warning: ${reportFailure.message}`);
  if (error) throw error;
  if (reportFailure) throw reportFailure;
}

// ---- input ---------------------------------------------------------------------------------------------

/** The report goes next to the file unless --report says where; its directory must be writable now. */
async function checkReportPath(fileName: string, option: unknown): Promise<string> {
  const reportPath = option === undefined || option === '' ? defaultReportPath(fileName) : String(option);
  if (path.resolve(reportPath) === path.resolve(fileName)) {
    throw new UsageError('--report must not be the batch file itself: the file is what a second run resumes from');
  }
  try {
    await access(path.dirname(path.resolve(reportPath)), constants.W_OK);
  } catch {
    throw new UsageError(`cannot write the report in ${path.dirname(path.resolve(reportPath))}`, 'give --report a file in a writable directory');
  }
  return reportPath;
}

/** Bad rows are listed one per line on stderr, before the error itself. */
async function showingBadRows<T>(ctx: Context, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BadRowsError) writeBadRows(ctx, error.problems);
    throw error;
  }
}

// ---- planning and sending, with progress ---------------------------------------------------------------

async function planWithProgress(ctx: Context, file: BatchFile, concurrency: number): Promise<BatchPlan> {
  let progress: Progress | undefined;
  const labels: Record<PlanStage, [string, string]> = {
    lookup: ['lookups', 'looking up rows an earlier run sent'],
    enquiry: ['names', 'verifying account names'],
  };
  try {
    return await planBatch(ctx, file, {
      concurrency,
      onStage: (stage, total) => {
        progress?.stop();
        progress = undefined;
        if (total === 0) return;
        ctx.io.note(`${labels[stage][1]} (${total})…`);
        progress = startProgress(ctx, labels[stage][0], total);
      },
      onStep: () => progress?.tick(),
    });
  } finally {
    progress?.stop();
  }
}

const REPEAT_PRESS_MS = 500;

async function sendWithProgress(ctx: Context, plan: BatchPlan, options: RunOptions): Promise<BatchRun> {
  const c = colors(ctx, 'stderr');
  const rows = plan.file.workspace;
  const progress = startProgress(ctx, 'sending', plan.toSendCount);
  const stop = new AbortController();
  let firstPressAt: number | undefined;
  let inFlight = 0;
  const onInterrupt = () => {
    const now = ctx.clock.now();
    if (firstPressAt === undefined) {
      firstPressAt = now;
      stop.abort();
      progress.note(`${c.yellow('stopping:')} no new transfer starts; the ones in flight finish and the report is written (Ctrl-C again to quit at once)`);
      return;
    }
    // when-exit (under conf's atomic writes) answers a SIGINT by raising it again at once: that echo is
    // not a person pressing Ctrl-C twice. A second press counts from half a second on.
    if (now - firstPressAt < REPEAT_PRESS_MS) return;
    // Quit now: rows in flight are in the journal without an outcome; the next run looks them up.
    progress.stop();
    const quit = { apiStatus: undefined, chargeKobo: undefined, earlier: false };
    rows.setResultOfAll(
      'to-send',
      {
        ...quit,
        status: 'unknown',
        message: 'quit while in flight: do not pay it another way; run the same file again: it looks the row up before sending anything',
      },
      'started',
    );
    rows.setResultOfAll(
      'to-send',
      { ...quit, status: 'not-sent', message: 'not sent: the run was interrupted; run the same file again to send it' },
      'not started',
    );
    try {
      writeReportSync(options.reportPath!, rowResults(plan));
      ctx.io.note(
        `quit with ${inFlight} transfer${inFlight === 1 ? '' : 's'} in flight; report: ${options.reportPath}; run the same command again to finish: nothing is paid twice`,
      );
    } catch (error) {
      ctx.io.note(
        `quit with ${inFlight} transfer${inFlight === 1 ? '' : 's'} in flight; the report could not be written (${(error as Error).message}); run the same command again`,
      );
    }
    process.exit(inFlight > 0 ? ExitCode.outcomeUnknown : ExitCode.failed);
  };
  process.on('SIGINT', onInterrupt);
  void options.lockLost?.then((error) => {
    progress.note(`${c.yellow('stopping:')} lost the lock on this batch file (${error.message}); no new transfer starts`);
    stop.abort();
  });
  try {
    let lastRateNote = 0;
    return await executeBatch(ctx, plan, {
      concurrency: options.concurrency,
      allowDuplicate: options.allowDuplicate,
      signal: stop.signal,
      onRowStart: () => (inFlight += 1),
      onRowDone: (result) => {
        inFlight -= 1;
        progress.tick(result.status);
        if (result.status === 'refused' && !ctx.io.stderrIsTTY) ctx.io.note(`line ${result.line}: refused: ${result.message}`);
      },
      onUnknown: (row, detail) => {
        progress.note(`${c.yellow('warning:')} line ${row.line}: ${detail}; not resending, looking ${row.reference} up instead`);
      },
      onRateLimited: (row, waitMs, concurrency) => {
        // Not a failure: answered 429, and the lookup since does not find it; it is sent again, under the same reference.
        const now = Date.now();
        if (now - lastRateNote < 2000) return;
        lastRateNote = now;
        progress.note(
          `rate limited: line ${row.line} was answered 429 and the lookup does not find it; sending it again under ${row.reference} in ${Math.round(waitMs / 100) / 10} s; ${concurrency} at a time from now on`,
        );
      },
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    progress.stop();
  }
}

/** The rows the policy holds, on stderr under the summary: how many, how much, why. */
function writeHeldRows(ctx: Context, plan: BatchPlan, gate: BatchGate): void {
  const c = colors(ctx, 'stderr');
  if (gate.holdCount > 0) {
    ctx.io.note(
      `${c.yellow('held:')} ${gate.holdCount} row${gate.holdCount === 1 ? '' : 's'} (${formatNaira(gate.holdTotalKobo)}) will be held for approval as one request, not sent:`,
    );
    let listed = 0;
    for (const { row, reasons } of rowsToHold(plan)) {
      if (listed === SUMMARY_ROWS) {
        ctx.io.note(`  … and ${gate.holdCount - listed} more (fsapi transfer batch ${plan.file.name} --dry-run --json lists every one)`);
        break;
      }
      ctx.io.note(`  line ${row.line}: ${formatNaira(row.amountKobo)} to ${row.accountName}: ${reasons.join('; ')}`);
      listed += 1;
    }
  }
  for (const result of gate.earlier) ctx.io.note(`  line ${result.line}: ${result.message}`);
}
