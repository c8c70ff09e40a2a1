// The JSON state file of earlier fsapi versions (one document, rewritten whole on every change). The
// SQLite store imports one once (src/simulator/store.ts); this module only reads and checks it.
import type { Kobo } from '../money/kobo.js';
import { CorruptFileError } from '../errors.js';
import type { StoredClient, StoredTransaction } from './types.js';

export interface LegacyStateDoc {
  format: 'fsapi-simulator-state';
  version: 1;
  id: string;
  createdAt: number;
  seed: number;
  seedTransactions: number;
  signingKey: string;
  revision: number;
  balanceKobo: Kobo;
  updatedAt: number;
  nextTransactionId: number;
  nextClientId: number;
  /** Token id (jti) -> expiry in epoch ms. */
  tokens: Record<string, number>;
  transactions: StoredTransaction[];
  clients: StoredClient[];
}

/** True when a file's first bytes look like a JSON document rather than a SQLite database. */
export function looksLikeJson(head: Buffer): boolean {
  return /^\s*\{/.test(head.toString('latin1'));
}

/** Parses and checks a JSON state file; anything unexpected is a CorruptFileError naming the file. */
export function parseLegacyState(file: string, text: string): LegacyStateDoc {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CorruptFileError(file, `not valid JSON (${(error as Error).message})`);
  }
  const problem = stateProblem(value);
  if (problem) throw new CorruptFileError(file, `not a simulator state file (${problem})`);
  return value as LegacyStateDoc;
}

function stateProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const doc = value as Record<string, unknown>;
  if (doc.format !== 'fsapi-simulator-state') return 'format is missing';
  if (doc.version !== 1) return `unknown version ${JSON.stringify(doc.version)}`;
  for (const field of ['createdAt', 'seed', 'seedTransactions', 'revision', 'balanceKobo', 'updatedAt', 'nextTransactionId', 'nextClientId'] as const) {
    if (!Number.isSafeInteger(doc[field])) return `${field} is not an integer`;
  }
  for (const field of ['id', 'signingKey'] as const) if (typeof doc[field] !== 'string') return `${field} is not a string`;
  if (typeof doc.tokens !== 'object' || doc.tokens === null || Array.isArray(doc.tokens)) return 'tokens is not an object';
  if (!Array.isArray(doc.transactions)) return 'transactions is not a list';
  if (!Array.isArray(doc.clients)) return 'clients is not a list';
  for (const tx of doc.transactions as unknown[]) {
    const t = tx as Record<string, unknown> | null;
    if (!t || typeof t.reference !== 'string' || !Number.isSafeInteger(t.amountKobo) || typeof t.counterparty !== 'object') {
      return 'a transaction is malformed';
    }
  }
  for (const client of doc.clients as unknown[]) {
    const c = client as Record<string, unknown> | null;
    if (!c || typeof c.accountNumber !== 'string' || !Number.isSafeInteger(c.id)) return 'a client is malformed';
  }
  return undefined;
}
