// A registry of stubbed HTTP answers for in-process tests, in the manner of gh's httpmock registry
// (pkg/httpmock): each stub is a request it matches (method, path, and optionally a check of the JSON body)
// and the answer it gives (a status and a JSON or text body, or a failure of the connection). Its
// `transport` goes where node:http would (the run's Context, `transport` of runInProcess or createContext),
// so src/api/http.ts's deadlines, retries and error mapping run as they do against a real server.
//
// It fails the test two ways, both reported by `verify()`, which every test calls at its end:
//   - a request that no stub matches: the transport rejects it (the code under test sees a dropped
//     connection), and the request is remembered, so a caller that swallows the error does not hide it;
//   - a stub that was never used: what the test meant to happen did not.
// A stub answers one request unless given `times`; stubs are tried in the order they were registered,
// so the same request can be answered differently the first and the second time.
import { isDeepStrictEqual } from 'node:util';
import type { HttpMethod, Transport, WireAnswer, WireRequest } from '../../src/api/types.js';

/** A request as a stub's checks and dynamic answers see it. */
export interface StubbedRequest {
  method: HttpMethod;
  /** Path and query, as sent: `/v1/transactions?page=1`. */
  target: string;
  headers: Record<string, string>;
  /** The body parsed as JSON; undefined without a body, the text when it is not JSON. */
  json: unknown;
}

export type StubAnswer =
  /** An HTTP answer: `json` is sent as application/json, `text` as is (with `contentType`, text/plain by default). */
  | { status: number; json?: unknown; text?: string; contentType?: string; headers?: Record<string, string> }
  /** No answer: the connection fails with this code (ECONNRESET: dropped after the request left; ECONNREFUSED: never sent). */
  | { failure: 'ECONNRESET' | 'ECONNREFUSED' | 'ENOTFOUND' };

export interface StubOptions {
  /** The request's JSON body must be deep-equal to this, or (a function) make it return true. */
  body?: unknown;
  /** How many requests this stub answers; 1 unless given. */
  times?: number;
}

interface Stub {
  method: HttpMethod;
  /** A path with a `?` matches path and query exactly; one without matches the path whatever the query. */
  path: string;
  answer: StubAnswer | ((request: StubbedRequest) => StubAnswer);
  options: StubOptions;
  used: number;
}

export class HttpStubs {
  private readonly stubs: Stub[] = [];
  private readonly unmatched: string[] = [];
  /** Every request the transport was given, matched or not, in order: `POST /v1/transfer`. */
  readonly requests: string[] = [];

  /** Adds a stub; returns the registry so stubs can be chained. */
  register(method: HttpMethod, path: string, answer: Stub['answer'], options: StubOptions = {}): this {
    if (!path.startsWith('/')) throw new Error(`stub path ${path} must start with /`);
    this.stubs.push({ method, path, answer, options, used: 0 });
    return this;
  }

  /** What src/api/http.ts sends through (Context.transport). */
  readonly transport: Transport = async (wire: WireRequest): Promise<WireAnswer> => {
    const request = stubbedRequest(wire);
    const line = `${request.method} ${request.target}`;
    this.requests.push(line);
    // A turn of the event loop, as a real exchange takes: timers and signals get theirs in between.
    await new Promise((resolve) => setImmediate(resolve));
    wire.signal.throwIfAborted();
    const stub = this.stubs.find((candidate) => candidate.used < (candidate.options.times ?? 1) && matches(candidate, wire.url, request));
    if (!stub) {
      this.unmatched.push(line);
      throw Object.assign(new Error(`no stub matches ${line}`), { code: 'ECONNRESET' });
    }
    stub.used += 1;
    const answer = typeof stub.answer === 'function' ? stub.answer(request) : stub.answer;
    if ('failure' in answer) {
      if (answer.failure === 'ECONNRESET') wire.onSent?.();
      throw Object.assign(new Error(`stubbed ${answer.failure}`), { code: answer.failure });
    }
    wire.onSent?.();
    return wireAnswer(answer);
  };

  /** Throws, naming them, when a request matched no stub or a stub was not used as often as registered. */
  verify(): void {
    const problems: string[] = [];
    for (const line of this.unmatched) problems.push(`no stub matched ${line}`);
    for (const stub of this.stubs) {
      const times = stub.options.times ?? 1;
      if (stub.used < times) problems.push(`stub ${stub.method} ${stub.path} was used ${stub.used} of ${times} time(s)`);
    }
    if (problems.length > 0) throw new Error(`HTTP stubs: ${problems.join('; ')}`);
  }
}

function stubbedRequest(wire: WireRequest): StubbedRequest {
  let json: unknown;
  if (wire.body !== undefined) {
    const text = wire.body.toString('utf8');
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
  }
  return { method: wire.method, target: `${wire.url.pathname}${wire.url.search}`, headers: wire.headers, json };
}

function matches(stub: Stub, url: URL, request: StubbedRequest): boolean {
  if (stub.method !== request.method) return false;
  const sent = stub.path.includes('?') ? request.target : url.pathname;
  if (sent !== stub.path) return false;
  const { body } = stub.options;
  if (body === undefined) return true;
  return typeof body === 'function' ? Boolean((body as (json: unknown) => unknown)(request.json)) : isDeepStrictEqual(request.json, body);
}

function wireAnswer(answer: Extract<StubAnswer, { status: number }>): WireAnswer {
  const headers: Record<string, string> = {};
  let body = Buffer.alloc(0);
  if (answer.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = Buffer.from(JSON.stringify(answer.json));
  } else if (answer.text !== undefined) {
    headers['content-type'] = answer.contentType ?? 'text/plain';
    body = Buffer.from(answer.text);
  }
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  return { status: answer.status, headers, body };
}
