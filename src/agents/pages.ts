// tx_list and clients_list: one page of the API's a call. The commands' --all collects every page (a
// history of thousands, or an API that keeps offering pages, would be one huge result); a tool answers one
// page, its rows as `items`, and `nextPage`: the page to ask for next, or null when this one was the last
// (the API gives no totals: a page shorter than the limit is the last). A filter (type, status, dates)
// applies to the rows of the page read: `received` says how many the API gave, so a page with no match
// is no end.
import type { Context } from '../context.js';
import type { CommandModule } from '../commands/types.js';
import { DEFAULT_PAGE_LIMIT, transactionPages, type TransactionListing } from '../books/transactions.js';
import { DEFAULT_CLIENT_PAGE_LIMIT, clientPages, type ClientListing } from '../clients/list.js';

interface OnePage {
  page: number;
  rows: unknown[];
  received: number;
}

async function firstOf(pages: AsyncGenerator<OnePage, void, undefined>): Promise<OnePage | undefined> {
  try {
    return (await pages.next()).value ?? undefined;
  } finally {
    await pages.return(undefined);
  }
}

function printPage(ctx: Context, first: number, limit: number, page: OnePage | undefined): void {
  const received = page?.received ?? 0;
  const answer = { items: page?.rows ?? [], page: first, limit, received, nextPage: received >= limit ? first + 1 : null };
  ctx.io.out(`${JSON.stringify(answer, null, 2)}\n`);
}

/** tx_list: the command's own options (src/commands/tx/list.ts parseListing), one page. */
export async function transactionsPage(ctx: Context, module: CommandModule, options: Record<string, unknown>): Promise<void> {
  const listing = await (module as unknown as { parseListing(ctx: Context, options: Record<string, unknown>): Promise<TransactionListing> }).parseListing(
    ctx,
    options,
  );
  const page = await firstOf(transactionPages(ctx, { ...listing, all: false }));
  printPage(ctx, listing.page, listing.limit ?? DEFAULT_PAGE_LIMIT, page);
}

/** clients_list: the same for the client accounts (src/commands/clients/list.ts parseListing). */
export async function clientsPage(ctx: Context, module: CommandModule, options: Record<string, unknown>): Promise<void> {
  const listing = (module as unknown as { parseListing(options: Record<string, unknown>): ClientListing }).parseListing(options);
  const page = await firstOf(clientPages(ctx, { ...listing, all: false }));
  printPage(ctx, listing.page, listing.limit ?? DEFAULT_CLIENT_PAGE_LIMIT, page);
}
