// `simulator serve`: the same simulator over real HTTP (@hono/node-server on node:http).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { createSimulator, type ServableSimulator } from './index.js';
import type { SimulatorOptions } from './types.js';

// The in-process entry points, re-exported so callers can import everything from one module.
export { createSimulator, openLocalSimulator, resetLocalSimulator, SIMULATOR_CREDENTIALS } from './index.js';
export type { Simulator, SimulatorOptions, FaultMode, RequestLogEntry } from './types.js';

export interface RunningSimulator {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  simulator: ServableSimulator;
  /** Stops listening and ends every open connection, stalled ones included. */
  close(): Promise<void>;
}

/** Listens on `host:port` (port 0: a free one). Rejects with the listen error (EADDRINUSE, ...). */
export async function startSimulatorServer(options: SimulatorOptions & { port?: number; host?: string } = {}): Promise<RunningSimulator> {
  const { port = 0, host = '127.0.0.1', ...simulatorOptions } = options;
  const simulator = createSimulator(simulatorOptions);
  await simulator.ready();
  const server = createAdaptorServer({
    // Keep the process's own Request/Response: tests in the same process use the global fetch.
    overrideGlobalObjects: false,
    fetch: (request: Request, bindings: HttpBindings | Http2Bindings) => simulator.handle(request, { destroy: () => bindings.incoming.socket.destroy() }),
  }) as Server;

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });

  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    simulator,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Idle keep-alive sockets and stalled requests would keep close() waiting forever: cut them.
        server.closeAllConnections();
        await closed;
        // Bounded: deliveries give up after their tries.
        await simulator.flushWebhooks();
        // Last: every answer has been sent, so every acknowledged change is committed; closing
        // checkpoints the WAL into the database file.
        simulator.close();
      })()),
  };
}
