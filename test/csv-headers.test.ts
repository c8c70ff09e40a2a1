// Every CSV fsapi writes names its columns for what they hold (account_number, not number), so a
// spreadsheet column makes sense without the table beside it. Against the local simulator.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { homePool, runCli } from './helpers/cli.js';

const pool = homePool();
after(() => pool.cleanup());

describe('CSV headers', () => {
  it('banks --csv and transfer log --csv', async () => {
    const home = pool.home();
    const banks = await runCli(['banks', 'gtb', '--csv'], { env: home.env });
    assert.equal(banks.code, 0, banks.stderr);
    assert.deepEqual(parse(banks.stdout, { columns: true }), [{ institution_code: '000013', bank_name: 'Guaranty Trust Bank', category: '2' }]);

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
    ]);
    assert.equal(row!.account_number, '0123456789');
    assert.equal(row!.amount, '1500.00');
  });
});
