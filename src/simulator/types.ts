// The simulator's public types (others depend on these names) and the shape of its persisted state.
import type { Kobo } from '../money/kobo.js';
import type { Transport } from '../api/types.js';
import type { CollectionNotification } from '../api/schemas.js';

/** How the simulator misbehaves (docs/simulator.md, "Fault modes"). */
export type FaultMode = 'drop' | 'bad-gateway' | 'stall' | 'html';
export const FAULT_MODES: readonly FaultMode[] = ['drop', 'bad-gateway', 'stall', 'html'];

export interface SimulatorOptions {
  /** Keep the state in this SQLite database file (created when missing); in memory when absent. */
  stateFile?: string;
  /** An older fsapi's JSON state file to import once into a new stateFile (then renamed `.imported`). */
  legacyStateFile?: string;
  /** The business that owns the primary account (default ACME TRADING LIMITED); stored in the state. */
  businessName?: string;
  /** Seconds before a new transfer turns from pending to successful (default 5). */
  settleSeconds?: number;
  /** Delay added to every answer, in milliseconds. */
  latencyMs?: number;
  /** Size of the seeded transaction history (default 200). Used when the state is created. */
  seedTransactions?: number;
  /** Cap on token lifetimes, whatever validityTime asks for. */
  tokenValiditySeconds?: number;
  fault?: FaultMode;
  /** Answers reshaped the way the real API varies: nulls, numbers as text, other cases (src/simulator/realistic.ts). */
  realistic?: boolean;
  /**
   * Rate-limit fault: at most this many /v1 requests in any second; more are answered 429 (every other
   * one with `Retry-After: 1`, the rest without) and not carried out.
   */
  rateLimitPerSecond?: number;
  /** Collection notifications are POSTed here (served simulator). */
  webhookUrl?: string;
  /** What notifications are POSTed through (default node:http, src/api/node-transport.ts; the run's ctx.transport). */
  transport?: Transport;
  /** Clock in epoch milliseconds (tests move time with it). */
  now?: () => number;
  /** Seed of the generated history (default 20240607). Used when the state is created. */
  seed?: number;
  /** Where delivery failures and other notes go (default: stderr). */
  log?: (line: string) => void;
}

export interface RequestLogEntry {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query string without `?`, empty when none. */
  query: string;
  /** The status the simulator produced; for `drop` and `stall` it never reached the client. */
  status: number;
  /** Epoch milliseconds when the request arrived. */
  at: number;
  /** The fault applied to this answer, if any. */
  fault?: FaultMode | 'rate-limit';
}

export interface Simulator {
  /** The hono app's fetch, with request log, latency and faults: the local profile's transport. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  requests(): RequestLogEntry[];
  clearRequests(): void;
  setFault(mode: FaultMode | undefined): void;
  fault(): FaultMode | undefined;
  /** An inflow to a client account; resolves to the notification (also POSTed to webhookUrl if set). */
  collect(accountNumber: string, amountKobo: Kobo): Promise<CollectionNotification>;
  /** Forgets everything and starts again from the seed. */
  reset(): Promise<void>;
  /** Waits (bounded) for webhook deliveries still in flight. */
  flushWebhooks(): Promise<void>;
}

// ---- persisted state --------------------------------------------------------------------------------

/** A party on the other side of a transaction. */
export interface Counterparty {
  accountNumber: string;
  accountName: string;
  bankCode: string;
  bankName: string;
}

/**
 * One transaction, seeded or made since. Seeded ones are re-derived from the seed, never stored; only
 * transactions made after the state was created are written to the file.
 */
export interface StoredTransaction {
  id: number;
  kind: 'transfer' | 'collection';
  reference: string;
  sessionId: string;
  amountKobo: Kobo;
  chargeKobo: Kobo;
  stampDutyKobo: Kobo;
  createdAt: number;
  /** When a transfer turns successful; null: stays pending (test accounts ending 1111). */
  settlesAt: number | null;
  /** Destination of a transfer, payer of a collection. */
  counterparty: Counterparty;
  /** The client (virtual) account credited by a collection. */
  clientAccountNumber?: string;
  narration: string;
  senderName?: string;
}

