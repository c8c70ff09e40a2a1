// The API client of one run: one typed function per endpoint (src/api/types.ts), each sending one
// authenticated request through src/api/http.ts and parsing the answer with src/api/schemas.ts.
//
// Authentication: the bearer comes from the token session (src/auth/session.ts). A 401/403 answer to a
// request that moves no money renews the token once and the same request is sent once more with the new
// token; a second refusal, or no way to renew, is AuthError (exit 3). POST /v1/transfer is the exception:
// it is sent once, never repeated here. A 401/403 to it does not prove the API did nothing (a proxy or a
// gateway may answer so after the API took it), so the token is renewed, for the lookup that follows, and
// the answer goes back to the caller, who looks the reference up (src/transfers/refusal-proof.ts). A failure
// while getting a token (the generate-token call could not be made, or answered with anything but a token)
// is reported as an ApiError without a status, never a TransportError: the request it was for was not
// sent, and callers that send money read TransportError as "sent, outcome unknown".
//
// The answers' shapes (src/api/schemas.ts, and zod with them) are loaded once a request is on its way,
// not with this module: zod then starts while the API works on the answer instead of before the request
// is sent, about 3 ms of every command (bench/startup.mjs).
import type * as z from 'zod/mini';
import type { AuthContext } from './types.js';
import { ApiError, UsageError } from '../errors.js';
import { createTokenSession, type TokenSession } from './session.js';
import { apiMessage, parseAnswer, readJson } from '../api/answers.js';
import { reachesTransfer, resolveApiTarget } from '../api/target.js';
import { createHttp, type Http, type HttpAnswer, type HttpMethod, type HttpRequest } from '../api/http.js';
import type { Api, ClientListQuery, PageQuery, RawResponse } from '../api/types.js';

type Schemas = typeof import('../api/schemas.js');
/** The tolerant `...AsRead` shape of an answer's data: it fails only when a field fsapi acts on is missing or wrong. */
type PickShape<T extends z.ZodMiniType> = (schemas: Schemas) => T;

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export async function createApi(ctx: AuthContext): Promise<Api> {
  const [profile, store] = await Promise.all([ctx.profile(), ctx.profiles()]);
  const http = await createHttp(ctx, profile.baseUrl);
  const session = createTokenSession(ctx, profile, store, http);
  const send = (request: HttpRequest) => sendAuthenticated(http, session, request, mayMoveMoney(profile.baseUrl, request));

  /** Sends `request`; once it is on its way (or has failed), loads the schemas its answer is read with. */
  async function sendThenLoadSchemas(request: HttpRequest): Promise<{ answer: HttpAnswer; schemas: Schemas }> {
    let markSent!: () => void;
    const sent = new Promise<void>((resolve) => (markSent = resolve));
    const answer = send({ ...request, onSent: markSent });
    // Awaited below; without a handler now, a failure while the schemas load would count as unhandled.
    answer.catch(() => undefined);
    await Promise.race([sent, answer]);
    const schemas = await import('../api/schemas.js');
    return { answer: await answer, schemas };
  }
  async function data<T extends z.ZodMiniType>(request: HttpRequest, pick: PickShape<T>): Promise<z.infer<T>> {
    const { answer, schemas } = await sendThenLoadSchemas(request);
    return parseAnswer(answer, http.host, schemas.envelope(pick(schemas))).data as z.infer<T>;
  }
  const get = <T extends z.ZodMiniType>(path: string, pick: PickShape<T>, searchParams?: URLSearchParams) => data({ method: 'GET', path, searchParams }, pick);
  const post = <T extends z.ZodMiniType>(path: string, pick: PickShape<T>, json: unknown) => data({ method: 'POST', path, json }, pick);

  return {
    baseUrl: http.baseUrl,
    getAccount: () => get('/v1/account', (s) => s.primaryAccountAsRead),
    listBanks: () => get('/v1/transfer/banks', (s) => s.listOf(s.bankAsRead)),
    // The spec types accountNumber as a number, but a number drops leading zeros and would name another
    // account; the text is sent as typed (the API refusing it is safe, asking about the wrong account is not).
    nameEnquiry: (bankCode, accountNumber) => post('/v1/transfer/name-enquiry', (s) => s.nameEnquiryResultAsRead, { bankCode, accountNumber }),
    async sendTransfer(body, options = {}) {
      // http.ts never retries a POST, and sendAuthenticated never repeats this one, not after a 401/403 either.
      const { answer, schemas } = await sendThenLoadSchemas({ method: 'POST', path: '/v1/transfer', json: body, mayLeave: options.mayLeave });
      return parseAnswer(answer, http.host, schemas.transferResponseAsRead);
    },
    getTransaction: (reference) => get(`/v1/transactions/reference/${encodeURIComponent(reference)}`, (s) => s.transactionRecordAsRead),
    transferRequery: (transactionId) => get('/v1/transfer/tsq', (s) => s.tsqResultAsRead, new URLSearchParams({ transactionId })),
    listTransactions: (query: PageQuery) => get('/v1/transactions', (s) => s.listOf(s.transactionRecordAsRead), queryOf(query)),
    listClients: (query: ClientListQuery) => get('/v1/account/clients', (s) => s.listOf(s.clientListItemAsRead), queryOf(query)),
    getClient: (accountNumber) => get(`/v1/client-enquiry/${encodeURIComponent(accountNumber)}`, (s) => s.clientEnquiryAsRead),
    createIndividualClient: (body) => post('/v1/account/clients/individual', (s) => s.individualClientAsRead, body),
    createCorporateClient: (body) => post('/v1/account/clients/corporate', (s) => s.corporateClientAsRead, body),
    async raw(method, path, options = {}): Promise<RawResponse> {
      const upper = method.toUpperCase() as HttpMethod;
      if (!METHODS.includes(upper)) throw new UsageError(`unknown HTTP method ${JSON.stringify(method)}`, `use one of ${METHODS.join(', ')}`);
      if (!path.startsWith('/')) throw new UsageError(`the path must start with / (got ${JSON.stringify(path)})`, 'for example: fsapi api GET /v1/account');
      const answer = await send({ method: upper, path, json: options.json, searchParams: options.searchParams });
      let body: unknown = answer.text;
      try {
        body = answer.text.trim() === '' ? '' : (JSON.parse(answer.text) as unknown);
      } catch {
        // not JSON: returned as text
      }
      return { status: answer.status, headers: answer.headers, body };
    },
  };
}

