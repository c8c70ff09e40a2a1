// Drives the statement's PDF writer (src/documents/statement-pdf.ts) from a generated stream of
// transactions, a hundred at a time as the API's pages come: the simulator cannot seed a million rows
// quickly, and the writer is what must stay flat. Rows look like the API's (names with diacritics, naira
// amounts, references); each is made as it is asked for and dropped once written. The heap is held as
// `fsapi statement` holds it (src/common/long-run-memory.ts), so its peak RSS is what a user's run has.
// Usage: node --import tsx bench/statement-pdf-driver.ts <rows> <file.pdf>
import type { Kobo } from '../src/money/kobo.js';
import type { TransactionRecord } from '../src/api/schemas.js';
import { createStatementTally, statementLine, type StatementLine } from '../src/books/statement.js';
import { writeStatementPdf } from '../src/documents/statement-pdf.js';
import { keepYoungGenerationSmall } from '../src/common/long-run-memory.js';

keepYoungGenerationSmall();

const rows = Number(process.argv[2]);
const file = process.argv[3]!;
const DAY = 86_400_000;
const untilMs = Date.UTC(2026, 10, 23);
const period = { sinceMs: untilMs - 30 * DAY, untilMs };
const names = ['OKAFOR CHIAMAKA ADAEZE', 'Adébáyọ̀ Ọlátúnjí Stores', 'LAGOON PHARMACY LIMITED', 'Ṣàngótọ́lá Ìbídùn', 'EMEKA OBINNA NWOSU'];

function row(i: number): TransactionRecord {
  const credit = i % 3 !== 0;
  const name = names[i % names.length]!;
  return {
    id: i,
    userId: 1,
    accountId: null,
    netAmount: 0,
    details: {},
    amount: `${1000 + (i % 9973)}.${String(i % 100).padStart(2, '0')}`,
    charge: credit ? '25.00' : '10.75',
    stampDuty: credit && i % 7 === 0 ? 50 : null,
    description: credit ? `Transfer from ${name}` : `Invoice ${i}`,
    destinationAccountNumber: credit ? '1100084217' : '0123456789',
    destinationAccountName: credit ? 'ACME TRADING LIMITED' : name,
    destinationBankCode: '000013',
    destinationBankName: 'Guaranty Trust Bank',
    sourceAccountNumber: credit ? '0987654321' : '1100084217',
    sourceAccountName: credit ? name : 'ACME TRADING LIMITED',
    sourceBankCode: '000014',
    sourceBankName: 'Access Bank',
    reference: `${credit ? 'COL' : 'ACME'}-${i.toString(36).toUpperCase().padStart(10, '0')}`,
    transactionTypeName: credit ? 'collection' : 'bank_transfer',
    category: credit ? 'collection' : 'bank_transfer',
    utilityType: null,
    sessionId: `0000232611${String(i).padStart(20, '0')}`,
    status: 'successful',
    reversedFlag: 0,
    type: credit ? 'credit' : 'debit',
    completedAt: period.sinceMs + Math.floor((i * (period.untilMs - period.sinceMs)) / rows),
    createdAt: period.sinceMs + Math.floor((i * (period.untilMs - period.sinceMs)) / rows),
    updatedAt: 0,
  } as unknown as TransactionRecord;
}

// The tally reads a day of rows at a time here too, so its totals are those of the rows written.
const tally = createStatementTally(period, 'Africa/Lagos');
for (let start = 0; start < rows; start += 100) tally.add(Array.from({ length: Math.min(100, rows - start) }, (_, k) => row(start + k)));
const statement = tally.result(1_000_000_000 as Kobo);

async function* lines(): AsyncGenerator<StatementLine[]> {
  let balance = statement.openingKobo;
  for (let start = 0; start < rows; start += 100) {
    const page: StatementLine[] = [];
    for (let i = start; i < Math.min(rows, start + 100); i += 1) {
      const line = statementLine(row(i), balance);
      balance = line.balanceKobo;
      page.push(line);
    }
    yield page;
    // With --expose-gc and FSAPI_BENCH_TRACE set: the live heap every 10,000 rows, to tell a leak from V8's slack.
    if (process.env.FSAPI_BENCH_TRACE && start % 10_000 === 0 && typeof globalThis.gc === 'function') {
      globalThis.gc();
      const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
      console.error(
        `${start} rows: heap ${(heapUsed / 1e6).toFixed(1)} MB, external ${(external / 1e6).toFixed(1)} MB, buffers ${(arrayBuffers / 1e6).toFixed(1)} MB, rss ${(rss / 1e6).toFixed(1)} MB`,
      );
    }
  }
}

const started = Date.now();
const written = await writeStatementPdf(file, {
  statement,
  account: { name: 'ACME TRADING LIMITED', number: '1100084217' },
  // As the end-to-end run (a sandbox profile): every page marked.
  environment: 'sandbox',
  readAtMs: untilMs,
  lines: lines(),
});
console.error(JSON.stringify({ ...written, ms: Date.now() - started }));
