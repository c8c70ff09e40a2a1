// Batch payouts (docs/cli-contract.md, "Batch payouts"): every row of a CSV file verified, confirmed
// once, and paid exactly once, even across interrupted runs.
//
//   readBatchFileInto (src/batch/file.ts)  the rows, streamed into the run's workspace; every bad one with its
//                                   line; nothing asked of the API yet
//   planBatch                       the business prefix and balance, references, banks, what earlier runs
//                                   already did (looked up, never resent), the name enquiries, the
//                                   possible duplicates; still nothing sent
//   executeBatch                    each row to send through executeTransfer (src/transfers/transfer.ts), the
//                                   same journalled, never-blindly-retried path as `transfer send`
// The interactive parts (summary, confirmation, progress, report) belong to the command; this module
// reports through the callbacks it is given. The rows are never all in memory: they live in the run's
// workspace (src/store/batch-workspace.ts), each stage reads them a page at a time and writes each row's
// fate back, so a 100,000-row file costs about what a 3,000-row one does.
//
// Exactly once across runs: a row's reference is derived from the file's bytes and its line (or given
// in the file), and written to the journal before its POST. A later run of the same file finds each
// reference in the journal and looks it up instead of sending it:
//   found by the lookup                       its current outcome (pending, successful, failed,
//                                             reversed): reported, not sent again
//   accepted earlier, not found (yet)         the outcome last seen: the API took it; not sent again
//   a lookup answering another transaction    not found, and not absent either (src/transfers/lookup.ts):
//                                             reported as unknown, never as paid, not sent again
//   unknown earlier (the answer was lost and
//   the reconciliation found nothing)         still unknown: not sent again (exit 5, as `transfer send`)
//   refused earlier, not found                nothing moved: sent again, same reference
//   intent without any outcome (the process
//   died around the POST), not found after
//   the reconciliation schedule               sent again, same reference
// The last case is the one a SIGKILL halfway leaves. The POST may or may not have left; the lookup runs
// on the same schedule as a lost answer (less the time already passed since the intent), and only a
// definite "no such transaction" answer lets the row go again, under the same reference, which the API
// keeps unique (GET /v1/transactions/reference/{reference} returns one transaction).
import path from 'node:path';
import type { Context } from '../context.js';
import { shownText } from '../common/shown.js';
import { Backoff, NAME_ENQUIRY_RETRY, remainingAfter } from '../common/retry.js';
import { AdaptiveLimit, sendRespectingRateLimit } from '../transfers/rate-limit.js';
import type { Bank } from '../api/schemas.js';
import { ApiError, AuthError, ExitCode, FsapiError, TransportError } from '../errors.js';
import { BadRowsError, derivedReference, type BatchFile, type BatchRow, type RowProblem } from './file.js';
import { PAGE_ROWS, type BatchWorkspace, type WorkspaceRow } from '../store/batch-workspace.js';
import { loadBanks, resolveBank } from '../transfers/banks.js';
import { DuplicateClaimError, isInFlight, ReferenceTakenError } from '../transfers/claim.js';
import type { Journal } from '../transfers/journal.js';
import { holdProcessLock } from '../store/process-lock.js';
import { formatNaira, NO_KOBO, parseApiAmount, sumKobo, type Kobo } from '../money/kobo.js';
import { referencePrefix } from '../api/reference.js';
import { outcomeNow, outcomeOfStatus, type Outcome, type TransferWithOutcome } from '../transfers/outcome.js';
import { PolicyLimitError } from '../transfers/limits.js';
import { outcomeOfRecord, outcomeWords, reasonInRecord, reasonInWords } from '../notifications/failure-reason.js';
import {
  lookUpOnce,
  NameMismatchError,
  openJournal,
  reconcileSchedule,
  recordStatusSeen,
  transferScope,
  verifyAccountName,
  withoutNothingDone,
  type SingleLookup,
  type SourceAccount,
  type TransferIntent,
  type TransferOutcome,
  type TransferScope,
  type VerifiedTransfer,
} from '../transfers/transfer.js';

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;
/** A row to send that matches a journalled transfer (same account, bank, amount) this recent is held. */
export const BATCH_DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

// ---- results -------------------------------------------------------------------------------------------

/**
 * How a row ended, in the report: its outcome (src/transfers/outcome.ts), now or as an earlier run's
 * transfer stands today:
 * - `pending`, `successful`, `failed`, `reversed`: the API took the transfer; its status says the rest
 * - `refused`: the API refused it; nothing moved
 * - `unknown`: sent, outcome unknown: do not resend; `fsapi transfer status <reference>`
 * - `in flight`: another fsapi process is sending it right now
 * - `not-sent`: never sent (the run was interrupted or stopped before it)
 * - `held`: held for approval by the payment policy (src/batch/policy.ts); nothing sent
 */
export type RowStatus = Outcome | 'not-sent' | 'held';

