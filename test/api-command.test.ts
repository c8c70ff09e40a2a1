// fsapi api as a user runs it, each run in process (test/helpers/in-process.ts) against the simulator served on 127.0.0.1, logged in as
// profile `sim`. Good calls print the API's body; bad input is exit 2 with nothing sent (not even a token
// request); refusals are exit 1 with the API's message; a refused token is exit 3.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { stripAnsi } from './helpers/cli.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { TRANSFER_SPELLINGS } from './helpers/transfer-spellings.js';
import { BUSINESS, KNOWN_ACCOUNT_NAMES } from '../src/simulator/index.js';

let setup: TransferSetup;
const enquiryBody = JSON.stringify({ bankCode: '000013', accountNumber: '0123456789' });

before(async () => {
  setup = await setUpTransfers({ log: () => undefined });
});
after(async () => {
  await setup.close();
});
beforeEach(() => {
  setup.server.simulator.setFault(undefined);
  setup.server.simulator.clearRequests();
});

const requests = () => setup.server.simulator.requests().map((entry) => `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}`);

describe('fsapi api: calls', () => {
  it('GET /v1/account prints the whole answer as JSON when piped', async () => {
    const result = await setup.runInProcess(['api', 'GET', '/v1/account']);
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout) as { success: boolean; data: { accountNumber: string; accountName: string } };
    assert.equal(body.success, true);
    assert.equal(body.data.accountNumber, BUSINESS.accountNumber);
    assert.equal(body.data.accountName, BUSINESS.name);
    assert.doesNotMatch(result.stdout, /\u001b\[/, 'no colour when piped');
    assert.deepEqual(requests(), ['GET /v1/account']);
  });

  it('accepts the method in any case', async () => {
    const result = await setup.runInProcess(['api', 'get', '/v1/account']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(requests(), ['GET /v1/account']);
  });

  it('POST with --data sends the JSON body', async () => {
    const result = await setup.runInProcess(['api', 'POST', '/v1/transfer/name-enquiry', '--data', enquiryBody]);
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout) as { data: { accountName: string; bankCode: string } };
    assert.equal(body.data.accountName, KNOWN_ACCOUNT_NAMES['0123456789']);
    assert.equal(body.data.bankCode, '000013');
    assert.deepEqual(requests(), ['POST /v1/transfer/name-enquiry']);
  });

  it('reads the body from @file and from stdin (-)', async () => {
    const file = path.join(setup.home.root, 'enquiry.json');
    writeFileSync(file, enquiryBody);
    const fromFile = await setup.runInProcess(['api', 'POST', '/v1/transfer/name-enquiry', '--data', `@${file}`]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal((JSON.parse(fromFile.stdout) as { data: { accountName: string } }).data.accountName, KNOWN_ACCOUNT_NAMES['0123456789']);
    const fromStdin = await setup.runInProcess(['api', 'POST', '/v1/transfer/name-enquiry', '--data', '-'], { input: enquiryBody });
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.equal((JSON.parse(fromStdin.stdout) as { data: { accountName: string } }).data.accountName, KNOWN_ACCOUNT_NAMES['0123456789']);
    assert.equal(requests().length, 2);
  });

  it('sends --query parameters, merged with a query written into the path', async () => {
    const result = await setup.runInProcess(['api', 'GET', '/v1/transactions?page=1', '--query', 'limit=3']);
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout) as { data: unknown[] };
    assert.equal(body.data.length, 3);
    assert.deepEqual(requests(), ['GET /v1/transactions?page=1&limit=3']);
  });

  it('--include writes the status and headers on stderr, not stdout', async () => {
    const result = await setup.runInProcess(['api', 'GET', '/v1/account', '--include']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^HTTP 200$/m);
    assert.match(result.stderr, /^content-type: application\/json/m);
    assert.doesNotMatch(result.stdout, /HTTP 200/);
    JSON.parse(result.stdout);
  });

  it('pretty-prints the JSON on a terminal', async () => {
    const result = await setup.runInProcess(['api', 'GET', '/v1/account'], { tty: true });
    assert.equal(result.code, 0, result.stdout);
    const screen = stripAnsi(result.stdout);
    assert.match(screen, /^\{\n {2}"success": true,\n {2}"data": \{\n/m);
    assert.match(screen, / {4}"accountNumber": "1100084217"/);
  });
});

describe('fsapi api: refusals and failures', () => {
  it('exits 1 with the API message on a 400 answer, and still prints the body', async () => {
    const result = await setup.runInProcess(['api', 'POST', '/v1/transfer/name-enquiry', '--data', '{"bankCode":"999999","accountNumber":"0123456789"}']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: HTTP 400 from POST \/v1\/transfer\/name-enquiry: Request Un-?Successful/m);
    assert.equal((JSON.parse(result.stdout) as { success: boolean }).success, false);
    assert.deepEqual(requests(), ['POST /v1/transfer/name-enquiry']);
  });

  it('exits 3 when the API refuses the token and it cannot be renewed', async () => {
    const result = await setup.runInProcess(['api', 'GET', '/v1/account'], { env: { FSAPI_TOKEN: 'not-a-token' } });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^error: .*HTTP 401/m);
    assert.equal(result.stdout, '');
  });
});

describe('fsapi api: bad input is exit 2 and nothing is sent', () => {
  const cases: Array<{ name: string; args: string[]; input?: string; message: RegExp }> = [
    { name: 'an unknown method', args: ['api', 'FETCH', '/v1/account'], message: /unknown HTTP method "FETCH"[\s\S]*GET, POST, PUT, PATCH, DELETE/ },
    { name: 'a path without a leading /', args: ['api', 'GET', 'v1/account'], message: /must start with \// },
    { name: '--data that is not JSON', args: ['api', 'POST', '/v1/transfer/name-enquiry', '--data', '{bankCode: 1}'], message: /not valid JSON/ },
    {
      name: 'a missing @file',
      args: ['api', 'POST', '/v1/transfer/name-enquiry', '--data', '@/nonexistent/body.json'],
      message: /cannot read --data file .*no such file/,
    },
    {
      name: 'stdin that is not JSON',
      args: ['api', 'POST', '/v1/transfer/name-enquiry', '--data', '-'],
      input: 'hello',
      message: /body in stdin is not valid JSON/,
    },
    { name: 'a --query without =', args: ['api', 'GET', '/v1/transactions', '--query', 'limit'], message: /"limit" is not key=value/ },
    { name: 'a GET with a body', args: ['api', 'GET', '/v1/account', '--data', '{}'], message: /GET request has no body/ },
    {
      name: 'a number that JSON cannot carry exactly',
      args: ['api', 'POST', '/v1/x', '--data', '{"amount":12345678901234567890}'],
      message: /cannot be sent exactly/,
    },
    {
      name: 'POST /v1/transfer without --allow-transfer',
      args: ['api', 'POST', '/v1/transfer', '--data', '{"amount":1}'],
      message: /does not send POST \/v1\/transfer[\s\S]*hint: use fsapi transfer send/,
    },
    {
      name: 'POST /v1/transfer spelled differently',
      args: ['api', 'post', '//V1/Transfer/', '--data', '{"amount":1}'],
      message: /does not send POST \/v1\/transfer/,
    },
  ];
  for (const testCase of cases) {
    it(testCase.name, async () => {
      const result = await setup.runInProcess(testCase.args, { input: testCase.input });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, testCase.message);
      assert.equal(result.stdout, '');
      assert.deepEqual(requests(), [], 'nothing reached the API, not even a token request');
    });
  }
});

describe('fsapi api: the transfer endpoint however it is spelled', () => {
  for (const [method, spelling] of TRANSFER_SPELLINGS) {
    it(`${method} ${spelling} without --allow-transfer: exit 2, nothing reaches the API`, async () => {
      const result = await setup.runInProcess(['api', method, spelling, '--data', '{"amount":1}']);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /does not send POST \/v1\/transfer/);
      assert.equal(result.stdout, '');
      assert.deepEqual(requests(), [], 'nothing reached the API, not even a token request');
    });
  }

  it('other endpoints under /v1/transfer/ and their dot spellings still go, to where URL resolves them', async () => {
    const result = await setup.runInProcess(['api', 'POST', '/v1/transfer/x/../name-enquiry', '--data', enquiryBody]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(requests(), ['POST /v1/transfer/name-enquiry']);
  });
});

describe('fsapi api POST /v1/transfer --allow-transfer', () => {
  const transfer = (reference: string) =>
    JSON.stringify({ beneficiaryBankCode: '000013', beneficiaryAccountNumber: '0123456789', narration: 'raw', amount: 100, reference });

  it('sends it once, after a warning, and prints the answer', async () => {
    const result = await setup.runInProcess(['api', 'POST', '/v1/transfer', '--allow-transfer', '--data', transfer(`${BUSINESS.referencePrefix}-RAWAPI0001`)]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /warning: raw transfer: not name-checked, not journalled/);
    assert.equal((JSON.parse(result.stdout) as { data: { reference: string } }).data.reference, `${BUSINESS.referencePrefix}-RAWAPI0001`);
    assert.equal(setup.posts(), 1);
  });

  it('looks the reference up when the connection drops after the API committed it: found, exit 0, never resent', async () => {
    setup.server.simulator.setFault('drop');
    const reference = `${BUSINESS.referencePrefix}-RAWAPI0002`;
    const result = await setup.runInProcess(['api', 'POST', '/v1/transfer', '--allow-transfer', '--data', transfer(reference)]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /no answer to the transfer \(the connection .* dropped.*\); not sending it again: looking .* up/);
    assert.match(result.stderr, new RegExp(`found ${reference} \\(pending\\): it went through`));
    assert.equal((JSON.parse(result.stdout) as { reference: string }).reference, reference, 'the looked-up record');
    assert.equal(setup.posts(), 1, 'sent exactly once, never retried');
  });

  it('is exit 5 (outcome unknown, do not resend) when the lookups cannot settle it either', async () => {
    setup.server.simulator.setFault('html'); // every answer an HTML 502 page, lookups included
    const reference = `${BUSINESS.referencePrefix}-RAWAPI0003`;
    const result = await setup.runInProcess(['api', 'POST', '/v1/transfer', '--allow-transfer', '--data', transfer(reference)], {
      env: { FSAPI_RECONCILE_SCHEDULE_MS: '0,50' },
    });
    assert.equal(result.code, 5, result.stderr);
    assert.match(
      result.stderr,
      /outcome is unknown: the transfer was answered HTTP 502, which does not prove it was refused; the lookup by reference found nothing/,
    );
    assert.match(result.stderr, new RegExp(`hint: do not resend; run fsapi transfer status ${reference}`));
    assert.equal(result.stdout, '');
    assert.equal(setup.posts(), 1, 'sent exactly once, never retried');
    assert.ok(
      setup.server.simulator.requests().some((r) => r.path === `/v1/transactions/reference/${reference}`),
      'looked up',
    );
  });
});
