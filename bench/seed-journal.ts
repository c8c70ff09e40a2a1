// Seeds a data dir's journal with `count` transfers (an intent and an accepted record each) of one profile
// and base address, spread over the 60 days before yesterday, through the store itself (the records are
// folded exactly as sends fold them), in transactions of 10,000 records. For bench/history.mjs:
//   node --import tsx bench/seed-journal.ts <data dir> <count> <profile> <base url>
import { Journal, type JournalRecord } from '../src/transfers/journal.js';

const [dataDir = '', countText = '', profile = '', baseUrl = ''] = process.argv.slice(2);
if (!dataDir || !countText || !profile || !baseUrl) throw new Error('usage: seed-journal.ts <data dir> <count> <profile> <base url>');
const count = Number(countText);
const journal = Journal.inDataDir(dataDir);
const banks = ['000013', '000014', '000004'];
const end = Date.now() - 2 * 86_400_000;
const span = 60 * 86_400_000;

function* records(from: number, to: number): Generator<JournalRecord> {
  for (let i = from; i < to; i += 1) {
    const time = new Date(end - span + Math.floor((span * i) / count)).toISOString();
    const reference = `ACME-SEED${String(i).padStart(8, '0')}`;
    const amountKobo = 100_00 + (i % 50_000) * 7;
    const accountNumber = `9${String(i % 40_000).padStart(9, '0')}`;
    yield {
      type: 'intent',
      reference,
      profile,
      baseUrl,
      time,
      env: 'sandbox',
      request: {
        beneficiaryBankCode: banks[i % 3]!,
        beneficiaryAccountNumber: accountNumber,
        narration: `Seeded history row ${i}`,
        amount: amountKobo / 100,
        reference,
      },
      amountKobo,
      bankName: 'Seeded Bank',
      accountName: 'SEEDED PAYEE',
      origin: 'seed',
      pid: 1,
      run: '0000000000000000',
    };
    yield { type: 'accepted', reference, profile, baseUrl, time, status: 'successful', message: 'Transfer successful' };
  }
}

for (let from = 0; from < count; from += 5_000) await journal.appendMany(records(from, Math.min(count, from + 5_000)));
console.log(`seeded ${await journal.count()} transfers into ${journal.file}`);
