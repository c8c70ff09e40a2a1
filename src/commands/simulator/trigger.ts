// fsapi simulator trigger <collection|payout|payout.failed|payout.reversed|reversal> [--webhook-url URL]:
// makes the event happen through the simulator's own state, the way an API client would meet it (an inflow
// to the first client account; a ₦1,000 transfer to an ordinary account, or to the test account that fails
// (…4040) or is reversed (…5050), settled at once), and sends its notifications in order: a payout pending
// then settled, and for a reversal also `reversal` of `R-<reference>`. Each verifies when looked up. Against
// the served simulator of the profile (POST /__simulator/trigger, to its --webhook-url or this one), else
// the local one (to --webhook-url).
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { triggerSpec } from './trigger.spec.js';
import { ApiError, UsageError } from '../../errors.js';
import { printList, type Column } from '../../ui/output.js';
import { checkWebhookUrl } from './serve.js';
import { refuseUnlessSimulator } from './target.js';
import { TRIGGER_KINDS, type TriggerKind, type TriggerResult } from '../../simulator/types.js';

export default run(triggerSpec, async (ctx, opts, args) => {
  const given = (args[0] ?? '').trim().toLowerCase();
  if (!(TRIGGER_KINDS as readonly string[]).includes(given)) {
    throw new UsageError(`cannot trigger ${JSON.stringify(args[0] ?? '')}`, `give one of ${TRIGGER_KINDS.join(', ')}`);
  }
  const kind = given as TriggerKind;
  const webhookUrl = opts.webhookUrl === undefined ? undefined : checkWebhookUrl(opts.webhookUrl, '--webhook-url');
  const profile = await ctx.profile();
  // Before any request: a bank's API never hears of these routes, nor gets the token with them.
  refuseUnlessSimulator(profile, 'simulator trigger');
  const result = profile.baseUrl === undefined ? await triggerLocally(ctx, kind, webhookUrl) : await triggerOnServer(ctx, profile.baseUrl, kind, webhookUrl);

  type Row = TriggerResult['events'][number];
  const delivery = (row: Row) => result.deliveries.find((d) => d.reference === row.reference && d.event === row.event);
  const columns: Column<Row>[] = [
    { header: 'EVENT', cell: (row) => String(row.event) },
    { header: 'REFERENCE', cell: (row) => row.reference },
    { header: 'STATUS', cell: (row) => String(row.status ?? '') },
    {
      header: 'SENT',
      cell: (row) => {
        const d = delivery(row);
        return d === undefined ? 'no URL' : d.delivered ? `HTTP ${d.status}` : `failed: ${d.error ?? ''}`;
      },
    },
  ];
  printList(ctx, columns, result.events, result);
  const failed = result.deliveries.filter((d) => !d.delivered);
  if (result.deliveries.length === 0) ctx.io.note(`${kind} ${result.reference} made; no webhook URL, so its notifications went nowhere (give --webhook-url)`);
  if (failed.length > 0) {
    throw new ApiError(`${kind} ${result.reference} made, but ${failed.length} notification(s) did not arrive (${failed[0]!.error ?? 'refused'})`, {
      hint: 'start the receiver (for example fsapi webhook listen) and trigger again',
    });
  }
});

async function triggerOnServer(ctx: Context, baseUrl: string, kind: TriggerKind, webhookUrl: string | undefined): Promise<TriggerResult> {
  const api = await ctx.api();
  const answer = await api.raw('POST', '/__simulator/trigger', { json: { kind, ...(webhookUrl ? { webhookUrl } : {}) } });
  const body = answer.body as { data?: TriggerResult; reason?: unknown; message?: unknown } | undefined;
  if (answer.status === 404) {
    throw new ApiError(`${baseUrl} is not an fsapi simulator (no /__simulator/trigger)`, {
      status: 404,
      hint: 'simulator trigger works with the local profile or a server started by fsapi simulator serve',
    });
  }
  if (answer.status < 200 || answer.status > 299 || !body?.data || !Array.isArray(body.data.events) || !Array.isArray(body.data.deliveries)) {
    const why = typeof body?.reason === 'string' ? body.reason : typeof body?.message === 'string' ? body.message : `HTTP ${answer.status}`;
    throw new ApiError(`the simulator refused the trigger: ${why}`, { status: answer.status });
  }
  return body.data;
}

async function triggerLocally(ctx: Context, kind: TriggerKind, webhookUrl: string | undefined): Promise<TriggerResult> {
  const [{ openLocalSimulator, SimulatorRefusal }, { noteLocalSimulator }] = await Promise.all([
    import('../../simulator/index.js'),
    import('../../api/http.js'),
  ]);
  noteLocalSimulator(ctx);
  const simulator = openLocalSimulator(ctx.paths.dataDir, ctx.env, ctx.transport);
  try {
    return await simulator.trigger(kind, webhookUrl);
  } catch (error) {
    if (error instanceof SimulatorRefusal) throw new ApiError(`the simulator refused the trigger: ${error.reason}`);
    throw error;
  } finally {
    simulator.close();
  }
}