export interface RowResult {
  line: number;
  accountNumber: string;
  bankName: string;
  bankCode: string;
  amountKobo: Kobo;
  /** The name the name enquiry returned (empty when the row never got that far). */
  verifiedName: string;
  reference: string;
  status: RowStatus;
  message: string;
  /** The API's status of the transfer (pending, successful) when known. */
  apiStatus: string | undefined;
  /** The charge the API reported for it, when known. */
  chargeKobo: Kobo | undefined;
  /** Sent by an earlier run of the file (looked up now), not by this one. */
  earlier: boolean;
}

// ---- the plan -------------------------------------------------------------------------------------------

/** A row with its final reference and its bank. */
export interface ResolvedRow extends BatchRow {
  reference: string;
  bank: Bank;
}

/** A row ready to send: its holder's name verified by name enquiry. */
export interface VerifiedRow extends ResolvedRow {
  accountName: string;
  /** Why it is sent again, when an earlier run tried it ("refused earlier", ...). */
  again: string | undefined;
  /** The intents of its reference the plan saw (0 for a new one): its claim checks nobody added one. */
  earlierAttempts: number;
}

/** The transfer a verified row sends: its reference, payee, amount and texts. */
export function transferOfRow(row: VerifiedRow): VerifiedTransfer {
  return {
    reference: row.reference,
    accountNumber: row.accountNumber,
    bankCode: row.bank.institutionCode,
    bankName: row.bank.institutionName,
    accountName: row.accountName,
    amountKobo: row.amountKobo,
    narration: row.narration,
    senderName: row.senderName,
  };
}

export interface NameCheckFailure {
  row: ResolvedRow;
  /** The name the bank returned, when the enquiry answered. */
  verifiedName: string | undefined;
  reason: string;
}

export interface PossibleDuplicate {
  row: VerifiedRow;
  earlier: TransferWithOutcome;
}

/**
 * The plan of a run. Its rows live in the file's workspace (src/store/batch-workspace.ts), not here: what
 * each one is (to send, settled by an earlier run, held) is read back a page at a time (toSend, results).
 * What stops a run (bad rows, failed name checks, possible duplicates) is kept here to be shown.
 */
export interface BatchPlan {
  file: BatchFile;
  source: SourceAccount;
  /** The available balance (GET /v1/account) when the plan was made. */
  availableKobo: Kobo;
  scope: TransferScope;
  /** Rows of the file in the run (good rows: bad ones are in badRows). */
  rowCount: number;
  /** How many rows to send now, and their sum. */
  toSendCount: number;
  totalKobo: Kobo;
  /** Rows an earlier run already handled (their outcome is in the workspace). */
  settledCount: number;
  /** Rows whose name check failed: nothing may be sent while there are any. */
  nameFailures: NameCheckFailure[];
  /** Rows whose bank or reference the API's data shows to be bad (unknown or ambiguous bank, prefix). */
  badRows: RowProblem[];
  /** Rows to send that look already paid under another reference: held unless allowed. */
  possibleDuplicates: PossibleDuplicate[];
  /** Rows of this file that pay the same account, bank and amount as another of its rows: flagged. */
  fileDuplicates: FileDuplicate[];
}

export type PlanStage = 'lookup' | 'enquiry';

export interface PlanOptions {
  concurrency: number;
  /** Called when a stage with `total` requests starts, and after each one. */
  onStage?: (stage: PlanStage, total: number) => void;
  onStep?: (stage: PlanStage) => void;
}

/**
 * Everything up to the summary: after it, only the confirmation stands between the plan and the money.
 * Rows the API's data shows to be bad (a reference without the business prefix, a bank that is unknown
 * or ambiguous) come back in `badRows`, and failed name checks in `nameFailures`, so one run reports them
 * all; a reference already used for another transfer throws BadRowsError (exit 2).
 */
export async function planBatch(ctx: Context, file: BatchFile, options: PlanOptions): Promise<BatchPlan> {
  const journal = openJournal(ctx); // the data dir made private before anything is written there
  const rows = file.workspace;
  const api = await ctx.api();
  const account = await api.getAccount();
  const source: SourceAccount = {
    accountName: account.accountName,
    accountNumber: shownText(account.accountNumber),
    prefix: referencePrefix(account.accountName),
  };
  const availableKobo = parseApiAmount(account.availableBalance);
  const scope = await transferScope(ctx);

  const badRows = await resolveRows(ctx, file, source.prefix);
  await recordEarlierAttempts(journal, scope, file);

  // Rows an earlier run touched: looked up, never sent blindly.
  options.onStage?.('lookup', rows.count('journalled'));
  await forEachBounded(rows.rows('journalled'), options.concurrency, async (stored) => {
    const row = resolvedRow(rows, stored);
    const decision = await settleEarlierAttempt(ctx, journal, scope, row, JSON.parse(stored.earlierJson!) as Journalled);
    if (decision.kind === 'settled') storeResult(rows, decision.result);
    else rows.setAgain(row.line, decision.why);
    options.onStep?.('lookup');
  });

  // The rows to send: each holder's name, by name enquiry.
  const nameFailures: NameCheckFailure[] = [];
  options.onStage?.('enquiry', rows.count('candidates'));
  await forEachBounded(rows.rows('candidates'), options.concurrency, async (stored) => {
    const row = resolvedRow(rows, stored);
    const check = await checkName(ctx, row);
    if ('accountName' in check) rows.setVerified(row.line, check.accountName);
    else nameFailures.push({ row, verifiedName: check.verifiedName, reason: check.reason });
    options.onStep?.('enquiry');
  });
  nameFailures.sort((a, b) => a.row.line - b.row.line);

  const plan: BatchPlan = {
    file,
    source,
    availableKobo,
    scope,
    rowCount: rows.count('all'),
    toSendCount: 0,
    totalKobo: NO_KOBO,
    settledCount: rows.count('settled'),
    nameFailures,
    badRows,
    possibleDuplicates: await findPossibleDuplicates(journal, scope, file, ctx.clock.now()),
    fileDuplicates: findFileDuplicates(rows),
  };
  return countToSend(plan);
}

