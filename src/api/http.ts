// The wire: one Http per run, pointed at the profile's base address through the run's transport
// (ctx.transport: node:http, node-transport.ts, unless a test gives stubbed answers), or, for the `local`
// profile without one, at the in-process simulator's fetch. Both are a Transport, so the same timeouts,
// retries and error mapping serve both.
//
// What happens on the wire, and only here:
// - a deadline per request (--timeout) covering the answer's headers and body; a timeout is never retried
//   (it already cost the whole wait);
// - GET is retried at most twice, shortly, on network errors and 502/503/504; every other method is sent
//   exactly once, so POST /v1/transfer can never be sent twice by this layer;
// - a 429 (rate limit) to a request that moves no money (GET, the name enquiry, the token) waits for the
//   API's Retry-After, else backs off, and asks again, bounded, with one progress line on stderr; a 429
//   to anything else, POST /v1/transfer above all, is handed back as it came: it proves nothing about
//   the transfer (src/transfers/refusal-proof.ts), which is looked up by reference before anything else;
// - redirects are not followed: a 3xx is reported, because following a 301/302 would turn a POST into a GET;
// - --verbose writes one stderr line per request actually sent (retries included): method, path with
//   query, status, milliseconds. Headers are never written, so neither the bearer token nor the consumer
//   secret of generate-token can appear;
// - a failure to get any answer becomes a TransportError: `network` (refused, dropped, DNS) or `timeout`.
// Reading the status and body into typed results and errors is src/api/answers.ts.
//
// This layer is written here rather than on ky because ky is built on fetch's Request and Response, whose
// first use loads undici and costs a third of Node's start-up on every command (docs/decisions.md).
import type { Clock, GlobalOptions, IO, RunState } from '../run-types.js';
import { FsapiError, TransportError } from '../errors.js';
import { API_GET_RETRY, API_RATE_LIMIT, Backoff, retryAfterMs, SENT_ONCE } from '../common/retry.js';
import { DeadlineExceeded, describeError, errorCode, exchangeWithin, formatSeconds } from './exchange.js';
import { AnswerTooLargeError } from './node-transport.js';
// The shapes of a request and its answer live in ./types.ts: src/context.ts needs them, and this module
// needs the context.
import type { Http, HttpRequest, LocalApi, Transport, WireAnswer, WireRequest } from './types.js';
export type { AnswerHeaders, Http, HttpAnswer, HttpMethod, HttpRequest, Transport, WireAnswer, WireRequest } from './types.js';

export const LOCAL_SIMULATOR_ORIGIN = 'http://local.simulator';
const RETRIED_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Writes the contract's yellow note once per run, whichever code first talks to the local simulator. */
export function noteLocalSimulator(ctx: Pick<HttpContext, 'io' | 'run'>): void {
  if (ctx.run.saidOnce.has('local simulator')) return;
  ctx.run.saidOnce.add('local simulator');
  const text = 'local simulator: no real money moves';
  ctx.io.note(ctx.io.colorStderr ? `\u001b[33m${text}\u001b[39m` : text);
}

/** What every request's path is appended to: the base address without trailing slashes, or the simulator's. */
export function requestOrigin(baseUrl: string | undefined): string {
  return baseUrl === undefined ? LOCAL_SIMULATOR_ORIGIN : baseUrl.replace(/\/+$/, '');
}

/**
 * The URL a request goes to, exactly as the transport sends it (dot segments resolved, as URL does).
 * `fsapi api` checks this very URL before sending (src/api/target.ts): the check and the wire cannot differ.
 */
export function requestUrl(origin: string, path: string, searchParams?: URLSearchParams): URL {
  const url = new URL(`${origin}${path}`);
  for (const [name, value] of searchParams ?? []) url.searchParams.append(name, value);
  return url;
}

/** What the HTTP stack needs of a run (a Context has it all). */
export interface HttpContext {
  io: Pick<IO, 'note' | 'colorStderr'>;
  globals: Pick<GlobalOptions, 'timeoutMs' | 'verbose'>;
  clock: Clock;
  /** Requests to a base address: node:http, or a test's stubbed answers. */
  transport: Transport;
  /** Opens the in-process simulator of the run's data dir (loaded only then). */
  openLocalApi(): Promise<LocalApi>;
  /** The run's notes said once, and what it closes when it ends (the in-process simulator). */
  run: RunState;
}

/**
 * `baseUrl` undefined means the in-process simulator (state in the data dir), loaded only then so that
 * commands against a real API never load the simulator's code.
 */
