// Banks by the names people use: the alias table (src/transfers/bank-aliases.ts) against the simulator's bank
// list (the real NIP names and codes), and `--bank` resolving aliases before partial matches.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BANK_ALIASES, banksForAlias } from '../src/transfers/bank-aliases.js';
import { didYouMean, matchBanks, searchBanks, suggestBanks } from '../src/transfers/banks.js';
import { BANKS } from '../src/simulator/data.js';
import { homePool } from './helpers/cli.js';
import { runInProcess } from './helpers/in-process.js';

const expected: Record<string, string> = {
  GTBank: '000013',
  GTB: '000013',
  'GT Bank': '000013',
  OPay: '100004',
  Moniepoint: '090405',
  Kuda: '090267',
  PalmPay: '100033',
  'First Bank': '000016',
  FBN: '000016',
  UBA: '000004',
  Stanbic: '000012',
  FCMB: '000003',
  Access: '000014',
  Zenith: '000015',
  Wema: '000017',
  ALAT: '000017',
  Sterling: '000001',
  Fidelity: '000007',
  Union: '000018',
  Ecobank: '000010',
  Polaris: '000008',
  Keystone: '000002',
  Providus: '000023',
};

describe('the alias table', () => {
  it('names exactly one bank of the simulator list for every alias', () => {
    for (const entry of BANK_ALIASES) {
      for (const alias of entry.aliases) {
        const found = banksForAlias(BANKS, alias);
        assert.equal(found.length, 1, `${alias}: ${found.map((bank) => bank.institutionName).join(', ')}`);
        assert.equal(found[0]!.institutionCode, entry.code, alias);
      }
    }
  });

  it('resolves the names Nigerians type, in any case and spacing', () => {
    for (const [typed, code] of Object.entries(expected)) {
      assert.equal(banksForAlias(BANKS, typed)[0]?.institutionCode, code, typed);
      assert.equal(banksForAlias(BANKS, typed.toUpperCase())[0]?.institutionCode, code, typed.toUpperCase());
    }
  });

  it('falls back on the official name when a list lacks the code', () => {
    const renumbered = BANKS.map((bank) => ({ ...bank, institutionCode: `9${bank.institutionCode.slice(1)}` }));
    assert.equal(banksForAlias(renumbered, 'gtbank')[0]?.institutionName, 'Guaranty Trust Bank');
    assert.deepEqual(banksForAlias(BANKS, 'Atlantis'), []);
  });

  it('puts the aliased bank first in a search, then partial matches', () => {
    assert.equal(searchBanks(BANKS, 'opay')[0]?.institutionCode, '100004');
    assert.equal(searchBanks(BANKS, 'union')[0]?.institutionCode, '000018');
    assert.ok(searchBanks(BANKS, 'union').length >= 1);
    assert.ok(searchBanks(BANKS, 'bank').length > 10, 'a generic word still lists many');
  });
});

describe('--bank with an alias', () => {
  const pool = homePool();
  after(() => pool.cleanup());

  it('an exact alias wins over partial matches; a generic word is still ambiguous', async () => {
    const home = pool.home();
    for (const [typed, code] of [
      ['GTBank', '000013'],
      ['OPay', '100004'],
      ['FBN', '000016'],
      ['union', '000018'],
      ['Access', '000014'],
    ] as const) {
      const result = await runInProcess(['enquiry', '0123456789', '--bank', typed], { env: home.env });
      assert.equal(result.code, 0, `${typed}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`\\t${code}\\t`), `${typed} -> ${code}`);
    }
    const generic = await runInProcess(['enquiry', '0123456789', '--bank', 'bank'], { env: home.env });
    assert.equal(generic.code, 2);
    assert.match(generic.stderr, /^error: "bank" matches \d+ banks: /m);
  });
});

describe('typos and one reading of a word', () => {
  it('suggests the bank a mistyped name or alias is closest to, and nothing for noise', () => {
    const names = (word: string) => suggestBanks(BANKS, word).map((bank) => bank.institutionName);
    assert.equal(names('acess')[0], 'Access Bank');
    assert.equal(names('guarnty')[0], 'Guaranty Trust Bank');
    assert.equal(names('zenit')[0], 'Zenith Bank');
    assert.equal(names('moneipoint')[0], 'Moniepoint Microfinance Bank', 'a swap of two letters is one edit');
    assert.deepEqual(names('xq'), [], 'too short to guess');
    assert.deepEqual(names('qwertyuiop'), []);
    assert.equal(didYouMean(BANKS, 'acess'), 'did you mean Access Bank?');
  });

  it('ranks the banks a word names the same way for --bank and the picker: First Bank before FCMB', () => {
    const first = matchBanks(BANKS, 'first').map((bank) => bank.institutionCode);
    assert.ok(first.length >= 2, 'first is still ambiguous');
    assert.equal(first[0], '000016');
    assert.ok(first.includes('000003'));
    assert.deepEqual(
      matchBanks(BANKS, 'gtbank').map((bank) => bank.institutionCode),
      ['000013'],
    );
    assert.deepEqual(
      matchBanks(BANKS, '000014').map((bank) => bank.institutionName),
      ['Access Bank'],
    );
  });
});

describe('--bank with a typo', () => {
  const pool = homePool();
  after(() => pool.cleanup());

  it('is exit 2 with "did you mean", nothing sent; fsapi banks says the same', async () => {
    const home = pool.home();
    const result = await runInProcess(['enquiry', '0123456789', '--bank', 'acess'], { env: home.env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: no bank matches "acess"\nhint: did you mean Access Bank\?$/m);
    const banks = await runInProcess(['banks', 'guarnty'], { env: home.env });
    assert.match(banks.stderr, /no bank matches "guarnty"; did you mean Guaranty Trust Bank\?/);
    const file = path.join(home.root, 'typo.csv');
    writeFileSync(file, 'account_number,bank,amount,narration\n0123456789,acess,100,rent\n');
    const batch = await runInProcess(['transfer', 'batch', file, '--dry-run'], { env: home.env });
    assert.equal(batch.code, 2);
    assert.match(batch.stderr, /line 2: bank: no bank matches "acess" \(did you mean Access Bank\?\)/);
  });
});
