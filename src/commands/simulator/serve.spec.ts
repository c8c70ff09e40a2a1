import { choice, defineCommand, flag, text } from '../spec.js';

// The numbers are checked by parseServeOptions (src/commands/simulator/serve.ts), shared with the tests'
// in-process simulator.
export const serveSpec = defineCommand({
  path: 'simulator serve',
  summary: 'serve the simulator over HTTP',
  options: {
    port: text('--port <n>', 'port (0 picks a free one)', { defaultValue: '4010' }),
    host: text('--host <host>', 'address to listen on', { defaultValue: '127.0.0.1' }),
    state: text('--state <file>', 'SQLite state file, created when missing (default: a fresh in-memory state)'),
    businessName: text('--business-name <name>', 'business that owns the account; its first word is the reference prefix (default: ACME TRADING LIMITED)'),
    webhookUrl: text('--webhook-url <url>', 'POST collection notifications here'),
    settleSeconds: text('--settle-seconds <n>', 'seconds before a pending transfer turns successful', { defaultValue: '5' }),
    latencyMs: text('--latency-ms <n>', 'delay added to every answer', { defaultValue: '0' }),
    seedTransactions: text('--seed-transactions <n>', 'size of the seeded transaction history'),
    tokenValiditySeconds: text('--token-validity-seconds <n>', 'cap on token lifetime, to exercise renewal'),
    fault: choice('--fault <mode>', 'misbehave after committing transfers', ['drop', 'bad-gateway', 'stall', 'html']),
    realistic: flag('--realistic', 'answer the way the real API varies: nulls, numbers as text, other cases'),
    rateLimit: text('--rate-limit <n>', 'answer 429 to requests beyond n a second (not carried out)'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi simulator serve --port 4010', 'fsapi simulator serve --port 0 --fault drop --webhook-url http://127.0.0.1:8787/', 'fsapi simulator serve --realistic --rate-limit 5'],
});
