// The paging generator (src/api/paging.ts) on its own: where it stops, how far ahead it reads, and
// what it does with an API that never ends. The page source here is a plain function over an array:
// the HTTP path is covered by test/tx-list.test.ts against the simulator.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchPages } from '../src/api/paging.js';
import { ApiError } from '../src/errors.js';

function source(total: number) {
  const rows = Array.from({ length: total }, (_, i) => ({ id: `t${i}` }));
  const requested: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    requested,
    maxInFlight: () => maxInFlight,
    async fetchPage(page: number, limit: number) {
      requested.push(page);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return rows.slice((page - 1) * limit, page * limit);
    },
  };
}

async function collect<T>(pages: AsyncIterable<{ page: number; rows: T[] }>) {
  const seen: Array<{ page: number; count: number }> = [];
  for await (const { page, rows } of pages) seen.push({ page, count: rows.length });
  return seen;
}

describe('fetchPages', () => {
  it('stops on a short page without asking for another', async () => {
    const api = source(40);
    const seen = await collect(fetchPages({ firstPage: 1, limit: 15, fetchPage: api.fetchPage, key: (r) => r.id }));
    assert.deepEqual(seen, [
      { page: 1, count: 15 },
      { page: 2, count: 15 },
      { page: 3, count: 10 },
    ]);
    assert.deepEqual(api.requested, [1, 2, 3]);
  });

  it('stops on an empty page when the last full page was exactly the end', async () => {
    const api = source(45);
    const seen = await collect(fetchPages({ firstPage: 1, limit: 15, fetchPage: api.fetchPage, key: (r) => r.id }));
    assert.deepEqual(
      seen.map((p) => p.count),
      [15, 15, 15, 0],
    );
    assert.deepEqual(api.requested, [1, 2, 3, 4]);
  });

  it('reads at most one page ahead of the consumer', async () => {
    const api = source(100);
    const pages = fetchPages({ firstPage: 1, limit: 10, fetchPage: api.fetchPage });
    for await (const { page } of pages) {
      // While the consumer holds page N, only page N+1 may have been asked for.
      assert.ok(api.requested.length <= page + 1, `page ${page} in hand but ${api.requested.length} requested`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    assert.equal(api.maxInFlight(), 1);
  });

  it('starts from the given page', async () => {
    const api = source(50);
    const seen = await collect(fetchPages({ firstPage: 3, limit: 10, fetchPage: api.fetchPage }));
    assert.deepEqual(
      seen.map((p) => p.page),
      [3, 4, 5, 6],
    );
  });

  it('stops when wantsMore says so, after that page', async () => {
    const api = source(100);
    const seen = await collect(fetchPages({ firstPage: 1, limit: 10, fetchPage: api.fetchPage, wantsMore: (rows) => rows[0]!.id !== 't20' }));
    assert.deepEqual(
      seen.map((p) => p.page),
      [1, 2, 3],
    );
    assert.deepEqual(api.requested, [1, 2, 3]);
  });

  it('refuses an API that sends the same page again', async () => {
    const sameEveryTime = async () => [{ id: 'a' }, { id: 'b' }];
    await assert.rejects(collect(fetchPages({ firstPage: 1, limit: 2, fetchPage: sameEveryTime, key: (r) => r.id })), ApiError);
  });

  it('drops rows repeated from the previous page when new rows arrive at the top during the listing', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: `old${24 - i}` }));
    const fetchPage = async (page: number, limit: number) => {
      const answer = rows.slice((page - 1) * limit, page * limit);
      if (page === 1) rows.unshift({ id: 'new1' }, { id: 'new2' }); // two inflows land after page 1 was read
      return answer;
    };
    const seen: string[] = [];
    let received = 0;
    for await (const page of fetchPages({ firstPage: 1, limit: 10, fetchPage, key: (r) => r.id })) {
      seen.push(...page.rows.map((r) => r.id));
      received += page.received;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 25 }, (_, i) => `old${24 - i}`),
      'every old row once, in order',
    );
    assert.equal(received, 27, 'the progress count still says what the API sent');
  });

  it('ends after maxPages even if every page is full', async () => {
    let counter = 0;
    const endless = async (_page: number, limit: number) => Array.from({ length: limit }, () => ({ id: String(counter++) }));
    await assert.rejects(collect(fetchPages({ firstPage: 1, limit: 5, fetchPage: endless, maxPages: 7 })), /stopped after 7 pages/);
    assert.equal(counter, 35);
  });

  it('passes a failure of the prefetched page to the consumer, and none when the consumer left early', async () => {
    const failing = async (page: number) => {
      if (page === 2) throw new ApiError('boom');
      return [{ id: `p${page}a` }, { id: `p${page}b` }];
    };
    await assert.rejects(collect(fetchPages({ firstPage: 1, limit: 2, fetchPage: failing })), /boom/);
    // Leaving after page 1 while page 2's request fails: no unhandled rejection (node:test would report it).
    for await (const page of fetchPages({ firstPage: 1, limit: 2, fetchPage: failing })) {
      assert.equal(page.page, 1);
      break;
    }
    await new Promise((resolve) => setImmediate(resolve));
  });
});
