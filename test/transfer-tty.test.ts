// The confirmation of transfer send, driven through a real pseudo-terminal (util-linux `script`).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { stripAnsi } from './helpers/cli.js';
import { setUpTransfers, type TransferSetup } from './helpers/transfer-setup.js';
import { SIMULATOR_LOGIN_ENV } from './helpers/simulator-login.js';

let setup: TransferSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

const sendArgs = ['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '15000', '--narration', 'Invoice 42'];
/** The confirmation's question: each answer is typed once the screen asks it. */
const CONFIRM = 'Send ₦15,000.00 to OKAFOR CHIAMAKA ADAEZE?';

describe('transfer send on a terminal', () => {
  it('answering n cancels: exit 4, no POST, nothing journalled', async () => {
    setup = await setUpTransfers();
    const result = await setup.run(sendArgs, { tty: true, keys: [[CONFIRM, 'n\r']] });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 4, screen);
    assert.match(screen, /OKAFOR CHIAMAKA ADAEZE/);
    assert.match(screen, /Send ₦15,000\.00 to OKAFOR CHIAMAKA ADAEZE\?/);
    assert.match(screen, /cancelled; nothing was sent/);
    assert.equal(setup.posts(), 0);
    assert.deepEqual(setup.journalLines(), []);
  });

  it('Enter alone takes the default, No: exit 4, no POST', async () => {
    setup = await setUpTransfers();
    const result = await setup.run(sendArgs, { tty: true, keys: [[CONFIRM, '\r']] });
    assert.equal(result.code, 4, stripAnsi(result.stdout));
    assert.equal(setup.posts(), 0);
  });

  it('answering y sends exactly once and shows the result as a record', async () => {
    setup = await setUpTransfers();
    const result = await setup.run(sendArgs, { tty: true, keys: [[CONFIRM, 'y\r']] });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 0, screen);
    assert.equal(setup.posts(), 1);
    assert.match(screen, /Status\s+pending/);
    assert.match(screen, /Amount\s+₦15,000\.00/);
    assert.doesNotMatch(screen, /PRODUCTION/);
  });

  it('the duplicate guard asks again on a terminal; n cancels the second transfer', async () => {
    setup = await setUpTransfers();
    assert.equal((await setup.run([...sendArgs, '--yes'])).code, 0);
    // --yes skips the confirmation, not the duplicate question.
    const result = await setup.run([...sendArgs, '--yes'], { tty: true, keys: [['Send the same amount to the same account again?', 'n\r']] });
    const screen = stripAnsi(result.stdout);
    assert.equal(result.code, 4, screen);
    assert.match(screen, /already sent/);
    assert.match(screen, /Send the same amount to the same account again\?/);
    assert.equal(setup.posts(), 1);
  });

  it('a production profile shows the PRODUCTION marker before the confirmation', async () => {
    setup = await setUpTransfers();
    const login = await setup.run(['auth', 'login', '--profile', 'live', '--env', 'production', '--base-url', setup.server.url], {
      env: SIMULATOR_LOGIN_ENV,
    });
    assert.equal(login.code, 0, login.stderr);
    const result = await setup.run(['--profile', 'live', ...sendArgs], { tty: true, keys: [[CONFIRM, 'n\r']] });
    assert.equal(result.code, 4);
    const screen = stripAnsi(result.stdout);
    const marker = screen.indexOf('PRODUCTION');
    assert.ok(marker >= 0, screen);
    assert.ok(marker < screen.indexOf('Send ₦15,000.00'), 'the marker comes before the question');
    assert.match(result.stdout, /\u001b\[41m/, 'on a red background');
  });
});
