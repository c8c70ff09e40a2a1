// The simulator itself, over real HTTP on 127.0.0.1 with plain fetch: every endpoint's shape (parsed with
// the client's schemas), the token rules, transfers from pending to successful on a clock the test moves,
// references, balances, pagination, clients, collections with their webhook, and the request log.
import type { Kobo } from '../src/money/kobo.js';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as z from 'zod/mini';
import {
  bank,
  clientEnquiry,
  clientListItem,
  collectionNotification,
  corporateClient,
  envelope,
  errorBody,
  individualClient,
  nameEnquiryResult,
  primaryAccount,
  tokenResponse,
  transactionRecord,
  transferResponse,
  tsqResult,
} from '../src/api/schemas.js';
import { SIMULATOR_CREDENTIALS, startSimulatorServer } from '../src/simulator/server.js';
import type { SimulatorOptions } from '../src/simulator/types.js';

const START = Date.UTC(2025, 5, 2, 9, 30);

/** A served simulator on a clock the test moves, with helpers for authenticated JSON calls. */
async function startWorld(options: SimulatorOptions = {}) {
  let clock = START;
  const logLines: string[] = [];
  const server = await startSimulatorServer({ port: 0, now: () => clock, log: (line) => logLines.push(line), ...options });
  const login = async () => tokenResponse.parse(await (await generateToken(server.url, { validityTime: '60' })).json()).token;
  let token = await login();
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as unknown, text };
  };
  return {
    server,
    get token() {
      return token;
    },
    /** A fresh token, after moving the clock past the old one. */
    relogin: async () => {
      token = await login();
    },
    logLines,
    call,
    advance: (ms: number) => {
      clock += ms;
    },
    now: () => clock,
  };
}
type World = Awaited<ReturnType<typeof startWorld>>;

function generateToken(url: string, headers: Record<string, string | undefined>) {
  const all: Record<string, string> = {};
  const merged = { consumerKey: SIMULATOR_CREDENTIALS.consumerKey, consumerSecret: SIMULATOR_CREDENTIALS.consumerSecret, ...headers };
  for (const [key, value] of Object.entries(merged)) if (value !== undefined) all[key] = value;
  return fetch(`${url}/v1/generate-token`, { method: 'POST', headers: { 'content-type': 'application/json', ...all } });
}

const decodePayload = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number; iat: number };

const transferBody = (overrides: Record<string, unknown> = {}) => ({
  beneficiaryBankCode: '000013',
  beneficiaryAccountNumber: '0123456789',
  amount: 1500.5,
  narration: 'Invoice 7',
  ...overrides,
});

const expectRefusal = (answer: { status: number; body: unknown }, message: string, reason?: RegExp) => {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  const body = errorBody.parse(answer.body);
  assert.equal(body.message, message);
  assert.equal(body.data, null);
  if (reason) assert.match(String((answer.body as { reason?: unknown }).reason), reason);
};

