// fsapi webhook listen [--port N] [--host H] [--path P] [--forward-to URL] [--retry-for D] [--no-verify] [--json]
// Receives the API's notifications, records each in the local store before answering 200, verifies each
// collection, payout and reversal by looking it up, shows one line per event and forwards the verified
// facts, signed with the profile's secret. See docs/notifications.md.
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { listenSpec } from './listen.spec.js';
import { ExitCode, FsapiError, UsageError } from '../../errors.js';
import { DEFAULT_CLAIM_MS, EventLogWriter, lockEventLog } from '../../notifications/event-log.js';
import { Intake } from '../../notifications/intake.js';
import { recordsScope } from '../../auth/records-owner.js';
import {
  createLimiter,
  DEFAULT_RETRY_FOR_MS,
  EventProcessor,
  formatSpan,
  newReceivedRecord,
  type ProcessorDeps,
  type Tally,
} from '../../notifications/event-processor.js';
import { parseDuration } from '../../common/duration.js';
import { verifyOutflow } from '../../notifications/payout-event.js';
import { rememberForwardTarget } from '../../notifications/forward-target.js';
import { webhookSecret } from '../../notifications/webhook-secret.js';
import { forwardEvent, parseForwardTarget, type ForwardResult } from '../../notifications/forward.js';
import { startListener, type Rejection } from '../../notifications/listen.js';
import type { OptionsOf } from '../spec.js';
import { LISTEN_POLICY, MAX_NOTIFICATION_BYTES, verifyNotification } from '../../notifications/verify.js';
import { createEventPrinter } from '../../ui/webhook-events.js';
import { outputMode } from '../../ui/output.js';
import { shownTimeZone } from '../../controls/business-clock.js';
import { zoneLabel } from '../../common/time-zone.js';
import { onStopSignal } from '../stop-signal.js';

/** Lookups (and, separately, forwards) in flight at once: enough for a burst, gentle on the API and the app. */
const CONCURRENCY = 8;
/** On Ctrl+C, how long events already received may take to finish before the rest is left for next time. */
const SHUTDOWN_WAIT_MS = 10_000;
/** How often the listener looks for verified events whose next try is due (each has its own backoff). */
const REDELIVERY_TICK_MS = 500;

interface ListenOptions {
  port: number;
  host: string;
  path: string;
  forwardTo: URL | undefined;
  verify: boolean;
  retryForMs: number;
  /** How long this listener's claims hold unrenewed (FSAPI_LISTEN_CLAIM_MS). */
  claimMs: number;
}

/** Pages, rows or events without end: see CommandModule.longRunning. */
export const longRunning = true;

export default run(listenSpec, async (ctx, opts) => {
  const options = parseOptions(opts, ctx.env.FSAPI_LISTEN_CLAIM_MS);
  // Listened for before anything is announced: a Ctrl+C that follows "press Ctrl+C" at once must stop
  // cleanly, not meet the lock's signal-exit handler alone (which re-raises it and kills the process).
  let release = () => {};
  const stopSignal = new Promise<string>((resolve) => (release = onStopSignal(resolve)));
  try {
    await listen(ctx, options, stopSignal);
  } finally {
    release();
  }
});

