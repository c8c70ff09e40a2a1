// Saved payees: an alias for an account at a bank, with the holder's name as the name enquiry gave it
// when the payee was added. Sending to a payee (`transfer send --to`, a `payee` column in a batch file)
// asks the name enquiry again and sends only if the name is still the saved one.
import type { Context } from '../context.js';
import { NotFoundError, UsageError } from '../errors.js';
import { ControlsStore, type ControlScope, type Payee } from '../store/controls.js';
import { resolveBank } from '../transfers/banks.js';
import { nowIso } from './policy.js';
import { operatorName } from '../transfers/asker.js';
import { transferScope, verifyAccountName } from '../transfers/transfer.js';
import { parseAccountNumber } from '../common/validate.js';
import { ownerWords } from '../auth/records-owner.js';

/** Aliases people type: a letter first, then letters, digits, dot, dash, underscore; at most 40. */
export const ALIAS_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{0,39}$/;

export function parseAlias(text: unknown, what = 'payee alias'): string {
  const alias = String(text ?? '').trim();
  if (!ALIAS_PATTERN.test(alias)) {
    throw new UsageError(
      `${what} ${JSON.stringify(alias)} is not allowed`,
      'use a letter first, then letters, digits, ".", "-" or "_" (at most 40), e.g. landlord or ada.obi',
    );
  }
  return alias;
}

/** The account payees and policy belong to: the profile and its base address, as the journal has it. */
export async function controlScope(ctx: Context): Promise<ControlScope & { env: string }> {
  const scope = await transferScope(ctx);
  return { profile: scope.profile, baseUrl: scope.baseUrl, env: scope.env };
}

/** Runs `work` with the store open, then closes it. */
export async function withStore<T>(ctx: Context, work: (store: ControlsStore) => Promise<T>): Promise<T> {
  const store = await ControlsStore.open(ctx.paths.dataDir);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

/** The saved payees of an account, without creating the database when there is none. */
export async function listPayees(ctx: Context, scope: ControlScope): Promise<Payee[]> {
  const store = await ControlsStore.openIfExists(ctx.paths.dataDir);
  if (!store) return [];
  try {
    return await store.payees(scope);
  } finally {
    store.close();
  }
}

/** The payee named `alias`, or not found (exit 1) naming the saved ones. */
export async function findPayee(ctx: Context, scope: ControlScope, alias: string): Promise<Payee> {
  const payees = await listPayees(ctx, scope);
  const found = payees.find((p) => p.alias.toLowerCase() === alias.toLowerCase());
  if (found) return found;
  throw new NotFoundError(
    `no saved payee named ${JSON.stringify(alias)} in ${ownerWords(scope)}`,
    payees.length > 0 ? `saved: ${payees.map((p) => p.alias).join(', ')}` : 'save one first: fsapi payees add <alias> <accountNumber> --bank <bank>',
  );
}

/** A payee ready to save: its bank resolved and its holder's name verified by name enquiry. */
export async function verifyPayee(ctx: Context, alias: string, accountNumberText: string, bankQuery: string, expectName: string | undefined): Promise<Payee> {
  const accountNumber = parseAccountNumber(accountNumberText);
  if (bankQuery.trim() === '') throw new UsageError('--bank is required', 'give the 6-digit institution code or the bank name, e.g. --bank gtbank');
  const bank = await resolveBank(ctx, bankQuery);
  const accountName = await verifyAccountName(ctx, bank, accountNumber, expectName, 'nothing was saved');
  return {
    alias,
    accountNumber,
    bankCode: bank.institutionCode,
    bankName: bank.institutionName,
    accountName,
    addedAt: nowIso(ctx),
    addedBy: operatorName(ctx.env),
  };
}
