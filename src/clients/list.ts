// Reading the client (virtual) accounts: GET /v1/account/clients, one page or all of them. Unlike the
// transaction list, this endpoint takes its filters as query parameters (docs/api-spec.md 4.4), so
// they are sent to the API as given and nothing is filtered here.
import type { Context } from '../context.js';
import type { ClientListItem } from '../api/schemas.js';
import type { ClientListQuery } from '../api/types.js';
import { fetchPages } from '../api/paging.js';
import { shownText } from '../common/shown.js';

/** Same bound as transactions: the simulator caps `limit` at 100 and we refuse more (exit 2). */
export const MAX_CLIENT_PAGE_LIMIT = 100;
export const DEFAULT_CLIENT_PAGE_LIMIT = 20;
export const ALL_CLIENT_PAGES_LIMIT = 100;

export interface ClientListing {
  filters: Pick<ClientListQuery, 'accountType' | 'validityType' | 'status'>;
  page: number;
  /** --limit; undefined: DEFAULT_CLIENT_PAGE_LIMIT, or ALL_CLIENT_PAGES_LIMIT with --all. */
  limit: number | undefined;
  all: boolean;
}

export interface ClientPage {
  page: number;
  rows: ClientListItem[];
  received: number;
}

export async function* clientPages(ctx: Context, listing: ClientListing): AsyncGenerator<ClientPage, void, undefined> {
  const api = await ctx.api();
  if (!listing.all) {
    const rows = await api.listClients({ ...listing.filters, page: listing.page, limit: listing.limit ?? DEFAULT_CLIENT_PAGE_LIMIT });
    yield { page: listing.page, rows, received: rows.length };
    return;
  }
  const pages = fetchPages<ClientListItem>({
    firstPage: listing.page,
    limit: listing.limit ?? ALL_CLIENT_PAGES_LIMIT,
    fetchPage: (page, limit) => api.listClients({ ...listing.filters, page, limit }),
    key: (client) => shownText(client.accountNumber),
  });
  yield* pages;
}

/** The name a person recognises: the account name, else first and last name as the list spells them. */
export function clientName(client: ClientListItem): string {
  const name = shownText(client.accountName).trim();
  if (name !== '') return name;
  return [client.firstName, client.lastName].filter((part): part is string => typeof part === 'string' && part !== '').join(' ');
}
