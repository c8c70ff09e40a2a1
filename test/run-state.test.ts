// What a run opens belongs to its Context and ends with it (src/runtime.ts runModule): a process that runs
// many commands (`fsapi mcp`, the tests) resets nothing between them. Here: the kept-alive connections of a
// run's transport (src/api/node-transport.ts createNodeTransport).
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { CommandModule } from '../src/commands/types.js';
import type { Context } from '../src/context.js';
import { createContext, runModule } from '../src/runtime.js';
import { makeHome } from './helpers/cli.js';
import { captureTerminal } from './helpers/context.js';

let server: http.Server;
let base: URL;
let serverConnections = 0;
const home = makeHome();

// Every socket a client in this process opens (node:net publishes it as it is made).
const clientSockets: Socket[] = [];
const onClientSocket = (message: unknown) => clientSockets.push((message as { socket: Socket }).socket);

before(async () => {
  diagnostics.subscribe('net.client.socket', onClientSocket);
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{"ok":true}'));
  });
  // Longer than the test: a connection that is closed was closed by the client.
  server.keepAliveTimeout = 60_000;
  server.on('connection', () => (serverConnections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
after(() => {
  diagnostics.unsubscribe('net.client.socket', onClientSocket);
  server.closeAllConnections();
  server.close();
  home.cleanup();
});

/** A command whose run asks the server twice through the run's own transport. */
const twoRequests: CommandModule = {
  default: Object.assign(
    async (ctx: Context) => {
      for (let i = 0; i < 2; i++) {
        const answer = await ctx.transport({
          method: 'GET',
          url: new URL('/v1/account', base),
          headers: {},
          body: undefined,
          signal: new AbortController().signal,
        });
        assert.equal(answer.status, 200);
      }
    },
    { spec: { path: 'test', summary: 'test', options: {}, exitCodes: [0] } as never },
  ),
};

async function runOnce(): Promise<Context> {
  const ctx = createContext({}, home.env, new Set(), { terminal: captureTerminal() });
  await runModule(ctx, twoRequests, {}, []);
  return ctx;
}

describe("a run's own state", () => {
  it('its kept-alive connection serves the whole run and is closed when the run ends, with nothing to reset', async () => {
    const before = clientSockets.length;
    await runOnce();
    const mine = clientSockets.slice(before);
    assert.equal(mine.length, 1, 'one connection for both requests');
    assert.equal(mine[0]!.destroyed, true, 'closed by the end of the run, not left for an idle timer');
  });

  it('the next run in the same process opens its own', async () => {
    const [sockets, connections] = [clientSockets.length, serverConnections];
    await runOnce();
    await runOnce();
    assert.equal(clientSockets.length - sockets, 2);
    assert.ok(clientSockets.slice(sockets).every((socket) => socket.destroyed));
    // The server answered on each, so it had accepted each.
    assert.equal(serverConnections - connections, 2);
  });
});