describe('token', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.server.close());

  it('issues a JWT-shaped token with exp for the default credentials', async () => {
    const answer = await generateToken(world.server.url, { validityTime: '90' });
    assert.equal(answer.status, 200);
    const body = tokenResponse.parse(await answer.json());
    const parts = body.token.split('.');
    assert.equal(parts.length, 3);
    for (const part of parts) assert.match(part, /^[A-Za-z0-9_-]+$/);
    const payload = decodePayload(body.token);
    assert.equal(payload.exp - payload.iat, 90 * 60);
  });

  for (const [name, headers] of [
    ['a wrong secret', { consumerSecret: 'nope', validityTime: '60' }],
    ['an unknown key', { consumerKey: 'other', validityTime: '60' }],
    ['no validityTime', { validityTime: undefined }],
    ['validityTime 0', { validityTime: '0' }],
    ['validityTime above 48 hours', { validityTime: '2881' }],
    ['validityTime that is not a number', { validityTime: '1h' }],
  ] as const) {
    it(`answers 400 "Failed to generate token" without data for ${name}`, async () => {
      const answer = await generateToken(world.server.url, headers);
      assert.equal(answer.status, 400);
      assert.deepEqual(await answer.json(), { success: false, message: 'Failed to generate token' });
    });
  }

  it('accepts the maximum of 2880 minutes', async () => {
    const answer = await generateToken(world.server.url, { validityTime: '2880' });
    assert.equal(answer.status, 200);
  });

  it('answers 401 Unauthorized for a missing, unknown or forged token', async () => {
    const forged = world.token.slice(0, -2) + (world.token.endsWith('AA') ? 'BB' : 'AA');
    for (const authorization of [undefined, 'Bearer nonsense', `Bearer ${forged}`, world.token]) {
      const response = await fetch(`${world.server.url}/v1/account`, { headers: authorization ? { authorization } : {} });
      if (authorization === `Bearer ${forged}` || authorization === undefined || authorization === 'Bearer nonsense') {
        assert.equal(response.status, 401);
        assert.deepEqual(await response.json(), { success: false, message: 'Unauthorized', data: null });
      } else {
        // The raw token without "Bearer " is not accepted either.
        assert.equal(response.status, 401);
      }
    }
  });

  it('answers 401 once the token has expired', async () => {
    const answer = await generateToken(world.server.url, { validityTime: '1' });
    const token = tokenResponse.parse(await answer.json()).token;
    const get = () => fetch(`${world.server.url}/v1/account`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await get()).status, 200);
    world.advance(61_000);
    assert.equal((await get()).status, 401);
  });

  it('caps token lifetimes with tokenValiditySeconds', async () => {
    const capped = await startWorld({ tokenValiditySeconds: 2 });
    try {
      const payload = decodePayload(capped.token);
      assert.equal(payload.exp - payload.iat, 2);
      assert.equal((await capped.call('GET', '/v1/account')).status, 200);
      capped.advance(2_000);
      assert.equal((await capped.call('GET', '/v1/account')).status, 401);
    } finally {
      await capped.server.close();
    }
  });
});

describe('account, banks and name enquiry', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.server.close());

  it('GET /v1/account: ACME TRADING LIMITED with two-decimal string balances of ₦5,000,000.00', async () => {
    const answer = await world.call('GET', '/v1/account');
    const data = envelope(primaryAccount).parse(answer.body).data;
    assert.equal(data.accountName, 'ACME TRADING LIMITED');
    assert.equal(data.ledgerBalance, '5000000.00');
    assert.equal(data.availableBalance, '5000000.00');
    assert.equal(data.accountType, 'business');
    assert.ok(data.createdAt > 1e12, 'milliseconds');
  });

  it('GET /v1/transfer/banks: real six-digit codes, unique, with an ambiguous "First"', async () => {
    const answer = await world.call('GET', '/v1/transfer/banks');
    const body = envelope(z.array(bank)).parse(answer.body);
    assert.equal(typeof body.message, 'string');
    const banks = body.data;
    assert.ok(banks.length >= 25 && banks.length <= 40, `${banks.length} banks`);
    for (const entry of banks) {
      assert.match(entry.institutionCode, /^\d{6}$/);
      assert.match(entry.category, /^\d+$/);
    }
    assert.equal(new Set(banks.map((b) => b.institutionCode)).size, banks.length);
    const byCode = new Map(banks.map((b) => [b.institutionCode, b.institutionName]));
    assert.equal(byCode.get('000013'), 'Guaranty Trust Bank');
    assert.equal(byCode.get('000014'), 'Access Bank');
    assert.equal(byCode.get('000016'), 'First Bank of Nigeria');
    assert.equal(byCode.get('090267'), 'Kuda Microfinance Bank');
    assert.ok(banks.filter((b) => /\bfirst\b/i.test(b.institutionName)).length >= 2);
  });

  it('name enquiry: the documented name, the same at any bank, a number keeps its leading zero', async () => {
    const ask = (bankCode: string, accountNumber: string | number) => world.call('POST', '/v1/transfer/name-enquiry', { bankCode, accountNumber });
    const first = envelope(nameEnquiryResult).parse((await ask('000013', '0123456789')).body).data;
    assert.equal(first.accountName, 'OKAFOR CHIAMAKA ADAEZE');
    assert.equal(first.responseCode, '00');
    assert.equal(first.bankCode, '000013');
    const otherBank = envelope(nameEnquiryResult).parse((await ask('100004', '0123456789')).body).data;
    assert.equal(otherBank.accountName, first.accountName);
    const asNumber = envelope(nameEnquiryResult).parse((await ask('000015', 123456789)).body).data;
    assert.equal(asNumber.accountName, first.accountName);
    const derived1 = envelope(nameEnquiryResult).parse((await ask('000014', '5029384756')).body).data;
    const derived2 = envelope(nameEnquiryResult).parse((await ask('000004', '5029384756')).body).data;
    assert.equal(derived1.accountName, derived2.accountName);
    assert.match(derived1.accountName, /^[A-Z]+ [A-Z]+ [A-Z]+$/);
  });

  it('name enquiry refusals: unknown bank, not 10 digits, accounts ending 0000', async () => {
    const ask = (bankCode: string, accountNumber: string) => world.call('POST', '/v1/transfer/name-enquiry', { bankCode, accountNumber });
    expectRefusal(await ask('999999', '0123456789'), 'Request Un-Successful', /unknown bank/);
    expectRefusal(await ask('000013', '012345678'), 'Request Un-Successful', /10 digits/);
    expectRefusal(await ask('000013', '01234567890'), 'Request Un-Successful', /10 digits/);
    expectRefusal(await ask('000013', '1234560000'), 'Request Un-Successful', /not found/);
    expectRefusal(await world.call('POST', '/v1/transfer/name-enquiry', { bankCode: '000013' }), 'Request Un-Successful', /accountNumber/);
  });
});

