// What a transfer's status means, and what became of a transfer that did not succeed.
//
// The spec shows only `pending` and `successful`; public integrations of the API also see `failed` and
// `reversed`, and statuses in other cases (`SUCCESSFUL` in the requery). So statuses are compared without
// case, `pending` (and the few words that mean "still being processed") is the only state worth waiting
// on, and every other status is final: `successful` is the one final status that is a success.
//
// Public integrations book a reversal as a separate credit under the reference `R-<reference>`; when a
// transfer ended failed or reversed, `findReversal` looks that reference up so the user sees whether the
// money came back.
import type { Context } from '../context.js';
import type { TransactionRecord } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { lookUpOnce } from './lookup.js';
import type { Attempts, ClaimView, Journal, TransferQuery, TransferState } from './journal.js';

export type StatusKind = 'successful' | 'pending' | 'final';

/** Words that mean "not decided yet": waiting can change them. Compared in lower case. */
const STILL_PROCESSING: ReadonlySet<string> = new Set(['pending', 'processing', 'in progress', 'in_progress', 'initiated', 'queued']);
const SUCCESSFUL: ReadonlySet<string> = new Set(['successful', 'success', 'completed']);

/** successful, pending (still processing) or final (failed, reversed, or any other status), ignoring case. */
export function statusKind(status: string | null | undefined): StatusKind {
  const word = String(status ?? '')
    .trim()
    .toLowerCase();
  if (SUCCESSFUL.has(word)) return 'successful';
  // No status at all is not an outcome: keep asking.
  if (word === '' || STILL_PROCESSING.has(word)) return 'pending';
  return 'final';
}

// ---- the outcome vocabulary ------------------------------------------------------------------------------

/**
 * What a transfer is, in the words every command shows (docs/cli-contract.md, "Outcomes"). "Accepted"
 * is how the API answered a POST, not an outcome: an accepted transfer is pending, successful, failed or
 * reversed, as its status says.
 */
export type Outcome = 'in flight' | 'pending' | 'successful' | 'failed' | 'reversed' | 'refused' | 'unknown';

const REVERSED: ReadonlySet<string> = new Set(['reversed', 'reversal', 'refunded']);

/** What each outcome means for the money, in a few words: shown beside the word, before anything the API said. */
const MEANINGS: Record<Outcome, string> = {
  'in flight': 'being sent right now',
  pending: 'taken by the API, not settled yet',
  successful: 'paid',
  failed: 'the payee was not paid',
  reversed: 'the money came back; the payee was not paid',
  refused: 'the API refused it; no money moved',
  unknown: 'sent; the outcome could not be learnt',
};

export function outcomeMeaning(outcome: Outcome): string {
  return MEANINGS[outcome];
}

/** The outcome an API status means: successful, pending, reversed, else failed (any other final word). */
export function outcomeOfStatus(status: string | null | undefined): 'pending' | 'successful' | 'failed' | 'reversed' {
  const kind = statusKind(status);
  if (kind !== 'final') return kind;
  return REVERSED.has(
    String(status ?? '')
      .trim()
      .toLowerCase(),
  )
    ? 'reversed'
    : 'failed';
}

/**
 * The outcome of a journalled transfer: refused, unknown (no known answer), or what its last seen status
 * says. `inFlight`: its intent has no answer yet and the process that wrote it is still running.
 */
export function outcomeOfJournalled(t: { state: string; status: string | undefined }, inFlight = false): Outcome {
  if (t.state === 'rejected') return 'refused';
  if (t.state === 'unknown') return inFlight ? 'in flight' : 'unknown';
  // Accepted or found by lookup: a transfer the API took with no status seen is pending until one is.
  return outcomeOfStatus(t.status ?? 'pending');
}

/**
 * The words beside the outcomes for a transfer that has none because it never left: `held` (waiting for a
 * person's approval) and `not-sent` (stopped or refused before sending, or its request rejected). The batch
 * report and the approvals commands write them so, in their OUTCOME and status columns.
 */
export type NeverSent = 'held' | 'not-sent';
export const NOT_SENT = 'not-sent' satisfies NeverSent;

/** What deciding "in flight" reads: the journal and the claim's view of it (src/transfers/claim.ts) both have it. */
type InFlightView = Pick<ClaimView, 'attempts' | 'inFlight'>;

/** Whether the run that wrote a reference's last intent, still unanswered, is live: its POST may be on its way. */
async function writerStillSending(journal: InFlightView, t: TransferState): Promise<{ running: boolean; attempts: Attempts | undefined }> {
  const attempts = await journal.attempts(t);
  const running = t.state === 'unknown' && attempts !== undefined && !attempts.answered && (await journal.inFlight(attempts));
  return { running, attempts };
}

/**
 * The outcome of a journalled transfer as the journal says now, `in flight` while its writer runs: the one
 * function every message, warning and table asks (docs/cli-contract.md, "Outcomes").
 */
