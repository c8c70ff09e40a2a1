// Each transfer the simulator takes is POSTed to the webhook URL as a `payout` event, also in realistic
// mode, where the API's answers vary in shape. fsapi verifies it against the transfer it names (read
// tolerantly), and a copy with another amount is a mismatch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { makeHome, runCli } from './helpers/cli.js';
import { logInToSimulator } from './helpers/simulator-login.js';

describe('realistic mode: events of other kinds', () => {
  const home = makeHome();
  let receiver: WebhookReceiver;
  let received: WebhookReceiver['received'] = [];
  let simulator: RunningSimulator;

  before(async () => {
    receiver = await startWebhookReceiver();
    received = receiver.received;
    simulator = await startSimulatorServer({ port: 0, realistic: true, webhookUrl: receiver.url });
    await logInToSimulator(home.env, simulator.url);
  });

  after(async () => {
    await simulator?.close();
    await receiver?.close();
    home.cleanup();
  });

  it('notifies a transfer as a payout event, which webhook verify checks against the transfer', async () => {
    const sent = await runCli(
      ['--profile', 'sim', 'transfer', 'send', '0123456789', '--bank', '000013', '--amount', '2500', '--narration', 'rent', '--yes', '--json'],
      { env: home.env },
    );
    assert.equal(sent.code, 0, sent.stderr);
    const reference = (JSON.parse(sent.stdout) as { reference: string }).reference;

    // Delivery is asynchronous: wait for it, bounded.
    for (let i = 0; i < 100 && !received.some((event) => event.reference === reference); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    const payout = received.find((event) => event.reference === reference);
    assert.ok(payout, `no event for ${reference}: ${JSON.stringify(received)}`);
    assert.equal(payout.event, 'payout');

    const verified = await runCli(['--profile', 'sim', 'webhook', 'verify', '-', '--json'], { env: home.env, input: JSON.stringify(payout) });
    assert.equal(verified.code, 0, verified.stderr);
    const answer = JSON.parse(verified.stdout) as { kind: string; state: string; status: string; amount: string };
    assert.deepEqual([answer.kind, answer.state, answer.status, answer.amount], ['payout', 'verified', 'pending', '2500.00']);

    const forged = await runCli(['--profile', 'sim', 'webhook', 'verify', '-', '--json'], {
      env: home.env,
      input: JSON.stringify({ ...payout, amount: 250000 }),
    });
    assert.equal(forged.code, 1, forged.stderr);
    assert.equal((JSON.parse(forged.stdout) as { state: string; field: string }).field, 'amount');
  });
});