/**
 * One request with the bearer token; on 401/403, one renewal and one more try, except for POST
 * /v1/transfer: its 401/403 is returned as it came, after the renewal its lookup will need.
 */
async function sendAuthenticated(http: Http, session: TokenSession, request: HttpRequest, movesMoney: boolean): Promise<HttpAnswer> {
  const token = await gettingToken(() => session.bearer());
  const answer = await http.send(withBearer(request, token));
  if (answer.status !== 401 && answer.status !== 403) return answer;
  if (movesMoney) {
    // The transfer may have been taken: never sent again. The renewal is for the lookup; when it fails,
    // the lookup says so (exit 5 with the reference), not this answer.
    await session.renewAfterRefusal(token).catch(() => undefined);
    return answer;
  }
  const renewed = await gettingToken(() => session.renewAfterRefusal(token));
  if (renewed === undefined) throw session.refusedError(answer.status, refusalMessage(answer, http));
  const second = await http.send(withBearer(request, renewed));
  if (second.status === 401 || second.status === 403) throw session.refusedError(second.status, refusalMessage(second, http));
  return second;
}

/**
 * A token, or the reason there is none. Any failure but AuthError becomes an ApiError without a status:
 * a status would read as the answer to the request the token was for, which was never sent.
 */
async function gettingToken<T>(get: () => Promise<T>): Promise<T> {
  try {
    return await get();
  } catch (error) {
    if (error instanceof ApiError) {
      throw new ApiError(`could not get a token: ${error.message}`, { hint: error.hint, cause: error });
    }
    throw error;
  }
}

/**
 * Whether a request may move money: any method but GET and HEAD that reaches the transfer endpoint,
 * however its path is spelled (src/api/target.ts decides that on the URL the transport sends). A path
 * whose target cannot be told counts as money-moving: it is then never repeated either.
 */
function mayMoveMoney(baseUrl: string | undefined, request: HttpRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  try {
    return reachesTransfer(resolveApiTarget(baseUrl, request.path, request.searchParams));
  } catch {
    return true;
  }
}

function refusalMessage(answer: HttpAnswer, http: Http): string | undefined {
  try {
    return apiMessage(readJson(answer, http.host));
  } catch {
    return undefined;
  }
}

function withBearer(request: HttpRequest, token: string): HttpRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
}

function queryOf(query: object): URLSearchParams | undefined {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.size > 0 ? params : undefined;
}