export async function outcomeNow(journal: InFlightView, t: TransferState): Promise<Outcome> {
  return outcomeOfJournalled(t, (await writerStillSending(journal, t)).running);
}

/** A journalled transfer with its outcome as of the read that found it. */
export type TransferWithOutcome = TransferState & { outcome: Outcome };

/** Transfers of the journal (the duplicate guard's finds, say) with their outcomes. */
export async function withOutcomeNow(journal: InFlightView, states: readonly TransferState[]): Promise<TransferWithOutcome[]> {
  const found: TransferWithOutcome[] = [];
  for (const t of states) found.push({ ...t, outcome: await outcomeNow(journal, t) });
  return found;
}

/** The outcome of one reference as the journal last saw it (by its index); undefined when it was never sent. */
export function outcomeOfReference(journal: Journal, scope: { profile: string; baseUrl: string; reference: string }): Promise<Outcome | undefined> {
  return journal.snapshot(async (view) => {
    const state = await view.stateOf(scope);
    return state === undefined ? undefined : outcomeNow(view, state);
  });
}

/** A journalled transfer with its outcome, and whether the process that wrote its last intent still sends it. */
export type JournalledTransfer = TransferState & {
  outcome: Outcome;
  /** An intent without an answer whose process still runs: the POST may be on its way right now. */
  writerRunning: boolean;
  /** The pid of the last intent's writer, when recorded. */
  writerPid: number | undefined;
  /** When the last intent was written (a resend after a refusal is a new one). */
  lastIntentAt: string;
};

/**
 * Every journalled transfer with its outcome, oldest intent first: the one place that turns the journal's
 * records into what `transfer log` and `reconcile` show.
 */
export async function journalledTransfers(journal: Journal, query: TransferQuery = {}): Promise<{ transfers: JournalledTransfer[]; warnings: string[] }> {
  const { transfers: states, warnings } = await journal.transfers(query);
  return { transfers: await withOutcomes(journal, states), warnings };
}

/** Journalled states (a page of them: src/transfers/journal.ts, transferPages) with their outcomes. */
export function withOutcomes(journal: Journal, states: readonly TransferState[]): Promise<JournalledTransfer[]> {
  // One read for the page rather than one per transfer.
  return journal.snapshot(async (view) => {
    const found: JournalledTransfer[] = [];
    for (const t of states) {
      // By index, one reference at a time: the attempts say whether a writer still runs and when it last tried.
      const { running: writerRunning, attempts } = await writerStillSending(view, t);
      found.push({
        ...t,
        outcome: outcomeOfJournalled(t, writerRunning),
        writerRunning,
        writerPid: attempts?.lastPid,
        lastIntentAt: attempts?.lastIntentAt ?? t.sentAt,
      });
    }
    return found;
  });
}

/** Outcomes that mean the money did not reach the payee: a run that has any exits 1. */
export const isUnsuccessfulOutcome = (outcome: string): boolean => outcome === 'failed' || outcome === 'reversed' || outcome === 'refused';

// ---- --wait-timeout ------------------------------------------------------------------------------------

export const DEFAULT_WAIT_TIMEOUT_SECONDS = 300;
export const MAX_WAIT_TIMEOUT_SECONDS = 86_400;

/** --wait-timeout <seconds>: whole seconds from 1 to a day; default 300. Returns milliseconds. */
export function parseWaitTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_WAIT_TIMEOUT_SECONDS * 1000;
  const text = String(value).trim();
  const seconds = /^[0-9]{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(seconds >= 1 && seconds <= MAX_WAIT_TIMEOUT_SECONDS)) {
    throw new UsageError(`--wait-timeout must be a whole number of seconds from 1 to ${MAX_WAIT_TIMEOUT_SECONDS}, not ${JSON.stringify(text)}`);
  }
  return seconds * 1000;
}

/** "5 minutes", "90 s": how long a wait lasted, for messages. */
export function describeWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} s`;
}

// ---- reversals -------------------------------------------------------------------------------------------

/** Public integrations book a reversal as a separate credit under `R-<reference>`. */
export const REVERSAL_PREFIX = 'R-';
export const reversalReference = (reference: string) => `${REVERSAL_PREFIX}${reference}`;

export type ReversalLookup =
  | { state: 'found'; reference: string; transaction: TransactionRecord }
  | { state: 'none'; reference: string }
  /** The lookup itself failed (network, 5xx, refused token): nothing is known either way. */
  | { state: 'unknown'; reference: string; detail: string };

/** Looks up the reversal credit `R-<reference>` of a failed or reversed transfer (one GET). */
export async function findReversal(ctx: Context, reference: string): Promise<ReversalLookup> {
  const reversal = reversalReference(reference);
  const lookup = await lookUpOnce(ctx, { reference: reversal });
  if (lookup.kind === 'found') return { state: 'found', reference: reversal, transaction: lookup.transaction };
  if (lookup.kind === 'absent') return { state: 'none', reference: reversal };
  return { state: 'unknown', reference: reversal, detail: lookup.detail };
}
