// The wire: one ky instance per run, pointed at the profile's base address or, for the `local` profile
// without one, at the in-process simulator (ky's `fetch` option is the simulator's own fetch, so the same
// code path, timeouts and error mapping serve both).
//
// What happens on the wire, and only here:
// - per-request timeout (--timeout); a timeout is never retried (it already cost the whole wait);
// - GET is retried at most twice, shortly, on network errors and 502/503/504; every other method is sent
//   exactly once (`retry: 0`), so POST /v1/transfer can never be sent twice by this layer;
// - redirects are not followed: a 3xx is reported, because following a 301/302 would turn a POST into a GET;
// - --verbose writes one stderr line per request actually sent (retries included): method, path with
//   query, status, milliseconds. Headers are never written, so neither the bearer token nor the consumer
//   secret of generate-token can appear;
// - a failure to get any answer becomes a TransportError: `network` (refused, dropped, DNS) or `timeout`.
// Reading the status and body into typed results and errors is src/api/answers.ts.
import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import type { Context } from '../context.js';
import { TransportError } from '../errors.js';
import { nodeHttpFetch } from './node-transport.js';

export const LOCAL_SIMULATOR_ORIGIN = 'http://local.simulator';
const RETRIED_STATUSES = [502, 503, 504];
const GET_RETRIES = 2;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface HttpRequest {
  method: HttpMethod;
  /** Below the base address, starting with `/`. */
  path: string;
  searchParams?: URLSearchParams;
  json?: unknown;
  headers?: Record<string, string>;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
}

export interface Http {
  /** The base address, or `local` for the in-process simulator. */
  readonly baseUrl: string;
  /** How messages name the other end: `127.0.0.1:4010`, `api.example.ng`, `the local simulator`. */
  readonly host: string;
  readonly inProcess: boolean;
  send(request: HttpRequest): Promise<HttpAnswer>;
}

let localNoteShown = false;

/** Writes the contract's yellow note once per run, whichever code first talks to the local simulator. */
export function noteLocalSimulator(ctx: Context): void {
  if (localNoteShown) return;
  localNoteShown = true;
  const text = 'local simulator: no real money moves';
  ctx.io.note(ctx.io.colorStderr ? `\u001b[33m${text}\u001b[39m` : text);
}

/**
 * `baseUrl` undefined means the in-process simulator (state in the data dir), loaded only then so that
 * commands against a real API never load the simulator's code.
 */
export async function createHttp(ctx: Context, baseUrl: string | undefined): Promise<Http> {
  // Remote profiles go over node:http (see node-transport.ts for why not the global fetch).
  let fetchFunction: typeof fetch = nodeHttpFetch;
  let origin: string;
  let host: string;
  if (baseUrl === undefined) {
    const { openLocalSimulator } = await import('../simulator/index.js');
    const simulator = openLocalSimulator(ctx.paths.dataDir, ctx.env);
    fetchFunction = async (input, init) => simulator.fetch(input instanceof Request ? input : new Request(input, init));
    origin = LOCAL_SIMULATOR_ORIGIN;
    host = 'the local simulator';
    noteLocalSimulator(ctx);
  } else {
    origin = baseUrl.replace(/\/+$/, '');
    host = new URL(origin).host;
  }

  const client: KyInstance = ky.create({
    fetch: ctx.globals.verbose ? logRequests(ctx, fetchFunction) : fetchFunction,
    timeout: ctx.globals.timeoutMs,
    redirect: 'manual',
    headers: { accept: 'application/json' },
  });

  const timeoutError = () =>
    new TransportError('timeout', `no answer from ${host} within ${formatSeconds(ctx.globals.timeoutMs)}`, {
      hint: 'try again, or allow longer with --timeout <seconds>',
    });

  return {
    baseUrl: baseUrl ?? 'local',
    host,
    inProcess: baseUrl === undefined,
    async send(request) {
      const isGet = request.method === 'GET';
      let response: Response;
      try {
        response = await client(`${origin}${request.path}`, {
          method: request.method,
          searchParams: request.searchParams,
          json: request.json,
          headers: request.headers,
          // Only GET is retried, and only on network errors and gateway failures: ky retries on an
          // HTTPError, so GET throws for those statuses and the last answer is read from the error below.
          retry: isGet
            ? { limit: GET_RETRIES, methods: ['get'], statusCodes: RETRIED_STATUSES, afterStatusCodes: [], delay: (attempt) => 250 * attempt, backoffLimit: 1000 }
            : 0,
          throwHttpErrors: isGet ? (status) => RETRIED_STATUSES.includes(status) : false,
        });
      } catch (error) {
        if (error instanceof HTTPError) response = error.response;
        else if (error instanceof TimeoutError) throw timeoutError();
        else throw networkError(host, error, baseUrl === undefined);
      }
      // ky's timeout stops at the headers; a body that trickles or stalls is bounded here.
      const text = await withDeadline(response.text(), ctx.globals.timeoutMs, timeoutError).catch((error: unknown) => {
        if (error instanceof TransportError) throw error;
        throw new TransportError('network', `the connection to ${host} broke while reading the answer (HTTP ${response.status})`, {
          cause: error,
          hint: 'check your connection and try again',
        });
      });
      return { status: response.status, headers: response.headers, contentType: response.headers.get('content-type') ?? '', text };
    },
  };
}

function networkError(host: string, error: unknown, inProcess: boolean): TransportError {
  if (inProcess) {
    const detail = error instanceof Error ? error.message : String(error);
    return new TransportError('network', `the local simulator failed: ${detail}`, { cause: error, hint: 'run again with --verbose for details' });
  }
  const code = errorCode(error);
  const hint = 'check the base URL (fsapi auth status) and your connection';
  switch (code) {
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return new TransportError('network', `the connection to ${host} dropped before an answer came`, { cause: error, hint });
    case 'ECONNREFUSED':
      return new TransportError('network', `cannot reach ${host} (connection refused)`, { cause: error, hint });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new TransportError('network', `cannot reach ${host} (host not found)`, { cause: error, hint });
    default:
      return new TransportError('network', `cannot reach ${host} (${code ?? describe(error)})`, { cause: error, hint });
  }
}

/** undici wraps the system error: TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }). */
function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** Wraps fetch to write one --verbose line per request on the wire. Never headers, never bodies. */
function logRequests(ctx: Context, fetchFunction: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const target = `${request.method} ${url.pathname}${url.search}`;
    const started = performance.now();
    const elapsed = () => `${Math.round(performance.now() - started)} ms`;
    try {
      const response = await fetchFunction(input, init);
      ctx.io.note(`http: ${target} -> ${response.status} (${elapsed()})`);
      return response;
    } catch (error) {
      const outcome = request.signal.aborted ? 'no answer, gave up' : `failed: ${errorCode(error) ?? describe(error)}`;
      ctx.io.note(`http: ${target} -> ${outcome} (${elapsed()})`);
      throw error;
    }
  };
}

function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
