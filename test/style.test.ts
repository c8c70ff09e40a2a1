// fsapi's terminal styles (src/ui/style.ts): chalk at its basic level, which tables, notes and the
// PRODUCTION marker were written against; and colours forced on a pipe stay colours, never U+FFFD (styles
// are applied after the sanitiser, not before).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { styles } from '../src/ui/style.js';
import { homePool, runCli } from './helpers/cli.js';

const ESC = '\u001b[';

describe('terminal styles', () => {
  const c = styles(true);

  it('wraps text in the style and its own reset', () => {
    assert.equal(c.red('failed'), `${ESC}31mfailed${ESC}39m`);
    assert.equal(c.dim('Label'), `${ESC}2mLabel${ESC}22m`);
    assert.equal(c.alarm(' PRODUCTION '), `${ESC}1m${ESC}41m${ESC}37m PRODUCTION ${ESC}39m${ESC}49m${ESC}22m`);
  });

  it('reopens an outer style that an inner one closed, and closes around line breaks', () => {
    // bold and dim share their reset (22): after the dim part, bold is turned on again.
    assert.equal(c.bold(`a${c.dim('b')}c`), `${ESC}1ma${ESC}2mb${ESC}22m${ESC}1mc${ESC}22m`);
    assert.equal(c.yellow('one\r\ntwo'), `${ESC}33mone${ESC}39m\r\n${ESC}33mtwo${ESC}39m`);
  });

  it('leaves empty text empty, and all text as it is when colour is off', () => {
    assert.equal(c.green(''), '');
    const plain = styles(false);
    assert.equal(plain.enabled, false);
    for (const paint of [plain.bold, plain.dim, plain.red, plain.green, plain.yellow, plain.magenta, plain.cyan, plain.alarm]) {
      assert.equal(paint('text\n'), 'text\n');
    }
  });
});

describe('FORCE_COLOR=1 through the CLI', () => {
  const pool = homePool();
  after(() => pool.cleanup());

  it('colours tables and notes, and no escape code is turned into U+FFFD', async () => {
    const home = pool.home();
    const env = { ...home.env, FORCE_COLOR: '1' };
    for (const [args, tty] of [
      [['transfer', 'send', '0123456789', '--bank', 'gtb', '--amount', '100', '--narration', 'x', '--yes'], false],
      [['tx', 'list', '--limit', '5'], true],
      [['transfer', 'log'], true],
      [['clients', 'list'], true],
    ] as const) {
      const result = await runCli([...args], { env, tty });
      assert.equal(result.code, 0, result.stderr);
      const all = result.stdout + result.stderr;
      assert.match(all, /\u001b\[3[0-9]m/, `${args.join(' ')}: coloured`);
      assert.doesNotMatch(all, /\uFFFD/, `${args.join(' ')}: no U+FFFD`);
    }
  });
});
