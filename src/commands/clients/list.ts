import { run } from '../run.js';
import { listSpec } from './list.spec.js';
import type { OptionsOf } from '../spec.js';
import type { ClientListItem } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_CLIENT_PAGE_LIMIT, clientName, clientPages, type ClientListing } from '../../clients/list.js';
import { createRowStream, outputMode, printJson, printList, timeCell, timeColumn, type Column } from '../../ui/output.js';
import { shownTimeZone } from '../../controls/business-clock.js';
import { streamPages } from '../../ui/stream.js';
import { createCsvSink, printCsv, refuseCsvWithJson } from '../../ui/csv.js';

/** The columns, CREATED on the business's clock `timeZone`. */
const columnsFor = (timeZone: string, nowMs: number): Column<ClientListItem>[] => [
  { header: 'NUMBER', csv: 'account_number', identifier: true, cell: (client) => client.accountNumber },
  { header: 'NAME', csv: 'account_name', cell: clientName, flex: true, minWidth: 16 },
  { header: 'TYPE', csv: 'account_type', cell: (client) => client.accountType, priority: 2 },
  { header: 'TIER', csv: 'account_tier', cell: (client) => (client.accountTier === null ? '' : String(client.accountTier)), align: 'right', priority: 5 },
  { header: 'EMAIL', csv: 'email_address', cell: (client) => client.emailAddress, priority: 4, flex: true, minWidth: 16 },
  { header: 'PHONE', csv: 'mobile_number', identifier: true, cell: (client) => client.mobileNumber, priority: 3 },
  // The list sends seconds where other endpoints send milliseconds; timeCell reads both.
  timeColumn('CREATED', timeZone, nowMs, (client) => timeCell(client.createdAt, timeZone), { csv: 'created_at', priority: 1 }),
];

/** Every page (--all) can be many rows: see CommandModule.longRunning. */
export const longRunning = (options: { all?: boolean }) => options.all === true;

export default run(listSpec, async (ctx, opts, _args) => {
  const csv = opts.csv;
  refuseCsvWithJson(ctx, csv);
  const listing = parseListing(opts);
  const columns = columnsFor(await shownTimeZone(ctx), ctx.clock.now());
  const pages = clientPages(ctx, listing);

  if (!listing.all) {
    const { value: page } = await pages.next();
    const rows = page?.rows ?? [];
    if (csv) await printCsv(ctx, columns, rows);
    else if (outputMode(ctx) === 'json') printJson(ctx, rows);
    else printList(ctx, columns, rows);
    if (page && ctx.io.stderrIsTTY && page.received >= (listing.limit ?? DEFAULT_CLIENT_PAGE_LIMIT)) {
      ctx.io.note(`more on --page ${listing.page + 1}, or use --all`);
    }
    return;
  }
  const sink = csv ? await createCsvSink(ctx, columns) : createRowStream(ctx, columns);
  await streamPages(ctx, pages, sink, { noun: 'client accounts', progress: true });
});

/** The options as a listing (the MCP tool reads one page with it: src/agents/pages.ts). */
export function parseListing(options: OptionsOf<typeof listSpec>): ClientListing {
  const page = options.page ?? 1;
  const limit = options.limit;
  return {
    filters: {
      accountType: optionalText(options.type, '--type'),
      validityType: optionalText(options.validityType, '--validity-type'),
      status: optionalText(options.status, '--status'),
    },
    page,
    limit,
    all: options.all,
  };
}

function optionalText(value: unknown, option: string): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (text === '') throw new UsageError(`${option} is empty`);
  return text;
}
