// The wire for remote profiles: one request over node:http or node:https, its answer read whole.
//
// Why not fetch (or ky, which is built on fetch's Request and Response): in Node 20 the first touch of
// `globalThis.Request`, `Response` or `Headers` loads undici, which costs about a third of Node's own
// start-up (`node -e 'globalThis.Request'` is 1.35x `node -e 0`, measured side by side), and its first real
// fetch compiles a WebAssembly HTTP parser on top. node:http is already in the binary. See docs/decisions.md.
//
// Answers are read whole before they are handed back: the API's answers are small JSON documents (a page
// of at most 100 records), and reading them inside the request keeps the body under the same deadline.
// Whole, but never without bound: an answer over MAX_ANSWER_BYTES (declared in Content-Length or counted
// as it arrives) is refused with AnswerTooLargeError and its connection destroyed at once, so a broken or
// hostile server cannot make fsapi hold gigabytes.
import type { Agent, IncomingMessage } from 'node:http';
import type { RequestOptions } from 'node:https';
import type { Transport, WireAnswer, WireRequest } from './types.js';

/** 16 MiB: a page of 100 transactions is about 150 KB; nothing the API sends comes near this. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The answer was over MAX_ANSWER_BYTES; what was read of it is dropped. */
export class AnswerTooLargeError extends Error {
  readonly code = 'EFSAPI_ANSWER_TOO_LARGE';
  constructor(
    readonly limit: number,
    readonly declared: number | undefined,
  ) {
    super(
      declared === undefined
        ? `the answer grew past the ${limit / (1024 * 1024)} MB limit`
        : `the answer declared ${declared} bytes, over the ${limit / (1024 * 1024)} MB limit`,
    );
  }
}

type HttpsModule = typeof import('node:https');
// A loaded module: the same for every run of the process, so it stays here.
let httpsModule: Promise<HttpsModule> | undefined;

/**
 * node:http, loaded with the first request: the runtime loads this module for every command, and one that
 * never calls the API (`transfer log`, `payees list`) would spend about 3 ms on it (docs/startup.md).
 */
const http = () => process.getBuiltinModule('node:http');

/**
 * How long a kept-alive connection may sit unused before fsapi closes it itself. A server closes idle
 * connections too (Node's after 5 s, saying so in `Keep-Alive: timeout=5`; Node 20's agent takes that
 * hint only to shorten a timeout of its own, and has none by default): a request written on a connection
 * the server is closing at that moment is reset before the server reads it. For POST /v1/transfer that is
 * an answer lost, an outcome unknown (exit 5), for a transfer that never left. Closing first, well inside
 * any server's keep-alive time, leaves no such moment; busy connections are reused as before.
 */
const IDLE_CONNECTION_MS = 2_000;

/** A transport with its own kept-alive connections, and how to close them. */
export interface NodeTransport extends Transport {
  /** Closes its kept-alive connections (a request after this opens new ones). */
  close(): void;
}

/**
 * A transport over node:http(s) whose keep-alive agents (so `tx list --all` reuses one connection for every
 * page) belong to it: a run's Context makes one and closes it when the run ends (src/runtime.ts), so a
 * process that runs many commands (`fsapi mcp`, the tests) leaves no connection of one run to the next
 * and has nothing to reset.
 */
export function createNodeTransport(): NodeTransport {
  const agents = new Map<string, Agent>();
  const agentFor = (protocol: string, https: HttpsModule | undefined): Agent => {
    let agent = agents.get(protocol);
    if (!agent) {
      // `timeout` closes free sockets only (the agent destroys a socket that times out while idle); a request
      // in progress is bounded by its own deadline (src/api/http.ts).
      const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
      agent = protocol === 'https:' && https ? new https.Agent(options) : new (http().Agent)(options);
      agents.set(protocol, agent);
    }
    return agent;
  };
  const close = () => {
    for (const agent of agents.values()) agent.destroy();
    agents.clear();
  };
  return Object.assign((request: WireRequest) => exchange(request, agentFor), { close });
}

