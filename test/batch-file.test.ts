// Reading batch files: the CSV dialects people produce, every bad row with its physical line and reason,
// and references derived from the file's bytes. Pure functions: no API, no process.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BadRowsError, BatchFileReader, derivedReference, parseBatchFile, type BatchRow, type RowProblem } from '../src/batch/file.js';
import { reportCsv } from '../src/batch/report.js';
import type { RowResult } from '../src/batch/payouts.js';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../src/errors.js';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures/batch', name));
const parseText = (text: string) => parseBatchFile(Buffer.from(text, 'utf8'), 'pay.csv');

function problemsOf(content: Buffer | string): RowProblem[] {
  try {
    parseBatchFile(typeof content === 'string' ? Buffer.from(content) : content, 'pay.csv');
  } catch (error) {
    if (error instanceof BadRowsError) return [...error.problems];
    throw error;
  }
  assert.fail('expected bad rows');
}

describe('batch file: what people export', () => {
  it('reads a BOM, CRLF, quoted commas and quotes, a line break inside quotes, blank lines and an empty ",,," row', () => {
    const file = parseBatchFile(fixture('bom-crlf-quoted.csv'), 'bom.csv');
    assert.deepEqual(
      file.rows.map((row) => [row.line, row.accountNumber, row.bankQuery, row.amountKobo, row.narration, row.reference, row.senderName, row.expectName]),
      [
        [2, '0123456789', 'gtb', 150000, 'Rent, March 2025', undefined, undefined, undefined],
        [4, '0123456781', '000013', 2050, 'Salary "bonus"', 'ACME-INV-42', 'Acme, Payroll', undefined],
        [7, '0123456782', 'United Bank for Africa', 3000000, 'two lines', undefined, undefined, 'Bello Adaeze\nNgozi'],
      ],
    );
  });

  it('accepts header names in any case, with spaces or dashes, and columns in any order', () => {
    const file = parseText('Narration, Amount ,BANK,Account Number,expect-name\nrent,"1,000",gtb,0123456789,Ada Obi\n');
    assert.deepEqual(
      file.rows.map((row) => [row.accountNumber, row.amountKobo, row.narration, row.expectName]),
      [['0123456789', 100000, 'rent', 'Ada Obi']],
    );
  });

  it('gives the same rows for LF and CRLF files, and for a file with and without a BOM', () => {
    const lf = 'account_number,bank,amount,narration\n0123456789,gtb,10,a\n\n0123456781,gtb,20,b\n';
    const crlf = lf.replaceAll('\n', '\r\n');
    const strip = (text: string) => parseText(text).rows.map(({ line, accountNumber, amountKobo }) => [line, accountNumber, amountKobo]);
    assert.deepEqual(strip(lf), strip(crlf));
    assert.deepEqual(strip(lf), strip(`\uFEFF${lf}`));
    assert.deepEqual(strip(lf), [
      [2, '0123456789', 1000],
      [4, '0123456781', 2000],
    ]);
  });
});

describe('batch file: read a chunk at a time', () => {
  /** The file read through BatchFileReader in pieces cut at the given byte offsets. */
  function readInChunks(content: Buffer, cuts: number[]): { rows: BatchRow[]; problems: RowProblem[]; contentHash: Buffer } {
    const rows: BatchRow[] = [];
    const first = new Map<string, number>();
    const reader = new BatchFileReader('pay.csv', {
      onRow: (row) => rows.push(row),
      firstLineOfReference: (reference, line) => {
        const earlier = first.get(reference.toUpperCase());
        if (earlier === undefined) first.set(reference.toUpperCase(), line);
        return earlier;
      },
    });
    let at = 0;
    for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
      reader.write(content.subarray(at, cut));
      at = cut;
    }
    reader.write(content.subarray(at));
    return { rows, ...reader.end() };
  }

  it('gives the same rows, problems and hash wherever the chunks are cut (inside a CRLF, a quoted field, a character)', () => {
    // CRLF line ends, a BOM, quoted fields with commas and line breaks, multi-byte UTF-8, a bad row, a repeated reference.
    const text =
      '\uFEFFaccount_number,bank,amount,narration,reference,expect_name\r\n' +
      '0123456789,gtb,"1,500.00","Rent, ₦ March ✓",,\r\n' +
      '\r\n' +
      '0123456781,000013,20.5,lines é,ACME-X1,"Bello\r\nAdaeze"\r\n' +
      '012345678,gtb,10,short account,,\r\n' +
      '0123456782,Access Bank,7,"Ọlá, ""quoted""",acme-x1,\r\n' +
      '0123456783,uba,3,last line without a break,,';
    const content = Buffer.from(text, 'utf8');
    const whole = readInChunks(content, []);
    assert.deepEqual(
      whole.rows.map((row) => [row.line, row.expectName]),
      [
        [2, undefined],
        [4, 'Bello\nAdaeze'],
        [8, undefined],
      ],
    );
    assert.deepEqual(
      whole.problems.map((p) => p.line),
      [6, 7],
    );
    assert.match(whole.problems[1]!.reason, /reference acme-x1 is already used on line 4/);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: content.length - 1 }), { maxLength: 12 }), (cuts) => {
        const chunked = readInChunks(content, cuts);
        assert.deepEqual(chunked.rows, whole.rows);
        assert.deepEqual(chunked.problems, whole.problems);
        assert.ok(chunked.contentHash.equals(whole.contentHash));
      }),
      { numRuns: 300 },
    );
    // Every single cut, too: each byte boundary once.
    for (let cut = 1; cut < content.length; cut += 1) assert.deepEqual(readInChunks(content, [cut]).rows, whole.rows, `cut at byte ${cut}`);
  });
});

