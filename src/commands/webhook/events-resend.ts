// fsapi webhook events resend <id> [--forward-to URL]: forwards a verified event again, once (one POST, no
// retries: run it again to try again), to where `webhook listen` last forwarded the profile's events or to
// --forward-to. The body is the one verified and kept (the API's facts), signed like every forward and
// marked `X-Fsapi-Resend: 1`, so the app can test its handling of an event it already has. The try is
// recorded in the event log (src/notifications/resend.ts): a `failed` event the app now took is listed as
// delivered, and a listener still trying it does not send it again.
import { run } from '../run.js';
import { eventsResendSpec } from './events.spec.js';
import { ExitCode, FsapiError, NotFoundError, UsageError } from '../../errors.js';
import { EventLogWriter, eventHistories } from '../../notifications/event-log.js';
import { lastForwardTarget } from '../../notifications/forward-target.js';
import { FORWARD_POLICY, forwardEvent, parseForwardTarget } from '../../notifications/forward.js';
import { SENT_ONCE } from '../../common/retry.js';
import { webhookSecret } from '../../notifications/webhook-secret.js';
import { resendOutcome } from '../../notifications/resend.js';
import { keptUnverified } from '../../notifications/verify.js';
import { findEvent, summarise } from './events-summary.js';

export default run(eventsResendSpec, async (ctx, opts, args) => {
  const given = (args[0] ?? '').trim();
  if (given === '') throw new UsageError('give the id of an event (fsapi webhook events list shows them)');
  const profile = await ctx.profile();
  const targetText = opts.forwardTo ?? lastForwardTarget(ctx.paths.dataDir, profile.name);
  if (targetText === undefined)
    throw new UsageError('no --forward-to, and no webhook listen has forwarded for this profile yet', 'give --forward-to http://127.0.0.1:3000/hooks');
  const target = parseForwardTarget(targetText);

  const history = findEvent(await eventHistories(ctx.paths.dataDir), given);
  if (history === 'ambiguous') throw new UsageError(`more than one event id starts with ${given}; give more of it`);
  if (!history) throw new NotFoundError(`no event ${given} in the event log`, 'fsapi webhook events list shows the ids');
  // Only what was verified is ever forwarded: the latest verified (or given-up) outcome's body.
  const kept = [...history.outcomes]
    .reverse()
    .find((outcome) => (outcome.state === 'verified' || outcome.state === 'failed') && outcome.forwardBody !== undefined);
  if (!kept?.forwardBody) {
    throw new FsapiError(`event ${history.received.id} was not verified (or was verified before fsapi kept forwards); nothing to resend`, {
      exitCode: ExitCode.failed,
      hint: 'only verified events are forwarded; fsapi webhook events show <id> says what became of it',
    });
  }
  const secret = webhookSecret(ctx.paths.dataDir, profile.name);
  const result = await forwardEvent(target, Buffer.from(kept.forwardBody, 'utf8'), keptUnverified(kept), {
    clock: ctx.clock,
    secret,
    transport: ctx.transport,
    resend: true,
    // Once per run of the command (docs/notifications.md): run it again to try again.
    policy: { ...FORWARD_POLICY, tries: SENT_ONCE },
  });
  const outcome = resendOutcome(history.outcomes.at(-1)!, kept, result, summarise(history).attempts, new Date(ctx.clock.now()));
  let recorded = true;
  try {
    const log = await EventLogWriter.open(ctx.paths.dataDir);
    try {
      await log.append(outcome);
    } finally {
      log.close();
    }
  } catch (error) {
    recorded = false;
    ctx.io.note(`warning: the resend of ${history.received.reference} could not be recorded in the event log: ${(error as Error).message}`);
  }
  const json = {
    id: history.received.id,
    reference: history.received.reference,
    target: target.href,
    delivered: result.ok,
    ...(result.ok ? { status: result.status } : { detail: result.detail }),
    attempts: outcome.attempts,
    recorded,
  };
  if (ctx.globals.json) ctx.io.out(`${JSON.stringify(json)}\n`);
  if (!result.ok) throw new FsapiError(`resend of ${history.received.reference} failed: ${result.detail}`, { exitCode: ExitCode.failed });
  if (!ctx.globals.json) ctx.io.out(`${history.received.reference} resent to ${target.href} (HTTP ${result.status})\n`);
});
