// The simulator's routes: every endpoint of docs/api-spec.md section 4, plus the simulator-only
// admin routes under /__simulator/. Answers are built with the schemas of src/api/schemas.ts and checked
// against them before they leave, so the simulator cannot drift from what the client parses.
import { Hono, type Context as HonoContext } from 'hono';
import * as z from 'zod/mini';
import {
  bank,
  clientEnquiry as clientEnquirySchema,
  clientListItem,
  collectionNotification,
  corporateClient,
  corporateClientRequest,
  envelope,
  listOf,
  individualClient,
  individualClientRequest,
  nameEnquiryRequest,
  nameEnquiryResult,
  primaryAccount as primaryAccountSchema,
  tokenResponse,
  transactionRecord,
  transferRequest,
  transferResponse,
  tsqResult,
  type CollectionNotification,
} from '../api/schemas.js';
import { AmountError, parseNairaInput, type Kobo } from '../money/kobo.js';
import { FsapiError } from '../errors.js';
import { BANKS, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MAX_TOKEN_VALIDITY_MINUTES, SIMULATOR_CREDENTIALS } from './data.js';
import { reshapeAnswer } from './realistic.js';
import { describeIssues } from './refusals.js';
import type { StateStore } from './store.js';
import { FAULT_MODES, TRIGGER_KINDS, type FaultMode, type RequestLogEntry, type TriggerKind, type TriggerResult } from './types.js';
import {
  SimulatorRefusal,
  TRANSFER_MESSAGE,
  clientEnquiry,
  clientsPage,
  createCorporateClient,
  createIndividualClient,
  findTransaction,
  issueToken,
  makeTransfer,
  nameEnquiry,
  primaryAccount,
  renderTransaction,
  reversalRecord,
  tokenIsValid,
  transactionsPage,
  tsq,
} from './world.js';

/** The API's two spellings of failure. Which endpoint uses which is fixed here and in docs/simulator.md. */
export const MESSAGE_UNSUCCESSFUL = 'Request Unsuccessful';
export const MESSAGE_UN_SUCCESSFUL = 'Request Un-Successful';
export const MESSAGE_TOKEN_FAILED = 'Failed to generate token';

/** Account and client endpoints say "Request Unsuccessful"; transfer and transaction endpoints "Request Un-Successful". */
export function failureMessage(path: string): string {
  return path.startsWith('/v1/account') || path.startsWith('/v1/client-enquiry') ? MESSAGE_UNSUCCESSFUL : MESSAGE_UN_SUCCESSFUL;
}

export interface AppControls {
  store: StateStore;
  /** Realistic mode: successful answers reshaped the way the real API varies (src/simulator/realistic.ts). */
  realistic?: boolean;
  now: () => number;
  settleSeconds: () => number;
  tokenValiditySeconds: number | undefined;
  requests(): RequestLogEntry[];
  clearRequests(): void;
  setFault(mode: FaultMode | undefined): void;
  fault(): FaultMode | undefined;
  collect(accountNumber: string, amountKobo: Kobo, webhookUrl?: string): Promise<CollectionNotification>;
  /** A collection's notification as sent (reshaped in realistic mode): what /__simulator/collect answers as `sent`. */
  notificationBody?(notification: CollectionNotification): Record<string, unknown>;
  /** `POST /__simulator/trigger`: an event made through the state, its notifications sent. */
  trigger?(kind: TriggerKind, webhookUrl?: string): Promise<TriggerResult>;
  /** Told of each transfer the simulator took (notified as a `payout` event to the webhook URL). */
  transferred?(data: Record<string, unknown> & { reference: string }): void;
  reset(): Promise<void>;
}

/** Thrown for a missing, unknown or expired bearer token: 401 (the spec shows no answer for this). */
class Unauthorized extends Error {}

