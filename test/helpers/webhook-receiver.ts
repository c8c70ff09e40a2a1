// A stand-in for the app a simulator posts its notifications to: a server on 127.0.0.1 that keeps every
// JSON body it receives, in order, and answers `ok`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  /** The bodies received so far, parsed. */
  received: Array<Record<string, unknown>>;
  /** Where to post: `http://127.0.0.1:<port>/hook`. */
  url: string;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { received, url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