export interface StoredClient {
  id: number;
  accountType: 'individual' | 'corporate';
  accountNumber: string;
  accountName: string;
  externalReference: string;
  createdAt: number;
  metadata: Record<string, unknown>;
  mobileNumber: string;
  emailAddress: string;
  bvn: string;
  address: string;
  dateOfBirth: string;
  validityType: string;
  status: string;
  accountTier: number | null;
  firstname?: string;
  lastname?: string;
  middlename?: string;
  gender?: string;
  nin?: string;
  businessName?: string;
  rcNumber?: string;
  incorporationDate?: string;
}

/** The business that owns the primary account; the first word of its name is the reference prefix. */
export interface Business {
  name: string;
  /** `ACME` for "ACME TRADING LIMITED": what every transfer reference must start with (`ACME-...`). */
  referencePrefix: string;
}

export interface ClientFilter {
  accountType?: string;
  validityType?: string;
  status?: string;
}

/**
 * The simulator's state as the domain logic (src/simulator/world.ts) sees it, inside one database
 * transaction (src/simulator/store.ts): the fixed facts of the state, the balance, and the rows made since
 * the state was created. A read sees one consistent snapshot; a change commits whole or not at all.
 */
export interface SimulatorState {
  /** Random per state: tells caches that a reset happened. */
  readonly id: string;
  /** Epoch ms when the state was created: the seeded history ends here. */
  readonly createdAt: number;
  readonly seed: number;
  readonly seedTransactions: number;
  /** HMAC key for token signatures. */
  readonly signingKey: string;
  readonly business: Business;
  /** Available balance of the primary account, in kobo. */
  readonly balanceKobo: Kobo;
  readonly updatedAt: number;
  /** Adds `deltaKobo` (negative: takes it) to the available balance; refuses to go below zero. */
  changeBalance(deltaKobo: Kobo, now: number): void;

  nextTransactionId(): number;
  addTransaction(tx: StoredTransaction): void;
  transactionByReference(reference: string): StoredTransaction | undefined;
  transactionBySessionId(sessionId: string): StoredTransaction | undefined;
  /** How many transactions were made since the state was created. */
  transactionCount(): number;
  /** Transactions made since the state was created, newest first (time, then id). */
  newestTransactions(offset: number, limit: number): StoredTransaction[];
  /** The oldest transaction made since the state was created. */
  oldestTransaction(): StoredTransaction | undefined;
  /** Sum of amount and charge of the transfers still pending at `now`: money held, not yet settled. */
  pendingTransfersKobo(now: number): Kobo;
  /** Sum of amount and charge of the transfers settled by `now` to accounts ending in one of `suffixes`. */
  settledTransfersKoboTo(now: number, suffixes: readonly string[]): Kobo;

  nextClientId(): number;
  addClient(client: StoredClient): void;
  /** A client created since the state was created. */
  clientByAccountNumber(accountNumber: string): StoredClient | undefined;
  /** Clients created since the state was created, newest first; filters compare case-insensitively. */
  newestClients(filter: ClientFilter, offset: number, limit: number): StoredClient[];
  clientCount(filter: ClientFilter): number;

  /** Remembers a token id until it expires, and forgets the expired ones. */
  addToken(tokenId: string, expiresAt: number, now: number): void;
  /** Expiry of a token id this state issued, in epoch ms. */
  tokenExpiry(tokenId: string): number | undefined;
}

/** What `simulator trigger` can make happen (docs/simulator.md). */
export const TRIGGER_KINDS = ['collection', 'payout', 'payout.failed', 'payout.reversed', 'reversal'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export interface TriggerResult {
  kind: TriggerKind;
  /** The transaction made (the transfer's reference, or the collection's). */
  reference: string;
  /** Every notification sent, in order. */
  events: Array<Record<string, unknown> & { reference: string }>;
  /** Where they went, when there was a webhook URL. */
  deliveries: Array<{ reference: string; event: unknown; delivered: boolean; status?: number; error?: string }>;
}
