// Data from the API is data, not commands (src/common/sanitize.ts). A hostile API (test/fixtures/hostile-api.ts:
// the served simulator behind a proxy that fills every name, bank, description, narration and message
// with formulas, escape sequences, BEL, CR, bidi overrides, tabs and newlines) answers the real CLI:
//   - every CSV (tx list --csv, the batch report) read back with csv-parse: no cell a spreadsheet would
//     run, no control character, amounts still plain numbers;
//   - TSV (piped) and the terminal (a pty) scanned byte by byte: no control character but the line ends and
//     the TSV's own tabs, every TSV line as many columns as its header;
//   - --json still carries the API's text exactly.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startSimulatorServer, type RunningSimulator } from '../src/simulator/server.js';
import { csvCell, csvTextCell, fromCsvTextCell, terminalText, tsvField } from '../src/common/sanitize.js';
import { HOSTILE_TEXTS, startHostileApi, type HostileApi } from './fixtures/hostile-api.js';
import { makeHome, runCli, type Home } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';
import { logInToSimulator } from './helpers/simulator-login.js';

/** Anything a terminal or a spreadsheet could act on, besides the line break (and the TSV tab). */
const CONTROL_OR_BIDI = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const FORMULA = /^\s*[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;
/** An identifier kept as text (`="0123456789"`): a formula whose only result is its own digits. */
const DIGITS_AS_TEXT = /^="\d+"$/;

function assertSafeCsvCell(cell: string, where: string): void {
  assert.doesNotMatch(cell, CONTROL_OR_BIDI, `${where}: control character in ${JSON.stringify(cell)}`);
  assert.doesNotMatch(cell, /[\t\n]/, `${where}: tab or newline in ${JSON.stringify(cell)}`);
  if (!PLAIN_NUMBER.test(cell) && !DIGITS_AS_TEXT.test(cell)) assert.doesNotMatch(cell, FORMULA, `${where}: formula ${JSON.stringify(cell)}`);
}

describe('sanitize: the three neutralisers', () => {
  it('csvCell: formulas get an apostrophe, plain numbers stay, controls go', () => {
    assert.equal(csvCell('=1+1'), "'=1+1");
    assert.equal(csvCell('+234 801'), "'+234 801");
    assert.equal(csvCell('-2+3'), "'-2+3");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\t=1'), "' =1");
    assert.equal(csvCell('\rx'), "' x");
    assert.equal(csvCell('  =1'), "'  =1");
    assert.equal(csvCell('-500.00'), '-500.00');
    assert.equal(csvCell('+12'), '+12');
    assert.equal(csvCell('1500.10'), '1500.10');
    assert.equal(csvCell('ADA OBI'), 'ADA OBI');
    assert.equal(csvCell('a\u001b[31mb'), 'a\uFFFD[31mb');
  });

  it('csvTextCell: digits kept as text with their leading zero, anything else as csvCell; read back by fromCsvTextCell', () => {
    assert.equal(csvTextCell('0123456789'), '="0123456789"');
    assert.equal(csvTextCell('000013'), '="000013"');
    assert.equal(csvTextCell(''), '');
    assert.equal(csvTextCell('=HYPERLINK("x")'), `'=HYPERLINK("x")`);
    assert.equal(csvTextCell('0123"),CMD("'), '0123"),CMD("');
    assert.equal(csvTextCell('+2348012345678'), '+2348012345678');
    assert.equal(fromCsvTextCell('="0123456789"'), '0123456789');
    assert.equal(fromCsvTextCell('="01234"5"'), '="01234"5"');
    assert.equal(fromCsvTextCell('0123456789'), '0123456789');
  });

  it('tsvField: tab, newline, CR and backslash escaped (reversibly), other controls replaced', () => {
    assert.equal(tsvField('a\tb\nc\r\\d'), 'a\\tb\\nc\\r\\\\d');
    assert.equal(tsvField('x\u0007\u001b]0;t\u0007'), 'x\uFFFD\uFFFD]0;t\uFFFD');
    assert.equal(tsvField('\u202eevil'), '\uFFFDevil');
    assert.equal(tsvField('plain text'), 'plain text');
  });

  it('terminalText: line breaks become spaces, controls, C1 and bidi controls are replaced', () => {
    assert.equal(terminalText('one\ntwo\r\nthree\tfour'), 'one two three four');
    assert.equal(terminalText('\u001b[2J\u009b31m\u2066x\u2069'), '\uFFFD[2J\uFFFD31m\uFFFDx\uFFFD');
    assert.equal(terminalText('₦1,500.00 Ọ̀ṣun'), '₦1,500.00 Ọ̀ṣun');
  });
});

describe('a hostile API: what reaches the spreadsheet and the terminal', () => {
  let simulator: RunningSimulator;
  let proxy: HostileApi;
  let home: Home;
  /** At a terminal: the real process under a pseudo-terminal, every byte it shows scanned. */
  const run = (args: string[], options: Parameters<typeof runCli>[1] = {}) =>
    runCli(args, { timeoutMs: 60_000, ...options, env: { ...home.env, ...options.env } });
  /** Piped (CSV, TSV, JSON, stderr): the command line run in this process, through the same proxy. */
  const runPiped = (args: string[]) => runInProcess(args, { env: home.env });

  before(async () => {
    simulator = await startSimulatorServer({ port: 0, settleSeconds: 1 });
    proxy = await startHostileApi(simulator.url, { poison: true });
    home = makeHome();
    await logInToSimulator(home.env, proxy.url);
  });
  after(async () => {
    await proxy?.close();
    await simulator?.close();
    home?.cleanup();
  });

  it('--json carries the hostile text exactly (the proof that it reached fsapi)', async () => {
    const result = await runPiped(['tx', 'list', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const rows = JSON.parse(result.stdout) as Array<{ description: string }>;
    assert.ok(rows.length > 5);
    assert.ok(rows.every((row) => HOSTILE_TEXTS.includes(row.description)));
    assert.ok(new Set(rows.map((row) => row.description)).size >= 5, 'several hostile texts met');
  });

  it('tx list --all --csv: every cell read back with csv-parse is inert; amounts stay numbers', async () => {
    const result = await runPiped(['tx', 'list', '--all', '--csv']);
    assert.equal(result.code, 0, result.stderr);
    const records = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    assert.ok(records.length > 5);
    for (const [i, record] of records.entries()) {
      for (const [column, cell] of Object.entries(record)) assertSafeCsvCell(cell, `row ${i + 1} ${column}`);
      assert.match(record.amount!, PLAIN_NUMBER);
    }
    const descriptions = records.map((record) => record.description);
    assert.ok(descriptions.includes(`'${HOSTILE_TEXTS[0]}`), 'a formula is kept, as text');
    assert.ok(
      descriptions.some((text) => text!.includes('\uFFFD')),
      'a control character was replaced visibly',
    );
  });

  it('tx list piped (TSV): no control character, every line as many columns as the header', async () => {
    const result = await runPiped(['tx', 'list', '--limit', '20']);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.split('\n').filter((line) => line !== '');
    const columns = lines[0]!.split('\t').length;
    for (const line of lines) {
      assert.doesNotMatch(line, CONTROL_OR_BIDI, JSON.stringify(line));
      assert.equal(line.split('\t').length, columns, JSON.stringify(line));
    }
    assert.ok(
      lines.some((line) => line.includes('line one\\nline two\\r\\nwith\\ttab')),
      'newlines and tabs escaped',
    );
  });

  it('tx list and tx get on a terminal: nothing the terminal would obey', async () => {
    const list = await run(['tx', 'list', '--limit', '20'], { tty: true, env: { NO_COLOR: '1' } });
    assert.equal(list.code, 0, list.stdout);
    assert.doesNotMatch(list.stdout.replaceAll('\n', ''), CONTROL_OR_BIDI);
    assert.match(list.stdout, /\uFFFD/);
    const reference = (JSON.parse((await runPiped(['tx', 'list', '--json', '--limit', '1'])).stdout) as Array<{ reference: string }>)[0]!.reference;
    const one = await run(['tx', 'get', reference], { tty: true, env: { NO_COLOR: '1' } });
    assert.equal(one.code, 0, one.stdout);
    assert.doesNotMatch(one.stdout.replaceAll('\n', ''), CONTROL_OR_BIDI);
  });

  it('in colour on a terminal: only fsapi colours; the transfer confirmation shows the hostile name as text', async () => {
    const list = await run(['tx', 'list', '--limit', '20'], { tty: true, env: { FORCE_COLOR: '1' } });
    assert.equal(list.code, 0, list.stdout);
    const withoutColours = list.stdout.replace(/\u001b\[[0-9;]*m/g, '').replaceAll('\n', '');
    assert.doesNotMatch(withoutColours, CONTROL_OR_BIDI);
    assert.match(list.stdout, /\uFFFD\[2J/, 'the clear-screen sequence arrived, and is shown as text');

    // The name enquiry answers a hostile name: the summary shows it, then No cancels (exit 4).
    const send = await run(['transfer', 'send', '0123456789', '--bank', '000013', '--amount', '1500', '--narration', 'rent'], {
      tty: true,
      keys: [['Send ₦1,500.00 to', 'n\r']],
      env: { FORCE_COLOR: '1' },
    });
    assert.equal(send.code, 4, send.stdout);
    assert.match(send.stdout, /verified by name enquiry/);
    assert.doesNotMatch(send.stdout.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replaceAll('\n', ''), CONTROL_OR_BIDI);
  });

  it('transfer batch: the report CSV, the stdout TSV and the stderr summary carry nothing hostile', async () => {
    const file = path.join(home.root, 'pay.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n0123456789,000013,1500,=cmd rent\n0123456781,000004,2500.50,@fees\n');
    const report = path.join(home.root, 'report.csv');
    const result = await runPiped(['transfer', 'batch', file, '--yes', '--report', report]);
    assert.equal(result.code, 0, result.stderr);
    for (const line of result.stdout.split('\n')) assert.doesNotMatch(line, CONTROL_OR_BIDI, JSON.stringify(line));
    assert.doesNotMatch(result.stderr.replaceAll('\n', ''), CONTROL_OR_BIDI);
    const records = parse(readFileSync(report), { columns: true }) as Array<Record<string, string>>;
    assert.equal(records.length, 2);
    for (const [i, record] of records.entries()) {
      for (const [column, cell] of Object.entries(record)) assertSafeCsvCell(cell, `report row ${i + 1} ${column}`);
    }
    assert.ok(
      records.some((record) => record.verified_name!.startsWith("'") || record.verified_name!.includes('\uFFFD')),
      'the hostile name was neutralised',
    );
  });

  it('API error messages carrying each hostile text are shown as text on stderr', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < HOSTILE_TEXTS.length; i += 1) {
      const result = await runPiped(['tx', 'get', `ACME-NOSUCHREF${i}`]);
      assert.equal(result.code, 1);
      // The refusal names what was asked for, then the API's own words: `error: no transaction ... (HTTP 400: <message>)`.
      const line = /^error: .*\(HTTP 400: (.*)\)$/m.exec(result.stderr)?.[1];
      assert.ok(line !== undefined, result.stderr);
      seen.add(line);
      assert.doesNotMatch(result.stderr.replaceAll('\n', ''), CONTROL_OR_BIDI, JSON.stringify(result.stderr));
    }
    assert.ok(seen.size >= 5, 'several different hostile messages were met');
    assert.ok(
      [...seen].some((line) => line.includes('\uFFFD')),
      'a control character was replaced visibly',
    );
  });
});

describe('sanitize: stderr notes', () => {
  it('keep colours, line breaks and tabs; replace every other control', async () => {
    const { stderrNote } = await import('../src/common/sanitize.js');
    assert.equal(stderrNote('\u001b[33mwarning:\u001b[39m a\tb\nc'), '\u001b[33mwarning:\u001b[39m a\tb\nc');
    assert.equal(stderrNote('refused: x\u001b[2J\u001b]0;t\u0007\ry\u202e'), 'refused: x\uFFFD[2J\uFFFD]0;t\uFFFD\uFFFDy\uFFFD');
  });
});
