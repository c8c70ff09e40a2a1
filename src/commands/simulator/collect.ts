// fsapi simulator collect <accountNumber> --amount N [--webhook-url URL]: an inflow to a client account
// and its collection notification. Against the served simulator when the profile has a base URL (through
// its admin route POST /__simulator/collect), else on the local simulator's state, then POSTed to
// --webhook-url if given.
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { collectSpec } from './collect.spec.js';
import { collectionNotification, type CollectionNotification } from '../../api/schemas.js';
import { koboToDecimal, type Kobo } from '../../money/kobo.js';
import { ApiError, UsageError } from '../../errors.js';
import { moneyCell, printRecord, recordTimeCell, statusCell } from '../../ui/output.js';
import { shownTimeZone } from '../../controls/business-clock.js';
import { checkWebhookUrl } from './serve.js';
import { refuseUnlessSimulator } from './target.js';

export default run(collectSpec, async (ctx, opts, args) => {
  const accountNumber = (args[0] ?? '').trim();
  if (!/^\d{10}$/.test(accountNumber)) throw new UsageError(`account number ${JSON.stringify(accountNumber)} must be 10 digits`);
  if (opts.amount === undefined)
    throw new UsageError('missing --amount: how much the client account receives', 'e.g. fsapi simulator collect 9900000011 --amount 25000');
  // Integer kobo already: the spec's money kind parsed the naira at the command line.
  const amountKobo = opts.amount;
  const webhookUrl = opts.webhookUrl === undefined ? undefined : checkWebhookUrl(opts.webhookUrl, '--webhook-url');

  const profile = await ctx.profile();
  // Before any request: a bank's API never hears of these routes, nor gets the token with them.
  refuseUnlessSimulator(profile, 'simulator collect');
  const timeZone = await shownTimeZone(ctx);
  const { notification, sent } =
    profile.baseUrl === undefined
      ? await collectLocally(ctx, accountNumber, amountKobo, webhookUrl, timeZone)
      : await collectOnServer(ctx, profile.baseUrl, accountNumber, amountKobo, webhookUrl);
  printNotification(ctx, notification, sent, timeZone);
});

async function collectOnServer(ctx: Context, baseUrl: string, accountNumber: string, amountKobo: Kobo, webhookUrl: string | undefined) {
  const api = await ctx.api();
  const answer = await api.raw('POST', '/__simulator/collect', {
    json: { accountNumber, amount: koboToDecimal(amountKobo), ...(webhookUrl ? { webhookUrl } : {}) },
  });
  const body = answer.body as { data?: unknown; sent?: unknown; reason?: unknown; message?: unknown } | undefined;
  if (answer.status === 404) {
    throw new ApiError(`${baseUrl} is not an fsapi simulator (no /__simulator/collect)`, {
      status: 404,
      hint: 'simulator collect works with the local profile or a server started by fsapi simulator serve',
    });
  }
  if (answer.status < 200 || answer.status > 299) {
    const why = typeof body?.reason === 'string' ? body.reason : typeof body?.message === 'string' ? body.message : `HTTP ${answer.status}`;
    throw new ApiError(`the simulator refused the collection: ${why}`, { status: answer.status });
  }
  const parsed = collectionNotification.safeParse(body?.data);
  if (!parsed.success) throw new ApiError(`unexpected answer from ${baseUrl}/__simulator/collect`, { status: answer.status });
  if (webhookUrl) ctx.io.note(`the simulator POSTs the notification to ${webhookUrl}`);
  // What the simulator sends (reshaped in realistic mode), so --json shows what a receiver gets.
  const sent = typeof body?.sent === 'object' && body.sent !== null && !Array.isArray(body.sent) ? body.sent : parsed.data;
  return { notification: parsed.data, sent };
}

async function collectLocally(ctx: Context, accountNumber: string, amountKobo: Kobo, webhookUrl: string | undefined, timeZone: string) {
  const [{ openLocalSimulator, deliverNotification, SimulatorRefusal }, { noteLocalSimulator }] = await Promise.all([
    import('../../simulator/index.js'),
    import('../../api/http.js'),
  ]);
  noteLocalSimulator(ctx);
  let notification: CollectionNotification;
  const simulator = openLocalSimulator(ctx.paths.dataDir, ctx.env, ctx.transport);
  try {
    notification = await simulator.collect(accountNumber, amountKobo);
  } catch (error) {
    if (error instanceof SimulatorRefusal)
      throw new ApiError(`the simulator refused the collection: ${error.reason}`, { hint: 'list the client accounts with fsapi clients list' });
    throw error;
  }
  // Realistic mode (FSAPI_SIM_REALISTIC=1) sends it as the real service is seen to: "25000.0", a numeric account.
  const sent = simulator.notificationBody(notification);
  if (webhookUrl) {
    const result = await deliverNotification(webhookUrl, sent, { log: (line) => ctx.io.note(line), transport: ctx.transport });
    if (!result.delivered) {
      printNotification(ctx, notification, sent, timeZone);
      throw new ApiError(`collection ${notification.reference} made, but its notification did not reach ${webhookUrl} (${result.error})`, {
        status: result.status,
        hint: 'start the receiver (for example fsapi webhook listen) and collect again',
      });
    }
    ctx.io.note(`notification delivered to ${webhookUrl} (HTTP ${result.status})`);
  }
  return { notification, sent };
}

/** The record on a terminal (its time on the business's clock `timeZone`) or piped; with --json the body as the simulator sends it. */
function printNotification(ctx: Context, n: CollectionNotification, sent: unknown, timeZone: string): void {
  printRecord(
    ctx,
    [
      ['Reference', n.reference],
      ['Virtual account', n.virtualAccount],
      ['External reference', n.externalReference],
      ['Amount received', moneyCell(n.amountReceived)],
      ['Fee', moneyCell(n.transactionFee)],
      ['Stamp duty', moneyCell(n.stampDuty)],
      ['Net amount', moneyCell(n.netAmount)],
      ['Payer', `${n.sourceAccountName} (${n.sourceAccountNumber})`],
      ['Payer bank', `${n.sourceBankName} (${n.sourceBankCode})`],
      ['Session id', n.sessionId],
      ['Status', statusCell(n.status)],
      ['Time', recordTimeCell(n.createdAt, timeZone)],
    ],
    sent,
  );
}
