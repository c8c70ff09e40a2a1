// tx list --all streams: a reader that stops reading holds the paging back (stdout backpressure), and a
// reader that goes away (`| head`) ends the listing quietly with no further requests. 3,000 rows at 100 a
// page is 30 pages and about 3 MB of JSON, far more than a pipe holds.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { PassThrough, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { cliPath, repoRoot } from './helpers/cli.js';
import { openBooks, readAll, type Books } from './tx-support.js';
import { BANKS, BUSINESS } from '../src/simulator/data.js';
import type { Context } from '../src/context.js';
import { streamPages } from '../src/ui/stream.js';

const ROWS = 3000;
const PAGES = ROWS / 100;
let books: Books;

before(async () => {
  books = await openBooks({ seedTransactions: ROWS });
});
after(async () => books?.stop());

function startListing() {
  const env: NodeJS.ProcessEnv = { ...process.env, ...books.env };
  for (const key of ['FSAPI_TOKEN', 'FSAPI_BASE_URL', 'FSAPI_VERBOSE', 'NO_COLOR', 'FORCE_COLOR']) delete env[key];
  const child = spawn(process.execPath, [cliPath, '--json', 'tx', 'list', '--all'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 128)));
  const killTimer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  void exited.then(() => clearTimeout(killTimer));
  return { child, exited, stderr: () => stderr };
}

const pagesRequested = () => books.queries('/v1/transactions').length;

/**
 * Waits (bounded: 20 s) until the listing has sent its first request and the count has then stopped
 * changing for 0.6 s, and returns it. A slow machine only makes the count smaller, never larger.
 */
async function settledRequestCount(): Promise<number> {
  let last = -1;
  let stableFor = 0;
  for (let i = 0; i < 200 && stableFor < 6; i += 1) {
    await sleep(100);
    const now = pagesRequested();
    stableFor = now === last && now > 0 ? stableFor + 1 : 0;
    last = now;
  }
  return last;
}

describe('tx list --all and a slow or closed reader', () => {
  it('stops asking for pages while nobody reads, and finishes once reading resumes', { timeout: 90_000 }, async () => {
    books.clearRequests();
    const { child, exited, stderr } = startListing();
    child.stdout.pause();
    const whileBlocked = await settledRequestCount();
    assert.ok(whileBlocked >= 1, 'the listing started');
    assert.ok(whileBlocked <= 5, `${whileBlocked} of ${PAGES} pages requested while stdout was not read: output is piling up in memory`);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    assert.equal(await exited, 0, stderr());
    assert.equal((JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[]).length, ROWS);
    assert.equal(pagesRequested(), PAGES + 1, 'every page, then the empty one after the last full page');
  });

  it('exports each row once when a transfer lands half-way and pushes the later pages down', { timeout: 90_000 }, async () => {
    books.clearRequests();
    const before = (await readAll<{ reference: string }>(books, '/v1/transactions')).map((tx) => tx.reference);
    const { child, exited, stderr } = startListing();
    child.stdout.pause();
    const blockedAt = await settledRequestCount();
    assert.ok(blockedAt < PAGES);
    const bank = BANKS.find((candidate) => candidate.institutionCode !== BUSINESS.bankCode)!;
    const sent = await books.post('/v1/transfer', {
      beneficiaryBankCode: bank.institutionCode,
      beneficiaryAccountNumber: '0123456789',
      narration: 'lands mid-export',
      amount: 100,
    });
    assert.equal(sent.status, 200);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    assert.equal(await exited, 0, stderr());
    const exported = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<{ reference: string }>).map((tx) => tx.reference);
    assert.equal(new Set(exported).size, exported.length, 'a transaction exported twice');
    assert.deepEqual(exported, before);
  });

  it('ends quietly when the reader goes away (| head), without reading the rest', { timeout: 90_000 }, async () => {
    books.clearRequests();
    const { child, exited, stderr } = startListing();
    // The first output, or the end of the process if it fails before writing any (bounded by its kill timer).
    await Promise.race([new Promise<void>((resolve) => child.stdout.once('data', () => resolve())), exited]);
    child.stdout.destroy();
    assert.equal(await exited, 0, stderr());
    assert.equal(stderr(), '', 'no error or stack trace for a closed pipe');
    assert.ok(pagesRequested() < PAGES, `${pagesRequested()} pages requested after the reader left`);
  });
});

describe('streamPages with an injected context', () => {
  const contextWith = (stdout: Writable) => {
    const stderr = new PassThrough();
    return { io: { stdout, stderr, stderrIsTTY: false } } as unknown as Context;
  };

  it('does not ask for the next page until stdout has drained', async () => {
    const stdout = new Writable({ highWaterMark: 1024, write: (_chunk, _encoding, done) => setImmediate(done) });
    const backlogWhenAsked: number[] = [];
    async function* pages() {
      for (let page = 1; page <= 10; page += 1) {
        backlogWhenAsked.push(stdout.writableLength);
        yield { page, rows: [page], received: 1 };
      }
    }
    const sink = { write: () => void stdout.write('x'.repeat(8192)), end: () => undefined };
    const summary = await streamPages(contextWith(stdout), pages(), sink, { noun: 'rows', progress: false });
    assert.equal(summary.written, 10);
    assert.deepEqual(
      backlogWhenAsked.slice(1).filter((bytes) => bytes > 1024),
      [],
      `backlog when the next page was asked for: ${backlogWhenAsked.join(', ')}`,
    );
  });

  it('stops at EPIPE without asking for more pages and without ending the sink', async () => {
    const stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
    let asked = 0;
    let ended = false;
    async function* pages() {
      for (let page = 1; page <= 10; page += 1) {
        asked += 1;
        yield { page, rows: [page], received: 1 };
      }
    }
    const sink = {
      write: () => {
        if (asked === 2) stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
      end: () => (ended = true),
    };
    const summary = await streamPages(contextWith(stdout), pages(), sink, { noun: 'rows', progress: false });
    assert.equal(summary.readerClosed, true);
    assert.equal(asked, 2);
    assert.equal(ended, false);
  });
});