/** The plan with its count and total of rows to send read again (after the policy took some out). */
export function countToSend(plan: BatchPlan): BatchPlan {
  let count = 0;
  const amounts = function* () {
    for (const row of plan.file.workspace.rows('to-send')) {
      count += 1;
      yield row.amountKobo;
    }
  };
  const totalKobo = sumKobo(amounts());
  return { ...plan, toSendCount: count, totalKobo };
}

/** The rows to send now, in file order. */
export function* rowsToSend(plan: Pick<BatchPlan, 'file'>): Generator<VerifiedRow> {
  const rows = plan.file.workspace;
  for (const stored of rows.rows('to-send')) yield verifiedRow(rows, stored);
}

/** The rows the policy holds now, with why, in file order. */
export function* rowsToHold(plan: Pick<BatchPlan, 'file'>): Generator<{ row: VerifiedRow; reasons: string[] }> {
  const rows = plan.file.workspace;
  for (const stored of rows.rows('to-hold')) yield { row: verifiedRow(rows, stored), reasons: stored.holdReasons ?? [] };
}

/** The rows to send that an earlier run tried (each one's `again` says why it goes again). */
export function* rowsSentAgain(plan: Pick<BatchPlan, 'file'>): Generator<VerifiedRow> {
  const rows = plan.file.workspace;
  for (const stored of rows.rows('again')) yield verifiedRow(rows, stored);
}

/** Rows with an outcome (the report), in file order; `earlier` only: what earlier runs left. */
export function* rowResults(plan: Pick<BatchPlan, 'file'>, set: 'results' | 'settled' = 'results'): Generator<RowResult> {
  for (const stored of plan.file.workspace.rows(set)) {
    const result = stored.result!;
    yield {
      line: stored.line,
      accountNumber: stored.accountNumber,
      bankName: stored.bankName ?? '',
      bankCode: stored.bankCode ?? '',
      amountKobo: stored.amountKobo,
      verifiedName: result.verifiedName,
      reference: stored.finalReference ?? '',
      status: result.status as RowStatus,
      message: result.message,
      apiStatus: result.apiStatus,
      chargeKobo: result.chargeKobo,
      earlier: result.earlier,
    };
  }
}

/** Writes a row's outcome into the workspace. */
export function storeResult(rows: BatchWorkspace, result: RowResult): void {
  rows.setResult(result.line, result);
}

function resolvedRow(rows: BatchWorkspace, stored: WorkspaceRow): ResolvedRow {
  const bank = rows.banks.get(stored.bankCode!);
  if (!bank || stored.finalReference === undefined) throw new Error(`line ${stored.line} was never resolved`);
  return {
    line: stored.line,
    accountNumber: stored.accountNumber,
    bankQuery: stored.bankQuery,
    amountKobo: stored.amountKobo,
    narration: stored.narration,
    reference: stored.finalReference,
    senderName: stored.senderName,
    expectName: stored.expectName,
    ...(stored.payee === undefined ? {} : { payee: stored.payee }),
    bank,
  };
}

function verifiedRow(rows: BatchWorkspace, stored: WorkspaceRow): VerifiedRow {
  const earlier = stored.earlierJson === undefined ? undefined : (JSON.parse(stored.earlierJson) as Journalled);
  return { ...resolvedRow(rows, stored), accountName: stored.accountName!, again: stored.again, earlierAttempts: earlier?.intents ?? 0 };
}

/** The total must fit the available balance: exit 1, nothing sent, when it does not. */
export function checkBalance(plan: BatchPlan): void {
  if (plan.totalKobo <= plan.availableKobo) return;
  throw new ApiError(`the batch totals ${formatNaira(plan.totalKobo)} but the available balance is ${formatNaira(plan.availableKobo)}; nothing was sent`, {
    hint: 'fund the account or remove rows, then run the same command again',
  });
}

// ---- references and banks ---------------------------------------------------------------------------------

/**
 * Gives each row its reference and its bank; rows whose bank or reference is bad leave the run and come back
 * as problems.
 */
