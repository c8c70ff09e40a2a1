// The baseline for bench/tx-list.mjs: the least a script can do to export every transaction as JSON.
// Pages GET /v1/transactions with plain fetch (100 per page, one page at a time, no prefetch, no schema
// checks) and writes one pretty-printed JSON array to stdout in the same layout fsapi uses, honouring
// stdout backpressure. Usage: BENCH_TOKEN=<bearer> node bench/minimal-pager.mjs <baseUrl> [limit]
const [baseUrl, limitText = '100'] = process.argv.slice(2);
const token = process.env.BENCH_TOKEN;
if (!baseUrl || !token) {
  process.stderr.write('usage: BENCH_TOKEN=<bearer> node bench/minimal-pager.mjs <baseUrl> [limit]\n');
  process.exit(2);
}
const limit = Number(limitText);

const write = (text) => (process.stdout.write(text) ? undefined : new Promise((resolve) => process.stdout.once('drain', resolve)));
const indent = (text) =>
  text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');

let count = 0;
await write('[');
for (let page = 1; page <= 1_000_000; page += 1) {
  const response = await fetch(`${baseUrl}/v1/transactions?page=${page}&limit=${limit}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status} on page ${page}`);
  const { data } = await response.json();
  let chunk = '';
  for (const row of data) chunk += `${count++ === 0 ? '\n' : ',\n'}${indent(JSON.stringify(row, null, 2))}`;
  if (chunk) await write(chunk);
  if (data.length < limit) break;
}
await write(count === 0 ? ']\n' : '\n]\n');
process.stderr.write(`${count}\n`);