export function buildApp(controls: AppControls): Hono {
  const { store, now } = controls;
  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof Unauthorized) return c.json({ success: false, message: 'Unauthorized', data: null }, 401);
    if (error instanceof SimulatorRefusal) {
      return c.json({ success: false, message: failureMessage(c.req.path), data: null, reason: error.reason }, 400);
    }
    // fsapi's own errors (a corrupt or locked state file) go to the caller as they are: in process the
    // command reports them with their hint; over HTTP the server answers 500.
    if (error instanceof FsapiError) throw error;
    // A bug: say so plainly, as a 500 with the usual envelope.
    return c.json({ success: false, message: 'Internal Server Error', data: null, reason: (error as Error).message }, 500);
  });
  app.notFound((c) => c.json({ success: false, message: 'Not Found', data: null, reason: `no route ${c.req.method} ${c.req.path}` }, 404));

  // Realistic mode reshapes what the routes below built and checked in the spec's shape.
  if (controls.realistic) {
    app.use('/v1/*', async (c, next) => {
      await next();
      if (!(c.res.headers.get('content-type') ?? '').includes('application/json')) return;
      const body = reshapeAnswer(c.req.method, c.req.path, await c.res.clone().json());
      c.res = new Response(JSON.stringify(body), { status: c.res.status, headers: c.res.headers });
    });
  }

  // ---- 4.1 token -----------------------------------------------------------------------------------
  app.post('/v1/generate-token', async (c) => {
    const failed = () => c.json({ success: false, message: MESSAGE_TOKEN_FAILED }, 400);
    const key = c.req.header('consumerKey');
    const secret = c.req.header('consumerSecret');
    const validity = c.req.header('validityTime')?.trim();
    if (key !== SIMULATOR_CREDENTIALS.consumerKey || secret !== SIMULATOR_CREDENTIALS.consumerSecret) return failed();
    if (!validity || !/^\d+$/.test(validity)) return failed();
    const minutes = Number(validity);
    if (minutes < 1 || minutes > MAX_TOKEN_VALIDITY_MINUTES) return failed();
    let lifetimeMs = minutes * 60_000;
    if (controls.tokenValiditySeconds !== undefined) lifetimeMs = Math.min(lifetimeMs, controls.tokenValiditySeconds * 1000);
    const token = await store.update((doc) => issueToken(doc, key, lifetimeMs, now()));
    return c.json(tokenResponse.parse({ success: true, message: 'Token generated successfully', token }));
  });

  // ---- every other /v1 endpoint needs a token this state issued ------------------------------------
  app.use('/v1/*', async (c, next) => {
    if (c.req.path === '/v1/generate-token') return next();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '');
    if (!match || !(await store.read((doc) => tokenIsValid(doc, match[1]!, now())))) throw new Unauthorized();
    return next();
  });

  // ---- 4.6 primary account -------------------------------------------------------------------------
  app.get('/v1/account', async (c) => {
    const data = await store.read((doc) => primaryAccount(doc, now()));
    return c.json(envelope(primaryAccountSchema).parse({ success: true, data }));
  });

  // ---- 4.2 / 4.3 / 4.4 / 4.5 clients ---------------------------------------------------------------
  app.post('/v1/account/clients/individual', async (c) => {
    const body = parseApiBody(individualClientRequest, await readJson(c));
    const data = await store.update((doc) => createIndividualClient(doc, body, now()));
    return c.json(envelope(individualClient).parse({ success: true, data }));
  });

  app.post('/v1/account/clients/corporate', async (c) => {
    const body = parseApiBody(corporateClientRequest, await readJson(c));
    const data = await store.update((doc) => createCorporateClient(doc, body, now()));
    return c.json(envelope(corporateClient).parse({ success: true, data }));
  });

  app.get('/v1/account/clients', async (c) => {
    const { page, limit } = pageQuery(c);
    const filter = {
      accountType: c.req.query('accountType') || undefined,
      validityType: c.req.query('validityType') || undefined,
      status: c.req.query('status') || undefined,
    };
    const data = await store.read((doc) => clientsPage(doc, filter, page, limit));
    return c.json(envelope(listOf(clientListItem)).parse({ success: true, data }));
  });

  app.get('/v1/client-enquiry/:accountNumber', async (c) => {
    const data = await store.read((doc) => clientEnquiry(doc, c.req.param('accountNumber')));
    return c.json(envelope(clientEnquirySchema).parse({ success: true, data }));
  });

  // ---- 4.7 / 4.8 banks and name enquiry ------------------------------------------------------------
  app.get('/v1/transfer/banks', (c) => c.json(envelope(listOf(bank)).parse({ success: true, message: 'Banks retrieved successfully', data: BANKS })));

  app.post('/v1/transfer/name-enquiry', async (c) => {
    const body = parseApiBody(nameEnquiryRequest, await readJson(c));
    const data = await store.read((doc) => nameEnquiry(doc, body.bankCode, body.accountNumber, now()));
    return c.json(envelope(nameEnquiryResult).parse({ success: true, message: 'Account name retrieved successfully', data }));
  });

  // ---- 4.9 / 4.10 / 4.11 / 4.12 transfers and transactions -----------------------------------------
  app.post('/v1/transfer', async (c) => {
    const body = parseApiBody(transferRequest, await readJson(c));
    const outcome = await store.update((doc) => makeTransfer(doc, body, now(), controls.settleSeconds()));
    controls.transferred?.(outcome.data);
    return c.json(transferResponse.parse({ success: true, message: TRANSFER_MESSAGE, data: outcome.data, beneficiary: outcome.beneficiary }));
  });

  app.get('/v1/transactions/reference/:reference', async (c) => {
    const reference = c.req.param('reference');
    const data = await store.read((doc) => {
      // A reversal credit R-<reference> of a reversed transfer (the test accounts of docs/simulator.md).
      const reversal = reversalRecord(doc, reference, now());
      if (reversal) return reversal;
      const tx = findTransaction(doc, reference);
      if (!tx || tx.reference !== reference) throw new SimulatorRefusal(`no transaction with reference ${reference}`);
      return renderTransaction(doc, tx, now());
    });
    return c.json(envelope(transactionRecord).parse({ success: true, message: 'Transaction retrieved successfully', data }));
  });

  app.get('/v1/transfer/tsq', async (c) => {
    const id = c.req.query('transactionId')?.trim();
    if (!id) throw new SimulatorRefusal('query parameter transactionId is required');
    const data = await store.read((doc) => tsq(doc, id, now()));
    return c.json(envelope(tsqResult).parse({ success: true, message: 'Transaction status retrieved successfully', data }));
  });

  app.get('/v1/transactions', async (c) => {
    const { page, limit } = pageQuery(c);
    const data = await store.read((doc) => transactionsPage(doc, page, limit, now()));
    return c.json(envelope(listOf(transactionRecord)).parse({ success: true, data }));
  });

  // ---- simulator-only admin routes (no token needed; not part of the API) --------------------------
  app.get('/__simulator/requests', (c) => c.json({ success: true, data: controls.requests() }));
  app.delete('/__simulator/requests', (c) => {
    controls.clearRequests();
    return c.json({ success: true, data: null });
  });
  app.get('/__simulator/fault', (c) => c.json({ success: true, data: { mode: controls.fault() ?? null } }));
  app.post('/__simulator/fault', async (c) => {
    const body = parseBody(z.object({ mode: z.union([z.enum(FAULT_MODES as [FaultMode, ...FaultMode[]]), z.literal('none'), z.null()]) }), await readJson(c));
    controls.setFault(body.mode === 'none' || body.mode === null ? undefined : body.mode);
    return c.json({ success: true, data: { mode: controls.fault() ?? null } });
  });
  app.post('/__simulator/collect', async (c) => {
    const body = parseBody(
      z.object({ accountNumber: z.string().check(z.regex(/^\d{10}$/)), amount: z.union([z.number(), z.string()]), webhookUrl: z.optional(z.url()) }),
      await readJson(c),
    );
    let amountKobo: Kobo;
    try {
      amountKobo = parseNairaInput(String(body.amount));
    } catch (error) {
      if (error instanceof AmountError) throw new SimulatorRefusal(error.message);
      throw error;
    }
    const data = await controls.collect(body.accountNumber, amountKobo, body.webhookUrl);
    const answer = envelope(collectionNotification).parse({ success: true, message: 'Collection made', data });
    return c.json({ ...answer, sent: controls.notificationBody?.(data) ?? data });
  });
  app.post('/__simulator/trigger', async (c) => {
    const body = parseBody(
      z.object({ kind: z.enum(TRIGGER_KINDS as unknown as [TriggerKind, ...TriggerKind[]]), webhookUrl: z.optional(z.url()) }),
      await readJson(c),
    );
    if (!controls.trigger) throw new SimulatorRefusal('this simulator cannot trigger events');
    const data = await controls.trigger(body.kind, body.webhookUrl);
    return c.json({ success: true, message: 'Event triggered', data });
  });
  app.post('/__simulator/reset', async (c) => {
    await controls.reset();
    return c.json({ success: true, data: null });
  });

  return app;
}

