// Every CSV fsapi writes names its columns for what they hold (account_number, not number), so a
// spreadsheet column makes sense without the table beside it, and keeps account numbers and bank codes as
// text so that a spreadsheet keeps their leading zeros. Against the local simulator.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { homePool, runCli } from './helpers/cli.js';

const pool = homePool();
after(() => pool.cleanup());

describe('CSV headers', () => {
  it('banks --csv and transfer log --csv', async () => {
    const home = pool.home();
    const banks = await runCli(['banks', 'gtb', '--csv'], { env: home.env });
    assert.equal(banks.code, 0, banks.stderr);
    assert.deepEqual(parse(banks.stdout, { columns: true }), [{ institution_code: '="000013"', bank_name: 'Guaranty Trust Bank', category: '2' }]);

    const sent = await runCli(['transfer', 'send', '0123456789', '--bank', 'gtbank', '--amount', '1500', '--narration', 'csv', '--yes'], { env: home.env });
    assert.equal(sent.code, 0, sent.stderr);
    const log = await runCli(['transfer', 'log', '--csv'], { env: home.env });
    assert.equal(log.code, 0, log.stderr);
    const [row] = parse(log.stdout, { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(Object.keys(row!), [
      'sent_at',
      'profile',
      'reference',
      'account_number',
      'account_name',
      'bank_name',
      'amount',
      'outcome',
      'api_status',
      'message',
      'via',
    ]);
    assert.equal(row!.via, '', 'no MCP client, no sudo: nothing to say');
    assert.equal(row!.account_number, '="0123456789"');
    assert.equal(row!.amount, '1500.00');
  });

  it('keeps account numbers and bank codes as text (payees list, a batch report), and a batch file reads that form back', async () => {
    const home = pool.home();
    const added = await runCli(['payees', 'add', 'landlord', '0123456789', '--bank', 'gtb'], { env: home.env });
    assert.equal(added.code, 0, added.stderr);
    const payees = await runCli(['payees', 'list', '--csv'], { env: home.env });
    assert.equal(payees.code, 0, payees.stderr);
    const [payee] = parse(payees.stdout, { columns: true }) as Array<Record<string, string>>;
    assert.equal(payee!.account, '="0123456789"');
    assert.equal(payee!.bank_code, '="000013"');
    // As written raw, `"=""0123456789"""` in the file: the quotes doubled inside a quoted cell.
    assert.match(payees.stdout, /^landlord,"=""0123456789""",/m);

    // A spreadsheet's text form of the account number, as fsapi writes it, pays that account.
    const file = path.join(home.root, 'pay.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n"=""0123456789""",gtb,1500,Rent\n');
    const paid = await runCli(['transfer', 'batch', file, '--yes'], { env: home.env });
    assert.equal(paid.code, 0, paid.stderr);
    const [line] = parse(readFileSync(`${file}.report.csv`), { columns: true }) as Array<Record<string, string>>;
    assert.equal(line!.account_number, '="0123456789"');
    assert.equal(line!.bank_code, '="000013"');
    assert.equal(line!.amount, '1500.00');
  });
});
