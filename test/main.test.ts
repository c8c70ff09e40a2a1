// src/main.ts keeps its own copy of three exit codes so that `fsapi --help` need not load errors.ts;
// these tests keep the copies equal to the contract's codes and check the error-to-exit-code mapping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXIT_FAILED, EXIT_HELD, EXIT_OK, EXIT_USAGE, reportError } from '../src/main.js';
import {
  ApiError,
  AuthError,
  CancelledError,
  ExitCode,
  HeldForApprovalError,
  NotFoundError,
  OutcomeUnknownError,
  TransportError,
  UsageError,
} from '../src/errors.js';

describe('main', () => {
  it('uses the same exit codes as src/errors.ts', () => {
    assert.equal(EXIT_OK, ExitCode.ok);
    assert.equal(EXIT_FAILED, ExitCode.failed);
    assert.equal(EXIT_USAGE, ExitCode.usage);
    assert.equal(EXIT_HELD, ExitCode.heldForApproval);
  });

  it('maps each fsapi error to its exit code and anything else to 1', (t) => {
    const written: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string) => {
      written.push(chunk);
      return true;
    });
    assert.equal(reportError(new UsageError('bad'), false), 2);
    assert.equal(reportError(new ApiError('refused'), false), 1);
    assert.equal(reportError(new AuthError('no token'), false), 3);
    assert.equal(reportError(new CancelledError(), false), 4);
    assert.equal(reportError(new OutcomeUnknownError('ACME-1', 'dropped'), false), 5);
    assert.equal(reportError(new Error('boom'), false), 1);
    t.mock.restoreAll();
    assert.ok(written.includes('error: bad\n'), written.join(''));
    assert.ok(written.includes('hint: run fsapi auth login\n'), written.join(''));
    assert.ok(written.some((line) => line.includes('unexpected failure: boom')));
    assert.ok(!written.some((line) => line.includes('at ')), 'no stack trace without --verbose');
  });

  it('under --json an error is one JSON line with a code per case, no stack even with --verbose', (t) => {
    const written: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string) => {
      written.push(chunk);
      return true;
    });
    const cases: Array<[unknown, string, number]> = [
      [new UsageError('bad', 'fix it'), 'usage', 2],
      [new NotFoundError('no such thing'), 'not_found', 1],
      [new ApiError('refused', { status: 403 }), 'api_refused', 1],
      [new TransportError('timeout', 'no answer in 30 s'), 'timeout', 1],
      [new AuthError('no token'), 'auth_required', 3],
      [new OutcomeUnknownError('ACME-1', 'dropped'), 'outcome_unknown', 5],
      [new HeldForApprovalError('AP-7K3M9Q2X', 'for approval'), 'held_for_approval', 7],
      [new Error('boom\u001b[2J'), 'internal', 1],
    ];
    const jsonOutput = { write: (text: string) => void process.stderr.write(text), width: undefined, color: false, json: true };
    const codes = cases.map(([error]) => reportError(error, true, jsonOutput));
    t.mock.restoreAll();
    assert.deepEqual(
      codes,
      cases.map(([, , exit]) => exit),
    );
    assert.equal(written.length, cases.length, written.join(''));
    written.forEach((line, i) => {
      assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'), `one line: ${line}`);
      const parsed = JSON.parse(line) as { error: Record<string, unknown> };
      assert.deepEqual(Object.keys(parsed), ['error']);
      assert.deepEqual(Object.keys(parsed.error).sort(), ['code', 'exitCode', 'hint', 'message']);
      assert.equal(parsed.error.code, cases[i]![1]);
      assert.equal(parsed.error.exitCode, cases[i]![2]);
      assert.ok(!line.includes('\u001b'), 'JSON escapes control characters');
    });
    assert.equal(JSON.parse(written[0]!).error.hint, 'fix it');
    assert.equal(JSON.parse(written[1]!).error.hint, null);
  });

  it('a transfer held for approval (exit 7) is no error: a yellow held: line and its hint', (t) => {
    const written: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string) => {
      written.push(chunk);
      return true;
    });
    const saved = process.env.FORCE_COLOR;
    process.env.FORCE_COLOR = '1';
    try {
      assert.equal(reportError(new HeldForApprovalError('AP-7K3M9Q2X', 'for approval as request AP-7K3M9Q2X: ₦150,000.00 to ADA; nothing was sent'), false), 7);
      assert.equal(reportError(new UsageError('bad'), false), 2);
    } finally {
      if (saved === undefined) delete process.env.FORCE_COLOR;
      else process.env.FORCE_COLOR = saved;
      t.mock.restoreAll();
    }
    assert.deepEqual(written, [
      '\u001b[33mheld:\u001b[39m for approval as request AP-7K3M9Q2X: ₦150,000.00 to ADA; nothing was sent\n',
      'hint: a person at a terminal sends it: fsapi approvals approve AP-7K3M9Q2X\n',
      '\u001b[31merror:\u001b[39m bad\n',
    ]);
  });
});

describe('error lines', () => {
  it('one line when not on a terminal, however long; wrapped at spaces with a hanging indent on one', async () => {
    const { labelledLines } = await import('../src/ui/error-lines.js');
    const text = 'give a date as YYYY-MM-DD (a whole local day), today, yesterday, 7d, 30d, 2w';
    assert.equal(labelledLines('hint:', text, undefined), `hint: ${text}\n`);
    assert.equal(labelledLines('hint:', text, 200), `hint: ${text}\n`);
    assert.equal(labelledLines('hint:', text, 40), 'hint: give a date as YYYY-MM-DD (a whole\n      local day), today, yesterday, 7d,\n      30d, 2w\n');
    // The label alone is coloured; a word longer than the room stays whole on its own line.
    const path = `/home/ada/${'d'.repeat(40)}/journal.db`;
    assert.equal(
      labelledLines('error:', `cannot open ${path} here`, 40, (label) => `<${label}>`),
      `<error:> cannot open\n       ${path}\n       here\n`,
    );
  });

  it("a note with a label (a coloured warning:, a bad row's line 7:) wraps the same way on a terminal; other long notes wrap at spaces", async () => {
    const { labelledNote } = await import('../src/ui/error-lines.js');
    const yellow = (text: string) => `\u001b[33m${text}\u001b[39m`;
    const text = 'could not read the client list for account names (timeout: no answer in 30 s)';
    assert.equal(labelledNote(`${yellow('warning:')} ${text}`, undefined), `${yellow('warning:')} ${text}\n`);
    assert.equal(
      labelledNote(`${yellow('warning:')} ${text}`, 51),
      `${yellow('warning:')} could not read the client list for account\n         names (timeout: no answer in 30 s)\n`,
      'the colour codes take no room',
    );
    // A batch file's bad rows are labelled by their line, in red.
    const red = (label: string) => `\u001b[31m${label}\u001b[39m`;
    assert.equal(
      labelledNote(`${red('line 7:')} amount "abc" is not a number of naira like 1500 or 1,500.50`, 40),
      `${red('line 7:')} amount "abc" is not a number of\n        naira like 1500 or 1,500.50\n`,
    );
    // Any other line wraps at spaces too, its continuation two columns in; piped it stays one line.
    const plain = `sent now: ${text}`;
    assert.equal(labelledNote(plain, undefined), `${plain}\n`);
    assert.equal(labelledNote(plain, 50), 'sent now: could not read the client list for\n  account names (timeout: no answer in 30 s)\n');
    assert.equal(labelledNote('warning: one\ntwo', 5), 'warning: one\ntwo\n');
  });
});
