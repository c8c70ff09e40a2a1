// The payment policy over a batch: the rows within it are sent, the rest are held as ONE request for a
// person to approve (src/core/policy.ts). A row over a hard limit stops the whole batch before anything is
// sent (exit 1). Rows an earlier run of the same file held are not held again: their request is named.
import type { Context } from '../context.js';
import { ControlsStore } from '../store/controls.js';
import { notSent, transferOfRow, type BatchPlan, type RowResult, type VerifiedRow } from './batch.js';
import { sumKobo } from './money.js';
import { applyPolicy, holdForApproval, type PolicyCandidate } from './policy.js';
import { openJournal } from './transfer.js';

export interface BatchGate {
  /** The plan with only the rows to send now (and their total). */
  plan: BatchPlan;
  /** Rows to hold now, with why. */
  hold: Array<{ row: VerifiedRow; reasons: string[] }>;
  /** Rows an earlier run held (or whose request was rejected), as the report shows them. */
  earlier: RowResult[];
}

export async function gateBatch(ctx: Context, plan: BatchPlan): Promise<BatchGate> {
  const earlier: RowResult[] = [];
  let rows = plan.toSend;
  const store = ControlsStore.openIfExists(ctx.paths.dataDir);
  if (store) {
    try {
      rows = rows.filter((row) => {
        const request = store.requestOfReference(plan.scope, row.reference);
        if (!request) return true;
        const last = request.decisions.at(-1);
        if (request.status === 'rejected') {
          earlier.push(notSent(row, `rejected in request ${request.id} by ${last?.by ?? 'someone'} at ${last?.at ?? '?'}${last?.reason ? ` (${last.reason})` : ''}; not sent`));
        } else {
          earlier.push({ ...notSent(row, `held in request ${request.id} (${request.status}) by an earlier run: fsapi approvals approve ${request.id}`), status: 'held' });
        }
        return false;
      });
    } finally {
      store.close();
    }
  }
  const byReference = new Map(rows.map((row) => [row.reference, row]));
  const candidates: PolicyCandidate[] = rows.map((row) => ({
    ...transferOfRow(row),
    payee: row.payee,
    origin: `line ${row.line}`,
  }));
  const verdict = await applyPolicy(ctx, openJournal(ctx), plan.scope, candidates);
  const toSend = verdict.send.map((c) => byReference.get(c.reference)!);
  const hold = verdict.hold.map((c) => ({ row: byReference.get(c.reference)!, reasons: c.reasons }));
  return {
    plan: { ...plan, toSend, totalKobo: sumKobo(toSend.map((row) => row.amountKobo)) },
    hold,
    earlier,
  };
}

/** Records the rows to hold as one request; their report lines name it. */
export function holdRows(ctx: Context, plan: BatchPlan, hold: BatchGate['hold'], origin: string): RowResult[] {
  if (hold.length === 0) return [];
  const request = holdForApproval(
    ctx,
    plan.scope,
    hold.map(({ row, reasons }) => ({
      ...transferOfRow(row),
      payee: row.payee,
      origin: `${origin} line ${row.line}`,
      reasons,
    })),
    origin,
  );
  return hold.map(({ row, reasons }) => ({
    ...notSent(row, `held for approval in request ${request.id} (${reasons.join('; ')}): fsapi approvals approve ${request.id}`),
    status: 'held' as const,
  }));
}
