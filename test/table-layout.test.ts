// Tables that fit the terminal: the fitting arithmetic (src/ui/table-layout.ts) on its own, then the real
// CLI on a pseudo-terminal 80, 100 and 160 columns wide, where no line may be longer than the terminal.
// Piped output keeps every column.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { fitColumns, wrapText, type ColumnSpace } from '../src/ui/table-layout.js';
import { displayWidth, truncateToWidth } from '../src/common/text-width.js';
import { homePool, runCli, stripAnsi } from './helpers/cli.js';

const widthOf = (widths: number[], gap = 2) => widths.reduce((sum, width) => sum + width, 0) + gap * Math.max(0, widths.length - 1);

describe('fitColumns', () => {
  const tx: ColumnSpace[] = [
    { natural: 16, header: 4 }, // DATE
    { natural: 19, header: 9 }, // REFERENCE
    { natural: 6, header: 4, priority: 2 }, // TYPE
    { natural: 12, header: 6 }, // AMOUNT
    { natural: 8, header: 6, priority: 3 }, // CHARGE
    { natural: 45, header: 12, priority: 1, flex: true }, // COUNTERPARTY
    { natural: 10, header: 6 }, // STATUS
    { natural: 30, header: 11, priority: 4, flex: true }, // DESCRIPTION
  ];

  it('keeps every column at its natural width when there is room', () => {
    const fit = fitColumns(tx, 200);
    assert.deepEqual(fit.shown, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(
      fit.widths,
      tx.map((column) => column.natural),
    );
  });

  it('drops the highest priority numbers first and narrows flex columns, never the essential ones', () => {
    const fit = fitColumns(tx, 80);
    assert.deepEqual(fit.shown, [0, 1, 3, 5, 6], 'TYPE, CHARGE and DESCRIPTION drop out at 80');
    assert.ok(widthOf(fit.widths) <= 80);
    assert.equal(fit.widths[1], 19, 'the reference is never cut');
    assert.equal(fit.widths[2], 12, 'the amount is never cut');
    const at100 = fitColumns(tx, 100);
    assert.deepEqual(at100.shown, [0, 1, 2, 3, 4, 5, 6], 'only DESCRIPTION drops at 100');
    assert.ok(widthOf(at100.widths) <= 100);
  });

  it('fits any table into any width from 20 columns on', () => {
    const column = fc.record({
      natural: fc.integer({ min: 1, max: 80 }),
      header: fc.integer({ min: 1, max: 12 }),
      priority: fc.integer({ min: 0, max: 5 }),
      flex: fc.boolean(),
      // Words of a wrapping cell (empty: the column does not wrap).
      words: fc.array(fc.integer({ min: 1, max: 15 }), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(fc.array(column, { minLength: 1, maxLength: 10 }), fc.integer({ min: 20, max: 300 }), (columns, available) => {
        const fit = fitColumns(
          columns.map(({ words, ...c }) => {
            if (!c.flex || words.length === 0) return { ...c, natural: Math.max(c.natural, c.header) };
            const cell = words.map((length) => 'w'.repeat(length)).join(' ');
            return { ...c, natural: Math.max(cell.length, c.header), wrapped: wrapping(cell) };
          }),
          available,
        );
        assert.ok(fit.shown.length >= 1);
        // Essential columns are never dropped.
        columns.forEach((c, index) => {
          if (c.priority === 0) assert.ok(fit.shown.includes(index));
        });
        if (widthOf(fit.widths) > available) {
          // Only possible when even two characters per shown essential column do not fit.
          assert.ok(fit.widths.every((width) => width <= 2));
        }
      }),
    );
  });

  it('wraps record values at spaces, breaking only words longer than the line, after punctuation where it can', () => {
    assert.deepEqual(wrapText('Transfer from ADEYEMI BABATUNDE TEMITOPE', 20), ['Transfer from', 'ADEYEMI BABATUNDE', 'TEMITOPE']);
    assert.deepEqual(wrapText('short', 20), ['short']);
    assert.deepEqual(wrapText('x'.repeat(25), 10), ['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    assert.deepEqual(wrapText('by ada@finance-laptop', 10), ['by', 'ada@', 'finance-', 'laptop']);
    assert.deepEqual(wrapText('₦25,000.00 to 9900000011', 12), ['₦25,000.00', 'to', '9900000011']);
  });

  // A column of cells that wrap: the width they take when wrapped to `room` (as src/ui/output.ts gives it).
  const wrapping =
    (...cells: string[]) =>
    (room: number) =>
      Math.max(...cells.flatMap((cell) => wrapText(cell, room)).map(displayWidth));

  it('wraps a narration within its cell instead of cutting it, and gives it the width its lines use', () => {
    const narrations = ['November supplies invoice 4411 cement and sand', 'November supplies invoice 4412 cement and rods'];
    const batch: ColumnSpace[] = [
      { natural: 4, header: 4 }, // LINE
      { natural: 22, header: 13, flex: true, minWidth: 12, wrapped: wrapping('OKAFOR CHIAMAKA ADAEZE') }, // VERIFIED NAME
      { natural: 10, header: 7 }, // ACCOUNT
      { natural: 4, header: 4, flex: true, wrapped: wrapping('FCMB', 'UBA') }, // BANK
      { natural: 11, header: 6 }, // AMOUNT
      { natural: 46, header: 9, flex: true, minWidth: 12, wrapped: wrapping(...narrations) }, // NARRATION
      { natural: 20, header: 9, priority: 1 }, // REFERENCE
    ];
    const fit = fitColumns(batch, 80);
    assert.deepEqual(fit.shown, [0, 1, 2, 3, 4, 5], 'only the reference drops out');
    assert.ok(widthOf(fit.widths) <= 80, String(fit.widths));
    const narrationWidth = fit.widths[5]!;
    assert.ok(narrationWidth >= 12);
    // Each wrapped line fills the room it was given: no column is kept wider than its longest line.
    assert.equal(narrationWidth, wrapping(...narrations)(narrationWidth));
    assert.equal(fit.widths[3], 4, 'a short bank name keeps its room');
  });

  it("keeps a team log's operator and outcome at 80 columns, the time and the name wrapping", () => {
    const log: ColumnSpace[] = [
      { natural: 16, header: 4, flex: true, minWidth: 10, wrapped: wrapping('2026-11-28 03:23') }, // TIME
      { natural: 18, header: 8, flex: true, wrapped: wrapping('ada@finance-laptop', 'bola@machine-b') }, // OPERATOR
      { natural: 21, header: 9 }, // REFERENCE
      { natural: 10, header: 7, priority: 1 }, // ACCOUNT
      { natural: 22, header: 4, flex: true, minWidth: 8, wrapped: wrapping('OKAFOR CHIAMAKA ADAEZE') }, // NAME
      { natural: 11, header: 6 }, // AMOUNT
      { natural: 10, header: 7 }, // OUTCOME
    ];
    const fit = fitColumns(log, 80);
    assert.deepEqual(fit.shown, [0, 1, 2, 4, 5, 6]);
    assert.ok(widthOf(fit.widths) <= 80, String(fit.widths));
    assert.equal(fit.widths[2], 21, 'the reference is never cut');
    assert.ok(fit.widths[1]! >= 8, 'the operator keeps at least its header');
  });
});

describe('display width', () => {
  it('counts the columns a terminal gives: ₦ one, wide characters and emoji two, combining marks and colours none', () => {
    assert.equal(displayWidth('₦1,500.00'), 9);
    assert.equal(displayWidth('\u001b[32mverified\u001b[39m'), 8);
    assert.equal(displayWidth('中文名'), 6);
    assert.equal(displayWidth('ＡＢ'), 4);
    assert.equal(displayWidth('🙂 ok'), 5);
    assert.equal(displayWidth('Ade\u0301 Obi'), 7);
    assert.equal(displayWidth('Adé Obi'), 7);
  });

  it('cuts to a width by columns, never inside a wide character', () => {
    assert.equal(truncateToWidth('中文名字', 5), '中文…');
    assert.equal(truncateToWidth('OKAFOR CHIAMAKA', 8), 'OKAFOR …');
    assert.equal(truncateToWidth('short', 8), 'short');
    assert.deepEqual(wrapText('中文 名字 很长', 4), ['中文', '名字', '很长']);
  });
});

describe('tables on a terminal', () => {
  const pool = homePool();
  after(() => pool.cleanup());

  const longest = (screen: string) =>
    Math.max(
      ...stripAnsi(screen)
        .split('\n')
        .map((line) => [...line.replace(/\r$/, '')].length),
    );

  for (const columns of [80, 100, 160]) {
    it(`no line is longer than ${columns} columns`, async () => {
      const home = pool.home();
      const screens: string[] = [];
      for (const args of [
        ['tx', 'list', '--limit', '30'],
        ['clients', 'list'],
        ['banks'],
        [
          'transfer',
          'send',
          '0123456789',
          '--bank',
          'gtbank',
          '--amount',
          '1500',
          '--narration',
          'A narration long enough to need more than one line at eighty columns',
          '--yes',
        ],
        ['transfer', 'log'],
        ['tx', 'get', 'COL-EXAMPLES000002'],
        ['account'],
      ]) {
        const result = await runCli(args, { env: home.env, tty: true, columns, timeoutMs: 60_000 });
        assert.equal(result.code, 0, `${args.join(' ')}: ${result.stdout}`);
        screens.push(result.stdout);
        assert.ok(longest(result.stdout) <= columns, `${args.join(' ')} at ${columns} columns:\n${stripAnsi(result.stdout)}`);
      }
      const txList = stripAnsi(screens[0]!);
      assert.match(txList, /^DATE \(WAT\) +REFERENCE/m, 'the header is there');
      assert.doesNotMatch(txList, /[─│┼]/, 'no rules between rows');
      if (columns === 80) {
        assert.match(txList, /not shown at this width: TYPE, CHARGE, DESCRIPTION/);
        assert.match(txList, /…/, 'long counterparties are cut with …');
        // TYPE is dropped, but the direction stays on every amount, and the status column stays.
        assert.match(txList, /^\S+ \S+ +\S+ +\+₦[\d,.]+ .*successful$/m, 'an inflow is signed +');
        assert.match(txList, /^\S+ \S+ +\S+ +-₦[\d,.]+ .*successful$/m, 'an outflow is signed -');
        const log = stripAnsi(screens[4]!);
        assert.match(log, /OUTCOME/, 'transfer log keeps the outcome at 80 columns');
      }
      if (columns === 160) assert.doesNotMatch(txList, /not shown at this width/);
    });
  }

  it('piped output keeps every column, uncut', async () => {
    const home = pool.home();
    const piped = await runCli(['tx', 'list', '--limit', '5'], { env: home.env });
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout.split('\n')[0], 'DATE\tREFERENCE\tTYPE\tAMOUNT\tCHARGE\tCOUNTERPARTY\tSTATUS\tDESCRIPTION');
    assert.doesNotMatch(piped.stdout, /…/);
  });
});
