// Kept-alive connections (src/api/node-transport.ts): reused while busy, closed by fsapi once idle, before
// any server's keep-alive time runs out. A request written on a connection the server is closing at that
// moment is reset unread; for POST /v1/transfer that is an outcome unknown for a transfer that never left.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { nodeTransport } from '../src/api/node-transport.js';

let server: http.Server;
let base: URL;
const connections: Array<{ socket: Socket; closedAt?: number; closedByClient?: boolean }> = [];

before(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{"ok":true}'));
  });
  // Longer than any test waits: a connection that closes did so because the client closed it.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    const entry: (typeof connections)[number] = { socket };
    connections.push(entry);
    socket.on('end', () => (entry.closedByClient = true)); // the client's FIN
    socket.on('close', () => (entry.closedAt = Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const get = () => nodeTransport({ method: 'GET', url: new URL('/v1/account', base), headers: {}, body: undefined, signal: new AbortController().signal });

describe('kept-alive connections', () => {
  it('a second request right after the first reuses its connection; once idle, fsapi closes it itself', async () => {
    const first = await get();
    assert.equal(first.status, 200);
    await get();
    assert.equal(connections.length, 1, 'one connection for both requests');
    const idleSince = Date.now();
    const deadline = idleSince + 20_000;
    while (connections[0]!.closedAt === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(connections[0]!.closedAt !== undefined, 'the idle connection was closed well before the server would have (60 s)');
    assert.equal(connections[0]!.closedByClient, true, 'closed by the client, not the server');
  });
});