describe('transfers', () => {
  let world: World;
  before(async () => (world = await startWorld({ settleSeconds: 5 })));
  after(() => world.server.close());

  const send = (overrides: Record<string, unknown> = {}) => world.call('POST', '/v1/transfer', transferBody(overrides));
  const balances = async () => envelope(primaryAccount).parse((await world.call('GET', '/v1/account')).body).data;
  const lookup = (reference: string) => world.call('GET', `/v1/transactions/reference/${encodeURIComponent(reference)}`);

  it('answers pending with the spec message, shape 2.9 and a beneficiary; turns successful after settleSeconds', async () => {
    const before = await balances();
    const answer = await send({ reference: 'ACME-INV-0001', amount: 25000 });
    assert.equal(answer.status, 200, answer.text);
    const body = transferResponse.parse(answer.body);
    assert.match(body.message, /less than 5 minutes/);
    assert.equal(body.data.status, 'pending');
    assert.equal(body.data.reference, 'ACME-INV-0001');
    assert.equal(body.data.amount, 25000);
    assert.equal(body.data.charge, 26.88);
    assert.equal(body.data.netAmount, 25026.88);
    assert.equal(body.data.type, 'debit');
    assert.equal(body.data.transactionTypeName, 'bank_transfer');
    assert.equal(body.data.destinationAccountName, 'OKAFOR CHIAMAKA ADAEZE');
    assert.equal(typeof body.data.completedAt, 'number');
    assert.deepEqual(body.beneficiary, {
      accountNumber: '0123456789',
      accountName: 'OKAFOR CHIAMAKA ADAEZE',
      bankCode: '000013',
      bankName: 'Guaranty Trust Bank',
    });

    // Available drops at once by amount + charge; the ledger only when the transfer settles.
    const during = await balances();
    assert.equal(during.availableBalance, '4974973.12');
    assert.equal(during.ledgerBalance, before.ledgerBalance);

    let record = envelope(transactionRecord).parse((await lookup('ACME-INV-0001')).body).data;
    assert.equal(record.status, 'pending');
    assert.equal(record.amount, '25000.00');
    assert.equal(record.charge, '26.88');
    assert.equal(record.netAmount, 25026.88);
    assert.equal(record.completedAt, null);
    let status = envelope(tsqResult).parse((await world.call('GET', '/v1/transfer/tsq?transactionId=ACME-INV-0001')).body).data;
    assert.equal(status.transactionStatus, 'PENDING');

    world.advance(5_000);
    record = envelope(transactionRecord).parse((await lookup('ACME-INV-0001')).body).data;
    assert.equal(record.status, 'successful');
    assert.equal(record.completedAt, record.createdAt + 5_000);
    status = envelope(tsqResult).parse((await world.call('GET', `/v1/transfer/tsq?transactionId=${record.sessionId}`)).body).data;
    assert.deepEqual(status, { transactionStatus: 'SUCCESSFUL', feedbackCode: '00', feedbackDescription: 'Approved or completed successfully' });
    assert.equal((await balances()).ledgerBalance, '4974973.12');
  });

  it('charges ₦10.75 up to ₦5,000, ₦26.88 up to ₦50,000, ₦53.75 above', async () => {
    for (const [amount, charge] of [
      [5000, 10.75],
      [5000.01, 26.88],
      [50000, 26.88],
      [50000.01, 53.75],
    ] as const) {
      const body = transferResponse.parse((await send({ amount })).body);
      assert.equal(body.data.charge, charge, `charge on ${amount}`);
    }
  });

  it('makes an ACME- reference when none is given, and each is unique', async () => {
    const one = transferResponse.parse((await send()).body).data.reference;
    const two = transferResponse.parse((await send()).body).data.reference;
    assert.match(one, /^ACME-[A-Z0-9]+$/);
    assert.notEqual(one, two);
  });

  it('refuses a reference without the ACME- prefix, and a reused one, with nothing debited', async () => {
    const before = (await balances()).availableBalance;
    expectRefusal(await send({ reference: 'ZENITH-1' }), 'Request Un-Successful', /ACME-/);
    expectRefusal(await send({ reference: 'ACME-' }), 'Request Un-Successful', /ACME-/);
    expectRefusal(await send({ reference: 'acme 1' }), 'Request Un-Successful', /ACME-/);
    assert.equal((await send({ reference: 'acme-lower-1' })).status, 200, 'prefix check is case-insensitive');
    expectRefusal(await send({ reference: 'acme-lower-1' }), 'Request Un-Successful', /already used/);
    expectRefusal(await send({ reference: 'ACME-INV-0001' }), 'Request Un-Successful', /already used/);
    const after = (await balances()).availableBalance;
    assert.equal(after, (Number(before) - 1500.5 - 10.75).toFixed(2));
  });

  it('refuses bad amounts, unknown banks, failing accounts and amounts above the balance', async () => {
    expectRefusal(await send({ amount: 10.005 }), 'Request Un-Successful', /more than 2 decimals/);
    expectRefusal(await send({ amount: -5 }), 'Request Un-Successful', /amount/);
    expectRefusal(await send({ amount: '1500' }), 'Request Un-Successful', /amount/);
    expectRefusal(await send({ beneficiaryBankCode: '000000' }), 'Request Un-Successful', /unknown bank/);
    expectRefusal(await send({ beneficiaryAccountNumber: '123' }), 'Request Un-Successful', /10 digits/);
    expectRefusal(await send({ beneficiaryAccountNumber: '9876540000' }), 'Request Un-Successful', /not found/);
    expectRefusal(await send({ narration: undefined }), 'Request Un-Successful', /^narration: required$/);
    expectRefusal(await send({ narration: '' }), 'Request Un-Successful', /^narration: must not be empty$/);
    expectRefusal(await send({ narration: '   ' }), 'Request Un-Successful', /^narration: must not be empty$/);
    expectRefusal(await send({ amount: -5 }), 'Request Un-Successful', /^amount: must be more than 0$/);
    const available = Number((await balances()).availableBalance);
    expectRefusal(await send({ amount: Math.floor(available) }), 'Request Un-Successful', /insufficient balance/);
    const bad = await fetch(`${world.server.url}/v1/transfer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
      body: '{"amount": 5',
    });
    expectRefusal({ status: bad.status, body: await bad.json() }, 'Request Un-Successful', /not valid JSON/);
  });

  it('keeps a transfer to an account ending 1111 pending for ever', async () => {
    const body = transferResponse.parse((await send({ beneficiaryAccountNumber: '2468101111' })).body);
    world.advance(30 * 86_400_000);
    await world.relogin();
    const record = envelope(transactionRecord).parse((await lookup(body.data.reference)).body).data;
    assert.equal(record.status, 'pending');
    const status = envelope(tsqResult).parse((await world.call('GET', `/v1/transfer/tsq?transactionId=${body.data.reference}`)).body).data;
    assert.equal(status.transactionStatus, 'PENDING');
  });

  it('answers 400 for an unknown reference or transaction id', async () => {
    expectRefusal(await lookup('ACME-NOPE'), 'Request Un-Successful');
    expectRefusal(await world.call('GET', '/v1/transfer/tsq?transactionId=ACME-NOPE'), 'Request Un-Successful');
    expectRefusal(await world.call('GET', '/v1/transfer/tsq'), 'Request Un-Successful', /transactionId/);
  });
});

describe('transaction history', () => {
  let world: World;
  before(async () => (world = await startWorld({ seedTransactions: 45 })));
  after(() => world.server.close());
  const list = (query: string) => world.call('GET', `/v1/transactions${query}`);
  const page = async (query: string) => envelope(z.array(transactionRecord)).parse((await list(query)).body).data;

  it('is seeded over the previous 90 days, newest first, with inflows and outflows, 20 per page by default', async () => {
    const rows = await page('');
    assert.equal(rows.length, 20);
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1]!.createdAt >= rows[i]!.createdAt, 'newest first');
    const all = await page('?limit=100');
    assert.equal(all.length, 45);
    assert.ok(all.every((row) => row.createdAt <= START && row.createdAt >= START - 90 * 86_400_000));
    const kinds = new Set(all.map((row) => `${row.transactionTypeName}/${row.type}`));
    assert.deepEqual([...kinds].sort(), ['bank_transfer/debit', 'collection/credit']);
    for (const row of all) {
      assert.match(String(row.amount), /^\d+\.\d{2}$/);
      assert.equal(typeof row.netAmount, 'number');
      assert.equal(row.status, 'successful');
    }
  });

  it('is the same history for the same seed', async () => {
    const twin = await startWorld({ seedTransactions: 45 });
    try {
      const theirs = envelope(z.array(transactionRecord)).parse((await twin.call('GET', '/v1/transactions?limit=100')).body).data;
      const ours = await page('?limit=100');
      assert.deepEqual(
        theirs.map((r) => [r.reference, r.amount, r.createdAt]),
        ours.map((r) => [r.reference, r.amount, r.createdAt]),
      );
    } finally {
      await twin.server.close();
    }
  });

  it('gives a short last page and an empty page past the end', async () => {
    assert.equal((await page('?page=3&limit=20')).length, 5);
    assert.deepEqual(await page('?page=4&limit=20'), []);
    assert.deepEqual(await page('?page=99999&limit=100'), []);
  });

  it('refuses limit above 100, limit 0, page 0 and non-numbers', async () => {
    assert.equal((await page('?limit=100')).length, 45);
    for (const query of ['?limit=101', '?limit=0', '?page=0', '?page=abc', '?limit=2.5']) {
      expectRefusal(await list(query), 'Request Un-Successful', /page|limit/);
    }
  });

  it('places a transfer made on a clock set before the seeded history at the end', async () => {
    const backwards = await startWorld({ seedTransactions: 10 });
    try {
      backwards.advance(-100 * 86_400_000);
      const body = transferResponse.parse((await backwards.call('POST', '/v1/transfer', transferBody())).body);
      const rows = envelope(z.array(transactionRecord)).parse((await backwards.call('GET', '/v1/transactions?limit=100')).body).data;
      assert.equal(rows.length, 11);
      assert.equal(rows.at(-1)!.reference, body.data.reference);
      for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1]!.createdAt >= rows[i]!.createdAt, 'newest first');
      const lastPage = envelope(z.array(transactionRecord)).parse((await backwards.call('GET', '/v1/transactions?page=2&limit=10')).body).data;
      assert.deepEqual(
        lastPage.map((row) => row.reference),
        [body.data.reference],
      );
    } finally {
      await backwards.server.close();
    }
  });

  it('puts a new transfer first', async () => {
    const body = transferResponse.parse((await world.call('POST', '/v1/transfer', transferBody())).body);
    const [first] = await page('?limit=1');
    assert.equal(first!.reference, body.data.reference);
    assert.equal((await page('?limit=100')).length, 46);
  });
});

describe('clients', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.server.close());

  const individual = {
    firstname: 'Ngozi',
    lastname: 'Eze',
    middlename: 'Ada',
    phoneNumber: '08030000001',
    emailAddress: 'ngozi@example.com',
    address: '1 Marina, Lagos',
    bvn: '22212345678',
    gender: 'female',
    dateOfBirth: '1991/02/03',
    metadata: { crm: 'C-1' },
  };
  const corporate = {
    rcNumber: 123456,
    businessName: 'Eze Ventures Ltd',
    emailAddress: 'ops@eze.example.com',
    phoneNumber: '08030000002',
    address: '2 Broad Street, Lagos',
    bvn: 22298765432,
    incorporationDate: '2019-05-01',
    dateOfBirth: '01/05/2019',
  };

  it('creates an individual client: lower-case firstname, millisecond times, echoed metadata', async () => {
    const answer = await world.call('POST', '/v1/account/clients/individual', individual);
    assert.equal(answer.status, 200, answer.text);
    const data = envelope(individualClient).parse(answer.body).data;
    assert.equal(data.firstname, 'Ngozi');
    assert.equal((data as Record<string, unknown>).firstName, undefined);
    assert.equal(data.mobileNumber, '08030000001');
    assert.equal(data.accountType, 'individual');
    assert.equal(data.validityType, 'permanent');
    assert.deepEqual(data.metadata, { crm: 'C-1' });
    assert.equal(data.createdAt, START);
    assert.match(data.accountNumber, /^\d{10}$/);
    assert.match(data.externalReference, /^[0-9a-f-]{36}$/);
  });

  it('creates a corporate client: rcNumber as a string, incorporationDate as ISO UTC', async () => {
    const answer = await world.call('POST', '/v1/account/clients/corporate', corporate);
    assert.equal(answer.status, 200, answer.text);
    const data = envelope(corporateClient).parse(answer.body).data;
    assert.equal(data.rcNumber, '123456');
    assert.equal(data.incorporationDate, '2019-05-01T00:00:00.000Z');
    assert.equal(data.bvn, '22298765432');
    assert.equal(data.accountType, 'corporate');
  });

  it('refuses bad client bodies with "Request Unsuccessful" and a reason naming the field and the rule', async () => {
    const { emailAddress: _left, ...withoutEmail } = individual;
    const refusal = async (path: string, body: unknown, reason: string) => {
      const answer = await world.call('POST', path, body);
      expectRefusal(answer, 'Request Unsuccessful');
      assert.equal((answer.body as { reason?: unknown }).reason, reason);
    };
    await refusal('/v1/account/clients/individual', withoutEmail, 'emailAddress: required');
    await refusal('/v1/account/clients/individual', { ...individual, dateOfBirth: '1991-02-03' }, 'dateOfBirth: expected YYYY/MM/DD');
    await refusal('/v1/account/clients/individual', { ...individual, gender: 'x' }, 'gender: expected male or female');
    await refusal('/v1/account/clients/individual', { ...individual, firstname: '', lastname: 7 }, 'firstname: must not be empty; lastname: expected a string');
    await refusal('/v1/account/clients/individual', { ...individual, bvn: '123' }, 'bvn: expected 11 digits');
    await refusal('/v1/account/clients/corporate', { ...corporate, rcNumber: 'RC123456' }, 'rcNumber: expected a positive whole number (digits)');
    await refusal('/v1/account/clients/corporate', { ...corporate, bvn: '2229876543x' }, 'bvn: expected 11 digits');
    await refusal('/v1/account/clients/corporate', { ...corporate, bvn: true }, 'bvn: expected a number or a string');
    await refusal(
      '/v1/account/clients/corporate',
      { ...corporate, incorporationDate: 'soon' },
      'incorporationDate: expected a date such as 2018-03-09T00:00:00Z',
    );
  });

  it('lists clients newest first with camelCase names, second timestamps and filters', async () => {
    const all = envelope(z.array(clientListItem)).parse((await world.call('GET', '/v1/account/clients')).body).data;
    assert.equal(all.length, 12, 'ten seeded and two created');
    assert.equal(all[0]!.accountName, 'Eze Ventures Ltd');
    assert.equal(all[1]!.firstName, 'Ngozi');
    assert.equal(all[1]!.lastName, 'Eze');
    assert.equal(all[1]!.createdAt, START / 1000, 'seconds');
    assert.ok(all.every((c) => c.createdAt < 1e11));
    const corporates = envelope(z.array(clientListItem)).parse((await world.call('GET', '/v1/account/clients?accountType=corporate')).body).data;
    assert.ok(corporates.length >= 2 && corporates.every((c) => c.accountType === 'corporate' && c.firstName === null && c.rcNumber !== null));
    const individuals = envelope(z.array(clientListItem)).parse(
      (await world.call('GET', '/v1/account/clients?accountType=individual&validityType=permanent&status=active')).body,
    ).data;
    assert.equal(individuals.length + corporates.length, 12);
    const none = envelope(z.array(clientListItem)).parse((await world.call('GET', '/v1/account/clients?status=inactive')).body).data;
    assert.deepEqual(none, []);
    const second = envelope(z.array(clientListItem)).parse((await world.call('GET', '/v1/account/clients?page=2&limit=3')).body).data;
    assert.deepEqual(
      second.map((c) => c.id),
      all.slice(3, 6).map((c) => c.id),
    );
    expectRefusal(await world.call('GET', '/v1/account/clients?limit=101'), 'Request Unsuccessful', /limit/);
  });

  it('creates a corporate client from bvn and rcNumber sent as digit strings, as real clients send them', async () => {
    const answer = await world.call('POST', '/v1/account/clients/corporate', { ...corporate, rcNumber: '0654321', bvn: '22298765433' });
    assert.equal(answer.status, 200, answer.text);
    const data = envelope(corporateClient).parse(answer.body).data;
    assert.equal(data.rcNumber, '0654321', 'the digits as sent, leading zero kept');
    assert.equal(data.bvn, '22298765433');
  });

  it('client enquiry: "NUBAN generation is not enabled"; an unknown account is refused', async () => {
    const data = envelope(clientEnquiry).parse((await world.call('GET', '/v1/client-enquiry/9900000011')).body).data;
    assert.equal(data.accountName, 'Chiamaka Adaeze Okafor');
    assert.match(data.nubanAccountNumber, /NUBAN generation is not enabled/);
    assert.equal(data.currency, 'NGN');
    expectRefusal(await world.call('GET', '/v1/client-enquiry/9900000012'), 'Request Unsuccessful');
  });
});

describe('collections and their notification', () => {
  let receiver: ReturnType<typeof createServer>;
  let receiverUrl: string;
  const received: Array<{ headers: IncomingMessage['headers']; body: unknown }> = [];
  let onReceived: (() => void) | undefined;
  let world: World;

  before(async () => {
    receiver = createServer((request, response) => {
      let text = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(text) });
        response.end('ok');
        onReceived?.();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    world = await startWorld({ webhookUrl: receiverUrl });
  });
  after(async () => {
    await world.server.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const waitForDelivery = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no webhook delivery within 10 s')), 10_000);
      const check = () => {
        if (received.length >= count) {
          clearTimeout(timer);
          resolve();
        }
      };
      onReceived = check;
      check();
    });

  it('credits the balance with the net amount, records a collection and POSTs the notification', async () => {
    const notification = await world.server.simulator.collect('9900000011', 2_500_000 as Kobo); // ₦25,000
    collectionNotification.parse(notification);
    assert.equal(notification.event, 'collection');
    assert.equal(notification.amountReceived, '25000.00');
    assert.equal(notification.stampDuty, 50);
    assert.equal(notification.transactionFee, 125);
    assert.equal(notification.netAmount, 24825);
    assert.equal(notification.status, 'successful');
    assert.equal(notification.virtualAccount, '9900000011');
    assert.ok(notification.createdAt > 1e12, 'milliseconds');
    const client = envelope(clientEnquiry).parse((await world.call('GET', '/v1/client-enquiry/9900000011')).body).data;
    assert.equal(notification.externalReference, client.externalReference);

    const account = envelope(primaryAccount).parse((await world.call('GET', '/v1/account')).body).data;
    assert.equal(account.availableBalance, '5024825.00');
    assert.equal(account.ledgerBalance, '5024825.00');

    const record = envelope(transactionRecord).parse((await world.call('GET', `/v1/transactions/reference/${notification.reference}`)).body).data;
    assert.equal(record.transactionTypeName, 'collection');
    assert.equal(record.category, 'collection');
    assert.equal(record.type, 'credit');
    assert.equal(record.status, 'successful');
    assert.equal(record.amount, '25000.00');
    assert.equal(record.stampDuty, 50);
    assert.equal(record.destinationAccountNumber, '9900000011');

    await waitForDelivery(1);
    assert.deepEqual(received[0]!.body, notification);
    assert.match(String(received[0]!.headers['content-type']), /application\/json/);
  });

  it('charges no stamp duty at exactly ₦10,000', async () => {
    const notification = await world.server.simulator.collect('9900000033', 1_000_000 as Kobo);
    assert.equal(notification.stampDuty, 0);
    assert.equal(notification.transactionFee, 50);
    assert.equal(notification.netAmount, 9950);
  });

  it('collects through the admin route POST /__simulator/collect, which needs no token', async () => {
    const response = await fetch(`${world.server.url}/__simulator/collect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountNumber: '9900000022', amount: '1500.50' }),
    });
    assert.equal(response.status, 200);
    const data = envelope(collectionNotification).parse(await response.json()).data;
    assert.equal(data.amountReceived, '1500.50');
    await waitForDelivery(received.length + 0); // earlier deliveries are in
    const refused = await fetch(`${world.server.url}/__simulator/collect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountNumber: '9900000012', amount: 5 }),
    });
    assert.equal(refused.status, 400);
    assert.match(String(((await refused.json()) as { reason?: string }).reason), /no client account/);
  });

  it('survives a webhook receiver that is down: bounded retries, logged, no crash', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lonely = await startWorld({ webhookUrl: deadUrl });
    try {
      const notification = await lonely.server.simulator.collect('9900000044', 100_000 as Kobo);
      await lonely.server.simulator.flushWebhooks();
      const failures = lonely.logLines.filter((line) => line.includes(notification.reference));
      assert.equal(failures.length, 3, failures.join('\n'));
      assert.match(failures[2]!, /attempt 3\/3/);
      assert.equal((await lonely.call('GET', '/v1/account')).status, 200, 'still serving');
    } finally {
      await lonely.server.close();
    }
  });
});

describe('request log', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.server.close());

  it('records method, path, query, status and time of every API request; admin routes are not logged', async () => {
    world.server.simulator.clearRequests();
    await world.call('GET', '/v1/transactions?limit=2');
    await world.call('POST', '/v1/transfer', transferBody({ amount: 1.001 }));
    const fromHttp = (await (await fetch(`${world.server.url}/__simulator/requests`)).json()) as { data: unknown[] };
    assert.deepEqual(fromHttp.data, world.server.simulator.requests());
    assert.deepEqual(
      world.server.simulator.requests().map(({ method, path, query, status, at }) => ({ method, path, query, status, at })),
      [
        { method: 'GET', path: '/v1/transactions', query: 'limit=2', status: 200, at: START },
        { method: 'POST', path: '/v1/transfer', query: '', status: 400, at: START },
      ],
    );
    const cleared = await fetch(`${world.server.url}/__simulator/requests`, { method: 'DELETE' });
    assert.equal(cleared.status, 200);
    assert.deepEqual(world.server.simulator.requests(), []);
  });

  it('answers unknown routes with 404 and logs them', async () => {
    world.server.simulator.clearRequests();
    const answer = await world.call('GET', '/v2/nothing');
    assert.equal(answer.status, 404);
    assert.equal(world.server.simulator.requests()[0]!.status, 404);
  });
});

describe('docs/simulator.md', () => {
  it('lists every bank, the known names, the seeded clients, the credentials and the charges the simulator uses', async () => {
    const { readFileSync } = await import('node:fs');
    const { BANKS, KNOWN_ACCOUNT_NAMES } = await import('../src/simulator/data.js');
    const { seedClients } = await import('../src/simulator/seed.js');
    const docs = readFileSync(new URL('../docs/simulator.md', import.meta.url), 'utf8');
    for (const entry of BANKS) assert.ok(docs.includes(`| ${entry.institutionCode} | ${entry.institutionName} |`), entry.institutionName);
    assert.ok(docs.includes(`${BANKS.length} institutions`));
    for (const [number, name] of Object.entries(KNOWN_ACCOUNT_NAMES))
      assert.ok(docs.includes(`| \`${number}\` | name enquiry, transfer | \`${name}\` |`), number);
    for (const client of seedClients('docs', START))
      assert.ok(docs.includes(`| \`${client.accountNumber}\` | ${client.accountType} | ${client.accountName} |`), client.accountName);
    assert.ok(docs.includes(`\`${SIMULATOR_CREDENTIALS.consumerKey}\` | \`${SIMULATOR_CREDENTIALS.consumerSecret}\``));
    for (const charge of ['₦10.75', '₦26.88', '₦53.75']) assert.ok(docs.includes(charge));
  });
});
