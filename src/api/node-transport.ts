// A fetch-shaped function over node:http and node:https, handed to ky for remote profiles.
//
// Why not the global fetch: in Node 20 the first real fetch loads undici's connection machinery and
// compiles its WebAssembly HTTP parser, which costs more than everything else a one-request command does
// (about 580 million instructions against 511 million for all of `node -e 0`, measured with callgrind).
// node:http is already in the binary. ky still builds its Request and gets a standard Response back, so
// its timeout, retry and hook logic are unchanged.
//
// Answers are read whole before the Response is handed back: the API's answers are small JSON documents
// (a page of at most 100 records), and reading them here puts the body under ky's timeout as well.
import http, { type IncomingMessage } from 'node:http';
import type { RequestOptions } from 'node:https';

type HttpsModule = typeof import('node:https');
let httpsModule: Promise<HttpsModule> | undefined;
const agents = new Map<string, http.Agent>();

/** Keep-alive agents, so `tx list --all` reuses one connection for every page. */
function agentFor(protocol: string, https: HttpsModule | undefined): http.Agent {
  let agent = agents.get(protocol);
  if (!agent) {
    agent = protocol === 'https:' && https ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    agents.set(protocol, agent);
  }
  return agent;
}

export async function nodeHttpFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const url = new URL(request.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
  const https = url.protocol === 'https:' ? await (httpsModule ??= import('node:https')) : undefined;
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== undefined) headers['content-length'] = String(body.length);

  const signal = request.signal;
  signal.throwIfAborted();
  return new Promise<Response>((resolve, reject) => {
    const options: RequestOptions = { method: request.method, headers, agent: agentFor(url.protocol, https) };
    const send = https ? https.request : http.request;
    const outgoing = send(url, options, (incoming) => {
      readAll(incoming).then((bytes) => resolve(toResponse(incoming, bytes)), reject);
    });
    const onAbort = () => {
      outgoing.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', reject);
    outgoing.on('close', () => signal.removeEventListener('abort', onAbort));
    outgoing.end(body);
  });
}

function readAll(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      // A connection that closes before the declared length arrived is a broken answer, not a short one.
      if (!incoming.complete) reject(Object.assign(new Error('the connection closed in the middle of the answer'), { code: 'ECONNRESET' }));
      else resolve(Buffer.concat(chunks));
    });
    incoming.on('aborted', () => reject(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })));
    incoming.on('error', reject);
  });
}

const statusesWithoutBody = new Set([101, 204, 205, 304]);

function toResponse(incoming: IncomingMessage, bytes: Buffer): Response {
  const headers = new Headers();
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
  const status = incoming.statusCode ?? 502;
  return new Response(statusesWithoutBody.has(status) ? null : (bytes as Uint8Array<ArrayBuffer>), { status, statusText: incoming.statusMessage ?? '', headers });
}