async function resolveRows(ctx: Context, file: BatchFile, prefix: string): Promise<RowProblem[]> {
  const rows = file.workspace;
  const problems: RowProblem[] = [];
  // Resolved once per distinct `bank` cell, against the cached list, and never by asking: without a
  // terminal resolveBank refuses an ambiguous name with the candidates, which makes it a bad row.
  const quiet: Context = { ...ctx, prompt: { ...ctx.prompt, interactive: false } };
  await loadBanks(ctx);
  const banks = new Map<string, Bank | string>();
  const bankKey = (query: string) => query.trim().toLowerCase();
  for (const query of rows.bankQueries()) {
    const key = bankKey(query);
    if (banks.has(key)) continue;
    try {
      banks.set(key, await resolveBank(quiet, query));
    } catch (error) {
      if (!(error instanceof FsapiError) || error.exitCode !== ExitCode.usage) throw error;
      // A typo's suggestion goes with it: "no bank matches "acess" (did you mean Access Bank?)".
      const suggestion = error.hint?.startsWith('did you mean') ? ` (${error.hint})` : '';
      banks.set(key, `bank: ${error.message.replace(/^--bank /, '')}${suggestion}`);
    }
  }
  rows.transaction(() => {
    for (const row of rows.rows('all')) {
      const reasons: string[] = [];
      const bank = banks.get(bankKey(row.bankQuery));
      if (typeof bank === 'string' || bank === undefined) reasons.push(bank ?? `no bank matches ${JSON.stringify(row.bankQuery)}`);
      if (row.reference !== undefined && !row.reference.toUpperCase().startsWith(`${prefix}-`)) {
        reasons.push(`reference ${row.reference} must start with ${prefix}- (the first word of the business name), or be left empty`);
      }
      let reference = row.reference ?? derivedReference(prefix, file.contentHash, row.line);
      if (row.reference !== undefined && reasons.length === 0 && !row.reference.startsWith(`${prefix}-`)) {
        // The prefix in another case: sent upper-cased, as `transfer send --reference` does.
        reference = row.reference.toUpperCase();
        ctx.io.note(`note: line ${row.line}: reference ${row.reference} is sent as ${reference}: the API expects the prefix ${prefix}- in capitals`);
      }
      // Derived references cannot meet each other; a given one could (in theory) meet a derived one.
      const first = rows.earlierLineOfReference(reference, row.line);
      if (first !== undefined) reasons.push(`reference ${reference} is also the reference of line ${first}`);
      if (reasons.length > 0 || typeof bank !== 'object') {
        problems.push({ line: row.line, reason: reasons.join('; ') });
        rows.removeRow(row.line);
        continue;
      }
      rows.resolve(row.line, reference, bank);
    }
  });
  return problems;
}

// ---- what earlier runs did ------------------------------------------------------------------------------

/** The journal's knowledge of one of this file's references: its last send attempt. */
interface Journalled {
  reference: string;
  /** The outcome of the last attempt; `none` when its intent has no outcome (the process died). */
  last: 'none' | 'accepted' | 'rejected' | 'unknown' | 'reconciled';
  /** When the last intent was written (epoch ms). */
  intentAt: number;
  /** How many intents it has, and who wrote the last one. */
  intents: number;
  pid: number | undefined;
  run: string | undefined;
  accountNumber: string;
  bankCode: string;
  amountKobo: Kobo;
  accountName: string;
  status: string | undefined;
  message: string | undefined;
}

/**
 * What the journal knows of each of this file's references (in this profile and base address), looked up by
 * index and kept with the row. A reference the journal has for another transfer (other account, bank or
 * amount) throws BadRowsError: a reference pays once.
 */
async function recordEarlierAttempts(journal: Journal, scope: TransferScope, file: BatchFile): Promise<void> {
  const rows = file.workspace;
  const problems: RowProblem[] = [];
  // A page of rows at a time: the journal asked about the page in one read, then the page's findings
  // written to the workspace in one transaction of its own.
  for (const page of pagesOf(rows.rows('all'), PAGE_ROWS)) {
    const found = await journal.snapshot(async (view) => {
      const known: Array<{ row: WorkspaceRow; earlier: Journalled }> = [];
      const refOf = (row: WorkspaceRow) => ({ profile: scope.profile, baseUrl: scope.baseUrl, reference: row.finalReference! });
      await view.expect({ references: page.map(refOf) });
      for (const row of page) {
        const ref = refOf(row);
        const attempts = await view.attempts(ref);
        const state = attempts && (await view.stateOf(ref));
        if (!attempts || !state) continue;
        known.push({
          row,
          earlier: {
            reference: state.reference,
            last: attempts.answered ? state.state : 'none',
            intentAt: Date.parse(attempts.lastIntentAt),
            intents: attempts.intents,
            pid: attempts.lastPid,
            run: attempts.lastRun,
            accountNumber: state.accountNumber,
            bankCode: state.bankCode,
            amountKobo: state.amountKobo,
            accountName: state.accountName,
            status: state.status,
            message: state.message,
          },
        });
      }
      return known;
    });
    rows.transaction(() => {
      for (const { row, earlier } of found) {
        if (earlier.accountNumber === row.accountNumber && earlier.bankCode === row.bankCode && earlier.amountKobo === row.amountKobo) {
          rows.setEarlier(row.line, JSON.stringify(earlier));
          continue;
        }
        problems.push({
          line: row.line,
          reason:
            `reference ${row.finalReference} was already used on ${new Date(earlier.intentAt).toISOString()} for ${formatNaira(earlier.amountKobo)} ` +
            `to ${earlier.accountNumber} (bank ${earlier.bankCode}); a reference pays once: give this row a new reference`,
        });
      }
    });
  }
  if (problems.length > 0) {
    const count = problems.length;
    throw new BadRowsError(
      problems,
      `${file.name}: ${count} row${count === 1 ? '' : 's'} reuse${count === 1 ? 's' : ''} a reference already paid for something else; nothing was sent`,
      'fsapi transfer log shows the earlier transfers',
    );
  }
}

