// The built-in simulator of the API (docs/simulator.md). `createSimulator` gives a fetch function that
// behaves like the real service: in-process for the `local` profile (openLocalSimulator), over HTTP for
// `simulator serve` (src/simulator/server.ts). Around the hono app it keeps the request log and plays the
// fault modes and the latency.
import { integerKobo, type Kobo } from '../money/kobo.js';
import path from 'node:path';
import type { CollectionNotification } from '../api/schemas.js';
import type { Transport } from '../api/types.js';
import { CorruptFileError, UsageError } from '../errors.js';
import { buildApp } from './app.js';
import { DEFAULT_SEED, DEFAULT_SEED_TRANSACTIONS, DEFAULT_SETTLE_SECONDS, FAILS_LATER_SUFFIX, PENDING_FOREVER_SUFFIX, REVERSED_LATER_SUFFIX } from './data.js';
import { createFileStore, createMemoryStore, removeDatabase, type StateStore } from './store.js';
import { FAULT_MODES, type FaultMode, type RequestLogEntry, type Simulator, type SimulatorOptions, type TriggerKind, type TriggerResult } from './types.js';
import { deliverNotification } from './webhook.js';
import { reshapeNotification } from './realistic.js';
import { makeCollection, makeTransfer, REVERSAL_PREFIX } from './world.js';

export { SIMULATOR_CREDENTIALS, BANKS, BUSINESS, KNOWN_ACCOUNT_NAMES, transferChargeKobo } from './data.js';
export { FAULT_MODES, TRIGGER_KINDS, type TriggerKind, type TriggerResult } from './types.js';
export type { FaultMode, RequestLogEntry, Simulator, SimulatorOptions } from './types.js';
export { SimulatorRefusal } from './world.js';
export { deliverNotification, type DeliveryResult } from './webhook.js';

/**
 * A `payout` event for a transfer the simulator took (realistic mode; docs/simulator.md): `pending` when
 * taken, then its final status when it settles, with `failureReason` when it failed. Public integrations
 * route `payout*` events and read the status from `status` and the failure from `failureReason`.
 */