export async function createHttp(ctx: HttpContext, baseUrl: string | undefined): Promise<Http> {
  let transport: Transport = ctx.transport;
  let origin: string;
  let host: string;
  if (baseUrl === undefined) {
    const simulator = await ctx.openLocalApi();
    ctx.run.onEnd(() => simulator.close());
    transport = fetchTransport(simulator.fetch);
    origin = requestOrigin(baseUrl);
    host = 'the local simulator';
    noteLocalSimulator(ctx);
  } else {
    origin = requestOrigin(baseUrl);
    host = new URL(origin).host;
  }
  const inProcess = baseUrl === undefined;
  const timeoutMs = ctx.globals.timeoutMs;

  /** One try: the whole exchange under the deadline, and one --verbose line. */
  async function attempt(wire: Omit<WireRequest, 'signal'>, target: string): Promise<WireAnswer> {
    // Date.now, not performance.now: the global `performance` loads perf_hooks, for milliseconds shown only with --verbose.
    const started = Date.now();
    const verbose = (outcome: string) => {
      if (ctx.globals.verbose) ctx.io.note(`http: ${target} -> ${outcome} (${Date.now() - started} ms)`);
    };
    try {
      const answer = await exchangeWithin(transport, wire, timeoutMs);
      verbose(String(answer.status));
      return answer;
    } catch (error) {
      if (error instanceof DeadlineExceeded) {
        verbose('no answer, gave up');
        throw new TransportError('timeout', `no answer from ${host} within ${formatSeconds(timeoutMs)}`, {
          hint: 'try again, or allow longer with --timeout <seconds>',
        });
      }
      verbose(`failed: ${errorCode(error) ?? describeError(error)}`);
      // The in-process simulator's own refusals (a corrupt or locked state file) are already clear.
      if (inProcess && error instanceof FsapiError) throw error;
      // 'unreadable', not 'network': never retried (it would fetch the huge body again), and for POST
      // /v1/transfer an answer nobody could read leaves the outcome unknown.
      if (error instanceof AnswerTooLargeError) {
        throw new TransportError('unreadable', `answer from ${host} refused: ${error.message}`, {
          cause: error,
          hint: 'the base URL may point at something that is not the API (fsapi auth status)',
        });
      }
      throw networkError(host, error, inProcess);
    }
  }

  return {
    baseUrl: baseUrl ?? 'local',
    host,
    inProcess,
    async send(request) {
      const url = requestUrl(origin, request.path, request.searchParams);
      const headers: Record<string, string> = { accept: 'application/json' };
      for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
      let body: Buffer | undefined;
      if (request.json !== undefined) {
        body = Buffer.from(JSON.stringify(request.json));
        headers['content-type'] = 'application/json';
      }
      const wire = { method: request.method, url, headers, body, onSent: request.onSent };
      const target = `${request.method} ${url.pathname}${url.search}`;
      // Two loops' waits, counted apart: failures (a GET only) and 429s (a request that moves no money).
      const failures = new Backoff(request.method === 'GET' ? API_GET_RETRY : SENT_ONCE, { clock: ctx.clock });
      const rateLimits = movesNoMoney(request) ? new Backoff(API_RATE_LIMIT, { clock: ctx.clock }) : undefined;

      for (;;) {
        // The caller's last word (after the token, the queue, a wait): thrown before anything left.
        request.mayLeave?.();
        let answer: WireAnswer;
        try {
          answer = await attempt(wire, target);
        } catch (error) {
          const retryable = error instanceof TransportError && error.kind === 'network' && !inProcess;
          if (!retryable || !(await failures.wait())) throw error;
          continue;
        }
        // A 429 is not a refusal: a request that moves no money waits and asks again (bounded). Any other
        // 429 (POST /v1/transfer above all) goes back to the caller, who looks the transfer up.
        const waitMs = answer.status === 429 ? rateLimits?.next(retryAfterMs(answer.headers['retry-after'], Date.now())) : undefined;
        if (waitMs !== undefined) {
          noteRateLimit(ctx, `rate limited by ${host}: waiting ${formatSeconds(waitMs)} before asking again (${request.method} ${url.pathname})`);
          await ctx.clock.sleep(waitMs);
          continue;
        }
        if (RETRIED_STATUSES.has(answer.status) && (await failures.wait())) continue;
        return {
          status: answer.status,
          headers: answer.headers,
          contentType: answer.headers['content-type'] ?? '',
          text: answer.body.toString('utf8'),
        };
      }
    },
  };
}

// ---- rate limits (HTTP 429) ------------------------------------------------------------------------------

/** Every GET, the name enquiry and the token request: asking again cannot move money. */
function movesNoMoney(request: HttpRequest): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.path === '/v1/transfer/name-enquiry' || request.path === '/v1/generate-token';
}

/** The progress line, at most one every 2 s per run, so many waiting requests do not read as many failures. */
function noteRateLimit(ctx: Pick<HttpContext, 'io' | 'run'>, line: string): void {
  const now = Date.now();
  if (now - ctx.run.lastRateLimitNoteMs < 2000) return;
  ctx.run.lastRateLimitNoteMs = now;
  ctx.io.note(line);
}

/** A Transport over a fetch function: the in-process simulator's. */
function fetchTransport(fetchFunction: (request: Request) => Promise<Response>): Transport {
  return async ({ method, url, headers, body, signal, onSent }) => {
    onSent?.(); // in process: nothing to wait for
    // The simulator answers in process through promises alone: without a turn of the event loop here, a
    // batch's thousands of requests ran as one endless chain of microtasks, so no timer, signal (Ctrl-C)
    // or progress redraw got a turn, and V8 kept every WeakRef target of the run alive (undici's Request
    // makes one per request) until the chain ended: 166 MB for 20,000 name enquiries instead of 100 MB.
    await new Promise((resolve) => setImmediate(resolve));
    const response = await fetchFunction(new Request(url, { method, headers, body: body && new Uint8Array(body), signal, redirect: 'manual' }));
    const answerBody = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: Object.fromEntries(response.headers), body: answerBody };
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
      return new TransportError('network', `cannot reach ${host} (${code ?? describeError(error)})`, { cause: error, hint });
  }
}