async function listen(ctx: Context, options: ListenOptions, stopSignal: Promise<string>): Promise<void> {
  const lock = await lockEventLog(ctx.paths.dataDir);

  let verifyingAgainst = '';
  let verify: ProcessorDeps['verify'];
  let verifyOutflowEvent: ProcessorDeps['verifyOutflow'];
  // The account whose events this listener takes from the event log: listeners of one account sharing a
  // team store process each event once, whichever received it. Under --no-verify, none (it verifies nothing).
  let account: string | undefined;
  if (options.verify) {
    const [profile, api] = await Promise.all([ctx.profile(), ctx.api()]);
    verifyingAgainst = `profile ${profile.name}, ${api.baseUrl === 'local' ? 'the local simulator' : api.baseUrl}`;
    const scope = recordsScope(ctx, profile, api.baseUrl);
    account = `${scope.profile} ${scope.baseUrl}`;
    const limitLookups = createLimiter(CONCURRENCY);
    verify = (notification, signal) => {
      const lookups = {
        baseUrl: api.baseUrl,
        getTransaction: (reference: string) => limitLookups(() => api.getTransaction(reference), signal),
        getClient: (accountNumber: string) => limitLookups(() => api.getClient(accountNumber), signal),
      };
      return verifyNotification({ api: lookups, clock: ctx.clock }, notification, LISTEN_POLICY, signal);
    };
    verifyOutflowEvent = (event, signal) => {
      const lookups = { baseUrl: api.baseUrl, getTransaction: (reference: string) => limitLookups(() => api.getTransaction(reference), signal) };
      return verifyOutflow({ api: lookups, clock: ctx.clock }, event, LISTEN_POLICY, signal);
    };
  }
  const log = await EventLogWriter.open(ctx.paths.dataDir, { account, claimMs: options.claimMs });
  const logFile = log.file;
  // Only verified events are forwarded: under --no-verify nothing is, whatever --forward-to says.
  const target = options.verify ? options.forwardTo : undefined;
  let forward: ProcessorDeps['forward'];
  if (target) {
    const limitForwards = createLimiter(CONCURRENCY);
    const profile = await ctx.profile();
    const secret = webhookSecret(ctx.paths.dataDir, profile.name);
    rememberForwardTarget(ctx.paths.dataDir, profile.name, target);
    forward = (body, unverified, signal) =>
      limitForwards(() => forwardEvent(target, body, unverified, { clock: ctx.clock, secret, transport: ctx.transport, signal }), signal).catch(
        (): ForwardResult => ({ ok: false, tries: 0, detail: 'stopped before forwarding' }),
      );
  }
  // Made once listening (so a refused start prints no TSV header on stdout), or by the first event.
  let printEvent: ReturnType<typeof createEventPrinter> | undefined;
  // The business's clock of the event lines (src/controls/business-clock.ts), named once listening.
  const timeZone = await shownTimeZone(ctx);
  const processor = new EventProcessor({
    log,
    clock: ctx.clock,
    verify,
    verifyOutflow: verifyOutflowEvent,
    forward,
    retryForMs: options.retryForMs,
    show: (event) => (printEvent ??= createEventPrinter(ctx, timeZone))(event),
    warn: (line) => ctx.io.note(`${stamp(ctx)} ${line}`),
  });

  const unfinished = await processor.restore((row) =>
    ctx.io.note(`warning: ${logFile} event row ${row} is not an event record; skipped (it is left as it is)`),
  );
  // Each notification committed before its 200, those waiting committed together; the window takes them
  // from the store, so what a burst leaves waiting is in the store, not in memory.
  const intake = new Intake({ write: (records) => log.appendMany(records), committed: () => processor.wake() });
  const busy = busyReport(ctx, intake);

  const listener = await startListener({
    host: options.host,
    port: options.port,
    path: options.path,
    maxBodyBytes: MAX_NOTIFICATION_BYTES,
    async accept(body, text, parsed) {
      const record = newReceivedRecord(new Date(ctx.clock.now()), parsed.reference, body, text, account);
      await intake.record(record); // committed (fsynced): only then is the 200 sent
    },
    rejected: (rejection) => (rejection.status === 503 && busy.counts(rejection) ? undefined : ctx.io.note(describeRejection(ctx, rejection))),
  }).catch(async (error: unknown) => {
    log.close();
    await lock.release();
    throw error;
  });

  ctx.io.note(`listening on ${listener.url}`);
  ctx.io.note(options.verify ? `verification on (${verifyingAgainst})` : 'verification OFF (--no-verify): events are shown as unverified and never forwarded');
  if (target) {
    ctx.io.note(`forwarding verified events to ${target.href}`);
    ctx.io.note('forwards are signed: X-Fsapi-Signature (the key: fsapi webhook secret)');
    ctx.io.note(`an event the app refuses is tried again for ${formatSpan(options.retryForMs)}, then failed`);
  } else if (options.forwardTo) ctx.io.note(`NOT forwarding to ${options.forwardTo.href}: only verified events are forwarded, and --no-verify verifies none`);
  else ctx.io.note('not forwarding (no --forward-to)');
  ctx.io.note(`events are recorded in ${logFile}; press Ctrl+C to stop`);
  if (outputMode(ctx) === 'table') ctx.io.note(`event times are in ${zoneLabel(timeZone, ctx.clock.now())} (${timeZone})`);
  printEvent ??= createEventPrinter(ctx, timeZone);

  if (unfinished > 0) ctx.io.note(`taking up ${unfinished} event(s) received and not finished yet (before this start, or by another listener)`);
  processor.wake();

  // A lost lock (its directory removed, or not refreshed in time) means another listener may start on the
  // same log: stop the way a signal stops, then fail.
  let lockLost: Error | undefined;
  const stopRedelivery = new AbortController();
  const redelivering = forward ? keepRedelivering(ctx, processor, stopRedelivery.signal) : Promise.resolve();

  const signal = await Promise.race([
    stopSignal,
    lock.lost.then((error) => {
      lockLost = error;
      return 'lost the lock';
    }),
  ]);
  ctx.io.note(`${signal}: stopping; finishing ${processor.inFlight} event(s) in progress (at most ${SHUTDOWN_WAIT_MS / 1000} s)`);
  listener.stopAccepting();
  stopRedelivery.abort();
  await intake.idle();
  const left = await processor.drain(SHUTDOWN_WAIT_MS);
  await processor.close();
  await redelivering;
  await listener.close();
  busy.flush();
  log.close();
  await lock.release();
  ctx.io.note(summary(processor.tally));
  if (left > 0) ctx.io.note(`${left} event(s) were not finished; they are in ${logFile} and the next webhook listen (or another of the account) takes them up`);
  if (processor.undeliveredCount > 0) {
    ctx.io.note(`${processor.undeliveredCount} verified event(s) not yet delivered to the app; the next webhook listen with --forward-to tries again`);
  }
  if (processor.heldCount > 0) {
    ctx.io.note(
      `${processor.heldCount} reversal(s) held for their payout's reversed event; the next webhook listen with --forward-to holds them to the same deadline`,
    );
  }
  if (lockLost) {
    throw new FsapiError(`stopped: lost the lock on ${logFile} (${lockLost.message})`, {
      exitCode: ExitCode.failed,
      hint: 'check that no other webhook listen uses this data dir, then start again',
    });
  }
}

