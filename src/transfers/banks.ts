// The bank list (GET /v1/transfer/banks), cached for 24 hours per profile in the data dir, and the
// resolution of `--bank <code|name>` against it. Institution codes are the only valid bank codes (spec 4.7).
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../context.js';
import type { Bank } from '../api/schemas.js';
import * as z from 'zod/mini';
import { bank as bankSchema } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { aliasesOf, BANK_ALIASES, banksForAlias } from './bank-aliases.js';
import { writeFileAtomic } from '../common/atomic-file.js';

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
  // Private like the rest of the data dir (mode 0600), and never half written (src/common/atomic-file.ts).
  await writeFileAtomic(file, JSON.stringify(cache));
}

// Words that carry no meaning in a bank's initials: "United Bank for Africa" -> UBA.
const stopWords = new Set(['of', 'for', 'the', 'and', 'plc', 'ltd', 'limited', 'nigeria', 'ng']);

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

function initials(name: string): string {
  return normalise(name)
    .split(' ')
    .filter((word) => word && !stopWords.has(word))
    .map((word) => word[0])
    .join('');
}

/**
 * Banks a search names: the bank of an exact alias first (GTBank, OPay, FBN: src/transfers/bank-aliases.ts),
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
 * The banks a word names, best first: the one bank whose code or whole name it is, else the bank of an
 * exact alias (GTBank, OPay, FBN), else every bank searchBanks finds, ranked (names that begin with the
 * word first, then common banks in the alias list's order, then the list's order). `--bank` and the
 * guided picker both read words through this, so a word means the same bank in both.
 */
export function matchBanks(banks: readonly Bank[], search: string): Bank[] {
  const trimmed = search.trim();
  const byCode = banks.filter((bank) => bank.institutionCode === trimmed);
  if (byCode.length > 0) return byCode;
  const exact = banks.filter((bank) => normalise(bank.institutionName) === normalise(trimmed));
  if (exact.length === 1) return exact;
  const aliased = banksForAlias(banks, trimmed);
  if (aliased.length > 0) return aliased;
  const query = normalise(trimmed);
  const common = (bank: Bank) => {
    const index = BANK_ALIASES.findIndex((entry) => entry.code === bank.institutionCode);
    return index === -1 ? BANK_ALIASES.length : index;
  };
  const begins = (bank: Bank) => (normalise(bank.institutionName).startsWith(query) ? 0 : 1);
  return searchBanks(banks, trimmed)
    .map((bank, order) => ({ bank, order }))
    .sort((a, b) => begins(a.bank) - begins(b.bank) || common(a.bank) - common(b.bank) || a.order - b.order)
    .map(({ bank }) => bank);
}

/**
 * Banks a mistyped word probably means ("acess" -> Access Bank, "guarnty" -> Guaranty Trust Bank): those
 * whose name, a word of it, or an alias is within a small edit distance of the word (one edit for
 * short words, about one in four for longer ones; a swap of two letters counts as one). Closest first,
 * at most three. Only ever a suggestion: a mistyped bank is never picked for the user.
 */
export function suggestBanks(banks: readonly Bank[], search: string): Bank[] {
  const query = normalise(search).replaceAll(' ', '');
  if (query.length < 3) return [];
  const allowed = Math.max(1, Math.floor(query.length / 4));
  const scored: Array<{ bank: Bank; distance: number }> = [];
  for (const bank of banks) {
    const name = normalise(bank.institutionName);
    const candidates = [
      name.replaceAll(' ', ''),
      ...name.split(' ').filter((word) => word.length >= 3),
      ...aliasesOf(bank).map((alias) => normalise(alias).replaceAll(' ', '')),
    ];
    const distance = Math.min(...candidates.map((candidate) => editDistance(query, candidate)));
    if (distance <= allowed) scored.push({ bank, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ bank }) => bank);
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Math.abs(a.length - b.length);
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** "did you mean Access Bank?" (or two or three names), for a word that matched no bank. */
export function didYouMean(banks: readonly Bank[], search: string): string | undefined {
  const suggestions = suggestBanks(banks, search).map((bank) => bank.institutionName);
  if (suggestions.length === 0) return undefined;
  const names = suggestions.length === 1 ? suggestions[0] : `${suggestions.slice(0, -1).join(', ')} or ${suggestions.at(-1)}`;
  return `did you mean ${names}?`;
}

/**
 * Resolves `--bank`: a 6-digit institution code must be in the list; a name must match exactly one bank
 * (matchBanks), or on a terminal the user picks one. Without a terminal an ambiguous name is exit 2 with
 * the candidates. A word that matches none is exit 2, with the banks it may be a typo of.
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
  const matches = matchBanks(banks, trimmed);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new UsageError(`no bank matches ${JSON.stringify(trimmed)}`, didYouMean(banks, trimmed) ?? 'fsapi banks lists every bank and its code');
  }
  if (ctx.prompt.interactive) {
    return ctx.prompt.select(
      `More than one bank matches "${trimmed}". Which one?`,
      matches.map((bank) => ({ name: `${bank.institutionName} (${bank.institutionCode})`, value: bank })),
    );
  }
  const listed = matches
    .slice(0, 10)
    .map((bank) => `${bank.institutionCode} ${bank.institutionName}`)
    .join('; ');
  throw new UsageError(
    `"${trimmed}" matches ${matches.length} banks: ${listed}${matches.length > 10 ? '; …' : ''}`,
    'give the 6-digit code or more of the name',
  );
}