export function payoutNotification(
  data: Record<string, unknown> & { reference: string },
  now: number,
  status: unknown = data.status,
): Record<string, unknown> & { reference: string } {
  return {
    event: 'payout',
    reference: data.reference,
    amount: data.amount,
    destinationAccountNumber: data.destinationAccountNumber,
    destinationBankCode: data.destinationBankCode,
    sessionId: data.sessionId,
    status,
    ...(status === 'failed' ? { failureReason: 'Beneficiary bank not available' } : {}),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A `reversal` event: the money of a reversed transfer back, under `R-<reference>` as public integrations
 * see a reversal arrive (the same reference `GET /v1/transactions/reference/R-<reference>` finds).
 */
export function reversalNotification(data: Record<string, unknown> & { reference: string }, now: number): Record<string, unknown> & { reference: string } {
  return {
    event: 'reversal',
    reference: `${REVERSAL_PREFIX}${data.reference}`,
    originalReference: data.reference,
    // What comes back is what left: the amount and its charge (the transfer's netAmount), as the credit says.
    amount: data.netAmount,
    sessionId: data.sessionId,
    status: 'successful',
    createdAt: now,
    updatedAt: now,
  };
}

/** The payee of a triggered payout: an ordinary account, or a test account that fails or is reversed. */
const TRIGGER_ACCOUNTS: Record<Exclude<TriggerKind, 'collection'>, string> = {
  payout: '0123456789',
  'payout.failed': `012345${FAILS_LATER_SUFFIX}`,
  'payout.reversed': `012345${REVERSED_LATER_SUFFIX}`,
  reversal: `012345${REVERSED_LATER_SUFFIX}`,
};
/** The client account a triggered collection credits: the first seeded one. */
const TRIGGER_CLIENT_ACCOUNT = '9900000011';

/** The request log keeps this many entries, oldest dropped first. */
const REQUEST_LOG_LIMIT = 10_000;

/** How the HTTP server lets a fault reach the connection itself. */
export interface Connection {
  /** Closes the TCP connection without an answer. */
  destroy(): void;
}

export interface ServableSimulator extends Simulator {
  /** Like fetch, with the connection of the served request so `drop` can cut it. */
  handle(request: Request, connection?: Connection): Promise<Response>;
  /** The state file, when there is one. */
  readonly stateFile: string | undefined;
  /** Loads (or creates) the state now, so a corrupt state file shows before the first request. */
  ready(): Promise<void>;
  /** Closes the state's database (a later request opens it again). */
  close(): void;
  /** A collection's notification as this simulator sends it (reshaped in realistic mode). */
  notificationBody(notification: CollectionNotification): Record<string, unknown> & { reference: string };
  /** Makes an event happen through the state (docs/simulator.md) and sends its notifications, awaited. */
  trigger(kind: TriggerKind, webhookUrl?: string): Promise<TriggerResult>;
}

const BAD_GATEWAY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

const badGateway = () => new Response(BAD_GATEWAY_PAGE, { status: 502, headers: { 'content-type': 'text/html' } });

/** Faults that commit the transfer first, then fail to answer properly. */
const AFTER_COMMIT_FAULTS: ReadonlySet<FaultMode> = new Set(['drop', 'bad-gateway', 'stall']);

export function createSimulator(options: SimulatorOptions = {}): ServableSimulator {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const seedParameters = {
    seed: options.seed ?? DEFAULT_SEED,
    seedTransactions: options.seedTransactions ?? DEFAULT_SEED_TRANSACTIONS,
    now,
    ...(options.businessName === undefined ? {} : { businessName: options.businessName }),
  };
  const store: StateStore = options.stateFile
    ? createFileStore(options.stateFile, seedParameters, log, options.legacyStateFile)
    : createMemoryStore(seedParameters);
  let fault: FaultMode | undefined = options.fault;
  const rateLimiter = options.rateLimitPerSecond !== undefined ? createRateLimiter(options.rateLimitPerSecond) : undefined;
  let requestLog: RequestLogEntry[] = [];
  const deliveries = new Set<Promise<unknown>>();

  const collect = async (accountNumber: string, amountKobo: Kobo, webhookUrl = options.webhookUrl): Promise<CollectionNotification> => {
    const notification = await store.update((doc) => makeCollection(doc, accountNumber, amountKobo, now()));
    if (webhookUrl) send(webhookUrl, notificationBody(notification));
    return notification;
  };
  const notificationBody = (notification: CollectionNotification) =>
    options.realistic === true ? { ...reshapeNotification(notification), reference: notification.reference } : notification;
  const send = (url: string, event: Record<string, unknown> & { reference: string }) => {
    const delivery = deliverNotification(url, event, { log, transport: options.transport }).finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };
  /** Events due when transfers settle; cleared when the simulator closes. */
  const timers = new Set<ReturnType<typeof setTimeout>>();

  // Realistic mode: the real API sends notifications of kinds other than `collection` (public integrations
  // route payout, transfer and reversal events; the names are not settled). Each transfer the simulator
  // takes is notified as a `payout` (pending), again when it settles (successful or failed), and a
  // reversed one also as a `reversal` of `R-<reference>`, so a receiver meets events it must not take for a
  // verified inflow.
  const transferred = (data: Record<string, unknown> & { reference: string }) => {
    const url = options.webhookUrl;
    if (!url) return;
    send(url, payoutNotification(data, now()));
    const account = String(data.destinationAccountNumber ?? '');
    if (account.endsWith(PENDING_FOREVER_SUFFIX)) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        const failed = account.endsWith(FAILS_LATER_SUFFIX);
        const reversed = account.endsWith(REVERSED_LATER_SUFFIX);
        send(url, payoutNotification(data, now(), failed ? 'failed' : reversed ? 'reversed' : 'successful'));
        if (reversed) send(url, reversalNotification(data, now()));
      },
      Math.round((options.settleSeconds ?? DEFAULT_SETTLE_SECONDS) * 1000),
    );
    timer.unref();
    timers.add(timer);
  };

  // `simulator trigger`: the event made through the state as an API client would (a transfer to a test
  // account, an inflow), settled at once, its notifications sent in order and awaited, so what arrives is
  // what a real one would be and a lookup of it verifies.
  const trigger = async (kind: TriggerKind, webhookUrl = options.webhookUrl): Promise<TriggerResult> => {
    let events: Array<Record<string, unknown> & { reference: string }>;
    let reference: string;
    if (kind === 'collection') {
      const notification = await store.update((doc) => makeCollection(doc, TRIGGER_CLIENT_ACCOUNT, integerKobo(500_000), now()));
      reference = notification.reference;
      events = [notificationBody(notification)];
    } else {
      const request = {
        beneficiaryAccountNumber: TRIGGER_ACCOUNTS[kind],
        beneficiaryBankCode: '000013',
        amount: 1000,
        narration: `fsapi simulator trigger ${kind}`,
      };
      const outcome = await store.update((doc) => makeTransfer(doc, request as Parameters<typeof makeTransfer>[1], now(), 0));
      const data = outcome.data as Record<string, unknown> & { reference: string };
      reference = data.reference;
      const final = kind === 'payout' ? 'successful' : kind === 'payout.failed' ? 'failed' : 'reversed';
      events = [payoutNotification(data, now(), 'pending'), payoutNotification(data, now(), final)];
      if (final === 'reversed') events.push(reversalNotification(data, now()));
    }
    const deliveries: TriggerResult['deliveries'] = [];
    if (webhookUrl) {
      for (const event of events) {
        const result = await deliverNotification(webhookUrl, event, { log, transport: options.transport });
        deliveries.push({
          reference: event.reference,
          event: event.event,
          delivered: result.delivered,
          ...(result.status === undefined ? {} : { status: result.status }),
          ...(result.error === undefined ? {} : { error: result.error }),
        });
      }
    }
    return { kind, reference, events, deliveries };
  };

  const app = buildApp({
    store,
    transferred,
    trigger,
    realistic: options.realistic === true,
    now,
    settleSeconds: () => options.settleSeconds ?? DEFAULT_SETTLE_SECONDS,
    tokenValiditySeconds: options.tokenValiditySeconds,
    requests: () => [...requestLog],
    clearRequests: () => {
      requestLog = [];
    },
    setFault: (mode) => {
      fault = mode;
    },
    fault: () => fault,
    collect,
    notificationBody,
    reset: () => store.reset(),
  });

  function record(entry: RequestLogEntry): void {
    requestLog.push(entry);
    if (requestLog.length > REQUEST_LOG_LIMIT) requestLog = requestLog.slice(-REQUEST_LOG_LIMIT);
  }

  async function handle(request: Request, connection?: Connection): Promise<Response> {
    const url = new URL(request.url);
    // The admin routes are the simulator's own: never logged, never faulted, never slowed.
    if (url.pathname.startsWith('/__simulator/')) return app.fetch(request);
    const entry: RequestLogEntry = { method: request.method, path: url.pathname, query: url.search.slice(1), status: 0, at: now() };
    const limited = rateLimiter?.refuse(now());
    if (limited) {
      record({ ...entry, status: 429, fault: 'rate-limit' });
      return limited;
    }
    const mode = fault;
    if (mode === 'html') {
      record({ ...entry, status: 502, fault: mode });
      await sleep(options.latencyMs ?? 0, request.signal);
      return badGateway();
    }
    const response = await app.fetch(request);
    const applied = mode && AFTER_COMMIT_FAULTS.has(mode) && request.method === 'POST' && url.pathname === '/v1/transfer' ? mode : undefined;
    record(applied ? { ...entry, status: response.status, fault: applied } : { ...entry, status: response.status });
    await sleep(options.latencyMs ?? 0, request.signal);
    switch (applied) {
      case 'drop':
        await response.body?.cancel();
        if (connection) {
          connection.destroy();
          return new Response(null, { status: 502 }); // goes nowhere: the socket is gone
        }
        // In process there is no socket: fail the way undici's fetch fails when the peer hangs up.
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
      case 'bad-gateway':
        await response.body?.cancel();
        return badGateway();
      case 'stall':
        await response.body?.cancel();
        // Never answer; give up only when the client does (its timeout aborts the request, or the
        // server closes the connection, which aborts it too).
        await untilAborted(request.signal);
        throw request.signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
      default:
        return response;
    }
  }

  return {
    stateFile: store.file,
    ready: async () => {
      await store.read(() => undefined);
    },
    notificationBody,
    trigger,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      store.close();
    },
    handle,
    fetch: (input, init) => handle(input instanceof Request ? input : new Request(input, init)),
    requests: () => [...requestLog],
    clearRequests: () => {
      requestLog = [];
    },
    setFault: (mode) => {
      if (mode !== undefined && !FAULT_MODES.includes(mode)) throw new Error(`unknown fault mode ${String(mode)}`);
      fault = mode;
    },
    fault: () => fault,
    collect: (accountNumber, amountKobo) => collect(accountNumber, amountKobo),
    reset: () => store.reset(),
    flushWebhooks: async () => {
      await Promise.allSettled([...deliveries]);
    },
  };
}

