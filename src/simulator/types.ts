// The simulator's public types (others depend on these names) and the shape of its persisted state.
import type { CollectionNotification } from '../api/schemas.js';

/** How the simulator misbehaves (docs/simulator.md, "Fault modes"). */
export type FaultMode = 'drop' | 'bad-gateway' | 'stall' | 'html';
export const FAULT_MODES: readonly FaultMode[] = ['drop', 'bad-gateway', 'stall', 'html'];

export interface SimulatorOptions {
  /** Keep the state in this JSON file (locked, written atomically); in memory when absent. */
  stateFile?: string;
  /** Seconds before a new transfer turns from pending to successful (default 5). */
  settleSeconds?: number;
  /** Delay added to every answer, in milliseconds. */
  latencyMs?: number;
  /** Size of the seeded transaction history (default 200). Used when the state is created. */
  seedTransactions?: number;
  /** Cap on token lifetimes, whatever validityTime asks for. */
  tokenValiditySeconds?: number;
  fault?: FaultMode;
  /** Collection notifications are POSTed here (served simulator). */
  webhookUrl?: string;
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
  fault?: FaultMode;
}

export interface Simulator {
  /** The hono app's fetch, with request log, latency and faults: the local profile's transport. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  requests(): RequestLogEntry[];
  clearRequests(): void;
  setFault(mode: FaultMode | undefined): void;
  fault(): FaultMode | undefined;
  /** An inflow to a client account; resolves to the notification (also POSTed to webhookUrl if set). */
  collect(accountNumber: string, amountKobo: number): Promise<CollectionNotification>;
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
  amountKobo: number;
  chargeKobo: number;
  stampDutyKobo: number;
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

export interface StateDoc {
  format: 'fsapi-simulator-state';
  version: 1;
  /** Random per state: tells caches that a reset happened. */
  id: string;
  /** Epoch ms when the state was created: the seeded history ends here. */
  createdAt: number;
  seed: number;
  seedTransactions: number;
  /** HMAC key for token signatures. */
  signingKey: string;
  /** Incremented on every write: derived caches are keyed on it. */
  revision: number;
  /** Available balance of the primary account, in kobo. */
  balanceKobo: number;
  updatedAt: number;
  nextTransactionId: number;
  nextClientId: number;
  /** Issued tokens still valid: token id (jti) -> expiry in epoch ms. Expired ones are pruned on write. */
  tokens: Record<string, number>;
  /** Transactions made since the state was created, oldest first. */
  transactions: StoredTransaction[];
  /** Clients created since the state was created, oldest first. */
  clients: StoredClient[];
}
