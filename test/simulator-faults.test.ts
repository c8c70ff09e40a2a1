// Fault modes and latency: the simulator commits a transfer and then drops the connection, answers 502
// with an HTML page, or never answers; or answers everything with HTML and commits nothing. Over HTTP
// (plain fetch against the served simulator) and in process (the fetch the local profile's transport calls).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { envelope, tokenResponse, transactionRecord } from '../src/api/schemas.js';
import { createSimulator } from '../src/simulator/index.js';
import { SIMULATOR_CREDENTIALS, startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import type { FaultMode, Simulator } from '../src/simulator/types.js';

const ORIGIN = 'http://simulator.test';

async function tokenFor(doFetch: (request: Request) => Promise<Response>, base: string): Promise<string> {
  const response = await doFetch(
    new Request(`${base}/v1/generate-token`, {
      method: 'POST',
      headers: { consumerKey: SIMULATOR_CREDENTIALS.consumerKey, consumerSecret: SIMULATOR_CREDENTIALS.consumerSecret, validityTime: '60' },
    }),
  );
  return tokenResponse.parse(await response.json()).token;
}

const transferRequest = (base: string, token: string, reference: string, signal?: AbortSignal) =>
  new Request(`${base}/v1/transfer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ beneficiaryBankCode: '000014', beneficiaryAccountNumber: '0123456789', amount: 2500, narration: 'fault test', reference }),
    ...(signal ? { signal } : {}),
  });

async function lookup(doFetch: (request: Request) => Promise<Response>, base: string, token: string, reference: string) {
  const response = await doFetch(new Request(`${base}/v1/transactions/reference/${reference}`, { headers: { authorization: `Bearer ${token}` } }));
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('fault modes over HTTP', () => {
  let server: RunningSimulator;
  let token: string;
  const httpFetch = (request: Request) => fetch(request);
  before(async () => {
    server = await startSimulatorServer({ port: 0, log: () => undefined });
    token = await tokenFor(httpFetch, server.url);
  });
  after(() => server.close());

  const setFaultOverHttp = async (mode: FaultMode | 'none') => {
    const response = await fetch(`${server.url}/__simulator/fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode }),
    });
    assert.equal(response.status, 200);
  };

  const assertCommitted = async (reference: string) => {
    const found = await lookup(httpFetch, server.url, token, reference);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.equal(envelope(transactionRecord).parse(found.body).data.reference, reference);
    const posts = server.simulator.requests().filter((entry) => entry.method === 'POST' && entry.path === '/v1/transfer');
    assert.equal(posts.length, 1, 'exactly one POST reached the simulator');
    return posts[0]!;
  };

  it('drop: commits, then closes the connection without an answer (fetch rejects)', async () => {
    server.simulator.clearRequests();
    await setFaultOverHttp('drop');
    await assert.rejects(fetch(transferRequest(server.url, token, 'ACME-DROP-1')), TypeError);
    await setFaultOverHttp('none');
    const entry = await assertCommitted('ACME-DROP-1');
    assert.equal(entry.fault, 'drop');
    assert.equal(entry.status, 200);
  });

  it('bad-gateway: commits, then answers 502 with an HTML page', async () => {
    server.simulator.clearRequests();
    server.simulator.setFault('bad-gateway');
    const response = await fetch(transferRequest(server.url, token, 'ACME-502-1'));
    assert.equal(response.status, 502);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await response.text(), /<html>[\s\S]*502 Bad Gateway/);
    // Only POST /v1/transfer misbehaves: the lookup answers normally with the fault still on.
    const entry = await assertCommitted('ACME-502-1');
    assert.equal(entry.fault, 'bad-gateway');
    server.simulator.setFault(undefined);
  });

  it('stall: commits, then never answers; the client timeout aborts it', async () => {
    server.simulator.clearRequests();
    server.simulator.setFault('stall');
    await assert.rejects(fetch(transferRequest(server.url, token, 'ACME-STALL-1', AbortSignal.timeout(300))), (error: Error) => {
      assert.equal(error.name, 'TimeoutError');
      return true;
    });
    const entry = await assertCommitted('ACME-STALL-1');
    assert.equal(entry.fault, 'stall');
    server.simulator.setFault(undefined);
  });

  it('html: answers every API request with a 502 HTML page and commits nothing', async () => {
    server.simulator.clearRequests();
    await setFaultOverHttp('html');
    const transfer = await fetch(transferRequest(server.url, token, 'ACME-HTML-1'));
    assert.equal(transfer.status, 502);
    assert.match(await transfer.text(), /502 Bad Gateway/);
    const account = await fetch(`${server.url}/v1/account`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(account.status, 502);
    assert.match(account.headers.get('content-type') ?? '', /text\/html/);
    await account.text();
    await setFaultOverHttp('none');
    const found = await lookup(httpFetch, server.url, token, 'ACME-HTML-1');
    assert.equal(found.status, 400, 'nothing was committed');
    assert.deepEqual(
      server.simulator
        .requests()
        .slice(0, 2)
        .map((entry) => [entry.path, entry.status, entry.fault]),
      [
        ['/v1/transfer', 502, 'html'],
        ['/v1/account', 502, 'html'],
      ],
    );
  });

  it('latencyMs delays every answer: a client that waits less gives up', async () => {
    const slow = await startSimulatorServer({ port: 0, latencyMs: 5_000, log: () => undefined });
    try {
      await assert.rejects(fetch(`${slow.url}/v1/transfer/banks`, { signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' });
    } finally {
      await slow.close();
    }
  });

  it('close() ends a stalled connection that has no timeout, so nothing hangs', async () => {
    const stalling = await startSimulatorServer({ port: 0, fault: 'stall', log: () => undefined });
    const stallingToken = await tokenFor(httpFetch, stalling.url);
    const pending = fetch(transferRequest(stalling.url, stallingToken, 'ACME-STALL-2'));
    const settled = pending.then(
      () => 'answered',
      () => 'rejected',
    );
    // Close once the transfer is committed (the request log has it).
    for (let i = 0; i < 200 && stalling.simulator.requests().length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(stalling.simulator.requests().at(-1)?.fault, 'stall');
    await stalling.close();
    assert.equal(await settled, 'rejected');
  });
});

describe('fault modes in process (the local profile fetch)', () => {
  let simulator: Simulator;
  let token: string;
  const inProcess = (request: Request) => simulator.fetch(request);
  before(async () => {
    simulator = createSimulator({ log: () => undefined });
    token = await tokenFor(inProcess, ORIGIN);
  });

  it('drop: rejects like undici does when the peer hangs up, after committing', async () => {
    simulator.setFault('drop');
    await assert.rejects(simulator.fetch(transferRequest(ORIGIN, token, 'ACME-LDROP-1')), (error: Error) => {
      assert.ok(error instanceof TypeError);
      assert.equal(error.message, 'fetch failed');
      return true;
    });
    simulator.setFault(undefined);
    assert.equal((await lookup(inProcess, ORIGIN, token, 'ACME-LDROP-1')).status, 200);
  });

  it('stall: rejects when the request signal aborts, after committing', async () => {
    simulator.setFault('stall');
    await assert.rejects(simulator.fetch(transferRequest(ORIGIN, token, 'ACME-LSTALL-1', AbortSignal.timeout(100))), { name: 'TimeoutError' });
    simulator.setFault(undefined);
    assert.equal((await lookup(inProcess, ORIGIN, token, 'ACME-LSTALL-1')).status, 200);
  });

  it('bad-gateway: 502 HTML, after committing', async () => {
    simulator.setFault('bad-gateway');
    const response = await simulator.fetch(transferRequest(ORIGIN, token, 'ACME-L502-1'));
    assert.equal(response.status, 502);
    assert.match(await response.text(), /502 Bad Gateway/);
    simulator.setFault(undefined);
    const found = await lookup(inProcess, ORIGIN, token, 'ACME-L502-1');
    assert.equal(found.status, 200);
  });

  it('accepts fetch(url, init) as any fetch caller may, and refuses an unknown fault mode', async () => {
    const response = await simulator.fetch(`${ORIGIN}/v1/transfer/banks`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    assert.throws(() => simulator.setFault('explode' as FaultMode), /unknown fault mode/);
  });
});