/**
 * The rate-limit fault: a sliding one-second window over the requests it let through. A refused request
 * is not carried out (a refused POST /v1/transfer moves no money). Every other refusal carries
 * `Retry-After: 1`; the rest carry none, as APIs differ in that.
 */
function createRateLimiter(perSecond: number) {
  let allowed: number[] = [];
  let refusals = 0;
  return {
    refuse(at: number): Response | undefined {
      allowed = allowed.filter((time) => at - time < 1000);
      if (allowed.length < perSecond) {
        allowed.push(at);
        return undefined;
      }
      refusals += 1;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (refusals % 2 === 1) headers['retry-after'] = '1';
      return new Response(JSON.stringify({ success: false, message: 'Too Many Requests', data: null }), { status: 429, headers });
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves when `signal` aborts. A timer keeps the event loop alive meanwhile: in process nothing else
 * may (AbortSignal.timeout's own timer does not), and a stall must look like a stall, not like an exit.
 */
function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const keepAlive = setInterval(() => undefined, 60_000);
    signal.addEventListener(
      'abort',
      () => {
        clearInterval(keepAlive);
        resolve();
      },
      { once: true },
    );
  });
}

// ---- the `local` profile's simulator ----------------------------------------------------------------

export function localStateFile(dataDir: string): string {
  return path.join(dataDir, 'simulator', 'state.db');
}

/** Where fsapi before the SQLite store kept the local state: imported once into state.db, then renamed. */
export function legacyLocalStateFile(dataDir: string): string {
  return path.join(dataDir, 'simulator', 'state.json');
}

/**
 * The in-process simulator of the `local` profile, its state in `<dataDir>/simulator/state.db`
 * (created on first use, directory mode 0700, file 0600). Environment knobs, for tests and demos:
 * FSAPI_SIM_SETTLE_SECONDS, FSAPI_SIM_FAULT, FSAPI_SIM_LATENCY_MS, FSAPI_SIM_SEED_TRANSACTIONS,
 * FSAPI_SIM_TOKEN_VALIDITY_SECONDS, FSAPI_SIM_REALISTIC (1: realistic answers), FSAPI_SIM_RATE_LIMIT
 * (requests per second).
 */
export function openLocalSimulator(dataDir: string, env: Readonly<Record<string, string | undefined>> = process.env, transport?: Transport): ServableSimulator {
  return createSimulator({ stateFile: localStateFile(dataDir), legacyStateFile: legacyLocalStateFile(dataDir), ...simulatorOptionsFromEnv(env), transport });
}

/**
 * Forgets the local simulator's state (a database it cannot read is removed: the user asked for a fresh
 * start); `businessName`, when given, becomes the business of the fresh state. Returns the state file.
 */
export async function resetLocalSimulator(dataDir: string, businessName?: string): Promise<string> {
  const file = localStateFile(dataDir);
  const parameters = {
    seed: DEFAULT_SEED,
    seedTransactions: DEFAULT_SEED_TRANSACTIONS,
    now: Date.now,
    ...(businessName === undefined ? {} : { businessName }),
  };
  const open = () => createFileStore(file, parameters, () => undefined, legacyLocalStateFile(dataDir));
  let store = open();
  try {
    await store.reset();
  } catch (error) {
    if (!(error instanceof CorruptFileError)) throw error;
    store.close();
    await removeDatabase(file);
    store = open();
    await store.reset();
  } finally {
    store.close();
  }
  return file;
}

export function simulatorOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): SimulatorOptions {
  const options: SimulatorOptions = {};
  const number = (name: string, pattern: RegExp, describe: string) => {
    const text = env[name]?.trim();
    if (text === undefined || text === '') return undefined;
    if (!pattern.test(text)) throw new UsageError(`${name} must be ${describe}, not ${JSON.stringify(text)}`);
    return Number(text);
  };
  const settle = number('FSAPI_SIM_SETTLE_SECONDS', /^\d+(\.\d+)?$/, 'a number of seconds (0 or more)');
  if (settle !== undefined) options.settleSeconds = settle;
  const latency = number('FSAPI_SIM_LATENCY_MS', /^\d+$/, 'a whole number of milliseconds');
  if (latency !== undefined) options.latencyMs = latency;
  const seedTransactions = number('FSAPI_SIM_SEED_TRANSACTIONS', /^\d+$/, 'a whole number');
  if (seedTransactions !== undefined) options.seedTransactions = checkSeedSize(seedTransactions, 'FSAPI_SIM_SEED_TRANSACTIONS');
  const validity = number('FSAPI_SIM_TOKEN_VALIDITY_SECONDS', /^[1-9]\d*$/, 'a whole number of seconds from 1');
  if (validity !== undefined) options.tokenValiditySeconds = validity;
  const rateLimit = number('FSAPI_SIM_RATE_LIMIT', /^[1-9]\d{0,5}$/, 'a whole number of requests per second from 1');
  if (rateLimit !== undefined) options.rateLimitPerSecond = rateLimit;
  const realistic = env.FSAPI_SIM_REALISTIC?.trim();
  if (realistic) {
    if (!['1', '0', 'true', 'false'].includes(realistic)) throw new UsageError(`FSAPI_SIM_REALISTIC must be 1 or 0, not ${JSON.stringify(realistic)}`);
    options.realistic = realistic === '1' || realistic === 'true';
  }
  const fault = env.FSAPI_SIM_FAULT?.trim();
  if (fault) {
    if (!FAULT_MODES.includes(fault as FaultMode))
      throw new UsageError(`FSAPI_SIM_FAULT must be one of ${FAULT_MODES.join(', ')}, not ${JSON.stringify(fault)}`);
    options.fault = fault as FaultMode;
  }
  return options;
}

/** Largest seeded history accepted: big enough for benchmarks, small enough to build in well under a second. */
export const MAX_SEED_TRANSACTIONS = 1_000_000;

export function checkSeedSize(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_SEED_TRANSACTIONS) {
    throw new UsageError(`${name} must be a whole number from 0 to ${MAX_SEED_TRANSACTIONS}`);
  }
  return value;
}