/**
 * Two turns of the event loop, so that what happened to kept-alive connections while the process was busy
 * is known before one is picked. After a long synchronous stretch (a 100,000-row batch plans for seconds
 * between its last name enquiry and its first transfer) the server's close of an idle connection is
 * waiting, unread, and so is fsapi's own idle timer; a request started at once was written on that closed
 * connection and reset: every real 100,000-row run ended with its first 8 rows unknown (exit 5), transfers
 * that never left (bench/batch-size.mjs). The first turn ends the current phase, the second runs the
 * timers and the I/O poll that retire such connections. Microseconds when nothing is waiting.
 */
async function afterPendingEvents(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * The process's own transport, for what runs outside a command's Context (the simulator's notifications
 * while `fsapi simulator serve` lives): its connections last as long as the process.
 */
export const nodeTransport: Transport = createNodeTransport();

async function exchange(request: WireRequest, agentFor: (protocol: string, https: HttpsModule | undefined) => Agent): Promise<WireAnswer> {
  const { url, signal } = request;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
  const https = url.protocol === 'https:' ? await (httpsModule ??= import('node:https')) : undefined;
  await afterPendingEvents();
  signal.throwIfAborted();
  const headers = { ...request.headers };
  if (request.body !== undefined) headers['content-length'] = String(request.body.length);

  return new Promise<WireAnswer>((resolve, reject) => {
    const options: RequestOptions = { method: request.method, headers, agent: agentFor(url.protocol, https) };
    const send = https ? https.request : http().request;
    const finish = (settle: () => void) => {
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    // Set when the answer is refused as too large: the socket is then destroyed on purpose, and the
    // request's own error about that must not hide the reason.
    let refusal: AnswerTooLargeError | undefined;
    const outgoing = send(url, options, (incoming) => {
      readAll(incoming, MAX_ANSWER_BYTES, (error) => (refusal = error)).then(
        (body) => finish(() => resolve({ status: incoming.statusCode ?? 502, headers: headersOf(incoming), body })),
        (error: unknown) => finish(() => reject(error)),
      );
    });
    // Abort covers the whole exchange, the body included: the caller's deadline aborts it.
    function onAbort() {
      outgoing.destroy();
      reject(signal.reason);
    }
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (error) => finish(() => reject(refusal ?? error)));
    // 'finish': the whole request has been handed to the socket, the connection made.
    if (request.onSent) outgoing.once('finish', request.onSent);
    outgoing.end(request.body);
  });
}

function readAll(incoming: IncomingMessage, limit: number, onRefuse: (error: AnswerTooLargeError) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Destroying the socket (not just the response) also keeps a keep-alive agent from reusing a
    // connection that still has the rest of the huge body in flight.
    const refuse = (error: AnswerTooLargeError) => {
      onRefuse(error);
      reject(error);
      chunks.length = 0;
      incoming.removeAllListeners('data');
      incoming.socket?.destroy();
      incoming.destroy();
    };
    const declared = Number(incoming.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return refuse(new AnswerTooLargeError(limit, declared));
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return refuse(new AnswerTooLargeError(limit, undefined));
      chunks.push(chunk);
    });
    incoming.on('end', () => {
      // A connection that closes before the declared length arrived is a broken answer, not a short one.
      if (!incoming.complete) reject(Object.assign(new Error('the connection closed in the middle of the answer'), { code: 'ECONNRESET' }));
      else resolve(Buffer.concat(chunks));
    });
    incoming.on('aborted', () => reject(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })));
    incoming.on('error', reject);
  });
}

/** Header names in lower case; a repeated header's values joined with ", " as fetch's Headers does. */
function headersOf(incoming: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
    const name = incoming.rawHeaders[i]!.toLowerCase();
    const value = incoming.rawHeaders[i + 1]!;
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}
