// fsapi collections: which client (virtual) accounts were paid, how often and how much. The API has no
// per-account transaction endpoint (docs/api-spec.md 4.13), so inflows are grouped here as the
// transaction list streams past: one running group per receiving account, never the rows.
//
// An inflow is a credit that moved money and is not a reversal credit (`R-<reference>`, our own money
// coming back). Its receiving account is `details.virtualAccount` when the API gives it (it may be a
// number), else `destinationAccountNumber`. Names come from the client list, read once per run.
import type { Context } from '../context.js';
import type { ClientListItem, TransactionRecord } from '../api/schemas.js';
import { clientName } from '../clients/list.js';
import { directionOf, koboOf, movedMoney } from './ledger.js';
import { addKobo, koboToDecimal, NO_KOBO, subtractKobo, type Kobo } from '../money/kobo.js';
import { fetchPages } from '../api/paging.js';
import { transactionTimeMs } from './transactions.js';

/** Whether the row is money received from a payer (see the header). */
export function isInflow(tx: TransactionRecord): boolean {
  return directionOf(tx) === 'credit' && movedMoney(tx); // movedMoney leaves reversal credits out too
}

/** The account that received an inflow. */
export function receivingAccount(tx: TransactionRecord): string {
  const virtualAccount = tx.details?.virtualAccount;
  if (typeof virtualAccount === 'string' && virtualAccount.trim() !== '') return virtualAccount.trim();
  if (typeof virtualAccount === 'number' && Number.isSafeInteger(virtualAccount)) return String(virtualAccount).padStart(10, '0');
  return String(tx.destinationAccountNumber ?? '').trim();
}

export interface AccountCollections {
  accountNumber: string;
  accountName: string;
  count: number;
  totalKobo: Kobo;
  /** Epoch ms of the first and the last inflow in the period. */
  firstMs: number;
  lastMs: number;
}

/** Names of the client accounts, by account number: every page of GET /v1/account/clients, once. */
export async function clientNames(ctx: Context): Promise<Map<string, string>> {
  const api = await ctx.api();
  const names = new Map<string, string>();
  const pages = fetchPages<ClientListItem>({
    firstPage: 1,
    limit: 100,
    fetchPage: (page, limit) => api.listClients({ page, limit }),
    key: (client) => String(client.accountNumber ?? ''),
  });
  for await (const { rows } of pages) for (const client of rows) names.set(String(client.accountNumber ?? ''), clientName(client));
  return names;
}

/** Groups inflows by receiving account as rows arrive. */
export function createCollectionsTally() {
  const groups = new Map<string, AccountCollections>();
  return {
    add(rows: readonly TransactionRecord[]): void {
      for (const tx of rows) {
        if (!isInflow(tx)) continue;
        const accountNumber = receivingAccount(tx);
        const at = transactionTimeMs(tx);
        let group = groups.get(accountNumber);
        if (!group) {
          group = { accountNumber, accountName: String(tx.destinationAccountName ?? '').trim(), count: 0, totalKobo: NO_KOBO, firstMs: at, lastMs: at };
          groups.set(accountNumber, group);
        }
        group.count += 1;
        group.totalKobo = addKobo(group.totalKobo, koboOf(tx.amount));
        if (at < group.firstMs) group.firstMs = at;
        if (at > group.lastMs) group.lastMs = at;
      }
    },
    /** The groups, largest total first, named from `names` where the client list knows the account. */
    result(names: ReadonlyMap<string, string>): AccountCollections[] {
      const list = [...groups.values()].map((group) => ({ ...group, accountName: names.get(group.accountNumber) ?? group.accountName }));
      for (const group of list) if (!Number.isSafeInteger(group.totalKobo)) throw new RangeError('collections total is too large to hold exactly');
      return list.sort((a, b) => b.totalKobo - a.totalKobo || a.accountNumber.localeCompare(b.accountNumber));
    },
  };
}

/** `--json`: the shape, totals as two-decimal text, times as ISO 8601 (UTC). */
export function collectionsJson(group: AccountCollections) {
  return {
    accountNumber: group.accountNumber,
    accountName: group.accountName,
    count: group.count,
    total: koboToDecimal(group.totalKobo),
    first: new Date(group.firstMs).toISOString(),
    last: new Date(group.lastMs).toISOString(),
  };
}

export const COLLECTIONS_CSV_COLUMNS = [
  'account_number',
  'account_name',
  'collection_count',
  'total_amount',
  'first_collection_at',
  'last_collection_at',
] as const;

/** The identifiers of digits of the collections CSV, kept as text (csvTextCell). */
export const COLLECTIONS_CSV_IDENTIFIERS = ['account_number'] as const;

export function collectionsCsvRow(group: AccountCollections): Record<(typeof COLLECTIONS_CSV_COLUMNS)[number], string> {
  const json = collectionsJson(group);
  return {
    account_number: json.accountNumber,
    account_name: json.accountName,
    collection_count: String(json.count),
    total_amount: json.total,
    first_collection_at: json.first,
    last_collection_at: json.last,
  };
}

/** One account's inflows as CSV rows: what a spreadsheet needs to match payments to invoices. */
export const INFLOW_CSV_COLUMNS = [
  'date',
  'reference',
  'amount',
  'charge',
  'stamp_duty',
  'net',
  'payer_name',
  'payer_account_number',
  'payer_bank_name',
  'status',
  'description',
] as const;

/** The identifiers of digits of the inflows CSV, kept as text (csvTextCell). */
export const INFLOW_CSV_IDENTIFIERS = ['payer_account_number'] as const;

export function inflowCsvRow(tx: TransactionRecord): Record<(typeof INFLOW_CSV_COLUMNS)[number], string> {
  const amount = koboOf(tx.amount);
  const charge = koboOf(tx.charge);
  const stampDuty = koboOf(tx.stampDuty);
  return {
    date: new Date(transactionTimeMs(tx)).toISOString(),
    reference: tx.reference,
    amount: koboToDecimal(amount),
    charge: koboToDecimal(charge),
    stamp_duty: koboToDecimal(stampDuty),
    net: koboToDecimal(subtractKobo(amount, addKobo(charge, stampDuty))),
    payer_name: String(tx.sourceAccountName ?? ''),
    payer_account_number: String(tx.sourceAccountNumber ?? ''),
    payer_bank_name: String(tx.sourceBankName ?? ''),
    status: String(tx.status ?? ''),
    description: String(tx.description ?? ''),
  };
}