/**
 * Forwards the verified events the app has not taken (from earlier runs too), each when its backoff says,
 * until `signal`. Says so on stderr when the number left changes, not at every try of a long outage.
 */
async function keepRedelivering(ctx: Context, processor: EventProcessor, signal: AbortSignal): Promise<void> {
  if (processor.undeliveredCount > 0) ctx.io.note(`${stamp(ctx)} forwarding ${processor.undeliveredCount} verified event(s) the app has not taken yet`);
  if (processor.heldCount > 0) ctx.io.note(`${stamp(ctx)} ${processor.heldCount} reversal(s) held for their payout's reversed event`);
  let reported = 0;
  while (!signal.aborted) {
    const due = processor.nextDue;
    if (due !== undefined && due <= ctx.clock.now()) {
      const round = await processor.redeliver();
      if (round.left > 0 && round.left !== reported) {
        ctx.io.note(
          `${stamp(ctx)} ${round.left} verified event(s) not yet delivered to the app (${round.lastProblem ?? 'not tried yet'}); trying again with backoff`,
        );
      }
      reported = round.left;
    }
    await ctx.clock.sleep(REDELIVERY_TICK_MS, signal).catch(() => undefined);
  }
}

/**
 * The 503s of a burst the store cannot keep up with, told at most once a second as one line rather than
 * one line each: `counts` takes a busy rejection (true) and leaves any other to be told as it is.
 */
