// Realistic mode also sends notifications of another kind: each transfer the simulator takes is POSTed to
// the webhook URL as a `payout` event. fsapi must read such an event as "not verified: unknown kind".
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

  it('notifies a transfer as a payout event, which webhook verify does not take for a verified inflow', async () => {
    const sent = await runCli(['--profile', 'sim', 'transfer', 'send', '0123456789', '--bank', '000013', '--amount', '2500', '--narration', 'rent', '--yes', '--json'], { env: home.env });
    assert.equal(sent.code, 0, sent.stderr);
    const reference = (JSON.parse(sent.stdout) as { reference: string }).reference;

    // Delivery is asynchronous: wait for it, bounded.
    for (let i = 0; i < 100 && !received.some((event) => event.reference === reference); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    const payout = received.find((event) => event.reference === reference);
    assert.ok(payout, `no event for ${reference}: ${JSON.stringify(received)}`);
    assert.equal(payout.event, 'payout');

    const verified = await runCli(['--profile', 'sim', 'webhook', 'verify', '-'], { env: home.env, input: JSON.stringify(payout) });
    assert.equal(verified.code, 1, verified.stderr);
    assert.match(`${verified.stdout}${verified.stderr}`, /unknown kind/);
  });
});
