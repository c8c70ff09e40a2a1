// Why a transfer failed or was reversed, in the API's own words where it gave any: never a reason fsapi
// makes up. Two places may hold them:
//   1. the transaction record itself: a field that names a reason (failureReason, reason, responseMessage,
//      statusMessage, statusDescription, message, in any case), at its top level or in its `details`.
//      The spec shows none; `description` is not one (the spec makes it the transfer's narration);
//   2. a payout notification `webhook listen` received for the reference and verified against the API's
//      record with a final status (failed or reversed): its `failureReason`, else its `message`
//      (docs/real-api-notes.md). The status was checked; the text itself cannot be (the record holds no
//      such field), so it is named as the notification's.
// When neither says anything, the reason is "none given", and fsapi says so.
import type { Context } from '../context.js';
import type { TransactionRecord } from '../api/schemas.js';
import { verifiedNotificationsOf } from './event-log.js';
import { readOutflowEvent } from './verify.js';
import { terminalText } from '../common/sanitize.js';
import { isRecord } from '../common/is-record.js';
import { outcomeMeaning, outcomeOfStatus } from '../transfers/outcome.js';

/** A reason the API gave, and where it was read. */
export interface FailureReason {
  text: string;
  /** "the record's failureReason", "the payout notification of 2026-05-01T09:12:03Z". */
  source: string;
}

/** Field names that carry a reason, compared in lower case, in order of preference. */
const REASON_FIELDS = ['failurereason', 'failuremessage', 'reason', 'responsemessage', 'responsedescription', 'statusmessage', 'statusdescription', 'message'];
/** A reason is a sentence, not a document: a longer text is cut here. */
const MAX_REASON_LENGTH = 200;

function reasonText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = terminalText(value).trim();
  if (text === '') return undefined;
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH - 1)}…` : text;
}

function reasonIn(object: Record<string, unknown>): { field: string; text: string } | undefined {
  const byName = new Map(Object.entries(object).map(([key, value]) => [key.toLowerCase(), { key, value }]));
  for (const name of REASON_FIELDS) {
    const entry = byName.get(name);
    const text = entry && reasonText(entry.value);
    if (entry && text) return { field: entry.key, text };
  }
  return undefined;
}

/** The reason a record (a transaction, or the answer to the POST) itself gives, if any. */
export function reasonInRecord(record: object): FailureReason | undefined {
  const top = reasonIn(record as Record<string, unknown>);
  if (top) return { text: top.text, source: `the record's ${top.field}` };
  const details = (record as { details?: unknown }).details;
  const inner = isRecord(details) ? reasonIn(details) : undefined;
  return inner ? { text: inner.text, source: `the record's details.${inner.field}` } : undefined;
}

/** The reason of the newest verified payout notification of `reference` that reported it failed or reversed. */
export async function reasonInNotifications(dataDir: string, reference: string): Promise<FailureReason | undefined> {
  for (const notification of await verifiedNotificationsOf(dataDir, reference)) {
    const outcome = notification.status === undefined ? undefined : outcomeOfStatus(notification.status);
    if (outcome !== 'failed' && outcome !== 'reversed') continue;
    let body: unknown;
    try {
      body = JSON.parse(notification.body);
    } catch {
      continue;
    }
    if (!isRecord(body)) continue;
    const read = readOutflowEvent('payout', body, typeof body.event === 'string' ? body.event : 'payout');
    if (!('kind' in read) || read.kind !== 'payout') continue;
    const text = reasonText(read.notification.failureReason) ?? reasonText(read.notification.message);
    if (text) return { text, source: `the payout notification of ${notification.receivedAt}` };
  }
  return undefined;
}

/**
 * Why a transfer whose record says failed or reversed did not pay: the record's reason, else a verified
 * notification's, else undefined (none given). Reading the event log is best effort: a store that cannot
 * be read gives no reason rather than no outcome.
 */
export async function reasonGiven(ctx: Pick<Context, 'paths'>, record: TransactionRecord): Promise<FailureReason | undefined> {
  const outcome = outcomeOfStatus(record.status);
  if (outcome !== 'failed' && outcome !== 'reversed') return undefined;
  const inRecord = reasonInRecord(record);
  if (inRecord) return inRecord;
  try {
    return await reasonInNotifications(ctx.paths.dataDir, String(record.reference ?? ''));
  } catch {
    return undefined;
  }
}

/** reasonGiven in words (describeReason), undefined when none was given: what the journal keeps (ReasonOf). */
export function reasonInWords(ctx: Pick<Context, 'paths'>): (record: TransactionRecord) => Promise<string | undefined> {
  return async (record) => {
    const given = await reasonGiven(ctx, record);
    return given ? describeReason(given) : undefined;
  };
}

/** A looked-up transfer in fsapi's words: its outcome and, failed or reversed, the reason the API gave. */
export interface RecordOutcome {
  outcome: 'pending' | 'successful' | 'failed' | 'reversed';
  /** Failed or reversed only; undefined when the API gave none. */
  reason: FailureReason | undefined;
}

export async function outcomeOfRecord(ctx: Pick<Context, 'paths'>, record: TransactionRecord): Promise<RecordOutcome> {
  return { outcome: outcomeOfStatus(record.status), reason: await reasonGiven(ctx, record) };
}

/** "Beneficiary bank not available (the payout notification of …)", or that the API gave none. */
export function describeReason(reason: FailureReason | undefined): string {
  return reason ? `${reason.text} (${reason.source})` : 'the API gave no reason';
}

/**
 * A transfer the API has, in one line: fsapi's outcome and what it means first; failed or reversed, the
 * reason the API gave (or that it gave none); then the API's own message, labelled as its own, so its
 * "Transfer successful" beside a pending transfer never reads as the payment's result.
 */
export function outcomeWords(outcome: RecordOutcome['outcome'], reason: FailureReason | undefined, apiMessage?: string): string {
  const why = outcome === 'failed' || outcome === 'reversed' ? `; ${reason ? `reason: ${describeReason(reason)}` : describeReason(undefined)}` : '';
  const said = apiMessage?.trim() ? `; the API said: ${apiMessage.trim()}` : '';
  return `${outcome}: ${outcomeMeaning(outcome)}${why}${said}`;
}
