// fsapi simulator serve: the built-in simulator over HTTP until SIGINT/SIGTERM. The URL alone goes to
// stdout (scripts read the port from it); the banner with the credentials and a login line to stderr.
import path from 'node:path';
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { serveSpec } from './serve.spec.js';
import type { OptionsOf } from '../spec.js';
import { ExitCode, FsapiError, UsageError } from '../../errors.js';
import { checkBusinessName } from '../../simulator/business-name.js';
import type { FaultMode, SimulatorOptions } from '../../simulator/types.js';

export interface ServeOptions extends SimulatorOptions {
  port: number;
  host: string;
}

export default run(serveSpec, async (ctx, opts) => {
  const options = parseServeOptions(opts);
  // Serving is the one command that lives until a signal: it listens for it here, and nowhere else.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  // `on`, not `once`: proper-lockfile's signal-exit re-raises a signal when no other listener is left.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await runServe(ctx, options, stop.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
});

/** Serves until `stop` aborts, then closes every connection and returns. */
export async function runServe(ctx: Context, options: ServeOptions, stop: AbortSignal): Promise<void> {
  const { startSimulatorServer, SIMULATOR_CREDENTIALS } = await import('../../simulator/server.js');
  let running;
  try {
    running = await startSimulatorServer({ ...options, transport: ctx.transport, log: (line) => ctx.io.note(line) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new FsapiError(`port ${options.port} on ${options.host} is in use`, {
        exitCode: ExitCode.failed,
        hint: 'pick another with --port, or --port 0 for a free one',
      });
    }
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new FsapiError(`cannot listen on ${options.host}:${options.port} (${code})`, { exitCode: ExitCode.failed });
    }
    throw error;
  }
  const { consumerKey, consumerSecret } = SIMULATOR_CREDENTIALS;
  ctx.io.note(`fsapi simulator listening on ${running.url} (no real money moves)`);
  ctx.io.note(`state: ${options.stateFile ?? 'in memory (lost when it stops)'}${options.fault ? `; fault mode: ${options.fault}` : ''}`);
  if (options.realistic) ctx.io.note('realistic answers: nulls, numbers as text and back, statuses in other cases, short name enquiries');
  if (options.rateLimitPerSecond !== undefined) ctx.io.note(`rate limit: ${options.rateLimitPerSecond} requests a second; more are answered 429`);
  if (options.businessName) ctx.io.note(`business: ${options.businessName}`);
  ctx.io.note(`credentials: consumer key ${consumerKey}, consumer secret ${consumerSecret}`);
  ctx.io.note('log in with:');
  const login = [
    `FSAPI_CONSUMER_KEY=${consumerKey}`,
    `FSAPI_CONSUMER_SECRET=${consumerSecret}`,
    `fsapi auth login --profile sim --env sandbox --base-url ${running.url}`,
  ];
  // On a terminal one part a line, joined by the shell's line continuation, so the command fits 80 columns
  // and is still copied whole; piped, one line.
  ctx.io.note(ctx.io.stderrIsTTY ? login.map((part) => `  ${part}`).join(' \\\n') : `  ${login.join(' ')}`);
  ctx.io.note('stop with Ctrl-C');
  ctx.io.out(`${running.url}\n`);

  if (!stop.aborted) await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  await running.close();
  ctx.io.note('simulator stopped');
}

export function parseServeOptions(raw: OptionsOf<typeof serveSpec>): ServeOptions {
  const options: ServeOptions = { port: raw.port, host: raw.host.trim() || '127.0.0.1' };
  const settle = raw.settleSeconds.trim();
  if (!/^\d+(\.\d+)?$/.test(settle) || Number(settle) > 86_400) {
    throw new UsageError(`--settle-seconds must be a number of seconds from 0 to 86400, not ${JSON.stringify(settle)}`);
  }
  options.settleSeconds = Number(settle);
  options.latencyMs = raw.latencyMs;
  if (raw.seedTransactions !== undefined) options.seedTransactions = raw.seedTransactions;
  if (raw.tokenValiditySeconds !== undefined) options.tokenValiditySeconds = raw.tokenValiditySeconds;
  const state = raw.state?.trim();
  if (state !== undefined) {
    if (state === '') throw new UsageError('--state needs a file name');
    options.stateFile = path.resolve(state);
  }
  if (raw.businessName !== undefined) options.businessName = checkBusinessName(raw.businessName.trim(), '--business-name');
  if (raw.webhookUrl !== undefined) options.webhookUrl = checkWebhookUrl(raw.webhookUrl.trim(), '--webhook-url');
  if (raw.realistic) options.realistic = true;
  if (raw.rateLimit !== undefined) options.rateLimitPerSecond = raw.rateLimit;
  // One of the spec's choices already.
  if (raw.fault !== undefined) options.fault = raw.fault satisfies FaultMode;
  return options;
}

export function checkWebhookUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} ${JSON.stringify(value)} is not a URL`, 'give it as http://host:port/path');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http:// or https:// URL`);
  return url.href;
}
