// The team store's connection (src/store/postgres.ts): one PostgreSQL client in a worker thread, which the
// main thread asks one statement at a time and waits for synchronously (Atomics.wait), so the store keeps
// the synchronous interface the SQLite store has. Built into its own bundle, dist/postgres-worker.cjs, with
// the `pg` driver: only a process that uses a team store loads either.
//
// The connection lives as long as the process: the session-level advisory lock of a sending run
// (src/store/process-lock.ts) is held on it, and the server lets go of that lock the moment the connection
// ends. So a lost connection is never replaced by a new one: every later statement fails, and the run
// stops sending (a new connection would not hold the run's lock, and another machine would find the run
// dead while it still sends).
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import pg from 'pg';

export interface WorkerSetup {
  /** Int32Array over it: [0] is set to 1 when an answer is posted. */
  signal: SharedArrayBuffer;
  port: MessagePort;
  url: string;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** Seconds of silence before the server probes a vanished client, between probes, and probes lost. */
  keepalive: { idle: number; interval: number; count: number };
}

export type WorkerRequest =
  | { op: 'connect' }
  | {
      op: 'query';
      text: string;
      params: Array<string | number | null>;
      /** Statements without parameters to run first, in order (a read transaction's BEGIN or COMMIT). */
      before?: string[];
    }
  | { op: 'close' };

export type WorkerAnswer =
  | { ok: true; rows: Array<Record<string, string | number | null>>; rowCount: number }
  | { ok: false; message: string; code: string | undefined; lost: boolean };

// int8 (counts, ms times, kobo) as numbers: fsapi's integers stay far below 2^53, and one that does not
// is an error rather than a rounded number, as node:sqlite does.
pg.types.setTypeParser(20, (text: string) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`integer ${text} is past 2^53`);
  return value;
});

// sslmode=require (and prefer, verify-ca) in the URL: the driver verifies the server's certificate and name,
// as verify-full does (docs/team.md says so), and says so in a warning on every run. That one warning is
// dropped: fsapi's stderr is the user's, and the stricter check is the one fsapi wants.
const emitWarning = process.emitWarning;
process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
  const text = typeof warning === 'string' ? warning : warning.message;
  if (/SSL modes .* are treated as aliases for 'verify-full'/.test(text)) return;
  return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
} as typeof process.emitWarning;

if (parentPort && workerData) serve(workerData as WorkerSetup);

function serve(setup: WorkerSetup): void {
  const flag = new Int32Array(setup.signal);
  const port = setup.port;
  let client: pg.Client | undefined;
  let lost: string | undefined;

  const answer = (reply: WorkerAnswer) => {
    port.postMessage(reply);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  const failure = (error: unknown): WorkerAnswer => {
    const code = (error as { code?: unknown }).code;
    return { ok: false, message: (error as Error).message ?? String(error), code: typeof code === 'string' ? code : undefined, lost: lost !== undefined };
  };

  const connect = async () => {
    const made = new pg.Client({
      connectionString: setup.url,
      connectionTimeoutMillis: setup.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: setup.keepalive.idle * 1000,
      statement_timeout: setup.statementTimeoutMs,
      lock_timeout: setup.statementTimeoutMs,
      application_name: 'fsapi',
    });
    made.on('error', (error) => {
      lost = error.message;
    });
    made.on('end', () => {
      lost ??= 'the server closed the connection';
    });
    await made.connect();
    // The server's side of liveness: a machine that vanishes (power cut, cable) without closing its
    // connection is probed, and its session (and the locks held on it) ended, within about
    // idle + interval x count seconds.
    await made.query(
      `SET tcp_keepalives_idle = ${setup.keepalive.idle}; SET tcp_keepalives_interval = ${setup.keepalive.interval}; SET tcp_keepalives_count = ${setup.keepalive.count}`,
    );
    client = made;
  };

  port.on('message', async (request: WorkerRequest) => {
    try {
      if (request.op === 'close') {
        await client?.end().catch(() => undefined);
        client = undefined;
        answer({ ok: true, rows: [], rowCount: 0 });
        return;
      }
      if (lost !== undefined) {
        answer({ ok: false, message: `the connection was lost (${lost})`, code: 'connection_lost', lost: true });
        return;
      }
      if (request.op === 'connect') {
        await connect();
        answer({ ok: true, rows: [], rowCount: 0 });
        return;
      }
      if (!client) throw Object.assign(new Error('not connected'), { code: 'connection_lost' });
      for (const text of request.before ?? []) await client.query(text);
      const result = await client.query({ text: request.text, values: request.params });
      answer({ ok: true, rows: result.rows, rowCount: result.rowCount ?? 0 });
    } catch (error) {
      answer(failure(error));
    }
  });
}