describe('batch file: bad rows, each with its line and reason', () => {
  it('lists every bad amount, account number and empty narration, not just the first', () => {
    const problems = problemsOf(fixture('bad-rows.csv'));
    assert.deepEqual(
      problems.map((p) => p.line),
      [3, 4, 5, 6, 7, 8],
    );
    const reason = (line: number) => problems.find((p) => p.line === line)!.reason;
    assert.match(reason(3), /more than 2 decimals/);
    assert.match(reason(4), /"-5" is below zero: give the naira to send, like 5$/);
    assert.match(reason(5), /"1e3" is not a number of naira/);
    assert.match(reason(6), /amount is empty/);
    assert.match(reason(7), /not 10 digits.*leading zeros/);
    assert.match(reason(8), /narration is empty/);
  });

  it('counts lines physically: blank lines and line breaks inside quotes move the numbers', () => {
    const text = 'account_number,bank,amount,narration,expect_name\r\n\r\n0123456789,gtb,10,a,"a\r\nb\r\nc"\r\n\r\n0123456781,gtb,lots,d,\r\n';
    assert.deepEqual(problemsOf(text), [{ line: 7, reason: 'amount "lots" is not a number of naira like 1500 or 1,500.50' }]);
    assert.deepEqual(
      problemsOf(`\uFEFF${text}`).map((p) => p.line),
      [7],
    );
  });

  it('refuses a narration or sender name with a line break, tab or other control character', () => {
    const text =
      'account_number,bank,amount,narration,sender_name\n' +
      '0123456789,gtb,10,"two\nlines",\n' +
      '0123456781,gtb,10,"tab\there",\n' +
      '0123456782,gtb,10,"bell\u0007",\n' +
      '0123456783,gtb,10,"ends with a newline\n",\n' +
      '0123456784,gtb,10,fine,"Acme\u001b[2J"\n' +
      '0123456785,gtb,10,fine,Acme\n' +
      '0123456786,gtb,10,"Invoice \u202E24",\n' +
      '0123456787,gtb,10,fine,"Ac\u200Bme"\n' +
      `0123456788,gtb,10,${'😀'.repeat(100)},\n` +
      `0123456789,gtb,11,${'😀'.repeat(101)},\n`;
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => p.line),
      [2, 4, 5, 6, 8, 10, 11, 13],
    );
    const reason = (line: number) => problems.find((p) => p.line === line)!.reason;
    assert.match(reason(2), /^narration contains a newline at character 4: it must be one line of plain text$/);
    assert.match(reason(4), /narration contains a tab/);
    assert.match(reason(5), /narration contains the control character U\+0007/);
    assert.match(reason(6), /narration contains a newline/);
    assert.match(reason(8), /sender_name contains an escape character/);
    assert.match(reason(10), /^narration contains a right-to-left override \(U\+202E\) at character 9:/);
    assert.match(reason(11), /^sender_name contains a zero-width space \(U\+200B\) at character 3:/);
    assert.match(reason(13), /^narration is 101 characters long; at most 100 are allowed$/);
  });

  it('refuses duplicate references inside the file (case ignored), naming the first line', () => {
    const problems = problemsOf(fixture('duplicate-references.csv'));
    assert.deepEqual(problems, [
      { line: 4, reason: 'reference acme-pay-1 is already used on line 2; a reference pays once' },
      { line: 6, reason: 'reference ACME-PAY-2 is already used on line 5; a reference pays once' },
    ]);
  });

  it('reports a row with too many or too few fields, a bad reference and CSV syntax errors on their lines', () => {
    const problems = problemsOf(
      'account_number,bank,amount,narration,reference\n' +
        '0123456789,gtb,1,500.00,rent,\n' + // unquoted comma in the amount
        '0123456781,gtb,10\n' +
        '0123456782,gtb,10,x,has space\n' +
        '0123456783,gtb,10,say "hi",\n',
    );
    assert.deepEqual(
      problems.map((p) => p.line),
      [2, 3, 4, 5],
    );
    assert.match(problems[0]!.reason, /has 6 fields; the header has 5/);
    assert.match(problems[1]!.reason, /has 3 fields/);
    assert.match(problems[2]!.reason, /reference "has space" must look like PREFIX-XXXX/);
    assert.match(problems[3]!.reason, /quote/);
  });

  it('a missing required column is exit 2 naming it; so is an unknown column (a typo would skip a check)', () => {
    assert.throws(
      () => parseBatchFile(fixture('missing-column.csv'), 'm.csv'),
      (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, /line 1: the header has no amount column/);
        return true;
      },
    );
    assert.throws(() => parseText('account_number,bank,amount,narration,expected_name\n0123456789,gtb,1,a,Ada\n'), /unknown column expected_name/);
    assert.throws(() => parseText('account_number,bank,amount,amount,narration\n'), /the column amount appears twice/);
    assert.throws(() => parseText('0123456789,gtb,1500,rent\n'), /line 1 is a row, not a header/);
  });

  it('a file that is not UTF-8 (a Windows-1252 export) is exit 2 with the fix, not garbled names', () => {
    const latin1 = Buffer.concat([Buffer.from('account_number,bank,amount,narration\n0123456789,gtb,10,caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    assert.throws(() => parseBatchFile(latin1, 'pay.csv'), /not UTF-8 text/);
  });

  it('an empty file, a BOM alone, blank lines alone or a header alone is exit 2', () => {
    for (const text of ['', '\uFEFF', '\n\r\n\n']) assert.throws(() => parseText(text), /is empty: it needs a header line and at least one row/);
    assert.throws(() => parseText('account_number,bank,amount,narration\r\n\r\n'), /has a header but no rows/);
  });

  it('fast-check: any amount written with 2 decimals and grouping is read back to the same kobo', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 13 }), fc.boolean(), (kobo, grouped) => {
        const naira = String(Math.floor(kobo / 100));
        const text = `${grouped ? naira.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : naira}.${String(kobo % 100).padStart(2, '0')}`;
        const [row] = parseText(`account_number,bank,amount,narration\n0123456789,gtb,"${text}",x\n`).rows;
        return row!.amountKobo === kobo;
      }),
    );
  });
});

