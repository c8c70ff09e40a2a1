// The payment policy over a batch: the rows within it are sent, the rest are held as ONE request for a
// person to approve (src/controls/policy.ts). A row over a hard limit stops the whole batch before anything is
// sent (exit 1). Rows an earlier run of the same file held are not held again: their request is named.
// Under require-name, a run nobody confirms (--yes) needs an expect_name (or a saved payee) on every row:
// without one nothing is sent (exit 2).
// Each row's verdict is written into the batch's workspace (src/store/batch-workspace.ts), a row at a time.
import type { Context } from '../context.js';
import { ControlsStore } from '../store/controls.js';
import { countToSend, notSent, pagesOf, rowsToHold, rowsToSend, storeResult, transferOfRow, type BatchPlan, type RowResult } from './payouts.js';
import { PAGE_ROWS } from '../store/batch-workspace.js';
import { sumKobo, type Kobo } from '../money/kobo.js';
import { holdForApproval, NameRequiredError, openPolicyJudge } from '../controls/policy.js';
import { openJournal } from '../transfers/transfer.js';

export interface BatchGate {
  /** The plan with only the rows to send now (and their total). */
  plan: BatchPlan;
  /** How many rows are held now, and their sum (rowsToHold lists them). */
  holdCount: number;
  holdTotalKobo: Kobo;
  /** Rows an earlier run held (or whose request was rejected), as the report shows them. */
  earlier: RowResult[];
}

export async function gateBatch(ctx: Context, plan: BatchPlan, options: { unattended: boolean }): Promise<BatchGate> {
  const rows = plan.file.workspace;
  const earlier: RowResult[] = [];
  const store = await ControlsStore.openIfExists(ctx.paths.dataDir);
  if (store) {
    try {
      // A page of rows at a time: their requests in one read of the store, then their results in the workspace.
      for (const page of pagesOf(rowsToSend(plan), PAGE_ROWS)) {
        const requests = await store.requestsOfReferences(
          plan.scope,
          page.map((row) => row.reference),
        );
        rows.transaction(() => {
          for (const row of page) {
            const request = requests.get(row.reference);
            if (!request) continue;
            const last = request.decisions.at(-1);
            const result: RowResult =
              request.status === 'rejected' || request.status === 'withdrawn'
                ? notSent(
                    row,
                    `${request.status} in request ${request.id} by ${last?.by ?? 'someone'} at ${last?.at ?? '?'}${last?.reason ? ` (${last.reason})` : ''}; not sent`,
                  )
                : {
                    ...notSent(row, `held in request ${request.id} (${request.status}) by an earlier run: fsapi approvals approve ${request.id}`),
                    status: 'held',
                  };
            storeResult(rows, result);
            earlier.push(result);
          }
        });
      }
    } finally {
      store.close();
    }
  }
  const judge = await openPolicyJudge(ctx, openJournal(ctx), plan.scope);
  let holdCount = 0;
  const held: Kobo[] = [];
  if (judge) {
    const unnamed = [...rowsToSend(plan)].filter(
      (row) => judge.nameMissing({ ...transferOfRow(row), payee: row.payee }, { expectName: row.expectName, unattended: options.unattended }) !== undefined,
    );
    if (unnamed.length > 0) {
      const lines = unnamed.map((row) => row.line);
      throw new NameRequiredError(
        `line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}: the payment policy needs the expected name (an expect_name column) for accounts that are not saved payees when nobody confirms at a terminal (--yes); nothing was sent`,
        'fill the expect_name column of those rows with the name you expect the bank to return (case, spacing and punctuation are ignored), name saved payees in a payee column, or run it at a terminal without --yes and check the names shown',
      );
    }
    rows.transaction(() => {
      for (const row of rowsToSend(plan)) {
        const candidate = { ...transferOfRow(row), payee: row.payee };
        judge.checkHardLimit(candidate);
        const reasons = judge.holdReasons(candidate);
        if (reasons.length === 0) continue;
        rows.setHoldReasons(row.line, reasons);
        holdCount += 1;
        held.push(row.amountKobo);
      }
    });
  }
  const gated = countToSend(plan);
  judge?.checkDailyTotal(gated.totalKobo);
  return { plan: gated, holdCount, holdTotalKobo: sumKobo(held), earlier };
}

/** Records the rows to hold as one request; their report lines name it. */
export async function holdRows(ctx: Context, plan: BatchPlan, origin: string): Promise<void> {
  const rows = plan.file.workspace;
  const transfers = [...rowsToHold(plan)].map(({ row, reasons }) => ({
    ...transferOfRow(row),
    payee: row.payee,
    origin: `${origin} line ${row.line}`,
    reasons,
  }));
  if (transfers.length === 0) return;
  const request = await holdForApproval(ctx, plan.scope, transfers, origin);
  rows.transaction(() => {
    for (const { row, reasons } of rowsToHold(plan)) {
      storeResult(rows, {
        ...notSent(row, `held for approval in request ${request.id} (${reasons.join('; ')}): fsapi approvals approve ${request.id}`),
        status: 'held',
      });
    }
  });
}

/** What a dry run reports: the rows it would send and those it would hold, none sent. */
export function markDryRun(plan: BatchPlan): void {
  const rows = plan.file.workspace;
  rows.transaction(() => {
    for (const { row, reasons } of rowsToHold(plan)) {
      storeResult(rows, { ...notSent(row, `dry run: would be held for approval (${reasons.join('; ')})`), status: 'held' });
    }
    for (const row of rowsToSend(plan)) storeResult(rows, notSent(row, 'dry run: verified, not sent'));
  });
}
