// The stdio transport of `fsapi mcp`: one JSON-RPC message a line on stdin, one a line on stdout. The SDK's
// own (StdioServerTransport) closes the connection when more than 10 MB wait in its buffer, and says nothing:
// the server ends, exit 0, with a payment perhaps under way and its answer never sent. Here a line over the
// limit is read no further (memory stays bounded: its first and last bytes are kept, nothing between) and
// is answered with a JSON-RPC error under its id, found at either end of the line; a line that is no JSON
// or no JSON-RPC message is answered as JSON-RPC says (parse error, invalid request). Either way the server
// goes on serving. When stdin ends, every request already delivered is still answered, then the transport
// closes (a payment under way finishes and its outcome is sent back).
import type { Readable } from 'node:stream';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The most a message may be, in bytes of its line (the SDK's stdio limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** What is kept of each end of a line over the limit, to find its id. */
const KEPT_END_BYTES = 4096;

/** JSON-RPC 2.0's error codes for a message that cannot be read. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

type RequestId = string | number;

/** Where the answers go: stdout, for the protocol alone. */
export interface LineOutput {
  write(line: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/** The SDK's Transport, as the Server uses it. */
export interface LineTransport {
  start(): Promise<void>;
  send(message: JSONRPCMessage): Promise<void>;
  close(): Promise<void>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
}

export class BoundedStdioTransport implements LineTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The current line so far, while it is within the limit. */
  private parts: Buffer[] = [];
  private size = 0;
  /** The current line is over the limit: only its ends are kept. */
  private over: { head: Buffer; tail: Buffer } | undefined;
  /** Requests delivered and not yet answered. */
  private readonly unanswered = new Set<RequestId>();
  private ended = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: LineOutput,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.once('end', this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const line = `${JSON.stringify(message)}\n`;
    await new Promise<void>((resolve) => {
      if (this.output.write(line)) resolve();
      else this.output.once('drain', () => resolve());
    });
    if (!('method' in message) && 'id' in message && message.id !== undefined && message.id !== null) {
      this.unanswered.delete(message.id);
      this.closeIfDone();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.input.pause();
    this.parts = [];
    this.over = undefined;
    this.onclose?.();
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onEnd = () => {
    // A last line without its newline is still a message.
    if (this.size > 0 || this.over) this.endLine();
    this.ended = true;
    this.closeIfDone();
  };

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
      this.addToLine(data.subarray(0, newline));
      this.endLine();
      data = data.subarray(newline + 1);
    }
    if (data.length > 0) this.addToLine(data);
  };

  private addToLine(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.over) {
      this.over.tail = lastBytes(Buffer.concat([this.over.tail, piece]), KEPT_END_BYTES);
      this.size += piece.length;
      return;
    }
    if (this.size + piece.length <= this.maxBytes) {
      // Copied: the chunk's memory is the stream's, and a line may span many chunks.
      this.parts.push(Buffer.from(piece));
      this.size += piece.length;
      return;
    }
    const sofar = Buffer.concat([...this.parts, piece]);
    this.over = { head: sofar.subarray(0, KEPT_END_BYTES), tail: lastBytes(sofar, KEPT_END_BYTES) };
    this.parts = [];
    this.size += piece.length;
  }

  private endLine(): void {
    const over = this.over;
    const size = this.size;
    const line = over ? undefined : Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    this.over = undefined;
    if (over) {
      const id = idAtEnds(over.head.toString('utf8'), over.tail.toString('utf8').replace(/\r$/, ''));
      this.refuse(
        id,
        INVALID_REQUEST,
        `the message is ${size} bytes, more than the ${this.maxBytes} bytes (${Math.round(this.maxBytes / 1024 / 1024)} MB) a message may be; it was not read, nothing was done`,
      );
      return;
    }
    if (line === undefined || line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.refuse(null, PARSE_ERROR, `the message is not JSON (${(error as Error).message}); nothing was done`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
      this.refuse(typeof id === 'string' || typeof id === 'number' ? id : null, INVALID_REQUEST, 'the message is not a JSON-RPC 2.0 message; nothing was done');
      return;
    }
    const message = parsed.data;
    if ('method' in message && 'id' in message && message.id !== undefined) this.unanswered.add(message.id);
    this.onmessage?.(message);
    // A request the client cancelled gets no answer (the SDK sends none); the server still lets it finish.
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.unanswered.delete(id);
      this.closeIfDone();
    }
  }

  /** An error answer that the Server never sees: the message it answers never reached it. */
  private refuse(id: RequestId | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    // JSON-RPC answers an unreadable message with the id null; the SDK's types want a request's id.
    void this.send({ jsonrpc: '2.0', id: id as RequestId, error: { code, message } });
  }

  private closeIfDone(): void {
    if (this.ended && this.unanswered.size === 0) void this.close();
  }
}

function lastBytes(buffer: Buffer, count: number): Buffer {
  return buffer.length <= count ? buffer : Buffer.from(buffer.subarray(buffer.length - count));
}

const ID_VALUE = String.raw`(-?[0-9]+|"(?:[^"\\]|\\.)*")`;
/** `"id": …` as the last member of the message (the SDK's clients write it last). */
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);
/** `"id": …` as the first member, or after "jsonrpc" (other clients write it first). */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);

/** The id of a message over the limit, from the bytes kept of its two ends; null when neither shows one. */
export function idAtEnds(head: string, tail: string): RequestId | null {
  const match = ID_LAST.exec(tail) ?? ID_FIRST.exec(head);
  if (!match) return null;
  const value = JSON.parse(match[1]!) as RequestId;
  return value;
}
