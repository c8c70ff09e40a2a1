// fsapi simulator serve: the built-in simulator over HTTP until SIGINT/SIGTERM. The URL alone goes to
// stdout (scripts read the port from it); the banner with the credentials and a login line to stderr.
import path from 'node:path';
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { serveSpec } from './serve.spec.js';
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
    running = await startSimulatorServer({ ...options, log: (line) => ctx.io.note(line) });
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
  ctx.io.note(
    `  FSAPI_CONSUMER_KEY=${consumerKey} FSAPI_CONSUMER_SECRET=${consumerSecret} fsapi auth login --profile sim --env sandbox --base-url ${running.url}`,
  );
  ctx.io.note('stop with Ctrl-C');
  ctx.io.out(`${running.url}\n`);

  if (!stop.aborted) await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  await running.close();
  ctx.io.note('simulator stopped');
}

export function parseServeOptions(raw: Record<string, unknown>): ServeOptions {
  const text = (name: string) => (raw[name] === undefined ? undefined : String(raw[name]).trim());
  const whole = (name: string, flag: string, min: number, max: number): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
    }
    return Number(value);
  };
  const options: ServeOptions = {
    port: whole('port', '--port', 0, 65535) ?? 4010,
    host: text('host') || '127.0.0.1',
  };
  const settle = text('settleSeconds');
  if (settle !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(settle) || Number(settle) > 86_400) {
      throw new UsageError(`--settle-seconds must be a number of seconds from 0 to 86400, not ${JSON.stringify(settle)}`);
    }
    options.settleSeconds = Number(settle);
  }
  const latency = whole('latencyMs', '--latency-ms', 0, 600_000);
  if (latency !== undefined) options.latencyMs = latency;
  const seed = whole('seedTransactions', '--seed-transactions', 0, 1_000_000);
  if (seed !== undefined) options.seedTransactions = seed;
  const validity = whole('tokenValiditySeconds', '--token-validity-seconds', 1, 2880 * 60);
  if (validity !== undefined) options.tokenValiditySeconds = validity;
  const state = text('state');
  if (state !== undefined) {
    if (state === '') throw new UsageError('--state needs a file name');
    options.stateFile = path.resolve(state);
  }
  const business = text('businessName');
  if (business !== undefined) options.businessName = checkBusinessName(business, '--business-name');
  const webhook = text('webhookUrl');
  if (webhook !== undefined) options.webhookUrl = checkWebhookUrl(webhook, '--webhook-url');
  if (raw.realistic === true) options.realistic = true;
  const rateLimit = whole('rateLimit', '--rate-limit', 1, 100_000);
  if (rateLimit !== undefined) options.rateLimitPerSecond = rateLimit;
  const fault = text('fault');
  if (fault !== undefined) {
    if (!['drop', 'bad-gateway', 'stall', 'html'].includes(fault)) throw new UsageError(`--fault must be drop, bad-gateway, stall or html, not ${JSON.stringify(fault)}`);
    options.fault = fault as FaultMode;
  }
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