/** The largest request body the simulator reads: every request of the API is a small JSON object. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

async function readJson(c: HonoContext): Promise<unknown> {
  const text = await readBody(c);
  if (text.trim() === '') throw new SimulatorRefusal('the request body is empty; a JSON object is expected');
  try {
    return JSON.parse(text);
  } catch {
    throw new SimulatorRefusal('the request body is not valid JSON');
  }
}

/** The body as text, refused (400) as soon as it passes MAX_REQUEST_BYTES: never held whole past that. */
async function readBody(c: HonoContext): Promise<string> {
  const tooBig = () => new SimulatorRefusal(`the request body is over ${MAX_REQUEST_BYTES} bytes; a JSON object of the API is much smaller`);
  if (Number(c.req.header('content-length') ?? 0) > MAX_REQUEST_BYTES) throw tooBig();
  const reader = c.req.raw.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REQUEST_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads a request body with the spec's schema. A top-level `null` is "not given", as real clients send an
 * optional field they have no value for (one public integration sends `middlename: null`): an optional
 * field is then absent, and a required one is refused as missing, as it would be if left out.
 */
function parseApiBody<T extends z.ZodMiniType>(schema: T, value: unknown): z.infer<T> {
  const given =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null))
      : value;
  return parseBody(schema, given);
}

function parseBody<T extends z.ZodMiniType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new SimulatorRefusal(describeIssues(result.error.issues, value));
  return result.data;
}

/** page from 1 (default 1); limit 1..100 (default 20). Anything else is refused. */
function pageQuery(c: HonoContext): { page: number; limit: number } {
  const read = (name: string, fallback: number, max: number) => {
    const text = c.req.query(name);
    if (text === undefined || text === '') return fallback;
    if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new SimulatorRefusal(`${name} must be a whole number from 1, not ${JSON.stringify(text)}`);
    const value = Number(text);
    if (value > max) throw new SimulatorRefusal(`${name} is at most ${max}, not ${value}`);
    return value;
  };
  return { page: read('page', 1, Number.MAX_SAFE_INTEGER), limit: read('limit', DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT) };
}