type Lookup = SingleLookup;

/**
 * The lookups after an intent without outcome: the reconciliation schedule (FSAPI_RECONCILE_SCHEDULE_MS),
 * less the time already passed since the intent, so a run resumed much later looks up once.
 */
async function lookUpAfterIntent(ctx: Context, intent: TransferIntent, intentAt: number): Promise<Lookup> {
  const elapsed = Number.isFinite(intentAt) ? Math.max(0, ctx.clock.now() - intentAt) : Infinity;
  const backoff = new Backoff(remainingAfter(reconcileSchedule(ctx.env), elapsed), { clock: ctx.clock });
  let last: Lookup;
  do {
    last = await lookUpOnce(ctx, intent);
    if (last.kind === 'found') return last;
  } while (await backoff.wait());
  return last;
}

type EarlierDecision = { kind: 'settled'; result: RowResult } | { kind: 'again'; why: string };

async function settleEarlierAttempt(ctx: Context, journal: Journal, scope: TransferScope, row: ResolvedRow, earlier: Journalled): Promise<EarlierDecision> {
  const base = {
    line: row.line,
    accountNumber: row.accountNumber,
    bankName: row.bank.institutionName,
    bankCode: row.bank.institutionCode,
    amountKobo: row.amountKobo,
    verifiedName: earlier.accountName,
    reference: row.reference,
    chargeKobo: undefined,
    earlier: true,
  };
  if (earlier.last === 'none' && (await isInFlight({ lastPid: earlier.pid, lastRun: earlier.run }, ctx.paths.dataDir))) {
    // Another fsapi process is sending it right now: never send it alongside, whatever a lookup says.
    return {
      kind: 'settled',
      result: {
        ...base,
        status: 'in flight',
        apiStatus: undefined,
        message: `being sent by another fsapi process (pid ${earlier.pid}); not sent again: run the same file again once it has finished`,
      },
    };
  }
  // Checked against the row: a record of another transfer is no proof this row was paid (src/transfers/lookup.ts).
  const intent = { reference: row.reference, amountKobo: row.amountKobo, accountNumber: row.accountNumber, bankCode: row.bank.institutionCode };
  const lookup = earlier.last === 'none' ? await lookUpAfterIntent(ctx, intent, earlier.intentAt) : await lookUpOnce(ctx, intent);
  if (lookup.kind === 'found') {
    const state = earlier.last === 'accepted' || earlier.last === 'reconciled' ? 'accepted' : 'unknown';
    await recordStatusSeen(ctx, journal, scope, { reference: earlier.reference, state }, lookup.transaction, await reasonInWords(ctx)(lookup.transaction));
    const { outcome, reason } = await outcomeOfRecord(ctx, lookup.transaction);
    const unpaid = outcome === 'failed' || outcome === 'reversed';
    return {
      kind: 'settled',
      result: {
        ...base,
        status: outcome,
        apiStatus: lookup.transaction.status,
        chargeKobo: chargeOf(lookup.transaction.charge),
        message: `sent by an earlier run; not sent again; now ${unpaid ? `${outcomeWords(outcome, reason)}; check the reversal (fsapi transfer status ${row.reference})` : outcome}`,
      },
    };
  }
  const lookupSaid =
    lookup.kind === 'absent' ? 'does not find it yet' : lookup.kind === 'failed' ? `failed: ${lookup.detail}` : `did not find it: ${lookup.detail}`;
  switch (earlier.last) {
    case 'accepted':
    case 'reconciled': {
      const outcome = outcomeOfStatus(earlier.status ?? 'pending');
      return {
        kind: 'settled',
        result: {
          ...base,
          status: outcome,
          apiStatus: earlier.status,
          message: `sent by an earlier run (${outcome} when last seen); not sent again (the lookup ${lookupSaid})`,
        },
      };
    }
    case 'unknown':
      return {
        kind: 'settled',
        result: {
          ...base,
          status: 'unknown',
          apiStatus: undefined,
          message: `outcome unknown since an earlier run (${earlier.message ?? 'no answer'}); not sent again: ${lookup.kind === 'absent' ? 'still not found' : `the lookup ${lookupSaid}`}; run fsapi transfer status ${row.reference}`,
        },
      };
    case 'rejected':
    case 'none':
      if (lookup.kind === 'absent') {
        return {
          kind: 'again',
          why:
            earlier.last === 'rejected' ? `refused earlier (${earlier.message ?? 'no message'})` : 'interrupted earlier before an answer; not found by lookup',
        };
      }
      // No definite answer: sending now could pay twice.
      return {
        kind: 'settled',
        result: {
          ...base,
          status: 'unknown',
          apiStatus: undefined,
          message: `tried by an earlier run; the lookup ${lookupSaid}, so it was not sent again; run the same file again later`,
        },
      };
  }
}

