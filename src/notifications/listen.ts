// The HTTP side of `webhook listen` (node:http: it gives exact control of the body limit and of answering
// before a large body is read). It answers every request and never lets one crash the process:
//   wrong path                     404      wrong method (path right)   405 (Allow: POST)
//   body over the limit            413      body not UTF-8 JSON         400
//   JSON, not a notification (no event; a collection of the wrong shape or unreadable amount)   422
//   a well-formed notification     200, but only after `accept` has recorded it durably (an event of
//                                  another kind too: the sender must not retry it forever);
//                                  500 when it could not (the sender will try again); 503 with
//                                  Retry-After when too many wait to be recorded (src/notifications/intake.ts)
//   while shutting down            503 (Connection: close)
// The Content-Type header is not required: `curl -d @event.json` sends form encoding, and the body is
// what matters.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExitCode, FsapiError } from '../errors.js';
import { ListenerBusyError } from './intake.js';
import { parseNotification, type ParsedNotification } from './verify.js';

export interface Rejection {
  /** The status answered; 0 when the connection was gone and nothing could be answered. */
  status: number;
  method: string;
  path: string;
  remote: string;
  detail: string;
}

export type WellFormed = Extract<ParsedNotification, { ok: true }>;

export interface ListenerOptions {
  host: string;
  port: number;
  /** The one path notifications are posted to, e.g. `/` or `/hooks/fsapi`. */
  path: string;
  maxBodyBytes: number;
  /**
   * Records the notification durably (settles once it is committed). Must throw when it could not: the
   * sender then gets 500, or 503 for a ListenerBusyError (the store is behind: try again shortly).
   */
  accept(body: Buffer, text: string, parsed: WellFormed): Promise<void>;
  /** Told of every request that was not accepted, for the stderr log. */
  rejected(rejection: Rejection): void;
}

export interface RunningListener {
  /** `http://host:port/path`, as a sender should be told. */
  readonly url: string;
  readonly port: number;
  /** Stops taking requests (new ones get 503) and closes idle connections. */
  stopAccepting(): void;
  /** Closes the server and every connection. */
  close(): Promise<void>;
}

/** Bodies of rejected requests are read and dropped up to this much, so the client can read our answer. */
const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

export async function startListener(options: ListenerOptions): Promise<RunningListener> {
  let accepting = true;
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const detail = `internal error: ${error instanceof Error ? error.message : String(error)}`;
      options.rejected({ status: 500, method: request.method ?? '?', path: request.url ?? '?', remote: remoteOf(request), detail });
      if (!response.headersSent) answer(response, 500, 'internal error', { Connection: 'close' });
      request.resume();
    });
  });
  server.requestTimeout = 60_000;
  server.on('clientError', (_error, socket) => {
    // Malformed HTTP: answer 400 if the socket still takes it, never crash.
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? '';
    const rawPath = request.url ?? '/';
    const remote = remoteOf(request); // read now: a socket that hangs up forgets its address
    const pathname = pathOf(rawPath);
    const reject = (status: number, detail: string, headers: Record<string, string> = {}) => {
      options.rejected({ status, method, path: rawPath, remote, detail });
      answer(response, status, detail, headers);
      discard(request);
    };

    if (!accepting) return reject(503, 'shutting down', { Connection: 'close' });
    if (pathname !== options.path) return reject(404, `no notifications at ${pathname} (they go to ${options.path})`);
    if (method !== 'POST') return reject(405, `${method} is not allowed; notifications are POSTed`, { Allow: 'POST' });

    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      return reject(413, `body of ${declared} bytes is over the ${options.maxBodyBytes}-byte limit`);
    }
    let body: Buffer | 'too-large';
    try {
      body = await readBody(request, options.maxBodyBytes);
    } catch {
      // Nobody is left to answer; nothing was recorded, so the sender's retry is safe.
      options.rejected({ status: 0, method, path: rawPath, remote, detail: 'the sender hung up before the body was complete' });
      return;
    }
    if (body === 'too-large') return reject(413, `body is over the ${options.maxBodyBytes}-byte limit`);

    let text: string;
    try {
      // fatal: a body that is not valid UTF-8 is not JSON; ignoreBOM keeps a BOM so JSON.parse refuses it.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    } catch {
      return reject(400, 'body is not UTF-8 text');
    }
    const parsed = parseNotification(text);
    if (!parsed.ok) return reject(parsed.reason === 'not-json' ? 400 : 422, parsed.detail);

    try {
      await options.accept(body, text, parsed);
    } catch (error) {
      if (error instanceof ListenerBusyError) return reject(503, error.message, { 'Retry-After': '1' });
      return reject(500, `could not record the event: ${error instanceof Error ? error.message : String(error)}`);
    }
    answer(response, 200, 'received');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, options.host, options.port);
  });
  // After start-up, a server error (rare: the socket failing) is reported, not thrown into nowhere.
  server.on('error', (error) => options.rejected({ status: 0, method: '-', path: '-', remote: '-', detail: `server error: ${error.message}` }));

  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostForUrl}:${address.port}${options.path}`,
    port: address.port,
    stopAccepting() {
      accepting = false;
      server.close();
      server.closeIdleConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        accepting = false;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): FsapiError {
  switch (error.code) {
    case 'EADDRINUSE':
      return new FsapiError(`port ${port} on ${host} is already in use`, {
        exitCode: ExitCode.failed,
        hint: 'stop the program using it, or choose another port with --port',
      });
    case 'EACCES':
      return new FsapiError(`not allowed to listen on port ${port}`, { exitCode: ExitCode.failed, hint: 'ports below 1024 need privileges; use --port 8787' });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new FsapiError(`cannot listen on ${host}: no such local address`, {
        exitCode: ExitCode.failed,
        hint: 'use --host 127.0.0.1, or 0.0.0.0 for every interface',
      });
    default:
      return new FsapiError(`cannot listen on ${host}:${port}: ${error.message}`, { exitCode: ExitCode.failed });
  }
}

/** Reads the body, or 'too-large' as soon as it passes the limit (the rest is then dropped as it comes). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.off('end', onEnd);
        chunks.length = 0;
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size));
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', reject);
    // A sender that hangs up mid-body: nothing to answer, nothing recorded (no-op once resolved).
    request.once('close', () => reject(new Error('the sender closed the connection before the body was complete')));
  });
}

/** Reads and drops what is left of a request body, up to a limit, then drops the connection. */
function discard(request: IncomingMessage): void {
  if (request.complete) return;
  let dropped = 0;
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_LIMIT_BYTES) request.destroy();
  });
  request.resume();
}

function answer(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ success: status === 200, message });
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://listener.invalid').pathname;
  } catch {
    return url;
  }
}

function remoteOf(request: IncomingMessage): string {
  return request.socket.remoteAddress ?? '?';
}
