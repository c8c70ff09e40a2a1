// Page-by-page reading of a list endpoint that takes `page` (from 1) and `limit` and answers a bare array
// with no totals (docs/api-spec.md 4.4, 4.12). The only end-of-list signal is a page shorter than the
// limit asked for, or an empty one.
//
// Memory stays flat: the generator holds the page it has handed out and, at most, the next one, which it
// starts fetching before handing out the current page so the network and the writing overlap.
import { ApiError } from '../errors.js';

export interface Page<Row> {
  /** Page number as sent to the API. */
  page: number;
  /** The page's rows, less any already handed out with the previous page (see `key`). */
  rows: Row[];
  /** Rows the API sent for this page, repeated ones included. */
  received: number;
}

export interface PagingOptions<Row> {
  firstPage: number;
  limit: number;
  fetchPage(page: number, limit: number): Promise<Row[]>;
  /** Asked after each full page: false stops there (e.g. the page is older than --since). */
  wantsMore?(rows: readonly Row[]): boolean;
  /**
   * Identity of a row. With it, rows that were already on the previous page are dropped: when new rows
   * arrive at the top of a newest-first list during the listing, every later page shifts down and would
   * repeat the last rows of the page before. And a full page made only of repeated rows means the API
   * ignores `page`: that is an error rather than an endless listing.
   */
  key?(row: Row): string;
  /** Hard bound on the number of requests: a loop that talks to a server must end. */
  maxPages?: number;
}

/** 100,000 pages of 100 rows is ten million rows: far beyond any account, still an end. */
export const DEFAULT_MAX_PAGES = 100_000;

export async function* fetchPages<Row>(options: PagingOptions<Row>): AsyncGenerator<Page<Row>, void, undefined> {
  const { limit, fetchPage } = options;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const start = (page: number) => {
    const request = fetchPage(page, limit);
    // If the consumer stops early, the request already in flight must not become an unhandled rejection;
    // when the consumer does reach it, awaiting `request` still throws as usual.
    request.catch(() => {});
    return request;
  };

  let pageNumber = options.firstPage;
  let next = start(pageNumber);
  let previousKeys = new Set<string>();
  for (let fetched = 1; fetched <= maxPages; fetched += 1) {
    const rows = await next;
    let fresh = rows;
    if (options.key) {
      const keys = rows.map((row) => options.key!(row));
      if (rows.length > 0 && keys.every((key) => previousKeys.has(key))) {
        throw new ApiError(`the API sent the same rows for page ${pageNumber} as for page ${pageNumber - 1}; stopped to avoid an endless listing`);
      }
      fresh = rows.filter((_, i) => !previousKeys.has(keys[i]!));
      previousKeys = new Set(keys);
    }
    // `>=`: an API that sends more than asked has not signalled the end either.
    const more = rows.length >= limit && limit > 0 && (options.wantsMore?.(rows) ?? true);
    if (more && fetched < maxPages) next = start(pageNumber + 1);
    yield { page: pageNumber, rows: fresh, received: rows.length };
    if (!more) return;
    if (fetched === maxPages) break;
    pageNumber += 1;
  }
  throw new ApiError(`stopped after ${maxPages.toLocaleString('en-US')} pages without reaching the end of the list`);
}