function chargeOf(value: number | string | null | undefined): Kobo | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  try {
    return parseApiAmount(value);
  } catch {
    return undefined;
  }
}

// ---- names ---------------------------------------------------------------------------------------------

async function checkName(ctx: Context, row: ResolvedRow): Promise<{ accountName: string } | { verifiedName: string | undefined; reason: string }> {
  const backoff = new Backoff(NAME_ENQUIRY_RETRY, { clock: ctx.clock });
  for (let attempt = 1; ; attempt += 1) {
    try {
      return { accountName: await verifyAccountName(ctx, row.bank, row.accountNumber, row.expectName) };
    } catch (error) {
      if (error instanceof NameMismatchError) {
        return { verifiedName: error.verifiedName, reason: `the account holder is "${error.verifiedName}", not "${error.expectedName}"` };
      }
      if (error instanceof AuthError) throw error;
      if (error instanceof TransportError) {
        if (await backoff.wait()) continue;
        return { verifiedName: undefined, reason: `the name enquiry failed ${attempt} times: ${error.message}` };
      }
      if (error instanceof ApiError) {
        const detail = error.apiMessage ?? error.message;
        return { verifiedName: undefined, reason: `the name enquiry was refused${error.status ? ` (HTTP ${error.status})` : ''}: ${detail}` };
      }
      throw error;
    }
  }
}

// ---- duplicates across files -----------------------------------------------------------------------------

/**
 * Rows to send that match a transfer the journal has (same profile and base address, account, bank and
 * amount, not refused, in the last 24 hours) under a reference that is not one of this file's. That is
 * what an edited file looks like after a partial run: its references changed with its bytes.
 */
async function findPossibleDuplicates(journal: Journal, scope: TransferScope, file: BatchFile, now: number): Promise<PossibleDuplicate[]> {
  const rows = file.workspace;
  const result: PossibleDuplicate[] = [];
  // The journal asked about a page of rows in one read.
  for (const page of pagesOf(rows.rows('to-send'), PAGE_ROWS)) {
    const verified = page.map((stored) => verifiedRow(rows, stored));
    await journal.snapshot(async (view) => {
      const candidateOf = (row: (typeof verified)[number]) => ({
        ...scope,
        accountNumber: row.accountNumber,
        bankCode: row.bank.institutionCode,
        amountKobo: row.amountKobo,
      });
      await view.expect({ duplicates: verified.map((row) => ({ candidate: candidateOf(row), now, windowMs: BATCH_DUPLICATE_WINDOW_MS })) });
      for (const row of verified) {
        const [earlier] = (await view.duplicates(candidateOf(row), now, BATCH_DUPLICATE_WINDOW_MS)).filter((t) => !rows.hasReference(t.reference));
        if (earlier) result.push({ row, earlier: { ...earlier, outcome: await outcomeNow(view, earlier) } });
      }
    });
  }
  return result;
}