function busyReport(ctx: Context, intake: Intake): { counts(rejection: Rejection): boolean; flush(): void } {
  let refused = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (refused === 0) return;
    ctx.io.note(`${stamp(ctx)} answered 503 (try again) to ${refused} notification(s): the event log is behind, ${intake.waiting} waiting to be recorded`);
    refused = 0;
  };
  return {
    counts(rejection) {
      if (!rejection.detail.startsWith('the event log is behind')) return false;
      refused += 1;
      timer ??= setTimeout(flush, 1000);
      return true;
    },
    flush,
  };
}

/** FSAPI_LISTEN_CLAIM_MS: how long a listener's claims hold unrenewed, in ms (1,000 to 3,600,000). */
function parseClaimMs(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_CLAIM_MS;
  const ms = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || ms < 1000 || ms > 3_600_000) {
    throw new UsageError(`FSAPI_LISTEN_CLAIM_MS must be a whole number of milliseconds from 1000 to 3600000, not ${JSON.stringify(text)}`);
  }
  return ms;
}

function parseOptions(raw: OptionsOf<typeof listenSpec>, claimText: string | undefined): ListenOptions {
  const { port } = raw;
  const host = raw.host.trim();
  if (host === '') throw new UsageError('--host must not be empty', 'use 127.0.0.1, or 0.0.0.0 for every interface');
  const pathText = raw.path;
  if (!/^\/[\x21-\x7e]*$/.test(pathText) || /[?#]/.test(pathText)) {
    throw new UsageError(`--path must be a URL path starting with / (no spaces, ? or #), not ${JSON.stringify(pathText)}`);
  }
  const path = new URL(pathText, 'http://listener.invalid').pathname;
  const forwardTo = raw.forwardTo === undefined ? undefined : parseForwardTarget(raw.forwardTo);
  const { verify } = raw;
  const retryForMs = raw.retryFor === undefined ? DEFAULT_RETRY_FOR_MS : parseDuration(raw.retryFor, '--retry-for');
  return { port, host, path, forwardTo, verify, retryForMs, claimMs: parseClaimMs(claimText) };
}

function stamp(ctx: Context): string {
  return new Date(ctx.clock.now()).toISOString();
}

function describeRejection(ctx: Context, rejection: Rejection): string {
  const status = rejection.status === 0 ? 'no answer,' : rejection.status;
  return `${stamp(ctx)} rejected ${rejection.method} ${truncate(rejection.path, 80)} from ${rejection.remote}: ${status} ${rejection.detail}`;
}

function truncate(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function summary(tally: Tally): string {
  const shown =
    tally.verified + tally.mismatch + tally['not-found'] + tally.pending + tally.stale + tally.unverifiable + tally['unknown-kind'] + tally.unverified;
  const parts = (
    [
      ['verified', tally.verified],
      ['mismatch', tally.mismatch],
      ['not found', tally['not-found']],
      ['pending', tally.pending],
      ['stale', tally.stale],
      ['unverifiable', tally.unverifiable],
      ['unknown kind', tally['unknown-kind']],
      ['unverified', tally.unverified],
    ] as const
  )
    .filter(([, count]) => count > 0)
    .map(([label, count]) => `${count} ${label}`);
  const resends = tally.duplicate > 0 ? `; ${tally.duplicate} resend(s) recognised and not shown again` : '';
  const gaveUp = tally.failed > 0 ? `, ${tally.failed} given up (failed)` : '';
  const forwards = `${tally.forwarded} forwarded${tally.forwardFailed > 0 ? `, ${tally.forwardFailed} forward(s) failed at first` : ''}${gaveUp}`;
  return `stopped: ${shown} event(s)${parts.length > 0 ? ` (${parts.join(', ')})` : ''}${resends}; ${forwards}`;
}
