// The simulator as real clients of the API meet it: their own HTTP calls (token, then requests shaped the
// way public integrations send them) against `simulator serve` on 127.0.0.1, and in realistic mode the
// notifications as integrations see them arrive, verified by fsapi's listener logic through the CLI.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SIMULATOR_CREDENTIALS, startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { makeHome, runCli } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';

/** What a PHP or Node integration does: a token from the headers, then JSON with a bearer token. */
async function realClient(baseUrl: string) {
  const tokenAnswer = await fetch(`${baseUrl}/v1/generate-token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      consumerKey: SIMULATOR_CREDENTIALS.consumerKey,
      consumerSecret: SIMULATOR_CREDENTIALS.consumerSecret,
      validityTime: '1440',
    },
  });
  const { token } = (await tokenAnswer.json()) as { token: string };
  return async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: answer.status, body: (await answer.json()) as { success: boolean; message?: string; data: Record<string, unknown> } };
  };
}

describe('a real client against simulator serve', () => {
  let simulator: RunningSimulator;
  before(async () => {
    simulator = await startSimulatorServer({ port: 0 });
  });
  after(async () => simulator?.close());

  it('creates an individual client with middlename: null (and nin: null), as one integration sends it', async () => {
    const call = await realClient(simulator.url);
    const created = await call('POST', '/v1/account/clients/individual', {
      firstname: 'Amaka',
      lastname: 'Obi',
      middlename: null,
      phoneNumber: '08031234567',
      emailAddress: 'amaka@example.com',
      address: '12 Marina, Lagos',
      bvn: '22212345678',
      nin: null,
      gender: 'female',
      dateOfBirth: '1990/05/17',
      metadata: null,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.data.accountName, 'Amaka Obi');
    assert.equal(created.body.data.middlename, '');
  });

  it('still refuses a required field sent as null, as if it were left out', async () => {
    const call = await realClient(simulator.url);
    const refused = await call('POST', '/v1/account/clients/individual', {
      firstname: 'Amaka',
      lastname: null,
      phoneNumber: '08031234567',
      emailAddress: 'a@example.com',
      address: 'x',
      bvn: '22212345678',
      gender: 'female',
      dateOfBirth: '1990/05/17',
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.success, false);
  });

  it('answers a name enquiry with the accountNumber and bank integrations read', async () => {
    const call = await realClient(simulator.url);
    const answer = await call('POST', '/v1/transfer/name-enquiry', { bankCode: '000013', accountNumber: '0123456789' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.accountNumber, '0123456789');
    assert.equal(answer.body.data.bank, 'Guaranty Trust Bank');
    assert.equal(typeof answer.body.data.accountName, 'string');
  });
});

describe('realistic notifications', () => {
  const home = makeHome();
  let receiver: WebhookReceiver;
  let received: WebhookReceiver['received'] = [];
  let simulator: RunningSimulator;

  before(async () => {
    receiver = await startWebhookReceiver();
    received = receiver.received;
    simulator = await startSimulatorServer({ port: 0, realistic: true, settleSeconds: 1, webhookUrl: receiver.url });
    await logInToSimulator(home.env, simulator.url);
  });

  after(async () => {
    await simulator?.close();
    await receiver?.close();
    home.cleanup();
  });

  async function eventsOf(predicate: (event: Record<string, unknown>) => boolean, count: number) {
    for (let i = 0; i < 100 && received.filter(predicate).length < count; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    return received.filter(predicate);
  }

  it('a collection arrives with amountReceived "25000.0" and a numeric virtualAccount, and still verifies', async () => {
    const collected = await runCli(['--profile', 'sim', 'simulator', 'collect', '9900000011', '--amount', '25000', '--json'], { env: home.env });
    assert.equal(collected.code, 0, collected.stderr);
    const reference = (JSON.parse(collected.stdout) as { reference: string }).reference;
    const [event] = await eventsOf((e) => e.reference === reference, 1);
    assert.ok(event, `no notification for ${reference}`);
    assert.equal(event.amountReceived, '25000.0');
    assert.equal(event.virtualAccount, 9900000011);

    const verified = await runCli(['--profile', 'sim', 'webhook', 'verify', '-', '--json'], { env: home.env, input: JSON.stringify(event) });
    assert.equal(verified.code, 0, verified.stderr);
    const result = JSON.parse(verified.stdout) as { state: string; amount: string; virtualAccount: string };
    assert.deepEqual([result.state, result.amount, result.virtualAccount], ['verified', '25000.00', '9900000011']);
  });

  it('a reversed transfer is notified as payout pending, payout reversed, and a reversal of R-<reference>', async () => {
    const sent = await runCli(
      ['--profile', 'sim', 'transfer', 'send', '0123455050', '--bank', '000013', '--amount', '1200', '--narration', 'refund', '--yes', '--json'],
      { env: home.env },
    );
    assert.equal(sent.code, 0, sent.stderr);
    const reference = (JSON.parse(sent.stdout) as { reference: string }).reference;
    const events = await eventsOf((e) => e.reference === reference || e.reference === `R-${reference}`, 3);
    assert.deepEqual(
      events.map((e) => [e.event, e.reference, e.status]),
      [
        ['payout', reference, 'pending'],
        ['payout', reference, 'reversed'],
        ['reversal', `R-${reference}`, 'successful'],
      ],
    );
    // The reversal is a real record: the API finds it by its reference.
    const found = await runCli(['--profile', 'sim', 'tx', 'get', `R-${reference}`, '--json'], { env: home.env });
    assert.equal(found.code, 0, found.stderr);
    // fsapi verifies it as what it is: money of a reversed transfer coming back, never a collection.
    const verified = await runCli(['--profile', 'sim', 'webhook', 'verify', '-', '--json'], { env: home.env, input: JSON.stringify(events[2]) });
    assert.equal(verified.code, 0, verified.stderr);
    const answer = JSON.parse(verified.stdout) as { kind: string; state: string };
    assert.deepEqual([answer.kind, answer.state], ['reversal', 'verified']);
  });

  it('a transfer that fails is notified as payout failed with a failureReason', async () => {
    const sent = await runCli(
      ['--profile', 'sim', 'transfer', 'send', '0123454040', '--bank', '000013', '--amount', '900', '--narration', 'x', '--yes', '--json'],
      { env: home.env },
    );
    assert.equal(sent.code, 0, sent.stderr);
    const reference = (JSON.parse(sent.stdout) as { reference: string }).reference;
    const events = await eventsOf((e) => e.reference === reference, 2);
    assert.deepEqual(
      events.map((e) => e.status),
      ['pending', 'failed'],
    );
    assert.equal(typeof events[1]!.failureReason, 'string');
  });
});