/** The items of `items`, `size` at a time: a workspace page (src/store/batch-workspace.ts, PAGE_ROWS) read whole. */
export function* pagesOf<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let page: T[] = [];
  for (const item of items) {
    page.push(item);
    if (page.length === size) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/** Rows of one file that pay the same account at the same bank the same amount (kobo, bank code). */
export interface FileDuplicate {
  /** The lines, in file order: two or more. */
  lines: number[];
  accountNumber: string;
  bankName: string;
  amountKobo: Kobo;
}

/**
 * Rows to send with the same account, bank and amount as another row of the file, compared as they will
 * be sent: `gtb` and `000013` are one bank, `1,000` and `1000.00` one amount. A typo'd copy of a row pays
 * twice unless someone looks: a person at the confirmation sees them; `--yes` needs --allow-duplicate.
 */
export function findFileDuplicates(rows: BatchWorkspace): FileDuplicate[] {
  return rows.repeatedPayments('to-send').map(({ lines, accountNumber, bankName, amountKobo }) => ({ lines, accountNumber, bankName, amountKobo }));
}

// ---- sending -----------------------------------------------------------------------------------------------

export interface ExecuteBatchOptions {
  concurrency: number;
  /** Aborted (SIGINT): no new row starts; rows in flight finish. */
  signal?: AbortSignal;
  /** When a row starts (its intent is about to be journalled). */
  onRowStart?: (row: VerifiedRow) => void;
  /** After each row, in completion order. */
  onRowDone?: (result: RowResult) => void;
  /** When a row's answer is lost, before its reconciliation. */
  onUnknown?: (row: VerifiedRow, detail: string) => void;
  /** --allow-duplicate: no row is held for matching a transfer outside this file. */
  allowDuplicate?: boolean;
  /** When a row's transfer was answered 429 and the lookup since does not find it: it waits, then is sent again under its reference. */
  onRateLimited?: (row: VerifiedRow, waitMs: number, concurrency: number) => void;
}

export interface BatchRun {
  /** Why rows were left unsent: `interrupted`, an authentication failure, the journal failing. */
  stoppedBecause: string | undefined;
  /** Authentication failed: the remaining rows would all be refused. */
  authFailed: boolean;
  /** The store's failure that stopped the run (unreachable, busy, timed out), when one did: its code is the batch's. */
  storeFailure?: FsapiError | undefined;
}

/**
 * Sends the rows to send, each through the journal, and writes each one's outcome into the workspace; rows
 * never started end `not-sent` with the reason. The report reads them back (rowResults).
 */
export async function executeBatch(ctx: Context, plan: BatchPlan, options: ExecuteBatchOptions): Promise<BatchRun> {
  const journal = openJournal(ctx);
  const rows = plan.file.workspace;
  const origin = `batch ${path.basename(plan.file.name)}`;
  // Checked again for each row in the claim's transaction (src/transfers/claim.ts): another run may have paid
  // the same account the same amount since the plan was made. This file's own rows never count.
  const ownReferences = { has: (reference: string) => rows.hasReference(reference) };
  const duplicates = options.allowDuplicate ? undefined : { windowMs: BATCH_DUPLICATE_WINDOW_MS, ignore: ownReferences };
  let stoppedBecause: string | undefined;
  let storeFailure: FsapiError | undefined;
  let authFailed = false;
  const shouldStop = () => {
    if (options.signal?.aborted && stoppedBecause === undefined) stoppedBecause = 'interrupted';
    return stoppedBecause !== undefined;
  };
  const finish = (result: RowResult) => {
    storeResult(rows, result);
    options.onRowDone?.(result);
  };

  // Shared by the rows: each 429 to a transfer halves how many are sent at once (src/transfers/rate-limit.ts).
  const limit = new AdaptiveLimit(options.concurrency);
  await forEachBounded(
    rowsToSend(plan),
    options.concurrency,
    async (row) => {
      const transfer = transferOfRow(row);
      rows.markStarted(row.line);
      options.onRowStart?.(row);
      let outcome: TransferOutcome;
      try {
        outcome = await sendRespectingRateLimit(ctx, journal, plan.scope, transfer, {
          origin: `${origin} line ${row.line}`,
          onUnknown: (detail) => options.onUnknown?.(row, detail),
          claim: { earlierAttempts: row.earlierAttempts, duplicates },
          limit,
          onRateLimited: (waitMs, _attempt, concurrency) => options.onRateLimited?.(row, waitMs, concurrency ?? limit.limit),
        });
      } catch (error) {
        if (error instanceof ReferenceTakenError || error instanceof DuplicateClaimError || error instanceof PolicyLimitError) {
          // Another process got there first (or took the rest of the day's maximum): not this run's to send.
          finish(notSent(row, `not sent: ${error.message.replace(/; (a reference pays once, so )?nothing was sent$/, '')}`));
          return;
        }
        // Only a journal that cannot be written (or locked) gets here, before the POST: nothing was
        // sent, and the next row would fail the same way.
        const message = error instanceof Error ? error.message : String(error);
        if (stoppedBecause === undefined && error instanceof FsapiError && error.code.startsWith('store_')) storeFailure = error;
        stoppedBecause ??= message;
        finish(notSent(row, message));
        return;
      }
      // Sent: from here nothing may call the row unsent, whatever fails in writing its result down.
      if (outcome.kind === 'rejected' && outcome.error instanceof AuthError) {
        authFailed = true;
        stoppedBecause ??= `authentication failed: ${outcome.error.message}`;
      }
      try {
        finish(resultOf(row, outcome));
      } catch (error) {
        throw unrecordedRow(row, outcome, error);
      }
    },
    shouldStop,
  );

  const why =
    stoppedBecause === 'interrupted' ? 'not sent: the run was interrupted; run the same file again to send it' : `not sent: ${stoppedBecause ?? 'stopped'}`;
  rows.setResultOfAll('to-send', { status: 'not-sent', message: why, apiStatus: undefined, chargeKobo: undefined, earlier: false });
  return { stoppedBecause, authFailed, storeFailure };
}

/**
 * A sent row whose result the run could not write down (its workspace, in the temporary dir, refused the
 * write): the run stops, saying the row was sent. Exit 5: the run cannot report its rows; the journal has
 * them, and the same file run again looks each one up and sends none twice.
 */
function unrecordedRow(row: VerifiedRow, outcome: TransferOutcome, error: unknown): FsapiError {
  const cause = withoutNothingDone(error instanceof Error ? error.message : String(error));
  const what = outcome.kind === 'rejected' ? 'refused by the API' : outcome.kind === 'unknown' ? 'sent, outcome unknown' : `sent (${outcome.status})`;
  return new FsapiError(
    `line ${row.line} (${row.reference}) was ${what}, but the run could not write its result down (${cause}); the run stopped, and its report is not complete`,
    {
      exitCode: ExitCode.outcomeUnknown,
      hint: 'fsapi transfer log shows what the journal has; run the same file again once there is space: rows already sent are looked up, never sent twice',
      cause: error,
    },
  );
}

/** The columns of a report row that come from the verified row itself, whatever happened to it. */
function rowColumns(row: VerifiedRow) {
  return {
    line: row.line,
    accountNumber: row.accountNumber,
    bankName: row.bank.institutionName,
    bankCode: row.bank.institutionCode,
    amountKobo: row.amountKobo,
    verifiedName: row.accountName,
    reference: row.reference,
    earlier: false,
  };
}

function resultOf(row: VerifiedRow, outcome: TransferOutcome): RowResult {
  const base = rowColumns(row);
  switch (outcome.kind) {
    case 'accepted':
      return {
        ...base,
        status: outcomeOfStatus(outcome.status),
        apiStatus: outcome.status,
        chargeKobo: chargeOf(outcome.result.charge),
        message: outcomeWords(outcomeOfStatus(outcome.status), reasonInRecord(outcome.result), outcome.message),
      };
    case 'reconciled':
      return {
        ...base,
        status: outcomeOfStatus(outcome.status),
        apiStatus: outcome.status,
        chargeKobo: chargeOf(outcome.transaction.charge),
        message: `${outcome.lostBecause}; the lookup by reference found it (${outcome.status}); not sent again`,
      };
    case 'rejected':
      return {
        ...base,
        status: 'refused',
        apiStatus: undefined,
        chargeKobo: undefined,
        message: `${outcome.httpStatus ? `HTTP ${outcome.httpStatus}: ` : ''}${outcome.message}`,
      };
    case 'unknown':
      return {
        ...base,
        status: 'unknown',
        apiStatus: undefined,
        chargeKobo: undefined,
        message: `${outcome.detail}; do not resend: fsapi transfer status ${outcome.reference}, or run the same file again later`,
      };
  }
}

/** A row that was verified but not sent (dry run, interrupted run, or held back), with the reason. */
export function notSent(row: VerifiedRow, message: string): RowResult {
  return {
    ...rowColumns(row),
    status: 'not-sent',
    message,
    apiStatus: undefined,
    chargeKobo: undefined,
  };
}

// ---- one run of a file at a time -------------------------------------------------------------------------

/**
 * Two runs of the same file at once would each see the other's intents without outcomes. A lock per file
 * content (`<dataDir>/batches/<hash>.held`) keeps the second one out, refused at once. It is a courtesy,
 * not the guarantee: each row's claim in the journal would refuse the second run's row anyway. The lock
 * is held by the process for as long as it runs (src/store/process-lock.ts): a run that was killed frees
 * the file at once, and one that is stopped (Ctrl+Z) keeps it, however long it is stopped. `lost` never
 * settles: nothing can take the lock from a live holder.
 */
export async function lockBatch(ctx: Context, file: BatchFile): Promise<{ release(): Promise<void>; lost: Promise<Error> }> {
  const lockFile = path.join(ctx.paths.dataDir, 'batches', `${file.contentHash.toString('hex').slice(0, 32)}.held`);
  const lock = holdProcessLock(lockFile);
  if (!lock) {
    throw new FsapiError(`${file.name} is being paid by another fsapi run; nothing was sent`, {
      exitCode: ExitCode.failed,
      hint: 'let it finish, then run the same command again to see every row',
    });
  }
  return { release: async () => lock.release(), lost: new Promise<Error>(() => undefined) };
}

// ---- bounded concurrency -------------------------------------------------------------------------------------

/**
 * Runs `work` over the items with at most `concurrency` at once, in order of start. Items are taken one at a
 * time as workers free up, so a generator reading pages from the workspace is read no faster than the work
 * goes. Stops starting new items when `shouldStop` says so or when one throws; waits for those in flight,
 * then rethrows.
 */
export async function forEachBounded<T>(
  items: Iterable<T>,
  concurrency: number,
  work: (item: T) => Promise<void>,
  shouldStop: () => boolean = () => false,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let exhausted = false;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!exhausted && failure === undefined && !shouldStop()) {
      const next = iterator.next();
      if (next.done) {
        exhausted = true;
        return;
      }
      try {
        await work(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  iterator.return?.();
  if (failure) throw failure.error;
}
