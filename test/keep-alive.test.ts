// Kept-alive connections (src/api/node-transport.ts): reused while busy, closed by fsapi once idle, before
// any server's keep-alive time runs out. A request written on a connection the server is closing at that
// moment is reset unread; for POST /v1/transfer that is an outcome unknown for a transfer that never left.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
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

describe('after a long synchronous stretch', () => {
  let child: ChildProcess;
  let remote: URL;
  before(async () => {
    // In another process: its keep-alive timer runs while this one is blocked, as a real server's does.
    // 2 s: it announces `Keep-Alive: timeout=2`, and Node's agent reuses a connection only when the
    // announced time leaves it a second.
    const script = `
      const http = require('node:http');
      const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end('{"ok":true}')); });
      server.keepAliveTimeout = 2000;
      server.listen(0, '127.0.0.1', () => console.log(server.address().port));
    `;
    child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [data] = (await once(child.stdout!, 'data')) as [Buffer];
    remote = new URL(`http://127.0.0.1:${String(data).trim()}/`);
  });
  after(() => child.kill());

  it("POSTs right after the process was busy past the server's keep-alive time go on live connections", async () => {
    const send = (method: 'GET' | 'POST') =>
      nodeTransport({
        method,
        url: new URL('/v1/transfer', remote),
        headers: {},
        body: method === 'POST' ? Buffer.from('{}') : undefined,
        signal: new AbortController().signal,
      });
    // Four kept-alive connections, as a batch's name enquiries leave them.
    assert.deepEqual(
      (await Promise.all([send('GET'), send('GET'), send('GET'), send('GET')])).map((answer) => answer.status),
      [200, 200, 200, 200],
    );
    // Busy, with no turn of the event loop, well past the server's keep-alive time: it closes them meanwhile.
    const until = Date.now() + 5_000;
    while (Date.now() < until) {
      /* a planning stage's synchronous work */
    }
    const posts = await Promise.allSettled([send('POST'), send('POST'), send('POST'), send('POST')]);
    assert.deepEqual(
      posts.map((post) => (post.status === 'fulfilled' ? post.value.status : (post.reason as Error).message)),
      [200, 200, 200, 200],
      'no POST was written on a connection the server had closed',
    );
  });
});