describe('batch file: derived references', () => {
  const hash = parseBatchFile(fixture('sample.csv'), 'sample.csv').contentHash;

  it('PREFIX- and 16 Crockford base32 characters, the same every time for the same bytes and line', () => {
    const reference = derivedReference('ACME', hash, 2);
    assert.match(reference, /^ACME-[0-9A-HJKMNP-TV-Z]{16}$/);
    assert.equal(derivedReference('ACME', parseBatchFile(fixture('sample.csv'), 'elsewhere.csv').contentHash, 2), reference);
  });

  it('differs by line and by any change to the bytes (a BOM or CRLF included)', () => {
    const lines = new Set([2, 3, 4, 5].map((line) => derivedReference('ACME', hash, line)));
    assert.equal(lines.size, 4);
    const text = fixture('sample.csv').toString('utf8');
    const crlf = parseText(text.replaceAll('\n', '\r\n')).contentHash;
    const bom = parseText(`\uFEFF${text}`).contentHash;
    assert.notEqual(derivedReference('ACME', crlf, 2), derivedReference('ACME', hash, 2));
    assert.notEqual(derivedReference('ACME', bom, 2), derivedReference('ACME', hash, 2));
  });
});

describe('batch report CSV', () => {
  const result = (overrides: Partial<RowResult>): RowResult => ({
    line: 2,
    accountNumber: '0123456789',
    bankName: 'Guaranty Trust Bank',
    bankCode: '000013',
    amountKobo: 150050 as RowResult['amountKobo'],
    verifiedName: 'OKAFOR, ADA',
    reference: 'ACME-X',
    status: 'pending',
    earlier: false,
    message: 'pending: ok',
    apiStatus: 'pending',
    chargeKobo: undefined,
    ...overrides,
  });

  it('has the columns in order, quotes commas, and neutralises spreadsheet formulas in names and messages', () => {
    const csv = reportCsv([
      result({}),
      result({ line: 3, verifiedName: '=HYPERLINK("x")', message: '-1+1', status: 'refused' }),
      // A plain number is not a formula: it stays a number (src/common/sanitize.ts).
      result({ line: 4, verifiedName: '\u001b[2JADA', message: '-500.00', status: 'refused' }),
    ]);
    const records = parse(csv) as string[][];
    assert.deepEqual(records[0], ['line', 'account_number', 'bank', 'bank_code', 'amount', 'verified_name', 'reference', 'status', 'message']);
    assert.deepEqual(records[1], ['2', '="0123456789"', 'Guaranty Trust Bank', '="000013"', '1500.50', 'OKAFOR, ADA', 'ACME-X', 'pending', 'pending: ok']);
    assert.deepEqual(records[2]!.slice(5), [`'=HYPERLINK("x")`, 'ACME-X', 'refused', `'-1+1`]);
    assert.deepEqual(records[3]!.slice(5), ['\uFFFD[2JADA', 'ACME-X', 'refused', '-500.00']);
  });
});
