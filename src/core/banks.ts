// The bank list (GET /v1/transfer/banks), cached for 24 hours per profile in the data dir, and the
// resolution of `--bank <code|name>` against it. Institution codes are the only valid bank codes (spec 4.7).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../context.js';
import type { Bank } from '../api/schemas.js';
import * as z from 'zod/mini';
import { bank as bankSchema } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { aliasesOf, banksForAlias } from './bank-aliases.js';

export const BANK_CACHE_MS = 24 * 60 * 60 * 1000;

interface BankCache {
  fetchedAt: number;
  baseUrl: string;
  banks: Bank[];
}

export async function loadBanks(ctx: Context, options: { refresh?: boolean } = {}): Promise<Bank[]> {
  const profile = await ctx.profile();
  const baseUrl = ctx.globals.baseUrl ?? profile.baseUrl ?? 'local';
  const file = path.join(ctx.paths.dataDir, 'cache', `banks-${encodeURIComponent(profile.name)}.json`);
  if (!options.refresh) {
    const cached = await readCache(file);
    if (cached && cached.baseUrl === baseUrl && ctx.clock.now() - cached.fetchedAt < BANK_CACHE_MS) return cached.banks;
  }
  const api = await ctx.api();
  const banks = await api.listBanks();
  await writeCache(file, { fetchedAt: ctx.clock.now(), baseUrl, banks });
  return banks;
}

/** A cache that cannot be read is only a cache: it is fetched again, never trusted. */
async function readCache(file: string): Promise<BankCache | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<BankCache>;
    if (typeof parsed.fetchedAt !== 'number' || typeof parsed.baseUrl !== 'string' || !Array.isArray(parsed.banks)) return undefined;
    const banks = z.array(bankSchema).safeParse(parsed.banks);
    return banks.success ? { fetchedAt: parsed.fetchedAt, baseUrl: parsed.baseUrl, banks: banks.data } : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(file: string, cache: BankCache): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(cache));
  await rename(temporary, file);
}

// Words that carry no meaning in a bank's initials: "United Bank for Africa" -> UBA.
const stopWords = new Set(['of', 'for', 'the', 'and', 'plc', 'ltd', 'limited', 'nigeria', 'ng']);

const normalise = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

function initials(name: string): string {
  return normalise(name)
    .split(' ')
    .filter((word) => word && !stopWords.has(word))
    .map((word) => word[0])
    .join('');
}

/**
 * Banks a search names: the bank of an exact alias first (GTBank, OPay, FBN: src/core/bank-aliases.ts),
 * then those whose name contains the search (punctuation and case ignored), whose initials are it
 * (gtb, uba), or one of whose aliases starts with it.
 */
export function searchBanks(banks: readonly Bank[], search: string): Bank[] {
  const query = normalise(search);
  if (query === '') return [...banks];
  const compactQuery = query.replaceAll(' ', '');
  const aliased = banksForAlias(banks, search);
  const matching = banks.filter((bank) => {
    if (aliased.includes(bank)) return false;
    const name = normalise(bank.institutionName);
    return (
      bank.institutionCode === search.trim() ||
      name.includes(query) ||
      name.replaceAll(' ', '').includes(compactQuery) ||
      initials(bank.institutionName).startsWith(compactQuery) ||
      aliasesOf(bank).some((alias) => normalise(alias).replaceAll(' ', '').startsWith(compactQuery))
    );
  });
  return [...aliased, ...matching];
}

/**
 * Resolves `--bank`: a 6-digit institution code must be in the list; a name must match exactly one bank,
 * or on a terminal the user picks one. Without a terminal an ambiguous name is exit 2 with the candidates.
 */
export async function resolveBank(ctx: Context, query: string): Promise<Bank> {
  const trimmed = query.trim();
  if (trimmed === '') throw new UsageError('--bank is empty', 'give a 6-digit institution code or part of the bank name');
  const banks = await loadBanks(ctx);
  if (/^[0-9]+$/.test(trimmed)) {
    if (trimmed.length !== 6) throw new UsageError(`bank code ${trimmed} must be 6 digits (institution code)`, 'fsapi banks lists the codes');
    const found = banks.find((bank) => bank.institutionCode === trimmed);
    if (!found) throw new UsageError(`no bank has the institution code ${trimmed}`, 'fsapi banks <name> finds the code');
    return found;
  }
  // An exact name, then an exact alias (GTBank, OPay, FBN), win over partial matches.
  const exact = banks.filter((bank) => normalise(bank.institutionName) === normalise(trimmed));
  const aliased = banksForAlias(banks, trimmed);
  const matches = exact.length === 1 ? exact : aliased.length > 0 ? aliased : searchBanks(banks, trimmed);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new UsageError(`no bank matches ${JSON.stringify(trimmed)}`, 'fsapi banks lists every bank and its code');
  if (ctx.prompt.interactive) {
    return ctx.prompt.select(
      `More than one bank matches "${trimmed}". Which one?`,
      matches.map((bank) => ({ name: `${bank.institutionName} (${bank.institutionCode})`, value: bank })),
    );
  }
  const listed = matches.slice(0, 10).map((bank) => `${bank.institutionCode} ${bank.institutionName}`).join('; ');
  throw new UsageError(
    `"${trimmed}" matches ${matches.length} banks: ${listed}${matches.length > 10 ? '; …' : ''}`,
    'give the 6-digit code or more of the name',
  );
}
