// Reading the transaction history (GET /v1/transactions): which pages to fetch, which rows to keep, and
// what a row means for a person (counterparty) or a spreadsheet (export row). No terminal in here.
//
// The API shows no server-side filters (docs/api-spec.md 4.12), so --type, --status, --since and
// --until are applied here, to each page as it arrives. The list is newest first, so with --all paging
// stops after the first page whose every row is older than --since: nothing after it can match.
import type { Context } from '../context.js';
import type { TransactionRecord } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { inRange, type DateRange } from './dates.js';
import { koboToDecimal, parseApiAmount } from '../money/kobo.js';
import { fetchPages } from '../api/paging.js';
import { epochToDate } from '../common/time.js';
import { shownText } from '../common/shown.js';

/** The most rows one page may ask for. The simulator caps `limit` at 100; we refuse more (exit 2). */
export const MAX_PAGE_LIMIT = 100;
/** Rows on one page when --limit is not given (the simulator's default too). */
export const DEFAULT_PAGE_LIMIT = 20;
/** Rows per request with --all and no --limit: the largest page, so the fewest round trips. */
export const ALL_PAGES_LIMIT = 100;

export interface TransactionFilter {
  type?: string;
  status?: string;
  range: DateRange;
}

export interface TransactionListing {
  /** First page to fetch (from 1). */
  page: number;
  /** Rows per page to ask for (--limit); undefined: DEFAULT_PAGE_LIMIT, or ALL_PAGES_LIMIT with --all. */
  limit: number | undefined;
  all: boolean;
  filter: TransactionFilter;
}

export interface TransactionPage {
  page: number;
  /** Rows of this page that pass the filter. */
  rows: TransactionRecord[];
  /** Rows the API sent on this page, before filtering. */
  received: number;
}

export function hasFilter(filter: TransactionFilter): boolean {
  return filter.type !== undefined || filter.status !== undefined || filter.range.sinceMs !== undefined || filter.range.untilMs !== undefined;
}

/** When the transaction happened, epoch ms: createdAt, which the list is ordered by. */
export function transactionTimeMs(tx: TransactionRecord): number {
  // NaN when the API sent no readable time: such a row matches no date range.
  return epochToDate(tx.createdAt)?.getTime() ?? Number.NaN;
}

export function matchesFilter(tx: TransactionRecord, filter: TransactionFilter): boolean {
  if (filter.type !== undefined && tx.type.toLowerCase() !== filter.type.toLowerCase()) return false;
  if (filter.status !== undefined && tx.status.toLowerCase() !== filter.status.toLowerCase()) return false;
  return inRange(transactionTimeMs(tx), filter.range);
}

/**
 * The pages of the listing, filtered, one at a time. Without `all`: exactly one request. With `all`: every
 * page until a short or empty one, or until a whole page is older than --since.
 */
export async function* transactionPages(ctx: Context, listing: TransactionListing): AsyncGenerator<TransactionPage, void, undefined> {
  const api = await ctx.api();
  if (!listing.all) {
    const rows = await api.listTransactions({ page: listing.page, limit: listing.limit ?? DEFAULT_PAGE_LIMIT });
    yield { page: listing.page, rows: rows.filter((tx) => matchesFilter(tx, listing.filter)), received: rows.length };
    return;
  }
  const sinceMs = listing.filter.range.sinceMs;
  const pages = fetchPages<TransactionRecord>({
    firstPage: listing.page,
    limit: listing.limit ?? ALL_PAGES_LIMIT,
    fetchPage: (page, limit) => api.listTransactions({ page, limit }),
    wantsMore: (rows) => sinceMs === undefined || !rows.every((tx) => transactionTimeMs(tx) < sinceMs),
    key: (tx) => tx.reference,
  });
  for await (const { page, rows, received } of pages) {
    yield { page, rows: rows.filter((tx) => matchesFilter(tx, listing.filter)), received };
  }
}

export interface Counterparty {
  name: string;
  accountNumber: string;
  bank: string;
}

/** The other side of a transaction: where a debit went, where a credit came from. */
export function counterparty(tx: TransactionRecord): Counterparty {
  const debit = tx.type.toLowerCase() === 'debit';
  return debit
    ? { name: shownText(tx.destinationAccountName), accountNumber: shownText(tx.destinationAccountNumber), bank: shownText(tx.destinationBankName) }
    : { name: shownText(tx.sourceAccountName), accountNumber: shownText(tx.sourceAccountNumber), bank: shownText(tx.sourceBankName) };
}

/** "Ada Obi, Access Bank"; falls back to the account number when the API left the name empty. */
export function counterpartyLabel(tx: TransactionRecord): string {
  const party = counterparty(tx);
  const who = party.name.trim() || party.accountNumber.trim();
  return [who, party.bank.trim()].filter((part) => part !== '').join(', ');
}

/** Columns of the CSV export, in order: what a spreadsheet needs to reconcile, amounts exact. */
export const EXPORT_COLUMNS = [
  'date',
  'reference',
  'type',
  'amount',
  'charge',
  'counterparty_name',
  'counterparty_account_number',
  'counterparty_bank_name',
  'status',
  'description',
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string>;

/** The export's identifiers of digits, kept as text in a CSV (csvTextCell): the leading zero stays. */
export const EXPORT_IDENTIFIERS = ['counterparty_account_number'] as const;

/** One transaction as a CSV row: ISO 8601 UTC time, amounts as two-decimal text (never via floats). */
export function toExportRow(tx: TransactionRecord): ExportRow {
  const party = counterparty(tx);
  return {
    date: epochToDate(tx.createdAt)?.toISOString() ?? shownText(tx.createdAt),
    reference: tx.reference,
    type: tx.type,
    amount: koboToDecimal(parseApiAmount(tx.amount)),
    charge: exportAmount(tx.charge),
    counterparty_name: party.name,
    counterparty_account_number: party.accountNumber,
    counterparty_bank_name: party.bank,
    status: tx.status,
    description: shownText(tx.description),
  };
}

/** A shown amount for the CSV: two-decimal text, blank when absent, as given when unreadable. */
function exportAmount(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  try {
    return koboToDecimal(parseApiAmount(value));
  } catch {
    return String(value);
  }
}

/**
 * A reference or transaction id typed by a user, before it goes into a URL: not empty, no spaces or
 * control characters (a pasted line break would otherwise reach the API), of a sane length.
 */
export function parseReferenceArgument(text: string | undefined, what: string): string {
  const value = (text ?? '').trim();
  if (value === '') throw new UsageError(`${what} is empty`);
  if (/[\s\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`${what} ${JSON.stringify(value)} contains spaces or control characters`);
  if (value.length > 128) throw new UsageError(`${what} is longer than 128 characters`);
  return value;
}
