import { choice, defineCommand, flag, integer, text } from '../spec.js';

// --settle-seconds stays text: it takes a fraction, which parseServeOptions (serve.ts) checks.
export const serveSpec = defineCommand({
  path: 'simulator serve',
  summary: 'serve the simulator over HTTP',
  options: {
    port: integer('--port <n>', 'port (0 picks a free one)', { min: 0, max: 65_535, defaultValue: 4010 }),
    host: text('--host <host>', 'address to listen on', { defaultValue: '127.0.0.1' }),
    state: text('--state <file>', 'SQLite state file, created when missing (default: a fresh in-memory state)'),
    businessName: text('--business-name <name>', 'business that owns the account; its first word is the reference prefix (default: ACME TRADING LIMITED)'),
    webhookUrl: text('--webhook-url <url>', 'POST collection notifications here'),
    settleSeconds: text('--settle-seconds <n>', 'seconds before a pending transfer turns successful', { defaultValue: '5' }),
    latencyMs: integer('--latency-ms <n>', 'delay added to every answer', { min: 0, max: 600_000, defaultValue: 0 }),
    seedTransactions: integer('--seed-transactions <n>', 'size of the seeded transaction history', { min: 0, max: 1_000_000 }),
    tokenValiditySeconds: integer('--token-validity-seconds <n>', 'cap on token lifetime, to exercise renewal', { min: 1, max: 2880 * 60 }),
    fault: choice('--fault <mode>', 'misbehave after committing transfers', ['drop', 'bad-gateway', 'stall', 'html']),
    realistic: flag('--realistic', 'answer the way the real API varies: nulls, numbers as text, other cases'),
    rateLimit: integer('--rate-limit <n>', 'answer 429 to requests beyond n a second (not carried out)', { min: 1, max: 100_000 }),
  },
  exitCodes: [0, 1, 2],
  examples: [
    'fsapi simulator serve --port 4010',
    'fsapi simulator serve --port 0 --fault drop --webhook-url http://127.0.0.1:8787/',
    'fsapi simulator serve --realistic --rate-limit 5',
  ],
});
