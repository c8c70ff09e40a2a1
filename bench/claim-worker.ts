// One process of bench/claim.mjs: writes `count` intents to the journal of the data dir argv[2], each
// either by a plain append (no check) or by a claim (one IMMEDIATE transaction: duplicate guard and
// reference check by index, then the intent). Prints the elapsed milliseconds as JSON. Mode `count`
// prints how many intents and distinct references the journal holds instead.
import type { Kobo } from '../src/money/kobo.js';
import { checkClaim } from '../src/transfers/claim.js';
import { Journal, type IntentRecord } from '../src/transfers/journal.js';

const [dataDir, mode, countText, tag] = process.argv.slice(2);
const count = Number(countText);
const journal = Journal.inDataDir(dataDir!);
if (mode === 'count') {
  const { records } = await journal.read();
  process.stdout.write(JSON.stringify({ intents: records.filter((r) => r.type === 'intent').length, references: await journal.count() }));
  process.exit(0);
}
const started = performance.now();
for (let i = 0; i < count; i += 1) {
  const reference = `BENCH-${tag}-${i}`;
  const accountNumber = `${String(tag).padStart(2, '0')}${String(i).padStart(8, '0')}`;
  const intent: IntentRecord = {
    type: 'intent',
    reference,
    profile: 'bench',
    baseUrl: 'local',
    time: new Date().toISOString(),
    env: 'local',
    request: { beneficiaryBankCode: '000013', beneficiaryAccountNumber: accountNumber, narration: 'bench', amount: 1000, reference },
    amountKobo: 100000 as Kobo,
    bankName: 'Guaranty Trust Bank',
    accountName: 'BENCH',
    pid: process.pid,
  };
  if (mode === 'append') await journal.append(intent);
  else {
    const candidate = { profile: 'bench', baseUrl: 'local', reference, accountNumber, bankCode: '000013', amountKobo: 100000 as Kobo };
    await journal.claim(
      intent,
      (current) => checkClaim(current, candidate, { earlierAttempts: 0, duplicates: { windowMs: 600_000, ignore: new Set() } }, Date.now()),
      { requestTimeoutMs: 30_000, lookupsMs: 30_000 },
    );
  }
}
process.stdout.write(JSON.stringify({ ms: performance.now() - started }));
